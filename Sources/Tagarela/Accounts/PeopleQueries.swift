import Foundation
import GRDB

/// What the people pages read, each named after the question it answers. A patient outside the
/// actor's scope is `AppError.notFound`, exactly like a missing one.
enum PeopleQueries {
    static func username(of userId: Int64, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT username FROM user WHERE id = ?", arguments: [userId])
    }

    /// A patient record with its account: what the patient, client and form pages start from.
    struct Person: Sendable {
        let patient: Patient
        let user: User
    }

    /// The patient and their account, if `actor` may see them.
    static func person(_ id: Int64, visibleTo actor: Actor, _ db: Database) throws -> Person {
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        guard let user = try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [patient.userId])
        else { throw AppError.notFound }
        return Person(patient: patient, user: user)
    }

    /// The patient's page: the record, the account and the linked tutors.
    static func patientPage(_ id: Int64, visibleTo actor: Actor, _ db: Database) throws -> (Person, tutors: [User]) {
        let person = try person(id, visibleTo: actor, db)
        return (person, try People.tutors(of: person.patient.userId, db))
    }

    /// The stored photo of a patient the actor may see, or nil when there is none.
    static func photoPath(of id: Int64, visibleTo actor: Actor, _ db: Database) throws -> String? {
        try PatientScope.find(id, visibleTo: actor, db).photoPath
    }

    /// A trainer's client with the days between their evaluations.
    static func client(_ id: Int64, of trainer: Actor, _ db: Database) throws -> (Person, reevaluationDays: Int) {
        let person = try person(id, visibleTo: trainer, db)
        return (person, try Evaluations.interval(trainerId: trainer.userId, patientId: person.patient.userId, db))
    }

    /// The account `actor` may send a first-password link to: active, with a username, never had a
    /// password, and the actor's to invite (`mayInvite`). Anything else is missing, so a refusal tells nothing.
    static func invitableAccount(_ id: Int64, by actor: Actor, _ db: Database) throws -> User {
        guard let user = try User.fetchOne(db, key: id), user.isActive, user.username != nil, user.neverSetPassword,
              try mayInvite(actor, user, db)
        else { throw AppError.notFound }
        return user
    }

    /// Whether `actor` may invite `user` (who never set a password): an admin anyone; a clinician
    /// their own patients and the tutors linked to their patients or created by them.
    static func mayInvite(_ actor: Actor, _ user: User, _ db: Database) throws -> Bool {
        switch actor.role {
        case .admin:
            return true
        case .clinician:
            if user.role == .patient { return try CareLink.clinician.exists(actor.userId, user.id!, db) }
            guard user.role == .tutor else { return false }
            let linked = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM tutorPatient tp JOIN clinicianPatient cp ON cp.patientId = tp.patientId
                               WHERE tp.tutorId = ? AND cp.clinicianId = ?)
                """, arguments: [user.id, actor.userId]) ?? false
            return linked || user.createdBy == actor.userId
        default:
            return false
        }
    }
}
