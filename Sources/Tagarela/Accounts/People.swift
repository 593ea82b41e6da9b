import Foundation
import GRDB

/// Reading and changing people and their care links. Every write records an audit entry in
/// the same transaction.
enum People {
    /// A patient as lists and pages show them.
    struct PatientSummary: Sendable, FetchableRecord {
        let id: Int64
        let displayName: String
        let username: String?
        let birthDate: String?
        let sex: Patient.Sex?
        let diagnosis: String
        let photoPath: String?
        let tutorNames: String?
    }

    /// The patients `actor` may see, filtered by a search on name or diagnosis.
    static func patients(visibleTo actor: Actor, matching search: String, _ db: Database) throws -> [PatientSummary] {
        let visible = PatientScope.condition(on: "p.userId", visibleTo: actor)
        var sql = """
            SELECT u.id, u.displayName, u.username, p.birthDate, p.sex, p.diagnosis, p.photoPath,
                   (SELECT group_concat(t.displayName, ', ') FROM tutorPatient tp JOIN user t ON t.id = tp.tutorId
                    WHERE tp.patientId = p.userId) AS tutorNames
            FROM patient p JOIN user u ON u.id = p.userId
            WHERE \(visible.sql)
            """
        var arguments = visible.arguments
        let terms = search.trimmingCharacters(in: .whitespaces)
        if !terms.isEmpty {
            sql += " AND (u.displayName LIKE ? OR p.diagnosis LIKE ?)"
            _ = arguments.append(contentsOf: ["%\(terms)%", "%\(terms)%"])
        }
        sql += " ORDER BY u.displayName COLLATE NOCASE"
        // Every dashboard asks this: a prepared statement per role and search shape, kept by the connection.
        return try PatientSummary.fetchAll(db, SQLRequest(sql: sql, arguments: arguments, cached: true))
    }

    /// The tutors linked to a patient.
    static func tutors(of patientId: Int64, _ db: Database) throws -> [User] {
        try User.fetchAll(db, SQLRequest(sql: """
            SELECT user.* FROM user JOIN tutorPatient tp ON tp.tutorId = user.id
            WHERE tp.patientId = ? ORDER BY user.displayName COLLATE NOCASE
            """, arguments: [patientId], cached: true))
    }

    /// What a patient form holds, validated.
    struct PatientFields: Sendable {
        var displayName: String
        var username: String?
        var birthDate: String?
        var sex: Patient.Sex?
        var diagnosis: String
        var startedOn: String?
        var contact: String
        var notes: String
        var photoPath: String?

        static let fieldNames = ["displayName", "username", "birthDate", "sex", "diagnosis", "startedOn", "contact", "notes"]

        /// Reads the form; on a problem the field's message is added to `form` and nil returned.
        static func read(_ form: inout FormState, _ t: Translator, _ format: LocalizedFormat, today: Date) -> PatientFields? {
            let name = form.required("displayName", t["error_name_required"])
            let username = form["username"].trimmingCharacters(in: .whitespaces)
            if !username.isEmpty, !Usernames.isValid(username) { form.fail("username", t["error_username_invalid"]) }
            let birth = readDate("birthDate", &form, t, format, notAfter: today)
            let started = readDate("startedOn", &form, t, format, notAfter: nil)
            let sexText = form["sex"]
            let sex = Patient.Sex(rawValue: sexText)
            if !sexText.isEmpty, sex == nil { form.fail("sex", t["error_choose_option"]) }
            guard !form.hasErrors, let name else { return nil }
            return PatientFields(displayName: name, username: username.isEmpty ? nil : username, birthDate: birth,
                                 sex: sex, diagnosis: form["diagnosis"].trimmingCharacters(in: .whitespacesAndNewlines),
                                 startedOn: started, contact: form["contact"].trimmingCharacters(in: .whitespacesAndNewlines),
                                 notes: form["notes"].trimmingCharacters(in: .whitespacesAndNewlines))
        }

        private static func readDate(_ field: String, _ form: inout FormState, _ t: Translator, _ format: LocalizedFormat,
                                     notAfter limit: Date?) -> String? {
            let text = form[field].trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let date = format.parseDate(text) else { form.fail(field, t["error_date_invalid"]); return nil }
            if let limit, date > limit { form.fail(field, t["error_date_future"]); return nil }
            return ISODate.string(date, timeZone: format.timeZone)
        }
    }

    /// Creates a patient user and profile, linked to `creator` through `link`.
    static func createPatient(_ fields: PatientFields, role link: CareLink, by actor: Actor, audit: AuditContext,
                              _ db: Database) throws -> Int64 {
        var user = User(username: fields.username, displayName: fields.displayName, role: .patient,
                        createdBy: actor.userId, createdAt: audit.now, updatedAt: audit.now)
        try user.insert(db)
        let patient = Patient(userId: user.id!, birthDate: fields.birthDate, sex: fields.sex, diagnosis: fields.diagnosis,
                              photoPath: fields.photoPath, startedOn: fields.startedOn, contact: fields.contact,
                              notes: fields.notes)
        try patient.insert(db)
        try link.link(actor.userId, user.id!, at: audit.now, db)
        try audit.record(.create, "patient", user.id, fields.displayName, db)
        return user.id!
    }

    static func updatePatient(_ id: Int64, _ fields: PatientFields, audit: AuditContext, _ db: Database) throws {
        guard var user = try User.fetchOne(db, key: id), var patient = try Patient.fetchOne(db, key: id) else {
            throw AppError.notFound
        }
        user.displayName = fields.displayName
        user.username = fields.username
        user.updatedAt = audit.now
        try user.update(db)
        patient.birthDate = fields.birthDate
        patient.sex = fields.sex
        patient.diagnosis = fields.diagnosis
        patient.startedOn = fields.startedOn
        patient.contact = fields.contact
        patient.notes = fields.notes
        patient.photoPath = fields.photoPath
        try patient.update(db)
        try audit.record(.update, "patient", id, fields.displayName, db)
    }

    /// A new tutor, linked to the patient, with an invitation to choose a password. Returns the tutor
    /// and the invitation's token, which only the link shown once carries.
    static func createTutor(name: String, username: String, for patientId: Int64, by actor: Actor, audit: AuditContext,
                            _ db: Database) throws -> (User, String) {
        var tutor = User(username: username, displayName: name, role: .tutor, createdBy: actor.userId,
                         createdAt: audit.now, updatedAt: audit.now)
        try tutor.insert(db)
        try CareLink.tutor.link(tutor.id!, patientId, at: audit.now, db)
        try audit.record(.create, "user", tutor.id, "\(name) (tutor)", db)
        try audit.record(.link, "tutorPatient", patientId, "\(name) → \(patientId)", db)
        let token = try Invitation.issue(for: tutor.id!, by: actor.userId, at: audit.now, db)
        try audit.record(.invite, "user", tutor.id, name, db)
        return (tutor, token)
    }

    /// Ends a tutor's link to a patient; a tutor who is not linked is answered as missing.
    static func unlinkTutor(_ tutorId: Int64, from patientId: Int64, audit: AuditContext, _ db: Database) throws {
        guard try CareLink.tutor.exists(tutorId, patientId, db) else { throw AppError.notFound }
        try CareLink.tutor.unlink(tutorId, patientId, db)
        try audit.record(.unlink, "tutorPatient", patientId, "\(tutorId) → \(patientId)", db)
    }

    /// A new one-time link for `user` to choose a first password (earlier links stop working).
    static func invite(_ user: User, by actor: Actor, audit: AuditContext, _ db: Database) throws -> String {
        let token = try Invitation.issue(for: user.id!, by: actor.userId, at: audit.now, db)
        try audit.record(.invite, "user", user.id, user.displayName, db)
        return token
    }

    /// A trainer's new client: a patient record linked to the trainer, with its re-evaluation interval.
    static func createClient(_ fields: PatientFields, reevaluationDays: Int, by trainer: Actor, audit: AuditContext,
                             _ db: Database) throws -> Int64 {
        let id = try createPatient(fields, role: .trainer, by: trainer, audit: audit, db)
        try Evaluations.setInterval(reevaluationDays, trainerId: trainer.userId, patientId: id, db)
        return id
    }

    /// A trainer's changes to a client: what the client form holds. The clinical fields a trainer never
    /// sees (diagnosis, start date, photo) stay as they were.
    static func updateClient(_ patient: Patient, _ fields: PatientFields, reevaluationDays: Int, by trainer: Actor,
                             audit: AuditContext, _ db: Database) throws {
        var fields = fields
        fields.diagnosis = patient.diagnosis
        fields.startedOn = patient.startedOn
        fields.photoPath = patient.photoPath
        try Evaluations.setInterval(reevaluationDays, trainerId: trainer.userId, patientId: patient.userId, db)
        try updatePatient(patient.userId, fields, audit: audit, db)
    }

    /// The username a clinician proposed for a new login, or, when it is taken, the same with a few random
    /// digits: the form answers the same either way, so no form tells a clinician whether a username exists
    /// (DESIGN). The owner sees it on the invitation page and may choose another there.
    static func freeUsername(_ wanted: String, _ db: Database) throws -> String {
        if try isUsernameFree(wanted, db) { return wanted }
        while true {
            let candidate = String(wanted.prefix(58)) + "-" + String(Int.random(in: 1_000...99_999))
            if try isUsernameFree(candidate, db) { return candidate }
        }
    }

    /// Whether the username is free (case-insensitively), ignoring the user `except`.
    static func isUsernameFree(_ username: String?, except: Int64? = nil, _ db: Database) throws -> Bool {
        guard let username else { return true }
        let owner = try User.named(username, db)
        return owner == nil || owner?.id == except
    }
}

enum Usernames {
    /// Letters, digits, `.`, `-`, `_` and `@` (so an e-mail address works), 3 to 64 characters.
    static func isValid(_ username: String) -> Bool {
        (3...64).contains(username.count)
            && username.allSatisfy { $0.isLetter || $0.isNumber || ".-_@+".contains($0) }
    }
}

extension People.PatientSummary {
    // By name, without `Decodable`: dashboards read one per patient on every load.
    init(row: Row) {
        id = row["id"]
        displayName = row["displayName"]
        username = row["username"]
        birthDate = row["birthDate"]
        sex = (row["sex"] as String?).flatMap(Patient.Sex.init(rawValue:))
        diagnosis = row["diagnosis"]
        photoPath = row["photoPath"]
        tutorNames = row["tutorNames"]
    }
}
