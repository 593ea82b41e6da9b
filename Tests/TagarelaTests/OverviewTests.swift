import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The patient's overview (`/patients/:id`): what each role sees of the record, parts left out when
/// there is nothing to show or nothing the reader may read, and the clinician's visit remembered.
@Suite struct OverviewTests {
    static let en = [("Accept-Language", "en")]

    /// The `<section>` whose heading has this id, or nil when the page has none.
    static func section(_ id: String, in page: String) -> String? {
        guard let start = page.range(of: #"aria-labelledby="\#(id)""#) else { return nil }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.upperBound ?? rest.endIndex)])
    }

    @Test func aSpeechTherapistSeesBoardsNotesAndTrendsOfCarla() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let page = try ana.get("/patients/\(carla)", headers: Self.en)
        #expect(page.status == 200)
        let communication = try #require(Self.section("communication-title", in: page.text))
        #expect(communication.contains("Taps") && communication.contains("in 7 days") && communication.contains("in 30 days"))
        #expect(communication.contains(#"<svg class="sparkline""#) && communication.contains("<polyline points=\""))
        #expect(communication.contains(#"href="/patients/\#(carla)/usage""#))
        // Two weeks of demo taps: each symbol was first used within the last 30 days, so they are new words.
        #expect(communication.contains(#"<ul class="word-list">"#) && !communication.contains("No new words"))
        let notes = try #require(Self.section("notes-title", in: page.text))
        #expect(notes.contains("Bruno") && notes.contains("Ana Souza"), "a clinician reads the tutor's and the clinicians' notes")
        #expect(notes.contains(#"href="/patients/\#(carla)/observations""#))
        #expect(Self.section("meals-title", in: page.text) == nil, "meals are the nutritionist's")
        #expect(Self.section("body-title", in: page.text) == nil)
        // The demo's goals (DemoGoals): listed with their progress, and linked to the goals page.
        let goals = try #require(Self.section("goals-title", in: page.text), "Carla has goals")
        #expect(goals.contains("<meter") && goals.contains(#"href="/patients/\#(carla)/goals""#))
        #expect(Self.section("games-title", in: page.text) == nil, "no games played: no games section")
        #expect(page.text.contains(#"href="/patients/\#(carla)/report""#))
        // The details and the tutors are still there.
        #expect(page.text.contains(#"id="profile-title""#) && page.text.contains(#"id="tutors-title""#))
    }

    /// The taps per day and the new words are summed in one pass over the tap summary; they must be what
    /// the two GROUP BY statements the page ran before give, on the demo's taps and on awkward ones: a
    /// symbol first used before the period (not new), ties in count ordered by name as SQLite's BINARY
    /// collation does (uppercase, then lowercase, then accented), taps without a symbol (counted per day only).
    @Test func tapsPerDayAndNewWordsAreWhatTheStatementsGave() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.read { db in Actor(user: try User.filter(Column("username") == "ana").fetchOne(db)!) }
        let timeZone = test.app.configuration.timeZone
        let today = ISODate.string(test.clock.now, timeZone: timeZone)
        let period = PatientOverview.period(today: today)
        let fresh = test.clock.now.addingTimeInterval(-86_400)
        try test.write { db in
            let demoSymbol = try #require(try Int64.fetchOne(db, sql: """
                SELECT symbolId FROM tapDay WHERE patientId = ? AND symbolId <> 0 ORDER BY day DESC LIMIT 1
                """, arguments: [carla]))
            let category = try #require(try Int64.fetchOne(db, sql: "SELECT categoryId FROM symbol WHERE id = ?", arguments: [demoSymbol]))
            func symbol(_ name: String) throws -> Int64 {
                try db.execute(sql: """
                    INSERT INTO symbol (clinicianId, patientId, categoryId, name, spokenText, pictogram, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, '1F4A7', ?, ?)
                    """, arguments: [ana.userId, carla, category, name, name, fresh, fresh])
                return db.lastInsertedRowID
            }
            var counter = 0
            func tap(_ symbolId: Int64?, at: Date, times: Int = 1) throws {
                for _ in 0..<times {
                    counter += 1
                    try db.execute(sql: "INSERT INTO tap (key, patientId, symbolId, at, receivedAt) VALUES (?, ?, ?, ?, ?)",
                                   arguments: ["overview-\(counter)", carla, symbolId, at, at])
                }
            }
            for name in ["Água", "abacate", "Zebra"] { try tap(try symbol(name), at: fresh, times: 250) }
            try tap(try symbol("antigo"), at: fresh, times: 400)
            try tap(try symbol("antigo 2"), at: fresh, times: 400)
            let old = try symbol("velho")
            try tap(old, at: fresh, times: 500)
            try tap(old, at: test.clock.now.addingTimeInterval(-40 * 86_400))
            try tap(nil, at: fresh, times: 7)
        }
        let record = try test.read { db in
            try OverviewQueries.record(try PeopleQueries.person(carla, visibleTo: ana, db).patient, for: ana, from: period.from, to: today,
                                       recentFrom: period.recentFrom, timeZone: timeZone, now: test.clock.now, noteLimit: 4, db)
        }
        let (perDay, newWords) = try test.read { db in
            (Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT day, sum(n) FROM tapDay WHERE patientId = ? AND day BETWEEN ? AND ? GROUP BY day
                """, arguments: [carla, period.from, today]).map { ($0[0] as String, $0[1] as Int) }),
             try Row.fetchAll(db, sql: """
                SELECT symbol.name, counted.n FROM (
                    SELECT symbolId, sum(n) AS n FROM tapDay
                    WHERE patientId = ? AND day BETWEEN ? AND ? AND symbolId <> 0 GROUP BY symbolId) AS counted
                JOIN symbol ON symbol.id = counted.symbolId
                WHERE (SELECT min(day) FROM tapDay AS first WHERE first.patientId = ? AND first.symbolId = counted.symbolId) >= ?
                ORDER BY counted.n DESC, symbol.name LIMIT 5
                """, arguments: [carla, period.from, today, carla, period.from]).map { OverviewQueries.Word(name: $0[0], count: $0[1]) })
        }
        #expect(record.taps == perDay)
        #expect(record.taps.values.reduce(0, +) > 1_000)
        #expect(record.newWords == newWords)
        #expect(record.newWords.map(\.name) == ["antigo", "antigo 2", "Zebra", "abacate", "Água"], "not velho, used 40 days ago")
    }

    @Test func aNutritionistSeesMealsAndWeightsNotBoards() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "Elisa Martins")
        let page = try nadia.get("/patients/\(elisa)", headers: Self.en).text
        let meals = try #require(Self.section("meals-title", in: page))
        #expect(meals.contains("Last 7 days") && meals.contains("Last 30 days") && meals.contains("followed"))
        #expect(meals.contains("Overdue meals:"), "the demo leaves the last day and a half unanswered")
        #expect(meals.contains(#"href="/patients/\#(elisa)/nutrition""#))
        let body = try #require(Self.section("body-title", in: page))
        #expect(body.contains("Latest weight") && body.contains("kg since"), "Elisa shares her weight, drifting down")
        #expect(body.contains("−"), "the change is a loss")
        #expect(Self.section("communication-title", in: page) == nil, "an adult without boards: no board section")
        #expect(Self.section("notes-title", in: page) == nil, "a nutritionist does not read the speech notes")
        let carla = try test.id(of: "Carla Costa")
        let carlaPage = try nadia.get("/patients/\(carla)", headers: Self.en).text
        #expect(Self.section("meals-title", in: carlaPage) != nil)
        #expect(Self.section("communication-title", in: carlaPage) == nil, "Carla's boards are the speech therapist's")
        #expect(Self.section("body-title", in: carlaPage) == nil, "Carla has no weights nor evaluations")
    }

    @Test func aTutorSeesBoardsAndOnlyTheirOwnNotes() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.id(of: "Carla Costa")
        let page = try bruno.get("/patients/\(carla)", headers: Self.en)
        #expect(page.status == 200)
        #expect(Self.section("communication-title", in: page.text) != nil)
        let notes = try #require(Self.section("notes-title", in: page.text))
        #expect(!notes.contains("Ana Souza") && !page.text.contains("quero + água"), "never the clinician's private notes")
        #expect(Self.section("meals-title", in: page.text) == nil)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM patientOpened") } == 0,
                "only a clinician's visit is remembered")
        let davi = try test.id(of: "Davi Alves")
        #expect(try bruno.get("/patients/\(davi)").status == 404, "another tutor's child")
    }

    @Test func anotherClinicianCannotKnowThePatient() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "rui", name: "Rui Lopes",
                                  specialties: ["speech", "nutrition"], password: DemoClinic.password, hasher: test.app.passwords)
        let rui = try test.browser(loggedInAs: "rui")
        let carla = try test.id(of: "Carla Costa")
        #expect(try rui.get("/patients/\(carla)").status == 404)
        #expect(try rui.get("/patients/999999").status == 404)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM patientOpened") } == 0)
        for person in ["dani", "elisa"] {
            #expect(try test.browser(loggedInAs: person).get("/patients/\(carla)").status == 403)
        }
    }

    @Test func aNewPatientShowsNoEmptySections() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let created = try ana.postMultipart("/patients", fields: [("displayName", "Gil Nunes")], files: [])
        let path = try #require(created.header("Location"))
        let page = try ana.get(path, headers: Self.en).text
        #expect(page.contains("Nothing recorded in the last 30 days yet."))
        for id in ["communication-title", "games-title", "meals-title", "body-title", "notes-title", "goals-title"] {
            #expect(Self.section(id, in: page) == nil, "\(id)")
        }
    }

    @Test func gamesAppearOnceAGameWasPlayedWithTheBestResult() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        try test.write { db in
            for (hits, daysAgo) in [(4, 2.0), (9, 10.0), (20, 45.0)] {
                try db.execute(sql: """
                    INSERT INTO educatResult (patientId, area, mode, hits, errors, durationSeconds, language, playedAt)
                    VALUES (?, 'vowels', 'challenge', ?, 1, 60, 'ca', ?)
                    """, arguments: [carla, hits, test.clock.now.addingTimeInterval(-daysAgo * 86_400)])
            }
        }
        let page = try test.browser(loggedInAs: "ana").get("/patients/\(carla)", headers: Self.en).text
        let games = try #require(Self.section("games-title", in: page))
        #expect(games.contains("Vowels"))
        #expect(games.contains("2 games (1 in 7 days) · best: 9 hits"), "the game 45 days ago is outside the 30 days")
        #expect(games.contains(#"href="/patients/\#(carla)/educat""#))
    }

    @Test func aClinicianOpeningThePatientIsRememberedWhenItTellsHerSomethingNew() async throws {
        let test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let anaId = try test.id(of: "ana")
        let changes = { try test.read { try Int.fetchOne($0, sql: "SELECT seq FROM patientChange WHERE patientId = ?", arguments: [carla]) } }
        #expect(!test.app.waitsForWriter(Request(method: .get, path: "/patients/\(carla)")),
                "a page view: most openings write nothing, so they do not queue for the writer")
        let opened = try ana.get("/patients/\(carla)")
        #expect(opened.status == 200)
        #expect(opened.header("X-Tagarela-DB-Accesses") == "2", "the read, then the mark after it")
        #expect(opened.header("X-Tagarela-DB-Nested") == "0")
        let first = try test.read { try RecordVisits.lastOpened(clinicianId: anaId, patientId: carla, $0) }
        #expect(first == test.clock.now, "Bruno's note was news")
        let seen = try changes()

        test.clock.advance(by: 60)
        let again = try ana.get("/patients/\(carla)")
        #expect(again.status == 200)
        #expect(again.header("X-Tagarela-DB-Accesses") == "1", "nothing new: the read alone")
        #expect(try test.read { try RecordVisits.lastOpened(clinicianId: anaId, patientId: carla, $0) } == first,
                "nothing new since: the mark stays, and the worklist has nothing to read again")
        #expect(try changes() == seen)

        test.clock.advance(by: 60)
        let day = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        #expect(try test.browser(loggedInAs: "bruno").post("/patients/\(carla)/observations",
                                                          [("observedOn", day), ("body", "Pediu água sozinha.")]).status == 303)
        test.clock.advance(by: 60)
        #expect(try ana.get("/patients/\(carla)").status == 200)
        #expect(try test.read { try RecordVisits.lastOpened(clinicianId: anaId, patientId: carla, $0) } == test.clock.now,
                "a new tutor note moves the mark, one row per clinician and patient")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM patientOpened") } == 1)
    }

    @Test func aMarkIsWrittenOnlyWhileThereIsNews() async throws {
        // Two tabs may both read news before either marks it: the second mark finds none and writes nothing.
        let test = try await TestApp()
        let (ana, carla) = (try test.id(of: "ana"), try test.id(of: "Carla Costa"))
        let noon = Date(timeIntervalSince1970: 1_800_000_000)
        try test.write { db in
            #expect(try RecordVisits.hasNews(clinicianId: ana, patientId: carla, db))
            try RecordVisits.markOpened(clinicianId: ana, patientId: carla, at: noon, db)
            #expect(try !RecordVisits.hasNews(clinicianId: ana, patientId: carla, db))
            try RecordVisits.markOpened(clinicianId: ana, patientId: carla, at: noon.addingTimeInterval(5), db)
            #expect(try RecordVisits.lastOpened(clinicianId: ana, patientId: carla, db) == noon, "the second tab's mark found no news")
        }
    }

    @Test func openingAPatientWithoutTutorNotesWritesNothing() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let created = try ana.postMultipart("/patients", fields: [("displayName", "Rita Reis")], files: [])
        let path = try #require(created.header("Location"))
        #expect(try ana.get(path).status == 200)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM patientOpened") } == 0)
    }
}
