import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The worklist keeps each patient's signals between loads and reads again only the patients whose
/// record changed (`CaseloadSignals`, `PatientChanges`): every change it decides from must count, and
/// nothing kept may outlive its minute.
@Suite struct CaseloadSignalsTests {
    static let en = [("Accept-Language", "en")]

    static func reading(_ id: Int64, weight: Int = 0) -> CaseloadSignals.Reading {
        .init(id: id, name: "P\(id)", weight: weight, signals: .init(), fulfilled: 0, notFulfilled: 0)
    }

    @Test func aKeptCaseloadReadsOnlyThePatientsWhoseCountMoved() throws {
        let memory = CaseloadSignals()
        let noon = CaseloadSignals.Moment(today: "2026-11-21", minute: "12:00", scope: .init(speech: true, nutrition: true))
        var asked: [[Int64]?] = []
        func load(_ counts: [(patientId: Int64, seq: Int64)], at moment: CaseloadSignals.Moment = noon, clinician: Int64 = 1) throws -> [Int64] {
            try memory.readings(clinician: clinician, at: moment, counts: counts) { only in
                asked.append(only)
                let seqs = Dictionary(uniqueKeysWithValues: counts.map { ($0.patientId, $0.seq) })
                return (only ?? counts.map(\.patientId)).map { Self.reading($0, weight: Int(seqs[$0]!)) }
            }.map(\.id)
        }
        let counts: [(patientId: Int64, seq: Int64)] = [(1, 0), (2, 3), (3, 1)]
        #expect(try load(counts) == [1, 2, 3])
        #expect(asked.count == 1 && asked[0] == nil, "the first load reads everyone in one statement")

        #expect(try load(counts) == [1, 2, 3])
        #expect(asked.count == 1, "nothing changed: nothing read")

        #expect(try load([(1, 0), (2, 4), (3, 1)]) == [1, 2, 3])
        #expect(asked.count == 2 && asked[1] == [2], "only the patient whose count moved")
        let weights = try memory.readings(clinician: 1, at: noon, counts: [(1, 0), (2, 4), (3, 1)]) { _ in
            Issue.record("all kept")
            return []
        }.map(\.weight)
        #expect(weights == [0, 4, 1], "the new reading is the one kept")

        #expect(try load([(3, 1), (4, 0)]) == [3, 4], "a patient unlinked is gone, a new one read, the order is the counts'")
        #expect(asked.count == 3 && asked[2] == [4])

        #expect(try load([(3, 1), (4, 0)], at: .init(today: "2026-11-21", minute: "12:01", scope: noon.scope)) == [3, 4])
        #expect(asked.count == 4 && asked[3] == nil, "a new minute reads everyone again")
        #expect(try load([(3, 1), (4, 0)], at: .init(today: "2026-11-21", minute: "12:01", scope: .init(speech: true, nutrition: false)))
                == [3, 4])
        #expect(asked.count == 5 && asked[4] == nil, "so does another set of specialties")

        #expect(try load([(3, 1), (4, 0)], clinician: 2) == [3, 4])
        #expect(asked.count == 6 && asked[5] == nil, "each clinician has their own")
    }

    @Test func heldCaseloadsStayBounded() throws {
        let memory = CaseloadSignals(patientsPerGeneration: 10)
        for clinician in Int64(1)...50 {
            _ = try memory.readings(clinician: clinician, at: .init(today: "2026-11-21", minute: "12:00", scope: .init(speech: true, nutrition: false)),
                                    counts: (1...4).map { (Int64($0), 0) }) { _ in (1...4).map { Self.reading(Int64($0)) } }
        }
        #expect(memory.count <= 6, "two generations of at most ten readings")
    }

    /// Every write the worklist reads from counts a change for its patient, and for no one else.
    @Test func everyWriteTheWorklistReadsCountsAChangeForItsPatient() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), davi = try test.id(of: "Davi Alves")
        let ana = try test.id(of: "ana"), nadia = try test.id(of: "nadia"), bruno = try test.id(of: "bruno"), dani = try test.id(of: "dani")
        func count(_ patient: Int64) throws -> Int64 {
            try test.read { db in try Int64.fetchOne(db, sql: "SELECT seq FROM patientChange WHERE patientId = ?", arguments: [patient]) ?? 0 }
        }
        func expectChange(_ what: String, of patient: Int64 = carla, counts: Bool = true, _ write: (Database) throws -> Void) throws {
            let before = (try count(carla), try count(davi))
            try test.write(write)
            let after = (try count(carla), try count(davi))
            let (moved, other) = patient == carla ? (after.0 - before.0, after.1 - before.1) : (after.1 - before.1, after.0 - before.0)
            #expect(counts ? moved > 0 : moved == 0, "\(what)")
            #expect(other == 0, "\(what) counts for its patient only")
        }
        let now = test.clock.now
        let future = now.addingTimeInterval(30 * 86_400)
        try expectChange("a tap on a new day") { db in
            try db.execute(sql: "INSERT INTO tap (key, patientId, at, receivedAt) VALUES ('k1', ?, ?, ?)", arguments: [carla, future, future])
        }
        try expectChange("a second tap of that day and cell", counts: false) { db in
            try db.execute(sql: "INSERT INTO tap (key, patientId, at, receivedAt) VALUES ('k2', ?, ?, ?)", arguments: [carla, future, future])
        }
        try expectChange("the last tap of a day taken back") { db in
            try db.execute(sql: "DELETE FROM tap WHERE key IN ('k1', 'k2')")
        }
        var meal = Meal(patientId: davi, clinicianId: nadia, type: "lunch", date: "2026-11-20", time: "12:00", createdAt: now)
        try expectChange("a meal prescribed", of: davi) { db in try meal.insert(db) }
        try expectChange("a meal answered", of: davi) { db in
            try db.execute(sql: "UPDATE meal SET status = 'fulfilled', answeredAt = ? WHERE id = ?", arguments: [now, meal.id])
        }
        try expectChange("a meal withdrawn", of: davi) { db in _ = try meal.delete(db) }
        try expectChange("an evaluation") { db in
            try db.execute(sql: """
                INSERT INTO evaluation (patientId, trainerId, takenOn, skinfoldProtocol, sex, ageYears, weightGrams, heightMm, createdAt)
                VALUES (?, ?, '2026-11-20', 'jp3', 'female', 8, 30000, 1300, ?)
                """, arguments: [carla, dani, now])
        }
        try expectChange("an evaluation's date corrected") { db in
            try db.execute(sql: "UPDATE evaluation SET takenOn = '2026-11-19' WHERE patientId = ? AND takenOn = '2026-11-20'", arguments: [carla])
        }
        try expectChange("a tutor's note") { db in
            try db.execute(sql: """
                INSERT INTO observation (patientId, authorId, authorName, authorRole, observedOn, body, isPrivate, createdAt)
                VALUES (?, ?, 'Bruno', 'tutor', '2026-11-20', 'Pediu água.', 0, ?)
                """, arguments: [carla, bruno, now])
        }
        try expectChange("a board", of: davi) { db in
            try db.execute(sql: """
                INSERT INTO plan (patientId, clinicianId, name, startsOn, type, rows, columns, createdAt, updatedAt)
                VALUES (?, ?, 'Nova', '2026-11-20', 'board', 2, 2, ?, ?)
                """, arguments: [davi, ana, now, now])
        }
        try expectChange("a board removed", of: davi) { db in try db.execute(sql: "DELETE FROM plan WHERE name = 'Nova'") }
        try expectChange("the clinician opening the patient") { db in
            try RecordVisits.markOpened(clinicianId: ana, patientId: carla, at: now, db)
        }
        try expectChange("the patient's record edited") { db in
            try db.execute(sql: "UPDATE patient SET diagnosis = 'TEA nível 1' WHERE userId = ?", arguments: [carla])
        }
        try expectChange("the patient renamed") { db in
            try db.execute(sql: "UPDATE user SET displayName = 'Carla C. Costa' WHERE id = ?", arguments: [carla])
        }
        try expectChange("a tutor renamed", counts: false) { db in
            try db.execute(sql: "UPDATE user SET displayName = 'Bruno C.' WHERE id = ?", arguments: [bruno])
        }
    }

    /// Nothing the clinician saw is kept past a change: the same minute, an answered meal shows at once.
    @Test func anAnsweredMealShowsOnTheNextWorklistOfTheSameMinute() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia"), elisaBrowser = try test.browser(loggedInAs: "elisa")
        let elisa = try test.id(of: "Elisa Martins")
        func overdue() throws -> Int? {
            let reasons = WorklistTests.reasons(of: "Elisa Martins", in: try nadia.get("/clinician", headers: Self.en).text)
            return reasons.firstMatch(of: /Overdue meals: (\d+)/).flatMap { Int($0.1) }
        }
        let before = try #require(try overdue())
        let meal = try #require(try test.read { db in
            try Meal.fetchOne(db, sql: "SELECT * FROM meal WHERE patientId = ? AND status = 'pending' ORDER BY date, time LIMIT 1",
                              arguments: [elisa])
        })
        #expect(try elisaBrowser.post("/meals/\(meal.id!)/answer", [("followed", "1"), ("version", "\(meal.version)")]).status == 303)
        let after = try overdue()
        #expect(after == (before > 1 ? before - 1 : nil), "\(before) overdue before, \(after.map(String.init) ?? "none") after")
    }

    /// A meal of today becomes overdue when its time comes, with nothing written: the next minute is read anew.
    @Test func aMealBecomesOverdueWhenItsMinuteComes() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "Elisa Martins"), nadiaId = try test.id(of: "nadia")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = test.app.configuration.timeZone
        let now = test.clock.now
        let soon = now.addingTimeInterval(60)
        let parts = calendar.dateComponents([.hour, .minute], from: soon)
        try #require(calendar.isDate(soon, inSameDayAs: now), "the test clock is not at midnight")
        try test.write { db in
            try db.execute(sql: "DELETE FROM meal WHERE patientId = ?", arguments: [elisa])
            var meal = Meal(patientId: elisa, clinicianId: nadiaId, type: "lunch", date: ISODate.string(now, timeZone: calendar.timeZone),
                            time: String(format: "%02d:%02d", parts.hour!, parts.minute!), createdAt: now)
            try meal.insert(db)
        }
        let first = try nadia.get("/clinician", headers: Self.en).text
        #expect(!WorklistTests.reasons(of: "Elisa Martins", in: first).contains("Overdue meals"))
        #expect(!WorklistTests.reasons(of: "Elisa Martins", in: try nadia.get("/clinician", headers: Self.en).text).contains("Overdue meals"),
                "a second load in the same minute, from what was kept")
        test.clock.advance(by: 120)
        #expect(WorklistTests.reasons(of: "Elisa Martins", in: try nadia.get("/clinician", headers: Self.en).text).contains("Overdue meals: 1"))
    }
}
