import GRDB

/// What each eduCAT page reads, in the request's one transaction. Callers pass the signed-in actor;
/// a patient the actor may not see is `AppError.notFound`.
enum EduCATQueries {
    /// The child's side: the settings, the pack's language, the records, the level of each area and
    /// the words and letters the clinician added in that language.
    struct Player: Sendable {
        let settings: EduCATSettings
        let language: String
        let records: [EduCATRecordKey: Int]
        let levels: [EduCATArea: Int]
        let added: [EduCATStore.AddedItem]
        /// The patient's access method (scanning, hold, dwell), the same as on the boards.
        let access: AccessView

        /// The area's level now (see `EduCATLevel.of`).
        func level(_ area: EduCATArea) -> EduCATLevel { EduCATLevel.of(area, number: levels[area] ?? 1) }

        /// The record to beat in the area: the one of the level the child plays now.
        func record(_ area: EduCATArea) -> Int { records[EduCATRecordKey(area: area, level: level(area).number)] ?? 0 }
    }

    static func player(patientId: Int64, interface: String, _ db: Database) throws -> Player {
        let settings = try EduCATStore.settings(patientId: patientId, db)
        let language = try packLanguage(patientId: patientId, chosen: settings.language, interface: interface, db)
        return Player(settings: settings, language: language, records: try EduCATStore.records(patientId: patientId, db),
                      levels: try EduCATStore.levels(patientId: patientId, db),
                      added: try EduCATStore.addedItems(patientId: patientId, db).filter { $0.language == language },
                      access: try AccessView.forPatient(patientId, db))
    }

    /// See `EduCATLanguage.pack`: the clinician's choice, the patient's language, a tutor's, the interface's.
    static func packLanguage(patientId: Int64, chosen: String?, interface: String, _ db: Database) throws -> String {
        if let chosen, EduCATContent.languages.contains(chosen) { return chosen }
        let patient = try String.fetchOne(db, sql: "SELECT locale FROM user WHERE id = ?", arguments: [patientId])
        let tutors = try String?.fetchAll(db, sql: """
            SELECT u.locale FROM tutorPatient l JOIN user u ON u.id = l.tutorId WHERE l.patientId = ? ORDER BY u.id
            """, arguments: [patientId])
        return EduCATLanguage.pack(chosen: nil, patient: patient, tutors: tutors, interface: interface)
    }

    /// The adults' results page of a patient.
    struct Results: Sendable {
        let patientId: Int64
        let patientName: String
        let records: [EduCATRecordKey: Int]
        let results: [EduCATStore.ResultRow]
        let answers: [EduCATStore.AnswerRow]
        let levels: [EduCATArea: Int]
        let settings: EduCATSettings
    }

    static func results(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> Results {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        return Results(patientId: patient.userId, patientName: try User.find(patient.userId, db)?.displayName ?? "",
                       records: try EduCATStore.records(patientId: patient.userId, db),
                       results: try EduCATStore.results(patientId: patient.userId, db),
                       answers: try EduCATStore.answers(patientId: patient.userId, db),
                       levels: try EduCATStore.levels(patientId: patient.userId, db),
                       settings: try EduCATStore.settings(patientId: patient.userId, db))
    }

    /// The clinician's settings page of a patient.
    struct Settings: Sendable {
        let patientId: Int64
        let patientName: String
        let settings: EduCATSettings
        let levels: [EduCATArea: Int]
        let packLanguage: String
        let added: [EduCATStore.AddedItem]
    }

    static func settings(patientId: Int64, visibleTo actor: Actor, interface: String, _ db: Database) throws -> Settings {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        let settings = try EduCATStore.settings(patientId: patient.userId, db)
        return Settings(patientId: patient.userId, patientName: try User.find(patient.userId, db)?.displayName ?? "",
                        settings: settings, levels: try EduCATStore.levels(patientId: patient.userId, db),
                        packLanguage: try packLanguage(patientId: patient.userId, chosen: settings.language, interface: interface, db),
                        added: try EduCATStore.addedItems(patientId: patient.userId, db))
    }
}
