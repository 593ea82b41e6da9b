import Foundation
import GRDB

/// Who changed what, and when. Written in the same transaction as the change it records.
struct AuditEntry: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "auditEntry"

    var id: Int64?
    var at: Date
    var actorId: Int64?
    var actorName: String
    var action: String
    var entity: String
    var entityId: Int64?
    var summary: String
    var clientAddress: String

    enum Columns {
        static let at = Column(CodingKeys.at)
        static let actorId = Column(CodingKeys.actorId)
        static let action = Column(CodingKeys.action)
        static let entity = Column(CodingKeys.entity)
    }

    enum Action: String, CaseIterable, Sendable {
        case create, update, delete, link, unlink, invite, activate, deactivate, setPassword = "set_password", login, logout
        // Consent, throttling and patient mode (issue 14).
        case loginFailed = "login_failed", lockout, patientModeOpen = "patient_mode_open", patientModeExit = "patient_mode_exit"
        case passwordReset = "password_reset", linkRequest = "link_request", linkAccept = "link_accept",
             linkDecline = "link_decline"
        /// The right to erasure: a request opened, and its outcome (declined, withdrawn, carried out).
        case erasureRequest = "erasure_request", erasureDecision = "erasure_decision"
        case export  // health data leaving as a file or a printed page: entity "patient", the patient's id, what in the summary
        /// A 403, or a 404 on a record, for a request (see `App.recordingRefusal`).
        case refused
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// What an entry may be about, each named on the audit page in the reader's language
    /// (`audit_entity_<name>`). A test checks that every `record` call in Sources names one of these.
    static let entities = ["accessSetting", "address", "category", "educatItem", "evaluation", "fhirMeasurement", "fhirToken",
                           "food", "goal", "goalNote", "linkRequest", "meal", "nutritionTarget", "obfImport", "observation",
                           "patient", "plan", "request", "session", "setting", "symbol", "tutorPatient", "user", "weightEntry"]

    /// Entities whose id is a person's (the patient's, for a patient's settings and records).
    static let entitiesNamingAPerson: Set<String> = ["accessSetting", "fhirMeasurement", "nutritionTarget", "patient", "session",
                                                      "tutorPatient", "user", "weightEntry"]
}

/// The details every audit entry needs from the request that made the change.
struct AuditContext: Sendable {
    let actorId: Int64?
    let actorName: String
    let clientAddress: String
    let now: Date

    func record(_ action: AuditEntry.Action, _ entity: String, _ entityId: Int64?, _ summary: String, _ db: Database) throws {
        var entry = AuditEntry(at: now, actorId: actorId, actorName: actorName, action: action.rawValue,
                               entity: entity, entityId: entityId, summary: summary, clientAddress: clientAddress)
        try entry.insert(db)
    }
}

/// The audit log page's filter, read from the query string.
struct AuditFilter: Sendable {
    var actor: String = ""
    var action: String = ""
    var entity: String = ""
    var from: Date?
    var to: Date?

    func request() -> QueryInterfaceRequest<AuditEntry> {
        var request = AuditEntry.order(AuditEntry.Columns.at.desc, Column("id").desc)
        if !actor.isEmpty { request = request.filter(Column("actorName").like("%\(actor)%")) }
        if !action.isEmpty { request = request.filter(AuditEntry.Columns.action == action) }
        if !entity.isEmpty { request = request.filter(AuditEntry.Columns.entity == entity) }
        if let from { request = request.filter(AuditEntry.Columns.at >= from) }
        if let to { request = request.filter(AuditEntry.Columns.at < to.addingTimeInterval(24 * 60 * 60)) }
        return request
    }
}
