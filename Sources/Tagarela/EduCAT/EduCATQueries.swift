import GRDB

/// What each eduCAT page reads, in the request's one transaction. Callers pass the signed-in actor;
/// a patient the actor may not see is `AppError.notFound`.
enum EduCATQueries {
    /// The child's side: the settings, the pack's language (the clinician's choice, else the
    /// patient's own language) and the records.
    struct Player: Sendable {
        let settings: EduCATSettings
        let language: String?
        let records: [EduCATArea: Int]
        /// The patient's access method (scanning, hold, dwell), the same as on the boards.
        let access: AccessView
    }

    static func player(patientId: Int64, _ db: Database) throws -> Player {
        let settings = try EduCATStore.settings(patientId: patientId, db)
        return Player(settings: settings, language: try settings.language ?? User.find(patientId, db)?.locale,
                      records: try EduCATStore.records(patientId: patientId, db), access: try AccessView.forPatient(patientId, db))
    }

    /// The adults' results page of a patient.
    struct Results: Sendable {
        let patientId: Int64
        let patientName: String
        let records: [EduCATArea: Int]
        let results: [EduCATStore.ResultRow]
        let settings: EduCATSettings
    }

    static func results(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> Results {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        return Results(patientId: patient.userId, patientName: try User.find(patient.userId, db)?.displayName ?? "",
                       records: try EduCATStore.records(patientId: patient.userId, db),
                       results: try EduCATStore.results(patientId: patient.userId, db),
                       settings: try EduCATStore.settings(patientId: patient.userId, db))
    }
}
