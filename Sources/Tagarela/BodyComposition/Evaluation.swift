import Foundation
import GRDB

/// One body-composition evaluation of a client by a trainer.
struct Evaluation: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "evaluation"

    var id: Int64?
    var patientId: Int64
    var trainerId: Int64
    /// ISO date (`2026-11-21`).
    var takenOn: String
    var skinfoldProtocol: String
    var sex: String
    var ageYears: Double
    var weightGrams: Int
    var heightMm: Int
    var createdAt: Date
    /// Bumped by every correction; the edit form sends the version it showed.
    var version: Int = 1

    enum Columns {
        static let patientId = Column(CodingKeys.patientId)
        static let takenOn = Column(CodingKeys.takenOn)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct SkinfoldReading: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "skinfoldReading"
    var evaluationId: Int64
    var site: String
    var reading: Int
    var tenthsMm: Int
}

struct PerimeterMeasure: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "perimeter"
    var evaluationId: Int64
    var site: String
    var mm: Int
}

/// The perimeters a trainer may measure, in the order of the form.
enum PerimeterSite: String, Sendable, CaseIterable {
    case armRelaxedLeft, armRelaxedRight, armFlexedLeft, armFlexedRight, forearmLeft, forearmRight
    case thighLeft, thighRight, calfLeft, calfRight, waist, hip, abdomen, chest

    /// Plausible adult values in centimetres; outside them the form asks for a check.
    var plausibleCm: ClosedRange<Double> {
        switch self {
        case .armRelaxedLeft, .armRelaxedRight, .armFlexedLeft, .armFlexedRight: 15...70
        case .forearmLeft, .forearmRight: 12...50
        case .thighLeft, .thighRight: 30...110
        case .calfLeft, .calfRight: 20...70
        case .waist, .abdomen: 40...200
        case .hip: 60...200
        case .chest: 50...200
        }
    }

    var catalogueKey: String { "perimeter_\(rawValue)" }
}

/// An evaluation with its measures, in the units people use (kg, m, mm, cm).
struct EvaluationDetails: Sendable {
    let evaluation: Evaluation
    /// Readings per site, in millimetres, in reading order.
    let skinfolds: [SkinfoldSite: [Double]]
    let perimeters: [PerimeterSite: Double]

    var id: Int64 { evaluation.id! }
    var weightKg: Double { Double(evaluation.weightGrams) / 1000 }
    var heightM: Double { Double(evaluation.heightMm) / 1000 }
    var sex: BiologicalSex { BiologicalSex(rawValue: evaluation.sex) ?? .female }
    var skinfoldProtocol: SkinfoldProtocol { SkinfoldProtocol(rawValue: evaluation.skinfoldProtocol) ?? .jp7 }

    /// The value used for each site: the median of its readings.
    var skinfoldValues: [SkinfoldSite: Double] {
        skinfolds.compactMapValues(BodyCompositionRules.median)
    }

    var result: BodyCompositionResult? {
        BodyCompositionResult.compute(skinfoldProtocol, sex: sex, age: evaluation.ageYears, weightKg: weightKg,
                                      skinfolds: skinfoldValues)
    }

    var bmi: Double { BodyCompositionRules.bmi(weightKg: weightKg, heightM: heightM) }

    /// The stored values as form input, to describe them (audit) or compare them with a correction.
    var input: EvaluationInput {
        EvaluationInput(skinfoldProtocol: skinfoldProtocol, takenOn: evaluation.takenOn, weightKg: weightKg, heightM: heightM,
                        skinfolds: skinfolds, perimeters: perimeters)
    }

    /// All evaluations of a client, oldest first, with their measures, in three queries.
    /// Every evaluation of the patient, oldest first; only those taken in `takenFrom`…`takenTo` (ISO days) when given.
    static func all(of patientId: Int64, takenFrom: String? = nil, takenTo: String? = nil, _ db: Database) throws -> [EvaluationDetails] {
        var request = Evaluation.filter(Evaluation.Columns.patientId == patientId)
        if let takenFrom { request = request.filter(Evaluation.Columns.takenOn >= takenFrom) }
        if let takenTo { request = request.filter(Evaluation.Columns.takenOn <= takenTo) }
        let evaluations = try request
            .order(Evaluation.Columns.takenOn, Column("id")).fetchAll(db)
        guard !evaluations.isEmpty else { return [] }
        let ids = evaluations.compactMap(\.id)
        let readings = try SkinfoldReading.filter(ids.contains(Column("evaluationId"))).order(Column("reading")).fetchAll(db)
        let perimeters = try PerimeterMeasure.filter(ids.contains(Column("evaluationId"))).fetchAll(db)
        return evaluations.map { evaluation in
            var skinfolds: [SkinfoldSite: [Double]] = [:]
            for reading in readings where reading.evaluationId == evaluation.id {
                guard let site = SkinfoldSite(rawValue: reading.site) else { continue }
                skinfolds[site, default: []].append(Double(reading.tenthsMm) / 10)
            }
            var sites: [PerimeterSite: Double] = [:]
            for perimeter in perimeters where perimeter.evaluationId == evaluation.id {
                if let site = PerimeterSite(rawValue: perimeter.site) { sites[site] = Double(perimeter.mm) / 10 }
            }
            return EvaluationDetails(evaluation: evaluation, skinfolds: skinfolds, perimeters: sites)
        }
    }
}
