import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Learning goals measured from every eduCAT answer: "% of answers right" in a game (a mode, a level)
/// over the period. The pure rule, the measure against real SQLite at the period's edges, the form, the
/// goal and overview pages, and the demo's goal.
@Suite struct GoalAccuracyTests {
    static let en = [("Accept-Language", "en")]
    let november = GoalRules.Period(startsOn: "2026-11-01", endsOn: "2026-11-30")

    // MARK: The pure rule

    @Test func noAnswerIsNotZeroPercentRight() {
        #expect(GoalRules.shareRight(right: 0, answered: 0) == nil)
        #expect(GoalRules.shareRight(right: 0, answered: 4) == 0)
        #expect(GoalRules.shareRight(right: 3, answered: 4) == 75)
        #expect(GoalRules.shareRight(right: 5, answered: 5) == 100)
        #expect(GoalRules.shareRight(right: 9, answered: 5) == 100, "never more right answers than answers")
    }

    @Test func anAccuracyGoalIsJudgedOverThePeriodSoFar() {
        let goal = Goal(patientId: 1, kind: GoalKind.gameAccuracy.rawValue, title: "x", direction: "atLeast", target: 70,
                        startsOn: "2026-11-01", endsOn: "2026-11-30", createdAt: Date(), updatedAt: Date(), version: 1)
        #expect(goal.style == .average && goal.goalKind.area == .learning && goal.unitKey == "goal_unit_percent_right")
        func status(_ measured: Double?, on today: String) -> GoalStatus {
            GoalRules.status(goal.style, period: november, today: today, measured: measured, target: 70)
        }
        #expect(status(nil, on: "2026-10-31") == .notStarted)
        #expect(status(nil, on: "2026-11-07") == .notStarted, "no game in the first week: not started yet")
        #expect(status(nil, on: "2026-11-08") == .behind, "no game after the first week: behind")
        #expect(status(70, on: "2026-11-15") == .onTrack, "exactly the target is on track")
        #expect(status(69.9, on: "2026-11-15") == .behind)
        #expect(status(70, on: "2026-12-01") == .met)
        #expect(status(nil, on: "2026-12-01") == .missed)
    }

    @Test func theLevelSelectNamesItsGame() {
        #expect(GoalInput.levelChoice("", area: .numbers) == .any)
        #expect(GoalInput.levelChoice("numbers:2", area: .numbers) == .level(2))
        #expect(GoalInput.levelChoice("alphabet:4", area: .numbers) == .otherGame)
        #expect(GoalInput.levelChoice("numbers:4", area: .numbers) == .unknown, "numbers has three levels")
        #expect(GoalInput.levelChoice("numbers", area: .numbers) == .unknown)
        #expect(GoalInput.levelChoice("chess:1", area: .numbers) == .unknown)
    }

    // MARK: The measure, against the database

    /// São Paulo: 1 Nov begins at 03:00 UTC. An answer a second before is October's; one at the first
    /// second is November's; today's last second counts, tomorrow's first does not.
    @Test func answersCountInTheirGameModeLevelAndPeriod() async throws {
        let test = try await TestApp()
        let ana = try test.read { db in try Actor(user: User.filter(Column("username") == "ana").fetchOne(db)!) }
        let audit = AuditContext(actorId: ana.userId, actorName: ana.displayName, clientAddress: "test", now: test.clock.now)
        let utc = ISO8601DateFormatter()
        try test.write { db in
            var user = User(username: nil, displayName: "Aluno Novo", role: .patient, specialties: "", createdAt: Date(), updatedAt: Date())
            try user.insert(db)
            let patient = user.id!
            try Patient(userId: patient, birthDate: "2018-01-01", sex: .female, diagnosis: "").insert(db)
            var sequence = 0
            func answer(_ at: String, right: Bool, area: String = "numbers", mode: String = "challenge", level: Int = 2) throws {
                sequence += 1
                try db.execute(sql: """
                    INSERT INTO educatAnswer (patientId, gameKey, area, mode, level, asked, expected, tapped, correct, milliseconds,
                      sequence, language, answeredAt) VALUES (?, 'game-1234', ?, ?, ?, '3', '3', ?, ?, 1500, ?, 'pt-BR', ?)
                    """, arguments: [patient, area, mode, level, right ? "3" : "4", right, sequence, utc.date(from: at)!])
            }
            try answer("2026-11-01T02:59:59Z", right: false)                 // 31 Oct, 23:59:59 local: outside
            try answer("2026-11-01T03:00:00Z", right: true)                  // 1 Nov, 00:00:00 local: the first second
            try answer("2026-11-10T15:00:00Z", right: true)
            try answer("2026-11-10T15:00:05Z", right: false)
            try answer("2026-11-19T02:59:59Z", right: true)                  // 18 Nov (today), 23:59:59 local
            try answer("2026-11-19T03:00:00Z", right: false)                 // 19 Nov: tomorrow
            try answer("2026-11-10T15:01:00Z", right: false, mode: "normal")
            try answer("2026-11-10T15:02:00Z", right: false, level: 1)
            try answer("2026-11-10T15:03:00Z", right: false, area: "vowels")
            func create(mode: String?, level: Int?, from: String = "2026-11-01") throws -> Goal {
                try Goals.create(GoalInput(kind: .gameAccuracy, title: "Acertos \(mode ?? "-") \(level ?? 0) \(from)", target: 70,
                                           startsOn: from, endsOn: "2026-11-30", gameArea: "numbers", gameMode: mode, gameLevel: level),
                                 patientId: patient, by: ana, audit: audit, db)
            }
            let exact = try create(mode: "challenge", level: 2)
            let anyLevel = try create(mode: "challenge", level: nil)
            let anything = try create(mode: nil, level: nil)
            let empty = try create(mode: "normal", level: 3)
            let goals = [exact, anyLevel, anything, empty]
            let measured = try GoalQueries.measure(goals, today: "2026-11-18", timeZone: TimeZone(identifier: "America/Sao_Paulo")!, db)
            #expect(measured[exact.id!]?.measured == 75, "3 right of the 4 answers of challenge, level 2, 1–18 Nov")
            #expect(measured[anyLevel.id!]?.measured == 60, "3 of 5 with level 1")
            #expect(measured[anything.id!]?.measured == 50, "3 of 6 with normal mode; never another game's")
            #expect(measured[empty.id!]?.measured == nil && measured[empty.id!]?.status == .behind,
                    "no answer at that level after the first week: nothing measured, behind")
            #expect(measured[exact.id!]?.status == .onTrack)
            let stored = try #require(try Goal.fetchOne(db, key: exact.id!))
            #expect(stored.gameLevel == 2 && stored.gameArea == "numbers" && stored.aggregate == nil)
        }
    }

    // MARK: Over HTTP

    @Test func theFormOffersItAndRefusesALevelOfAnotherGame() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let kinds = try ana.get("/patients/\(carla)/goals/new", headers: Self.en).text
        #expect(kinds.contains("kind=gameAccuracy") && kinds.contains("eduCAT answers right"))
        let form = try ana.get("/patients/\(carla)/goals/new?kind=gameAccuracy", headers: Self.en)
        #expect(form.status == 200)
        #expect(form.text.contains(#"<option value="numbers:2""#) && form.text.contains("any level"))
        #expect(!form.text.contains(#"name="aggregate""#), "an accuracy goal has no best or average")
        let once = try #require(form.text.firstMatch(of: /name="_once" value="([^"]+)"/).map { String($0.1) })
        var fields = [("_once", once), ("kind", "gameAccuracy"), ("title", "Acerta as vogais"), ("gameArea", "vowels"),
                      ("gameMode", ""), ("gameLevel", "numbers:2"), ("target", "80"), ("startsOn", "2026-11-01"),
                      ("endsOn", "2026-12-20")]
        let refused = try ana.post("/patients/\(carla)/goals", fields)
        #expect(refused.status == 422)
        #expect(refused.text.contains("Nível: escolha um nível do jogo escolhido acima (ou qualquer nível)."))
        #expect(refused.text.contains(#"value="Acerta as vogais""#), "what was typed is kept")
        #expect(try test.read { try Goal.filter(Column("title") == "Acerta as vogais").fetchCount($0) } == 0)
        let tooMuch = try ana.post("/patients/\(carla)/goals", fields.map { $0.0 == "target" ? ($0.0, "140") : $0 })
        #expect(tooMuch.status == 422, "a share above 100 % is a typing slip")

        fields = fields.map { $0.0 == "gameLevel" ? ($0.0, "vowels:1") : $0 }
        let created = try ana.post("/patients/\(carla)/goals", fields)
        #expect(created.status == 303)
        let goal = try #require(try test.read { try Goal.filter(Column("title") == "Acerta as vogais").fetchOne($0) })
        #expect(goal.kind == "gameAccuracy" && goal.gameArea == "vowels" && goal.gameLevel == 1 && goal.gameMode == nil && goal.target == 80)
        let page = try ana.get("/patients/\(carla)/goals/\(goal.id!)", headers: Self.en).text
        #expect(page.contains("Answers right in") && page.contains("any mode") && page.contains("% right"))
        // Editing it shows the level chosen.
        let edit = try ana.get("/patients/\(carla)/goals/\(goal.id!)/edit").text
        #expect(edit.contains(#"<option value="vowels:1" selected"#))
        // A nutritionist may read it but not set one.
        let nadia = try test.browser(loggedInAs: "nadia")
        #expect(try nadia.post("/patients/\(carla)/goals", fields).status == 403)
    }

    @Test func theDemoGivesDaviAnAccuracyGoalOnTrackThatHisRecordShows() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let goal = try #require(try test.read {
            try Goal.filter(Column("patientId") == davi && Column("kind") == GoalKind.gameAccuracy.rawValue).fetchOne($0)
        })
        let progress = try #require(try test.read {
            try GoalQueries.measure([goal], today: "2026-11-18", timeZone: test.app.configuration.timeZone, $0)[goal.id!]
        })
        #expect(progress.measured == 75 && progress.status == .onTrack, "15 of the 20 demo answers right")
        let ana = try test.browser(loggedInAs: "ana")
        let overview = try ana.get("/patients/\(davi)", headers: Self.en).text
        #expect(overview.contains(goal.title) && overview.contains("% right"))
        let list = try ana.get("/patients/\(davi)/goals", headers: Self.en).text
        #expect(list.contains(goal.title) && list.contains("Answers right in"))
    }
}
