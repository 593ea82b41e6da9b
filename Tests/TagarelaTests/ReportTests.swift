import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The progress report: what each role sees for a period, its period refused in words, and every
/// opening audited as an export.
@Suite struct ReportTests {
    static let en = [("Accept-Language", "en")]

    static func exports(_ test: TestApp, _ patient: Int64) throws -> [String] {
        try test.read { db in
            try String.fetchAll(db, sql: """
                SELECT summary FROM auditEntry WHERE action = 'export' AND entity = 'patient' AND entityId = ? ORDER BY id
                """, arguments: [patient])
        }
    }

    @Test func theSpeechTherapistsReportHasChartsNotesAndAnAuditRow() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let page = try ana.get("/patients/\(carla)/report", headers: Self.en)
        #expect(page.status == 200)
        #expect(page.text.contains("Progress report: Carla Costa"))
        let communication = page.text.components(separatedBy: #"id="communication-title""#).last ?? ""
        #expect(communication.components(separatedBy: #"<svg class="chart""#).count - 1 == 2, "taps and sentences per day")
        let goals = page.text.components(separatedBy: #"id="goals-title""#).last?.components(separatedBy: "</section>").first ?? ""
        #expect(goals.components(separatedBy: #"<figure class="chart-figure goal-chart">"#).count - 1 >= 2, "the goals' weeks")
        #expect(page.text.contains("Prepared by Ana Souza"))
        #expect(page.text.contains("Usou a prancha"), "the tutor's note of the period")
        #expect(!page.text.contains(#"id="meals-title""#))
        let today = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        #expect(try Self.exports(test, carla) == ["progress report \(ISODate.adding(-29, to: today))…\(today) for family"])
        _ = try ana.get("/patients/\(carla)/report?from=2026-01-01&to=2026-06-30")
        #expect(try Self.exports(test, carla).last == "progress report 2026-01-01…2026-06-30 for family", "each view is an export")
    }

    @Test func aPeriodThatCannotBeReadIsNamedAndKept() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let refused = try ana.get("/patients/\(carla)/report?from=2026-11-20&to=2026-11-01", headers: Self.en)
        #expect(refused.status == 422)
        #expect(refused.text.contains("To: the last day cannot come before the first."))
        #expect(refused.text.contains(#"value="2026-11-20""#) && refused.text.contains(#"value="2026-11-01""#))
        let nonsense = try ana.get("/patients/\(carla)/report?from=%3Cscript%3E&to=", headers: Self.en)
        #expect(nonsense.status == 422)
        #expect(nonsense.text.contains("From: give a valid date"))
        #expect(!nonsense.text.contains("<script>"))
        let long = try ana.get("/patients/\(carla)/report?from=2020-01-01&to=2026-01-01", headers: Self.en)
        #expect(long.status == 422 && long.text.contains("at most a year"))
    }

    @Test func eachRoleSeesItsPartsAndStrangersNothing() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno").get("/patients/\(carla)/report", headers: Self.en)
        #expect(bruno.status == 200)
        #expect(bruno.text.contains(#"id="communication-title""#))
        #expect(!bruno.text.contains("quero + água"), "never the clinician's private note")
        let nadia = try test.browser(loggedInAs: "nadia").get("/patients/\(carla)/report", headers: Self.en)
        #expect(nadia.status == 200)
        #expect(nadia.text.contains(#"id="meals-title""#) && nadia.text.contains("Adherence"))
        #expect(!nadia.text.contains(#"id="communication-title""#) && !nadia.text.contains(#"id="notes-title""#))
        let before = try Self.exports(test, carla).count
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "rui", name: "Rui Lopes", specialties: ["speech"],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        #expect(try test.browser(loggedInAs: "rui").get("/patients/\(carla)/report").status == 404)
        #expect(try test.browser(loggedInAs: "dani").get("/patients/\(carla)/report").status == 404, "not a client of his")
        #expect(try Self.exports(test, carla).count == before, "a refused report exports nothing")
    }
}
