import Foundation
import GRDB

/// Saving evaluations and finding who is due for the next one.
enum Evaluations {
    /// Stores an evaluation with its readings and perimeters in one transaction (the caller's).
    static func save(_ input: EvaluationInput, patientId: Int64, sex: BiologicalSex, age: Double,
                     audit: AuditContext, trainerId: Int64, _ db: Database) throws -> Int64 {
        var evaluation = Evaluation(patientId: patientId, trainerId: trainerId, takenOn: input.takenOn,
                                    skinfoldProtocol: input.skinfoldProtocol.rawValue, sex: sex.rawValue, ageYears: age,
                                    weightGrams: Int((input.weightKg * 1000).rounded()),
                                    heightMm: Int((input.heightM * 1000).rounded()), createdAt: audit.now)
        try evaluation.insert(db)
        let id = evaluation.id!
        try insertMeasures(of: input, evaluationId: id, db)
        try audit.record(.create, "evaluation", id, "\(input.takenOn) \(input.skinfoldProtocol.rawValue)", db)
        return id
    }

    /// Someone corrected the evaluation after the form was opened (another tab, another device).
    struct ChangedSinceOpened: Error {}

    /// A trainer's correction made on `version` of the evaluation: the evaluation takes the new values,
    /// and the audit keeps the old ones. A correction made on an older version is refused.
    static func correct(_ previous: EvaluationDetails, from version: Int?, with input: EvaluationInput, sex: BiologicalSex,
                        age: Double, audit: AuditContext, _ db: Database) throws {
        guard version == previous.evaluation.version else { throw ChangedSinceOpened() }
        var evaluation = previous.evaluation
        evaluation.version += 1
        evaluation.takenOn = input.takenOn
        evaluation.skinfoldProtocol = input.skinfoldProtocol.rawValue
        evaluation.sex = sex.rawValue
        evaluation.ageYears = age
        evaluation.weightGrams = Int((input.weightKg * 1000).rounded())
        evaluation.heightMm = Int((input.heightM * 1000).rounded())
        try evaluation.update(db)
        try SkinfoldReading.filter(Column("evaluationId") == evaluation.id).deleteAll(db)
        try PerimeterMeasure.filter(Column("evaluationId") == evaluation.id).deleteAll(db)
        try insertMeasures(of: input, evaluationId: evaluation.id!, db)
        try audit.record(.update, "evaluation", evaluation.id,
                         "before: \(previous.input.auditSummary); after: \(input.auditSummary)", db)
    }

    /// Removes an evaluation from history, charts and comparisons; the audit keeps its values.
    static func delete(_ previous: EvaluationDetails, audit: AuditContext, _ db: Database) throws {
        _ = try Evaluation.deleteOne(db, key: previous.id)
        try audit.record(.delete, "evaluation", previous.id, previous.input.auditSummary, db)
    }

    /// The client's evaluation for its printable report, with the whole history (the report charts it).
    /// Opening a report is an export of health data, so it is audited in the same access that reads it.
    static func openReport(_ evaluationId: Int64, of client: ClientProfile, audit: AuditContext, _ db: Database)
        throws -> (details: EvaluationDetails, history: [EvaluationDetails]) {
        let history = try EvaluationDetails.all(of: client.id, db)
        guard let details = history.first(where: { $0.id == evaluationId }) else { throw AppError.notFound }
        try audit.record(.export, "evaluation", details.id, "report of \(client.user.displayName), \(details.evaluation.takenOn)", db)
        return (details, history)
    }

    private static func insertMeasures(of input: EvaluationInput, evaluationId id: Int64, _ db: Database) throws {
        for (site, readings) in input.skinfolds {
            for (index, value) in readings.enumerated() {
                try SkinfoldReading(evaluationId: id, site: site.rawValue, reading: index + 1,
                                    tenthsMm: Int((value * 10).rounded())).insert(db)
            }
        }
        for (site, value) in input.perimeters {
            try PerimeterMeasure(evaluationId: id, site: site.rawValue, mm: Int((value * 10).rounded())).insert(db)
        }
    }

    static func interval(trainerId: Int64, patientId: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT reevaluationDays FROM trainerClient WHERE trainerId = ? AND patientId = ?",
                         arguments: [trainerId, patientId]) ?? 90
    }

    static func setInterval(_ days: Int, trainerId: Int64, patientId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE trainerClient SET reevaluationDays = ? WHERE trainerId = ? AND patientId = ?",
                       arguments: [days, trainerId, patientId])
    }

    struct Reminder: Sendable {
        let patientId: Int64
        let name: String
        let status: Reevaluation.Status
        let dueOn: String?
    }

    /// The trainer's clients that are due, overdue or never evaluated, most urgent first.
    static func reminders(for trainerId: Int64, today: String, _ db: Database) throws -> [Reminder] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT tc.patientId, u.displayName, tc.reevaluationDays, MAX(e.takenOn) AS lastTakenOn
            FROM trainerClient tc JOIN user u ON u.id = tc.patientId
            LEFT JOIN evaluation e ON e.patientId = tc.patientId
            WHERE tc.trainerId = ?
            GROUP BY tc.patientId
            """, arguments: [trainerId])
        let order: [Reevaluation.Status: Int] = [.overdue: 0, .due: 1, .never: 2, .upToDate: 3]
        return rows.compactMap { row -> Reminder? in
            let status = Reevaluation.status(lastTakenOn: row["lastTakenOn"], intervalDays: row["reevaluationDays"], today: today)
            guard status.status != .upToDate else { return nil }
            return Reminder(patientId: row["patientId"], name: row["displayName"], status: status.status, dueOn: status.dueOn)
        }
        .sorted { (order[$0.status]!, $0.dueOn ?? "", $0.name) < (order[$1.status]!, $1.dueOn ?? "", $1.name) }
    }
}
