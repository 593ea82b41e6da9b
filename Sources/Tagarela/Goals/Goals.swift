import Foundation
import GRDB

/// Writes to goals, their history and their notes. Every change keeps a `goalEvent` row (who, when, what
/// changed) and an audit entry, in the caller's transaction.
enum Goals {
    /// Why a change was not made; the form says so instead of losing what was typed.
    enum Conflict: Error, Equatable {
        /// Another tab closed the goal since the form was opened.
        case closed
        /// Another tab saved a change since the form was opened.
        case changed
    }

    struct Change: Codable, Sendable, Equatable {
        let field: String
        let from: String
        let to: String
    }

    @discardableResult
    static func create(_ input: GoalInput, patientId: Int64, by actor: Actor, audit: AuditContext, _ db: Database) throws -> Goal {
        var goal = Goal(patientId: patientId, kind: input.kind.rawValue, title: input.title, direction: input.direction.rawValue,
                        target: input.target, startsOn: input.startsOn, endsOn: input.endsOn, reviewOn: input.reviewOn,
                        createdBy: actor.userId, createdAt: audit.now, updatedAt: audit.now, version: 1)
        input.apply(to: &goal)
        try goal.insert(db)
        try event(.create, goal: goal.id!, changes: [], audit: audit, db)
        try audit.record(.create, "goal", goal.id, "\(goal.kind) for patient \(patientId): \(goal.title.prefix(60))", db)
        return goal
    }

    /// Saves an edit made on `version` of the goal; refused when the goal was closed or changed since.
    @discardableResult
    static func update(_ goalId: Int64, patientId: Int64, from version: Int, to input: GoalInput, audit: AuditContext,
                       _ db: Database) throws -> Goal {
        guard var goal = try Goal.filter(key: goalId).filter(Goal.Columns.patientId == patientId).fetchOne(db) else {
            throw AppError.notFound
        }
        if goal.isClosed { throw Conflict.closed }
        if goal.version != version { throw Conflict.changed }
        let before = goal
        goal.title = input.title
        goal.kind = input.kind.rawValue
        goal.direction = input.direction.rawValue
        goal.target = input.target
        goal.startsOn = input.startsOn
        goal.endsOn = input.endsOn
        goal.reviewOn = input.reviewOn
        input.apply(to: &goal)
        let changes = differences(before, goal)
        guard !changes.isEmpty else { return goal }
        goal.updatedAt = audit.now
        goal.version += 1
        try goal.update(db)
        try event(.edit, goal: goalId, changes: changes, audit: audit, db)
        try audit.record(.update, "goal", goalId, changes.map { "\($0.field): \($0.from) → \($0.to)" }.joined(separator: "; "), db)
        return goal
    }

    /// Closes an open goal, or reopens a closed one; a goal already in that state is left as it is.
    /// Closes the goal for `reason`, or reopens it (`reason` nil). Closing a closed goal, or reopening an open
    /// one (a second tab, a double tap), changes nothing.
    static func setClosed(_ reason: GoalClosing?, goalId: Int64, patientId: Int64, audit: AuditContext, _ db: Database) throws {
        guard var goal = try Goal.filter(key: goalId).filter(Goal.Columns.patientId == patientId).fetchOne(db) else {
            throw AppError.notFound
        }
        let closed = reason != nil
        guard goal.isClosed != closed else { return }
        goal.closedAt = closed ? audit.now : nil
        goal.closedReason = reason?.rawValue
        goal.updatedAt = audit.now
        goal.version += 1
        try goal.update(db)
        try event(closed ? .close : .reopen, goal: goalId,
                  changes: reason.map { [Change(field: "closedReason", from: "", to: $0.rawValue)] } ?? [], audit: audit, db)
        try audit.record(.update, "goal", goalId, reason.map { "closed: \($0.rawValue)" } ?? "reopened", db)
    }

    /// A note on a goal: a clinician's is private to the clinicians, a tutor's is shared with them.
    @discardableResult
    static func addNote(goalId: Int64, body: String, by actor: Actor, audit: AuditContext, _ db: Database) throws -> GoalNote {
        var note = GoalNote(goalId: goalId, authorId: actor.userId, authorName: actor.displayName, authorRole: actor.role.rawValue,
                            isPrivate: actor.role == .clinician, body: body, createdAt: audit.now)
        try note.insert(db)
        try audit.record(.create, "goalNote", note.id, String(body.prefix(60)), db)
        return note
    }

    private static func event(_ action: GoalEvent.Action, goal: Int64, changes: [Change], audit: AuditContext, _ db: Database) throws {
        let json = changes.isEmpty ? "" : String(decoding: try JSONEncoder().encode(changes), as: UTF8.self)
        var event = GoalEvent(goalId: goal, at: audit.now, actorId: audit.actorId, actorName: audit.actorName,
                              action: action.rawValue, changes: json)
        try event.insert(db)
    }

    /// The fields a person set that differ between two versions of a goal, as stored text.
    static func differences(_ a: Goal, _ b: Goal) -> [Change] {
        func text(_ value: (any CustomStringConvertible)?) -> String { value.map { "\($0)" } ?? "" }
        let fields: [(String, String, String)] = [
            ("title", a.title, b.title), ("kind", a.kind, b.kind), ("target", text(a.target), text(b.target)),
            ("direction", a.direction, b.direction), ("startsOn", a.startsOn, b.startsOn), ("endsOn", a.endsOn, b.endsOn),
            ("reviewOn", text(a.reviewOn), text(b.reviewOn)), ("symbolId", text(a.symbolId), text(b.symbolId)),
            ("categoryId", text(a.categoryId), text(b.categoryId)), ("minWords", text(a.minWords), text(b.minWords)),
            ("gameArea", text(a.gameArea), text(b.gameArea)), ("gameMode", text(a.gameMode), text(b.gameMode)),
            ("aggregate", text(a.aggregate), text(b.aggregate)), ("measure", text(a.measure), text(b.measure)),
            ("skinfoldProtocol", text(a.skinfoldProtocol), text(b.skinfoldProtocol)),
            ("perimeterSite", text(a.perimeterSite), text(b.perimeterSite)),
        ]
        return fields.filter { $0.1 != $0.2 }.map { Change(field: $0.0, from: $0.1, to: $0.2) }
    }
}
