import Foundation
import GRDB

/// What the Open Board Format pages and files read, each in the request's one access. The exports
/// are exports of health data: each records its audit row in the same transaction.
enum OBFQueries {
    /// A plan the actor may edit and, with `followLinks`, every board its folder cells lead to; audited
    /// as leaving in a `.fileExtension` file.
    static func exportSource(planId: Int64, editableBy actor: Actor, followLinks: Bool, as fileExtension: String,
                             t: Translator? = nil, audit: AuditContext, _ db: Database) throws -> OBFExportSource {
        let source = try OBFExportSource.fetch(root: PlanScope.editable(planId, by: actor, db), followLinks: followLinks,
                                               roleName: { t?["sentence_role_\($0.rawValue)"] ?? $0.rawValue }, db)
        let root = source.screens[0].plan
        try audit.record(.export, "patient", root.patientId,
                         "plan \(root.id ?? 0) '\(root.name)' .\(fileExtension), \(source.screens.count) board(s)", db)
        return source
    }

    /// The taps and sentences of the usage log, with the patient's language; audited.
    struct UsageLog: Sendable {
        let patientId: Int64
        let locale: AppLocale?
        let taps: [OBLBuilder.Tap]
        let sentences: [OBLBuilder.Sentence]
    }

    static func usageLog(patientId: Int64, visibleTo actor: Actor, _ filter: UsageRoutes.Filter, timeZone: TimeZone,
                         audit: AuditContext, _ db: Database) throws -> UsageLog {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        try audit.record(.export, "patient", patient.userId, "usage.obl \(filter.from)…\(filter.to)", db)
        let (taps, sentences) = try OBLBuilder.fetch(filter, patientId: patient.userId, timeZone: timeZone, db)
        return UsageLog(patientId: patient.userId, locale: try User.find(patient.userId, db)?.appLocale, taps: taps, sentences: sentences)
    }

    /// The patient whose boards the import form adds to.
    static func importTarget(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> (id: Int64, name: String) {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        return (patient.userId, try User.find(patient.userId, db)?.displayName ?? "")
    }
}

extension OBFQueries {
    struct ImportResult: Sendable {
        let record: OBFImportRecord
        let patientName: String
        let categoryName: String?
    }

    /// An import of a patient the actor may see; 404 otherwise.
    static func importResult(_ importId: Int64, visibleTo actor: Actor, _ db: Database) throws -> ImportResult {
        guard let record = try OBFImportRecord.fetchOne(db, key: importId) else { throw AppError.notFound }
        let patient = try PatientScope.find(record.patientId, visibleTo: actor, db)
        return ImportResult(record: record, patientName: try User.find(patient.userId, db)?.displayName ?? "",
                            categoryName: try record.categoryId.flatMap { try Category.fetchOne(db, key: $0)?.name })
    }
}
