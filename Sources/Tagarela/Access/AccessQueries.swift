import GRDB

/// What the access settings page reads, in the request's one transaction.
enum AccessQueries {
    /// The patient whose settings are shown, if `actor` may see them (`AppError.notFound` otherwise).
    struct Patient: Sendable {
        let id: Int64
        let name: String
    }

    static func patient(_ id: Int64, visibleTo actor: Actor, _ db: Database) throws -> Patient {
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        return Patient(id: patient.userId, name: try User.find(patient.userId, db)?.displayName ?? "")
    }

    /// The patient and their saved settings (`standard` when none were saved).
    static func settings(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> (patient: Patient, settings: AccessSettings) {
        let patient = try patient(patientId, visibleTo: actor, db)
        return (patient, try AccessSettings.load(patientId: patient.id, db))
    }
}
