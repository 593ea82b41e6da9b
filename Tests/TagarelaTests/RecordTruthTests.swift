import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The record counts the child's own words, says who helped, and prints for a family only what a family
/// may read (issue 51): an adult's modeling changes no goal, overview, report or worklist figure; the adult
/// says when the child taps alone; a private note never reaches a family's report.
@Suite struct RecordTruthTests {
    static let en = [("Accept-Language", "en")]

    func tap(_ browser: Browser, key: String, symbol: Int64, plan: Int64) throws -> Int {
        try browser.client.postForm("/taps", [("key", key), ("symbol", "\(symbol)"), ("plan", "\(plan)"), ("board", "\(plan)")],
                                    headers: browser.cookieHeader + [("X-CSRF-Token", browser.csrf)]).status
    }

    /// Carla's "Meu dia" board and its first symbol.
    func board(_ test: TestApp, _ carla: Int64) throws -> (plan: Int64, symbol: Int64) {
        try test.read { db in
            let plan = try Plan.filter(Column("patientId") == carla && Column("name") == "Meu dia").fetchOne(db)!
            let symbol = try Int64.fetchOne(db, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position",
                                            arguments: [plan.id])!
            return (plan.id!, symbol)
        }
    }

    /// The figures a clinician reads about Carla: a goal on the symbol, the record's taps of the last 30 days
    /// and their new words, the report's total.
    func figures(_ test: TestApp, _ carla: Int64, goal: Int64, ana: Browser) throws -> (goal: Double?, taps: Int, words: [String], report: String) {
        let today = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        let zone = test.app.configuration.timeZone
        let (goalValue, record) = try test.read { db in
            let goals = try Goal.filter(key: goal).fetchAll(db)
            let measured = try GoalQueries.measure(goals, today: today, timeZone: zone, db)[goal]?.measured
            let patient = try Patient.fetchOne(db, key: carla)!
            let actor = Actor(user: try User.fetchOne(db, sql: "SELECT * FROM user WHERE username = 'ana'")!)
            let record = try OverviewQueries.record(patient, for: actor, from: ISODate.adding(-29, to: today), to: today,
                                                    recentFrom: ISODate.adding(-6, to: today), timeZone: zone, now: test.clock.now,
                                                    noteLimit: 4, db)
            return (measured, record)
        }
        let report = try ana.get("/patients/\(carla)/report", headers: Self.en).text
        let total = report.components(separatedBy: "<dt>Taps</dt><dd>").dropFirst().first?.prefix { $0.isNumber } ?? ""
        return (goalValue, record.taps.values.reduce(0, +), record.newWords.map(\.name), String(total))
    }

    @Test func anAdultsModelingChangesNoFigureOfTheChild() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let (plan, symbol) = try board(test, carla)
        let ana = try test.browser(loggedInAs: "ana")
        let today = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        #expect(try ana.post("/patients/\(carla)/goals", [
            ("kind", "symbolTaps"), ("title", "Pede com a prancha"), ("symbolId", "\(symbol)"), ("target", "30"), ("direction", "atLeast"),
            ("startsOn", ISODate.adding(-20, to: today)), ("endsOn", ISODate.adding(20, to: today)), ("reviewOn", ISODate.adding(10, to: today)),
        ]).status == 303)
        let goal = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM goal WHERE title = 'Pede com a prancha'") })
        let before = try figures(test, carla, goal: goal, ana: ana)

        let bruno = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try bruno.post("/patient-mode/modeling", [("modeling", "on")]).status == 303)
        for n in 1...5 { #expect(try tap(bruno, key: "modeled-truth-\(n)", symbol: symbol, plan: plan) == 204) }
        let modeled = try figures(test, carla, goal: goal, ana: ana)
        #expect(modeled.goal == before.goal, "the goal counts the child's taps only")
        #expect(modeled.taps == before.taps && modeled.report == before.report && modeled.words == before.words)

        #expect(try bruno.post("/patient-mode/modeling", [("modeling", "off")]).status == 303)
        for n in 1...2 { #expect(try tap(bruno, key: "own-truth-\(n)", symbol: symbol, plan: plan) == 204) }
        let own = try figures(test, carla, goal: goal, ana: ana)
        #expect(own.goal == (before.goal ?? 0) + 2, "the child's own taps still count")
        #expect(own.taps == before.taps + 2)
        #expect(Int(own.report) == before.taps + 2, "the report's total: \(own.report)")

        // The CSV holds both, each modeled tap marked as the adult's; asked for the child's words, none.
        let csv = try ana.get("/patients/\(carla)/usage.csv", headers: Self.en).text
        #expect(csv.components(separatedBy: "yes: the adult's tap, not the child's").count - 1 == 5)
        #expect(csv.split(separator: "\r\n").first?.hasSuffix("Adult modeling") == true)
        let ownCSV = try ana.get("/patients/\(carla)/usage.csv?kind=own", headers: Self.en).text
        #expect(!ownCSV.contains("yes: the adult's tap"))
    }

    /// In patient mode a tap named the adult as its helper, always: "taps made alone" could only move for a
    /// child with a login. The adult now says "no help", and the taps that follow name no helper.
    @Test func theAdultSaysWhenTheChildTapsAlone() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let (plan, symbol) = try board(test, carla)
        let bruno = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let page = try bruno.get("/play/\(plan)").text
        #expect(page.contains(#"action="/patient-mode/alone""#) && page.contains(#"name="alone" value="on""#), "off: with help")
        #expect(try tap(bruno, key: "helped-0001", symbol: symbol, plan: plan) == 204)
        #expect(try bruno.post("/patient-mode/alone", [("alone", "on"), ("back", "/play/\(plan)")]).status == 303)
        #expect(try bruno.get("/play/\(plan)").text.contains(#"name="alone" value="off""#), "on: the switch turns it off")
        #expect(try tap(bruno, key: "alone-0001", symbol: symbol, plan: plan) == 204)
        let helpers = try test.read { db in
            try Row.fetchAll(db, sql: "SELECT key, assistedBy FROM tap WHERE key IN ('helped-0001', 'alone-0001') ORDER BY key")
                .map { ($0["key"] as String, $0["assistedBy"] as Int64?) }
        }
        let brunoId = try test.id(of: "Bruno Costa")
        #expect(helpers.map(\.0) == ["alone-0001", "helped-0001"])
        #expect(helpers[0].1 == nil && helpers[1].1 == brunoId)
        #expect(try bruno.post("/patient-mode/alone", [("alone", "maybe")]).status == 400)
        // Only patient mode has the switch; leaving patient mode and opening it again starts with help.
        #expect(try test.browser(loggedInAs: "ana").post("/patient-mode/alone", [("alone", "on")]).status == 403)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE alone") } == 1)
        _ = try bruno.post("/patient-mode/exit", [("password", DemoClinic.password)])
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE alone") } == 0)
    }

    /// The report names its reader: a family's never prints a note a clinician marked private, whoever opens
    /// it; the clinical team's, which only a clinician may ask for, does.
    @Test func aFamilysReportNeverPrintsAPrivateNote() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let privateNote = "quero + água"
        let privateGoalNote = "Manter; introduzir a categoria de ações"
        let family = try ana.get("/patients/\(carla)/report", headers: Self.en).text
        #expect(family.contains("For the family or the school"))
        #expect(!family.contains(privateNote) && !family.contains(privateGoalNote))
        #expect(family.contains("Usou a prancha"), "the tutor's shared note stays")
        #expect(family.contains("Na escola ela mostrou a prancha"), "a tutor's note on a goal is shared")
        let clinical = try ana.get("/patients/\(carla)/report?audience=clinical", headers: Self.en).text
        #expect(clinical.contains("For the clinical team"))
        #expect(clinical.contains(privateNote) && clinical.contains(privateGoalNote))
        #expect(clinical.contains(#"<option value="clinical" selected>"#))
        let bruno = try test.browser(loggedInAs: "bruno").get("/patients/\(carla)/report?audience=clinical", headers: Self.en).text
        #expect(bruno.contains("For the family or the school") && !bruno.contains(privateNote) && !bruno.contains(privateGoalNote))
        #expect(!bruno.contains(#"id="audience""#), "a tutor has no choice to make")
        let audited = try test.read { db in
            try String.fetchAll(db, sql: "SELECT summary FROM auditEntry WHERE action = 'export' AND entityId = ? ORDER BY id", arguments: [carla])
        }
        #expect(audited.map { $0.hasSuffix(" for family") } == [true, false, true])
        #expect(audited[1].hasSuffix(" for clinical"))
    }
}

/// The trainer and the adult patient are part of the record (issue 51): a trainer sets and follows body
/// goals for their clients and prints their report; an adult patient reads and prints her own.
@Suite struct RecordReadersTests {
    static let en = [("Accept-Language", "en")]

    @Test func aTrainerSetsBodyGoalsAndPrintsAClientsReport() async throws {
        let test = try await TestApp()
        let fernanda = try test.id(of: "Fernanda Dias")
        let dani = try test.browser(loggedInAs: "dani")
        let today = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        let client = try dani.get("/clients/\(fernanda)", headers: Self.en).text
        #expect(client.contains(#"href="/patients/\#(fernanda)/goals""#) && client.contains(#"href="/patients/\#(fernanda)/report""#))
        let goal: [(String, String)] = [
            ("kind", "bodyMeasure"), ("title", "Chegar a 60 kg"), ("measure", "weight"), ("target", "60"), ("direction", "atMost"),
            ("startsOn", ISODate.adding(-10, to: today)), ("endsOn", ISODate.adding(50, to: today)), ("reviewOn", ISODate.adding(20, to: today)),
        ]
        #expect(try dani.post("/patients/\(fernanda)/goals", goal).status == 303)
        #expect(try dani.post("/patients/\(fernanda)/goals", [("kind", "symbolTaps"), ("title", "Not mine")]).status == 403)
        let list = try dani.get("/patients/\(fernanda)/goals", headers: Self.en)
        #expect(list.status == 200 && list.text.contains("Chegar a 60 kg"))
        let report = try dani.get("/patients/\(fernanda)/report", headers: Self.en)
        #expect(report.status == 200)
        #expect(report.text.contains("Chegar a 60 kg") && report.text.contains(#"id="body-title""#))
        #expect(!report.text.contains(#"id="meals-title""#) && !report.text.contains(#"id="notes-title""#))
        #expect(report.text.contains(#"href="/clients/\#(fernanda)""#), "back to the client, not to a clinician's page")
        // Another trainer's client, and a patient who is nobody's client of Dani's: nothing.
        let carla = try test.id(of: "Carla Costa")
        #expect(try dani.get("/patients/\(carla)/report").status == 404)
        #expect(try dani.get("/patients/\(carla)/goals").status == 404)
    }

    @Test func anAdultPatientReadsHerOwnReportAndAChildDoesNot() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let home = try elisa.get("/patient", headers: Self.en).text
        #expect(home.contains(#"href="/my-report""#))
        let report = try elisa.get("/my-report", headers: Self.en)
        #expect(report.status == 200)
        #expect(report.text.contains("Progress report: Elisa Martins") && report.text.contains("For the family or the school"))
        #expect(report.text.contains(#"id="goals-title""#))
        #expect(report.text.contains(#"href="/patient""#))
        #expect(try elisa.get("/patients/\(try test.id(of: "Elisa Martins"))/report").status == 403)
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(!(try child.get("/patient").text.contains("/my-report")))
        #expect(try child.get("/my-report").status == 403)
    }
}

/// A child holding the tutor's tablet gives no consent and changes no setting (issue 49, item 1): every
/// route that changes a consent, a setting or an account refuses patient mode and changes nothing, and no
/// other route a child's session may post to is added without being named here.
@Suite struct PatientModeConsentTests {
    /// What a child's session may post: taps and sentences, games, meal answers and weights, and the adult's
    /// own switches and exit. Everything else that admits a patient must be `.ownAccount`.
    static let childActions: Set<String> = [
        "/taps", "/educat/results", "/educat/answers", "/meals/:meal/answer", "/measurements", "/measurements/import",
        "/patient-mode/exit", "/patient-mode/modeling", "/patient-mode/alone",
    ]

    @Test func aChildsSessionPostsOnlyWhatAChildDoes() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let child = Actor(user: try test.read { try User.fetchOne($0, key: carla)! }, supervisorId: try test.id(of: "bruno"))
        var posts = Set<String>()
        for route in test.app.router.patterns where route.method == .post {
            guard case .found(let handler, _) = test.app.router.match(route.method, HostileInputTests.path(route.pattern, [:])) else { continue }
            // Public routes (logging in, an invitation) are the same for anyone, signed in or not.
            if case .anyone = handler.access { continue }
            if handler.access.admits(child) { posts.insert("\(route.pattern)") }
        }
        #expect(posts == Self.childActions, "\(posts.symmetricDifference(Self.childActions))")
    }

    @Test func everyConsentAndSettingRefusesPatientMode() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let sharing = { try test.read { try Bool.fetchOne($0, sql: "SELECT sharesMeasurements FROM patient WHERE userId = ?", arguments: [carla]) } }
        let before = try sharing()
        let snapshot = try test.snapshot()
        for (path, fields) in [("/measurements/sharing", [("share", before == true ? "0" : "1")]),
                               ("/account/language", [("locale", "en")]),
                               ("/account/password", [("current", "x"), ("new", "carla-nova-senha-1"), ("confirm", "carla-nova-senha-1")]),
                               ("/account/sessions/end", []),
                               ("/link-requests/1/accept", []), ("/link-requests/1/decline", [])] {
            #expect(try tablet.post(path, fields).status == 403, "\(path)")
        }
        #expect(try sharing() == before)
        #expect(try test.snapshot() == snapshot, "nothing changed")
        let page = try tablet.get("/measurements")
        #expect(page.status == 200 && !page.text.contains(#"action="/measurements/sharing""#))
        // Elisa, signed in as herself, still changes hers.
        let elisa = try test.browser(loggedInAs: "elisa")
        #expect(try elisa.post("/measurements/sharing", [("share", "1")]).status == 303)
    }
}
