import Foundation
import GRDB

/// A tutor's (or clinician's) session handed to a child: only that patient's pages answer until the
/// adult's password is typed again. The caller has checked that the adult may supervise the patient.
enum PatientMode {
    /// Opens patient mode on the session `sessionId`. Returns `planId` when it is one of the patient's
    /// plans (opened from a plan: straight to that board), nil otherwise.
    static func open(sessionId: Int64, patientId: Int64, plan planId: Int64?, audit: AuditContext,
                     _ db: Database) throws -> Int64? {
        try Session.filter(key: sessionId).updateAll(db, Column("patientModeFor").set(to: patientId))
        try audit.record(.patientModeOpen, "patient", patientId, "", db)
        guard let planId, try Plan.filter(key: planId).filter(Column("patientId") == patientId).fetchCount(db) == 1
        else { return nil }
        return planId
    }

    /// The adult's password was right: the session is theirs again.
    static func exit(sessionId: Int64, patientId: Int64?, audit: AuditContext, _ db: Database) throws {
        try Session.filter(key: sessionId).updateAll(db, Column("patientModeFor").set(to: nil))
        try audit.record(.patientModeExit, "patient", patientId, "", db)
    }

    /// The wrong password once too often on this tablet: the exit is locked for a while.
    static func recordExitLockout(patientId: Int64?, audit: AuditContext, _ db: Database) throws {
        try audit.record(.lockout, "session", patientId, "patient mode exit", db)
    }
}
