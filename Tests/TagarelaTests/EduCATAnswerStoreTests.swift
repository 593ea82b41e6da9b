import Foundation
import GRDB
@testable import Tagarela
import Testing

/// EduCATStore's answers, levels, results by game key and added items against a real SQLite database
/// with every migration.
@Suite struct EduCATAnswerStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func database() throws -> (DatabaseQueue, patient: Int64, clinician: Int64) {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue)
        let (patient, clinician) = try queue.write { db -> (Int64, Int64) in
            var child = User(username: nil, displayName: "Pia", role: .patient, specialties: "", createdAt: now, updatedAt: now)
            try child.insert(db)
            try Patient(userId: child.id!).insert(db)
            var clinician = User(username: "cli", displayName: "Clara", role: .clinician, specialties: "speech", createdAt: now, updatedAt: now)
            try clinician.insert(db)
            return (child.id!, clinician.id!)
        }
        return (queue, patient, clinician)
    }

    func batch(key: String = "game-key-0001", area: EduCATArea = .alphabet, level: Int = 1,
               _ answers: [(String, String?)], from sequence: Int = 1) -> EduCATAnswer.Batch {
        EduCATAnswer.Batch(gameKey: key, area: area, mode: .normal, level: level, answers: answers.enumerated().map {
            EduCATAnswer(sequence: sequence + $0.offset, asked: $0.element.0, tapped: $0.element.1, milliseconds: 1200)
        })
    }

    let letters: (String) -> String? = { "abcdefghijklmnopqrstuvwxyz".contains($0) && $0.count == 1 ? $0 : nil }

    @Test func answersAreStoredOnceEachWithWhatWasExpected() throws {
        let (queue, patient, _) = try database()
        try queue.write { db in
            let posted = batch([("b", "d"), ("a", "a"), ("e", nil)])
            let level = try EduCATStore.store(posted, expected: letters, patientId: patient, language: "ca", promotion: .never, at: now, db)
            #expect(level?.number == 2, "the alphabet's standard level; a batch from another level promotes nothing")
            _ = try EduCATStore.store(posted, expected: letters, patientId: patient, language: "ca", promotion: .never, at: now, db)
            let rows = try EduCATStore.answers(patientId: patient, db)
            #expect(rows.count == 3, "a batch sent twice stores each answer once")
            let wrong = try #require(rows.first { $0.asked == "b" })
            #expect(wrong.tapped == "d" && !wrong.correct && wrong.expected == "b" && wrong.milliseconds == 1200 && wrong.language == "ca")
            #expect(rows.first { $0.asked == "e" }?.tapped == nil)
            #expect(try EduCATStore.store(batch(key: "other-key-01", [("a", "a"), ("🙂", "a")]), expected: letters, patientId: patient,
                                          language: "ca", promotion: .never, at: now, db) == nil)
            #expect(try EduCATStore.answers(patientId: patient, db).count == 3, "a batch with an unknown item stores nothing")
        }
    }

    @Test func aStreakAtTheCurrentLevelPromotesOnce() throws {
        let (queue, patient, clinician) = try database()
        try queue.write { db in
            let rule = EduCATPromotion.streak(3)
            try EduCATStore.save(.standard, levels: [.alphabet: 1], patientId: patient, by: clinician, at: now.addingTimeInterval(-60), db)
            let first = try EduCATStore.store(batch([("a", "a"), ("e", "e")]), expected: letters, patientId: patient, language: "ca",
                                              promotion: rule, at: now, db)
            #expect(first?.key == "vowels")
            let second = try EduCATStore.store(batch([("i", "i")], from: 3), expected: letters, patientId: patient, language: "ca",
                                               promotion: rule, at: now, db)
            #expect(second?.key == "capitals", "three right in a row")
            #expect(try Int64?.fetchOne(db, sql: "SELECT updatedBy FROM educatLevel WHERE patientId = ?", arguments: [patient]) == .some(nil),
                    "passed by the child, not set by anyone")
            // Answers still arriving from the old level's page do not promote again.
            let late = try EduCATStore.store(batch([("o", "o"), ("u", "u"), ("a", "a")], from: 4), expected: letters, patientId: patient,
                                             language: "ca", promotion: rule, at: now, db)
            #expect(late?.key == "capitals")
            // The clinician sets a level back: answers from before it do not count towards the next.
            try EduCATStore.save(.standard, levels: [.alphabet: 1], patientId: patient, by: clinician, at: now.addingTimeInterval(60), db)
            let after = try EduCATStore.store(batch(key: "game-key-0002", [("a", "a")]), expected: letters, patientId: patient, language: "ca",
                                              promotion: rule, at: now.addingTimeInterval(61), db)
            #expect(after?.key == "vowels")
        }
    }

    @Test func aResultIsStoredOncePerGameKeyAndOnlyAFinishedChallengeSetsTheRecord() throws {
        let (queue, patient, _) = try database()
        func challenge(hits: Int, livesLeft: Int) -> EduCATResult {
            guard case .success(let result) = EduCATResult.parse(["area": "numbers", "mode": "challenge", "hits": "\(hits)",
                                                                  "errors": "\(3 - livesLeft)", "duration": "40", "lives": "3",
                                                                  "livesLeft": "\(livesLeft)", "seconds": "9"]) else { fatalError() }
            return result
        }
        try queue.write { db in
            let abandoned = try EduCATStore.store(challenge(hits: 7, livesLeft: 2), gameKey: "game-key-half", level: 1, patientId: patient,
                                                  language: "ca", assistedBy: nil, at: now, db)
            #expect(abandoned.record == 0 && !abandoned.isNew, "a challenge left half-way is kept but sets no record")
            let finished = try EduCATStore.store(challenge(hits: 4, livesLeft: 0), gameKey: "game-key-full", level: 1, patientId: patient,
                                                 language: "ca", assistedBy: nil, at: now, db)
            #expect(finished.record == 4 && finished.isNew)
            let replayed = try EduCATStore.store(challenge(hits: 4, livesLeft: 0), gameKey: "game-key-full", level: 1, patientId: patient,
                                                 language: "ca", assistedBy: nil, at: now, db)
            #expect(replayed.record == 4 && !replayed.isNew)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM educatResult")! == 2)
            #expect(try String.fetchOne(db, sql: "SELECT gameKey FROM educatResult ORDER BY id DESC") == "game-key-full")
        }
    }

    @Test func settingsAndAddedItemsRoundTripWithTheirAudit() throws {
        let (queue, patient, clinician) = try database()
        let audit = AuditContext(actorId: clinician, actorName: "Clara", clientAddress: "10.0.0.9", now: now)
        try queue.write { db in
            let settings = EduCATSettings(secondsPerQuestion: 12, lives: 4, language: "es", untimed: true, itemsOnScreen: 6,
                                          speed: .slow, promotion: .accuracy(80))
            try EduCATStore.save(settings, levels: [.numbers: 3, .contaCops: 2], patientId: patient, by: clinician, at: now, audit: audit, db)
            #expect(try EduCATStore.settings(patientId: patient, db) == settings)
            #expect(try EduCATStore.levels(patientId: patient, db) == [.numbers: 3, .vowels: 1, .alphabet: 2, .contaCops: 2],
                    "an area never set is at its standard level")
            let item = EduCATStore.AddedItem(id: 0, area: "conta-cops", text: "gronxador", spoken: "gronxador", syllables: "gron-xa-dor",
                                             pictogram: "1F3E0", clip: "a.mp3", language: "ca")
            #expect(try EduCATStore.add(item, patientId: patient, by: clinician, at: now, audit: audit, db))
            #expect(try !EduCATStore.add(item, patientId: patient, by: clinician, at: now, audit: audit, db), "twice")
            let stored = try EduCATStore.addedItems(patientId: patient, db)
            #expect(stored.map(\.text) == ["gronxador"])
            #expect(try !EduCATStore.removeItem(stored[0].id, patientId: patient + 100, audit: audit, db), "another patient's id")
            #expect(try EduCATStore.removeItem(stored[0].id, patientId: patient, audit: audit, db))
            #expect(try EduCATStore.addedItems(patientId: patient, db).isEmpty)
            let actions = try String.fetchAll(db, sql: "SELECT action || ' ' || entity FROM auditEntry ORDER BY id")
            #expect(actions == ["update educatSettings", "create educatItem", "delete educatItem"])
        }
    }
}
