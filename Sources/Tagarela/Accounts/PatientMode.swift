import Foundation
import GRDB
import Mustache

/// A tutor's (or clinician's) session handed to a child: only that patient's pages answer until the
/// adult's password is typed again. The caller has checked that the adult may supervise the patient.
enum PatientMode {
    /// Opens patient mode on the session `sessionId`. Returns `planId` when it is one of the patient's
    /// plans (opened from a plan: straight to that board), nil otherwise.
    static func open(sessionId: Int64, patientId: Int64, plan planId: Int64?, audit: AuditContext,
                     _ db: Database) throws -> Int64? {
        try Session.filter(key: sessionId).updateAll(db, Column("patientModeFor").set(to: patientId), Column("modeling").set(to: false),
                                                             Column("alone").set(to: false))
        try audit.record(.patientModeOpen, "patient", patientId, "", db)
        guard let planId, try Plan.filter(key: planId).filter(Column("patientId") == patientId).fetchCount(db) == 1
        else { return nil }
        return planId
    }

    /// The adult's password was right: the session is theirs again.
    static func exit(sessionId: Int64, patientId: Int64?, audit: AuditContext, _ db: Database) throws {
        try Session.filter(key: sessionId).updateAll(db, Column("patientModeFor").set(to: nil), Column("modeling").set(to: false),
                                                             Column("alone").set(to: false))
        try audit.record(.patientModeExit, "patient", patientId, "", db)
    }

    /// Shipped 2026-11. Never edit; add a new migration instead. "An adult is modeling" is remembered by
    /// the session in patient mode (`session.modeling`); every tap and sentence says whether it was
    /// modeling (`tap.modeling`, `sentence.modeling`), which usage, goals and the `.obl` export read.
    static func v1Modeling(_ db: Database) throws {
        try db.alter(table: "session") { $0.add(column: "modeling", .boolean).notNull().defaults(to: false) }
        try db.alter(table: "tap") { $0.add(column: "modeling", .boolean).notNull().defaults(to: false) }
        try db.alter(table: "sentence") { $0.add(column: "modeling", .boolean).notNull().defaults(to: false) }
    }

    /// Turns "an adult is modeling" on or off for this patient-mode session. Returns false (nothing
    /// changed) when the session is not in patient mode.
    static func setModeling(_ on: Bool, sessionId: Int64, audit: AuditContext, _ db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE session SET modeling = ? WHERE id = ? AND patientModeFor IS NOT NULL",
                       arguments: [on, sessionId])
        guard db.changesCount > 0 else { return false }
        let patientId = try Int64.fetchOne(db, sql: "SELECT patientModeFor FROM session WHERE id = ?", arguments: [sessionId])
        try audit.record(.update, "patient", patientId, on ? "patient mode: an adult is modeling" : "patient mode: modeling ended", db)
        return true
    }

    /// Shipped 2026-11-29. Never edit; add a new migration instead. In patient mode every tap named the
    /// adult who opened it as its helper, so a goal of "taps made alone" could only move for a child with a
    /// login of their own. The adult now says so, as for modeling (`session.alone`).
    static func v2Alone(_ db: Database) throws {
        try db.alter(table: "session") { $0.add(column: "alone", .boolean).notNull().defaults(to: false) }
    }

    /// Says whether the child taps alone in this patient-mode session. False (nothing changed) outside patient mode.
    static func setAlone(_ on: Bool, sessionId: Int64, audit: AuditContext, _ db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE session SET alone = ? WHERE id = ? AND patientModeFor IS NOT NULL", arguments: [on, sessionId])
        guard db.changesCount > 0 else { return false }
        let patientId = try Int64.fetchOne(db, sql: "SELECT patientModeFor FROM session WHERE id = ?", arguments: [sessionId])
        try audit.record(.update, "patient", patientId, on ? "patient mode: the child taps alone" : "patient mode: an adult helps", db)
        return true
    }

    /// Whether the session says an adult is modeling (only ever true in patient mode).
    static func isModeling(sessionId: Int64?, _ db: Database) throws -> Bool {
        guard let sessionId else { return false }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT modeling FROM session WHERE id = ? AND patientModeFor IS NOT NULL"),
                                 arguments: [sessionId]) ?? false
    }

    /// The wrong password once too often on this tablet: the exit is locked for a while.
    static func recordExitLockout(patientId: Int64?, audit: AuditContext, _ db: Database) throws {
        try audit.record(.lockout, "session", patientId, "patient mode exit", db)
    }
}

/// A switch of patient mode's header, posted to `url` with `value` and the page to come back to:
/// "an adult is modeling" (on, the taps that follow are the adult showing the child, not the child's own
/// words) and "no help" (on, the child taps alone and the taps name no helper; off, the default, they name
/// the adult who opened patient mode).
struct PatientModeSwitch: Sendable, MustacheParent {
    let isOn: Bool
    /// The page the switch was pressed on, to come back to.
    let back: String
    let url: String

    static func modeling(isOn: Bool, back: String) -> PatientModeSwitch {
        PatientModeSwitch(isOn: isOn, back: back, url: AccountsEndpoints.switchModeling.path())
    }

    static func alone(isOn: Bool, back: String) -> PatientModeSwitch {
        PatientModeSwitch(isOn: isOn, back: back, url: AccountsEndpoints.switchAlone.path())
    }

    func child(named name: String) -> Any? {
        switch name {
        case "isOn": isOn
        case "back": back
        case "url": url
        case "value": isOn ? "off" : "on"
        default: nil
        }
    }
}

extension AccountsRoutes {
    /// Says whether the child taps alone on this tablet's patient-mode session and goes back to the page.
    @Sendable static func switchAlone(_ context: RequestContext, _ db: Database) throws -> Reply {
        try setSwitch("alone", context, db) { on, session in try PatientMode.setAlone(on, sessionId: session, audit: context.audit, db) }
    }

    /// Turns modeling on or off for this tablet's patient-mode session and goes back to the page.
    @Sendable static func switchModeling(_ context: RequestContext, _ db: Database) throws -> Reply {
        try setSwitch("modeling", context, db) { on, session in
            try PatientMode.setModeling(on, sessionId: session, audit: context.audit, db)
        }
    }

    /// Reads the switch `field` ("on" or "off", anything else 400), sets it, and goes back to the page
    /// with the flash `<field>_flash_on` or `_off`.
    private static func setSwitch(_ field: String, _ context: RequestContext, _ db: Database,
                                  _ set: (Bool, Int64) throws -> Bool) throws -> Reply {
        guard let sessionId = context.signedIn?.session.id else { throw AppError.forbidden }
        let on = context.request.form[field] == "on"
        guard on || context.request.form[field] == "off" else { throw AppError.badRequest }
        _ = try set(on, sessionId)
        return .redirect(to: safeNext(context.request.form["back"]) ?? Role.patient.homePath,
                         flash: "\(field)_flash_\(on ? "on" : "off")")
    }
}
