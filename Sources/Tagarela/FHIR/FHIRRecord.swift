import Foundation

/// What a FHIR export holds, read in the export's one access and mapped to JSON after it: plain
/// values only, already limited to what the exporting clinician or trainer may see.
struct FHIRRecord: Sendable {
    struct Person: Sendable, Equatable {
        enum Kind: String, Sendable { case clinician, trainer, tutor }
        let id: Int64
        let name: String
        let kind: Kind
        /// "speech", "nutrition" for a clinician.
        let specialties: [String]
    }

    struct MealLine: Sendable, Equatable {
        let food: String
        let quantity: Double
        /// "household", "gram" or "ml".
        let unit: String
        /// The household unit's name in the exporter's language ("colher"), for a household line.
        let householdUnit: String
        let grams: Double
        let kcal: Double
        let consumedQuantity: Double?
    }

    struct Meal: Sendable, Equatable {
        let id: Int64
        let clinicianId: Int64
        /// The meal type's name in the exporter's language, or the custom name.
        let name: String
        let type: String
        let date: String
        let time: String
        /// "pending", "fulfilled", "not_fulfilled".
        let status: String
        let answeredAt: Date?
        let reason: String?
        let eatenInstead: String?
        let eatenShare: Int?
        let hunger: Int?
        let lines: [MealLine]
    }

    struct DayCount: Sendable, Equatable {
        let day: String
        let count: Int
    }

    struct GameResult: Sendable, Equatable {
        let id: Int64
        let area: String
        let mode: String
        let level: Int?
        let hits: Int
        let errors: Int
        let durationSeconds: Int
        let playedAt: Date
    }

    struct Patient: Sendable, Equatable {
        let id: Int64
        let name: String
        let birthDate: String?
        let sex: String?
    }

    let patient: Patient
    let people: [Person]
    let evaluations: [EvaluationDetails]
    let weights: [WeightEntry]
    let goals: [Goal]
    let meals: [Meal]
    let taps: [DayCount]
    let sentences: [DayCount]
    let games: [GameResult]
    /// Measurements imported from other systems' Bundles.
    let imported: [ImportedMeasurement]
    /// The period asked for (ISO dates); nil ends mean the whole record.
    let from: String?
    let to: String?
    let exportedAt: Date
}

extension FHIRRecord {
    /// The parts of a record a read fills. An export reads them all; an Observation search only those
    /// whose Observations its codes can name (`FHIRSearch.parts`), and of meals only the answers.
    struct Parts: OptionSet, Sendable {
        let rawValue: Int
        static let evaluations = Parts(rawValue: 1 << 0)
        static let weights = Parts(rawValue: 1 << 1)
        static let imported = Parts(rawValue: 1 << 2)
        /// Meals with their lines (NutritionOrders) and answers.
        static let meals = Parts(rawValue: 1 << 3)
        /// The answered meals, without their lines (check-in Observations).
        static let checkIns = Parts(rawValue: 1 << 4)
        static let taps = Parts(rawValue: 1 << 5)
        static let sentences = Parts(rawValue: 1 << 6)
        static let games = Parts(rawValue: 1 << 7)
        static let goals = Parts(rawValue: 1 << 8)

        static let all: Parts = [.evaluations, .weights, .imported, .meals, .checkIns, .taps, .sentences, .games, .goals]
        /// Every part an Observation comes from.
        static let observations: Parts = [.evaluations, .weights, .imported, .checkIns, .taps, .sentences, .games]

        /// The codes each part's Observations carry (`FHIRMapper`); a test checks every Observation of the
        /// demo records against it.
        static let codes: [(part: Parts, codes: [FHIRCodes.Code])] = [
            (.evaluations, [FHIRCodes.weight, FHIRCodes.height, FHIRCodes.bmi, FHIRCodes.percentFat, FHIRCodes.sumOfSkinfolds,
                            FHIRCodes.bodyDensity, FHIRCodes.fatMass, FHIRCodes.leanMass].flatMap(\.codes)
                + SkinfoldSite.allCases.flatMap { FHIRCodes.skinfold($0).codes } + PerimeterSite.allCases.flatMap { FHIRCodes.perimeter($0).codes }),
            (.weights, FHIRCodes.weight.codes),
            (.imported, FHIRImport.kinds.flatMap(\.codes)),
            (.checkIns, [FHIRCodes.mealCheckIn]),
            (.taps, FHIRCodes.dailyTaps.codes),
            (.sentences, FHIRCodes.dailySentences.codes),
            (.games, [FHIRCodes.educatGame]),
        ]
    }
}
