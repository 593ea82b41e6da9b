import Foundation
import GRDB

/// Dated notes on a patient: the clinician's are private, the tutor's shared with the clinicians.
enum Observations {
    /// What the observations page (and its printed copy) shows.
    struct Notes: Sendable {
        let patientId: Int64
        let patientName: String
        let notes: [Observation]
    }

    /// The notes `actor` may read, latest first: tutors read their own; clinicians theirs, each
    /// other's and the tutors'.
    static func visible(patientId: Int64, to actor: Actor, _ db: Database) throws -> Notes {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        var request = Observation.filter(Column("patientId") == patient.userId)
        if actor.role == .tutor { request = request.filter(Column("authorId") == actor.userId) }
        return Notes(patientId: patient.userId, patientName: try User.find(patient.userId, db)?.displayName ?? "",
                     notes: try request.order(Column("observedOn").desc, Column("id").desc).fetchAll(db))
    }

    /// The notes for paper: an export of health data, so audited.
    static func printed(patientId: Int64, for actor: Actor, audit: AuditContext, _ db: Database) throws -> Notes {
        let notes = try visible(patientId: patientId, to: actor, db)
        try audit.record(.export, "patient", notes.patientId, "print observations (\(notes.notes.count))", db)
        return notes
    }

    /// A new note by `actor`, private when a clinician writes it; audited.
    @discardableResult
    static func add(patientId: Int64, by actor: Actor, observedOn day: String, body: String, audit: AuditContext,
                    _ db: Database) throws -> Observation {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        var note = Observation(patientId: patient.userId, authorId: actor.userId, authorName: actor.displayName,
                               authorRole: actor.role.rawValue, observedOn: day, body: body,
                               isPrivate: actor.role == .clinician, createdAt: audit.now)
        try note.insert(db)
        try audit.record(.create, "observation", note.id, String(body.prefix(60)), db)
        return note
    }
}
