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
