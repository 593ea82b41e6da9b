import Foundation
import GRDB

/// Who is acting. In patient mode this is the patient, and `supervisorId` the adult who opened it,
/// so every patient page works the same whether the patient logged in or a tutor handed over the tablet.
struct Actor: Sendable {
    let userId: Int64
    let role: Role
    let displayName: String
    let specialties: Set<Specialty>
    let supervisorId: Int64?
    /// A patient's theme and text size, read with the session; every page they use shows it.
    var display = AccessSettings.Display.standard

    var isPatientMode: Bool { supervisorId != nil }

    init(user: User, supervisorId: Int64? = nil) {
        userId = user.id!
        role = user.role
        displayName = user.displayName
        specialties = user.specialtySet
        self.supervisorId = supervisorId
    }
}

/// Who may call a route. Deny by default: every route names its access.
enum Access: Sendable {
    case anyone
    /// Signed in with one of these roles. In patient mode the actor is the patient, so adult
    /// pages are out of reach until the adult's password is entered again. With a
    /// `clinicianSpecialty`, a clinician must also have it: the AAC pages are speech therapy's, the
    /// meal plans nutrition's, whoever the patients are linked to. Other roles are not affected.
    case signedIn(Set<Role>, clinicianSpecialty: Specialty? = nil)
    /// Signed in as oneself with one of these roles, never in patient mode: consents, settings and the
    /// account are their owner's to change, not a child's holding the tutor's tablet (issue 49).
    case ownAccount(Set<Role>)
    case inPatientMode

    /// Whether `actor` (signed in) may call a route with this access. Pure.
    func admits(_ actor: Actor) -> Bool {
        switch self {
        case .anyone: true
        case .signedIn(let roles, let specialty):
            roles.contains(actor.role) && (actor.role != .clinician || specialty.map(actor.specialties.contains) ?? true)
        case .ownAccount(let roles): roles.contains(actor.role) && !actor.isPatientMode
        case .inPatientMode: actor.isPatientMode
        }
    }
}

/// Which patients an actor may know about: the only way patient records are read.
/// A patient outside the scope is answered 404, exactly like a missing one.
enum PatientScope {
    /// An SQL condition on `column` (a patient id) that holds exactly for the patients `actor` may see.
    static func condition(on column: String, visibleTo actor: Actor) -> (sql: String, arguments: StatementArguments) {
        switch actor.role {
        case .clinician:
            ("\(column) IN (SELECT patientId FROM clinicianPatient WHERE clinicianId = ?)", [actor.userId])
        case .tutor:
            ("\(column) IN (SELECT patientId FROM tutorPatient WHERE tutorId = ?)", [actor.userId])
        case .trainer:
            ("\(column) IN (SELECT patientId FROM trainerClient WHERE trainerId = ?)", [actor.userId])
        case .patient:
            ("\(column) = ?", [actor.userId])
        case .admin:
            // Administrators run the clinic's accounts; clinical records are not theirs to read.
            ("0", [])
        }
    }

    /// `condition` for one patient: the care link is looked up by its key. The list in `condition` is built
    /// on each use, 500 rows for a clinician of 500 patients: 6 % of the patient's overview. `column` must
    /// name its table (`plan.patientId`): alone, `patientId` would be the link's own column, true for everyone.
    static func oneCondition(on column: String, visibleTo actor: Actor) -> (sql: String, arguments: StatementArguments) {
        switch actor.role {
        case .clinician:
            ("EXISTS (SELECT 1 FROM clinicianPatient AS link WHERE link.clinicianId = ? AND link.patientId = \(column))", [actor.userId])
        case .tutor:
            ("EXISTS (SELECT 1 FROM tutorPatient AS link WHERE link.tutorId = ? AND link.patientId = \(column))", [actor.userId])
        case .trainer:
            ("EXISTS (SELECT 1 FROM trainerClient AS link WHERE link.trainerId = ? AND link.patientId = \(column))", [actor.userId])
        case .patient, .admin:
            condition(on: column, visibleTo: actor)
        }
    }

    /// The patient, if `actor` may see them; otherwise `AppError.notFound`.
    static func find(_ id: Int64?, visibleTo actor: Actor, _ db: Database) throws -> Patient {
        guard let id else { throw AppError.notFound }
        // Every patient page asks this: a prepared statement per role's condition, kept by the connection.
        let condition = oneCondition(on: "patient.userId", visibleTo: actor)
        var arguments: StatementArguments = [id]
        _ = arguments.append(contentsOf: condition.arguments)
        guard let patient = try Patient.fetchOne(db, SQLRequest<Patient>(
            sql: "SELECT * FROM patient WHERE userId = ? AND \(condition.sql)", arguments: arguments, cached: true))
        else { throw AppError.notFound }
        return patient
    }

    /// Who may open patient mode for a patient on their device: a linked tutor or clinician.
    static func maySupervise(_ actor: Actor, patientId: Int64, _ db: Database) throws -> Bool {
        switch actor.role {
        case .tutor: try CareLink.tutor.exists(actor.userId, patientId, db)
        case .clinician: try CareLink.clinician.exists(actor.userId, patientId, db)
        default: false
        }
    }
}
