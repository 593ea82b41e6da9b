import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The people and evaluation store functions and queries, straight against a real SQLite database
/// (in memory, with the app's migrations), as GRDB's demo apps test theirs: what each writes, the
/// audit row it writes with it, and what it refuses.
@Suite struct PeopleStoreTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// An empty database with the real schema, a clinician, a trainer and the clinician's patient.
    struct Clinic {
        let db: DatabaseQueue
        let clinician: Actor
        let trainer: Actor
        let patientId: Int64
        let audit = AuditContext(actorId: nil, actorName: "Tester", clientAddress: "test", now: PeopleStoreTests.now)

        init() throws {
            db = try DatabaseQueue()
            try Migrations.migrator.migrate(db)
            let audit = audit
            let people = try db.write { db in
                func staff(_ username: String, _ role: Role, _ specialties: String = "") throws -> Actor {
                    var user = User(username: username, displayName: username.capitalized, role: role, specialties: specialties,
                                    createdAt: PeopleStoreTests.now, updatedAt: PeopleStoreTests.now)
                    try user.insert(db)
                    return Actor(user: user)
                }
                let clinician = try staff("ana", .clinician, "speech")
                let trainer = try staff("dani", .trainer)
                let fields = People.PatientFields(displayName: "Carla Costa", username: nil, birthDate: "2019-03-02", sex: .female,
                                                  diagnosis: "TEA", startedOn: nil, contact: "", notes: "", photoPath: nil)
                let patient = try People.createPatient(fields, role: .clinician, by: clinician, audit: audit, db)
                return (clinician, trainer, patient)
            }
            (clinician, trainer, patientId) = (people.0, people.1, people.2)
        }

        func audits(_ db: Database) throws -> [String] {
            try Row.fetchAll(db, sql: "SELECT action, entity, entityId, summary FROM auditEntry ORDER BY id")
                .map { "\($0["action"] as String) \($0["entity"] as String) #\($0["entityId"] as Int64? ?? 0): \($0["summary"] as String)" }
        }
    }

    @Test func aNewTutorIsLinkedInvitedAndAuditedThreeTimes() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            let before = try clinic.audits(db).count
            let (tutor, token) = try People.createTutor(name: "Rosa Costa", username: "vovo.rosa", for: clinic.patientId,
                                                        by: clinic.clinician, audit: clinic.audit, db)
            let tutorId = try #require(tutor.id)
            #expect(try User.fetchOne(db, key: tutorId)?.role == .tutor)
            #expect(try CareLink.tutor.exists(tutorId, clinic.patientId, db))
            #expect(try Invitation.fetchOne(db, sql: "SELECT * FROM invitation WHERE tokenHash = ?", arguments: [Token.hash(token)])?.userId
                    == tutorId)
            #expect(try Array(clinic.audits(db).dropFirst(before)) == [
                "create user #\(tutorId): Rosa Costa (tutor)",
                "link tutorPatient #\(clinic.patientId): Rosa Costa → \(clinic.patientId)",
                "invite user #\(tutorId): Rosa Costa",
            ])
        }
    }

    @Test func unlinkingATutorRecordsItAndATutorNotLinkedIsMissingAndChangesNothing() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            let (tutor, _) = try People.createTutor(name: "Rosa Costa", username: "vovo.rosa", for: clinic.patientId,
                                                    by: clinic.clinician, audit: clinic.audit, db)
            try People.unlinkTutor(tutor.id!, from: clinic.patientId, audit: clinic.audit, db)
            #expect(try !CareLink.tutor.exists(tutor.id!, clinic.patientId, db))
            #expect(try clinic.audits(db).last == "unlink tutorPatient #\(clinic.patientId): \(tutor.id!) → \(clinic.patientId)")
            let audits = try clinic.audits(db)
            // A double tap, or a second tab: the second unlink finds nothing to end.
            #expect(throws: AppError.notFound) { try People.unlinkTutor(tutor.id!, from: clinic.patientId, audit: clinic.audit, db) }
            #expect(try clinic.audits(db) == audits)
        }
    }

    @Test func aNewInvitationEndsTheEarlierOneAndIsAudited() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            let (tutor, first) = try People.createTutor(name: "Rosa Costa", username: "vovo.rosa", for: clinic.patientId,
                                                        by: clinic.clinician, audit: clinic.audit, db)
            let second = try People.invite(tutor, by: clinic.clinician, audit: clinic.audit, db)
            #expect(first != second)
            guard case .used = try Invitation.find(token: first, at: PeopleStoreTests.now, db) else {
                Issue.record("the first link still works"); return
            }
            guard case .valid(_, let user) = try Invitation.find(token: second, at: PeopleStoreTests.now, db) else {
                Issue.record("the new link does not work"); return
            }
            #expect(user.id == tutor.id)
            #expect(try clinic.audits(db).last == "invite user #\(tutor.id!): Rosa Costa")
        }
    }

    @Test func onlyAccountsTheClinicianMayInviteAreFound() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            var patient = try #require(try User.fetchOne(db, key: clinic.patientId))
            // No username: no login to invite.
            #expect(throws: AppError.notFound) { try PeopleQueries.invitableAccount(clinic.patientId, by: clinic.clinician, db) }
            patient.username = "carla"
            try patient.update(db)
            #expect(try PeopleQueries.invitableAccount(clinic.patientId, by: clinic.clinician, db).id == clinic.patientId)
            // Another clinician, a trainer, a missing id: all missing.
            var other = User(username: "nadia", displayName: "Nadia", role: .clinician, specialties: "nutrition",
                             createdAt: PeopleStoreTests.now, updatedAt: PeopleStoreTests.now)
            try other.insert(db)
            #expect(throws: AppError.notFound) { try PeopleQueries.invitableAccount(clinic.patientId, by: Actor(user: other), db) }
            #expect(throws: AppError.notFound) { try PeopleQueries.invitableAccount(clinic.patientId, by: clinic.trainer, db) }
            #expect(throws: AppError.notFound) { try PeopleQueries.invitableAccount(999_999, by: clinic.clinician, db) }
            // Once a password was chosen, only an admin's reset gives a new link.
            patient.passwordSetAt = PeopleStoreTests.now
            try patient.update(db)
            #expect(throws: AppError.notFound) { try PeopleQueries.invitableAccount(clinic.patientId, by: clinic.clinician, db) }
        }
    }

    @Test func aClientKeepsTheClinicalFieldsATrainerNeverSeesAndTheirInterval() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            let fields = People.PatientFields(displayName: "Gustavo Pereira", username: nil, birthDate: "1990-01-01", sex: .male,
                                              diagnosis: "", startedOn: nil, contact: "", notes: "", photoPath: nil)
            let id = try People.createClient(fields, reevaluationDays: 60, by: clinic.trainer, audit: clinic.audit, db)
            #expect(try Evaluations.interval(trainerId: clinic.trainer.userId, patientId: id, db) == 60)
            #expect(try clinic.audits(db).last == "create patient #\(id): Gustavo Pereira")
            // A clinician's diagnosis and photo, set outside the client form.
            try db.execute(sql: "UPDATE patient SET diagnosis = 'Hipertensão', photoPath = 'photos/g.jpg' WHERE userId = ?", arguments: [id])
            var changed = fields
            changed.displayName = "Gustavo P. Pereira"
            let patient = try #require(try Patient.fetchOne(db, key: id))
            try People.updateClient(patient, changed, reevaluationDays: 120, by: clinic.trainer, audit: clinic.audit, db)
            let stored = try #require(try Patient.fetchOne(db, key: id))
            #expect(stored.diagnosis == "Hipertensão" && stored.photoPath == "photos/g.jpg")
            #expect(try User.fetchOne(db, key: id)?.displayName == "Gustavo P. Pereira")
            #expect(try Evaluations.interval(trainerId: clinic.trainer.userId, patientId: id, db) == 120)
            #expect(try clinic.audits(db).last == "update patient #\(id): Gustavo P. Pereira")
            // The trainer sees the client; the clinician, who is not linked, does not.
            #expect(try EvaluationQueries.client(id, of: clinic.trainer, db).user.displayName == "Gustavo P. Pereira")
            #expect(throws: AppError.notFound) { try EvaluationQueries.client(id, of: clinic.clinician, db) }
        }
    }

    @Test func openingAReportIsAnAuditedExportAndAnotherClientsEvaluationIsMissing() throws {
        let clinic = try Clinic()
        try clinic.db.write { db in
            func client(_ name: String) throws -> ClientProfile {
                let fields = People.PatientFields(displayName: name, username: nil, birthDate: "1990-01-01", sex: .male,
                                                  diagnosis: "", startedOn: nil, contact: "", notes: "", photoPath: nil)
                let id = try People.createClient(fields, reevaluationDays: 90, by: clinic.trainer, audit: clinic.audit, db)
                return try EvaluationQueries.client(id, of: clinic.trainer, db)
            }
            let gustavo = try client("Gustavo Pereira"), fernando = try client("Fernando Dias")
            let input = EvaluationInput(skinfoldProtocol: .jp3, takenOn: "2026-11-01", weightKg: 80, heightM: 1.8,
                                        skinfolds: [.chest: [10], .abdominal: [20], .thigh: [15]], perimeters: [:])
            let id = try Evaluations.save(input, patientId: gustavo.id, sex: .male, age: 36, audit: clinic.audit,
                                          trainerId: clinic.trainer.userId, db)
            let (details, history) = try Evaluations.openReport(id, of: gustavo, audit: clinic.audit, db)
            #expect(details.id == id && history.map(\.id) == [id])
            #expect(try clinic.audits(db).last == "export evaluation #\(id): report of Gustavo Pereira, 2026-11-01")
            let audits = try clinic.audits(db)
            #expect(throws: AppError.notFound) { try Evaluations.openReport(id, of: fernando, audit: clinic.audit, db) }
            #expect(throws: AppError.notFound) { try EvaluationQueries.evaluation(id, of: fernando, db) }
            #expect(try clinic.audits(db) == audits)
            #expect(throws: AppError.notFound) { try EvaluationQueries.comparison(of: gustavo, first: "\(id)", second: "abc", db) }
        }
    }

    // MARK: - Photo files kept in step with the write

    struct Files {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tagarela-photos-\(UUID().uuidString)").path
        var media: MediaStore { MediaStore(directory: directory) }

        func make(_ name: String) throws -> String {
            try FileManager.default.createDirectory(atPath: directory + "/photos", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: directory + "/photos/" + name, contents: Data([0xFF]))
            return "photos/" + name
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory + "/" + path) }
    }

    @Test func aSavedPhotoReplacesTheOldOneOnlyOnceCommitted() throws {
        let clinic = try Clinic(), files = Files()
        let (old, new) = (try files.make("old.jpg"), try files.make("new.jpg"))
        try clinic.db.write { db in
            _ = try UploadedPhoto(path: new).keepingFiles(files.media, db) { .saved(.status(.ok), replacing: old) }
            #expect(files.exists(old), "removed before the commit")
        }
        #expect(!files.exists(old) && files.exists(new))
    }

    @Test func aPhotoWhoseWriteIsRefusedThrowsOrRollsBackIsNotKept() throws {
        let clinic = try Clinic(), files = Files()
        let old = try files.make("old.jpg")
        let refused = try files.make("refused.jpg")
        try clinic.db.write { db in
            _ = try UploadedPhoto(path: refused).keepingFiles(files.media, db) { .refused(.status(.unprocessableContent)) }
        }
        #expect(!files.exists(refused))
        let thrown = try files.make("thrown.jpg")
        #expect(throws: AppError.notFound) {
            try clinic.db.write { db in
                try UploadedPhoto(path: thrown).keepingFiles(files.media, db) { throw AppError.notFound }
            }
        }
        #expect(!files.exists(thrown))
        let rolledBack = try files.make("rolled-back.jpg")
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try clinic.db.write { db in
                _ = try UploadedPhoto(path: rolledBack).keepingFiles(files.media, db) { .saved(.status(.ok), replacing: old) }
                try db.execute(sql: "UPDATE patient SET notes = 'x'")
                throw Failure()
            }
        }
        #expect(!files.exists(rolledBack) && files.exists(old), "the patient still shows the old photo")
        // Saved without a new photo: the current one stays.
        try clinic.db.write { db in
            _ = try UploadedPhoto().keepingFiles(files.media, db) { .saved(.status(.ok), replacing: old) }
            try db.execute(sql: "UPDATE patient SET notes = 'y'")
        }
        #expect(files.exists(old))
    }
}
