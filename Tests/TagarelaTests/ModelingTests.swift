import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// "An adult is modeling": a switch of patient mode, remembered by the session, that marks the taps
/// that follow as the adult's (`tap.modeling`), which the usage history and the `.obl` keep apart.
@Suite struct ModelingTests {
    func tap(_ browser: Browser, key: String, symbol: Int64, plan: Int64) throws -> Int {
        try browser.client.postForm("/taps", [("key", key), ("symbol", "\(symbol)"), ("plan", "\(plan)"), ("board", "\(plan)")],
                                    headers: browser.cookieHeader + [("X-CSRF-Token", browser.csrf)]).status
    }

    func modeling(_ test: TestApp, key: String) throws -> Bool? {
        try test.read { try Bool.fetchOne($0, sql: "SELECT modeling FROM tap WHERE key = ?", arguments: [key]) }
    }

    @Test func theSwitchMarksTheTapsThatFollowAsModelingUntilItIsTurnedOff() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let board = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Meu dia").fetchOne($0)! }
        let symbol = try test.read {
            try Int64.fetchOne($0, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position",
                               arguments: [board.id])!
        }
        let bruno = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let player = try bruno.get("/play/\(board.id!)")
        #expect(player.text.contains(#"role="switch" aria-checked="false""#), "the switch is on the board, off")
        #expect(try tap(bruno, key: "own-word-0001", symbol: symbol, plan: board.id!) == 204)

        let on = try bruno.post("/patient-mode/modeling", [("modeling", "on"), ("back", "/play/\(board.id!)")])
        #expect(on.status == 303 && on.header("Location") == "/play/\(board.id!)")
        #expect(try bruno.get("/play/\(board.id!)").text.contains(#"role="switch" aria-checked="true""#))
        #expect(try tap(bruno, key: "modeled-0001", symbol: symbol, plan: board.id!) == 204)
        #expect(try tap(bruno, key: "modeled-0002", symbol: symbol, plan: board.id!) == 204)
        // A second tab of the same tablet: the same session, so the same switch.
        #expect(try bruno.get("/patient").text.contains(#"aria-checked="true""#))

        let off = try bruno.post("/patient-mode/modeling", [("modeling", "off"), ("back", "//elsewhere.example/x")])
        #expect(off.status == 303 && off.header("Location") == "/patient", "a back link off the site goes home instead")
        #expect(try tap(bruno, key: "own-word-0002", symbol: symbol, plan: board.id!) == 204)
        #expect(try modeling(test, key: "own-word-0001") == false)
        #expect(try modeling(test, key: "modeled-0001") == true && modeling(test, key: "modeled-0002") == true)
        #expect(try modeling(test, key: "own-word-0002") == false)

        // A value that is neither on nor off changes nothing.
        #expect(try bruno.post("/patient-mode/modeling", [("modeling", "yes")]).status == 400)
        #expect(try test.read { try Bool.fetchOne($0, sql: "SELECT max(modeling) FROM session WHERE patientModeFor = ?", arguments: [carla]) } == false)
    }

    @Test func theSwitchIsOnlyPatientModesAndEndsWithIt() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        // Signed in as an adult, or as nobody, there is no switch to press.
        let ana = try test.browser(loggedInAs: "ana")
        #expect(!(try ana.get("/clinician").text.contains("patient-mode/modeling")))
        #expect(try ana.post("/patient-mode/modeling", [("modeling", "on")]).status == 403)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE modeling") } == 0)

        let bruno = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try bruno.post("/patient-mode/modeling", [("modeling", "on")]).status == 303)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE modeling AND patientModeFor = ?", arguments: [carla]) } == 1)
        // Without the CSRF token nothing changes.
        #expect(try bruno.post("/patient-mode/modeling", [("modeling", "off")], csrf: "wrong").status == 403)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE modeling") } == 1)
        // Leaving patient mode ends modeling; opening it again starts with the child's own words.
        #expect(try bruno.post("/patient-mode/exit", [("password", DemoClinic.password)]).status == 303)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM session WHERE modeling") } == 0)
        _ = try bruno.post("/patients/\(carla)/patient-mode")
        #expect(try bruno.get("/patient").text.contains(#"aria-checked="false""#))
    }

    @Test func theUsageHistoryAndTheLogKeepModelingApartFromTheChildsOwnWords() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let board = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Meu dia").fetchOne($0)! }
        let symbol = try test.read {
            try Int64.fetchOne($0, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position",
                               arguments: [board.id])!
        }
        let bruno = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try tap(bruno, key: "own-word-0101", symbol: symbol, plan: board.id!) == 204)
        _ = try bruno.post("/patient-mode/modeling", [("modeling", "on")])
        #expect(try tap(bruno, key: "modeled-0101", symbol: symbol, plan: board.id!) == 204)
        #expect(try tap(bruno, key: "modeled-0102", symbol: symbol, plan: board.id!) == 204)

        let ana = try test.browser(loggedInAs: "ana")
        let counts = try test.read { db in
            (own: try Int.fetchOne(db, sql: "SELECT count(*) FROM tap WHERE patientId = ? AND NOT modeling", arguments: [carla])!,
             modeling: try Int.fetchOne(db, sql: "SELECT count(*) FROM tap WHERE patientId = ? AND modeling", arguments: [carla])!)
        }
        #expect(counts.modeling == 2 && counts.own > 1)
        let badge = #"<span class="badge">modelagem</span>"#
        // The page shows the child's own words unless asked: the record's figures are theirs (issue 51).
        let unnamed = try ana.get("/patients/\(carla)/usage")
        #expect(unnamed.text.contains("\(counts.own) toques no período") && !unnamed.text.contains(badge))
        let both = try ana.get("/patients/\(carla)/usage?kind=both")
        #expect(both.text.components(separatedBy: badge).count - 1 == 2)
        #expect(both.text.contains(#"<option value="modeling" >"#) || both.text.contains(#"<option value="modeling""#))
        let modeled = try ana.get("/patients/\(carla)/usage?kind=modeling")
        #expect(modeled.status == 200)
        #expect(modeled.text.contains("2 toques no período"), "the count is the modeling taps'")
        #expect(modeled.text.components(separatedBy: badge).count - 1 == 2)
        #expect(modeled.text.contains(#"<option value="modeling" selected>"#))
        #expect(modeled.text.contains("kind=modeling"), "the CSV and .obl links keep the filter")
        let own = try ana.get("/patients/\(carla)/usage?kind=own")
        #expect(own.text.contains("\(counts.own) toques no período"))
        #expect(!own.text.contains(badge))
        #expect(!both.text.contains(#"<span class="badge"></span>"#), "an own word has no badge, not an empty one")
        #expect(try ana.get("/patients/\(carla)/usage?kind=nonsense").status == 200, "an unknown kind is the child's own")

        // The .obl: both kinds, told apart by `modeling`; and filtered like the page.
        func events(_ query: String) throws -> [[String: Any]] {
            let response = try ana.get("/patients/\(carla)/usage.obl\(query)")
            #expect(response.status == 200)
            let log = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            return (log["sessions"] as? [[String: Any]] ?? []).flatMap { $0["events"] as? [[String: Any]] ?? [] }
                .filter { $0["type"] as? String == "button" }
        }
        let all = try events("")
        #expect(all.filter { $0["modeling"] as? Bool == true }.count == 2)
        #expect(all.filter { $0["modeling"] as? Bool == false }.count == counts.own)
        #expect(try events("?kind=modeling").allSatisfy { $0["modeling"] as? Bool == true })
        #expect(try events("?kind=modeling").count == 2)
        #expect(try events("?kind=own").count == counts.own)
    }

    @Test func aTapStoredDirectlyKeepsModelingOnlyInPatientMode() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let board = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Meu dia").fetchOne($0)! }
        let symbol = try test.read {
            try Int64.fetchOne($0, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL", arguments: [board.id])!
        }
        let patient = try test.read { try User.find(carla, $0)! }
        let bruno = try test.read { try User.filter(Column("username") == "bruno").fetchOne($0)! }
        let at = test.clock.now
        try test.write { db in
            // The child signed in on their own: never modeling, whatever is passed.
            try Taps.record(symbolId: symbol, key: "direct-own-01", planId: board.id!, at: at, receivedAt: at,
                            actor: Actor(user: patient), modeling: true, db)
            try Taps.record(symbolId: symbol, key: "direct-model-01", planId: board.id!, at: at, receivedAt: at,
                            actor: Actor(user: patient, supervisorId: bruno.id), modeling: true, db)
        }
        #expect(try modeling(test, key: "direct-own-01") == false)
        #expect(try modeling(test, key: "direct-model-01") == true)
    }
}
