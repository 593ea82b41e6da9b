import Foundation
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Issue 52, item 7: a trainer who measures only perimeters gets them stored and charted.
@Suite struct PerimetersOnlyTests {
    @Test func anEvaluationWithPerimetersAndNoSkinfoldsIsStoredAndCharted() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let saved = try dani.post("/clients/\(gustavo)/evaluations", [
            ("protocol", "jp7"), ("weight", "85,4"), ("height", "178"), ("p_waist", "91"), ("p_hip", "100,5"),
        ])
        #expect(saved.status == 303, "\(saved.text.prefix(2000))")
        let report = try dani.get(try #require(saved.header("Location")))
        #expect(!report.text.contains("preencha este campo"))
        #expect(report.text.contains("Só perímetros"))
        #expect(report.text.contains("91 cm"))
        #expect(!report.text.contains("g/cm³"), "no density, no % fat: the composition figures are absent")
        let client = try dani.get("/clients/\(gustavo)")
        #expect(client.text.contains(#"aria-label="Cintura (cm)""#), "the waist is charted")
        let stored = try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM skinfoldReading WHERE evaluationId = (SELECT max(id) FROM evaluation)")
        }
        #expect(stored == 0)
    }

    @Test func halfTheSkinfoldsStillAskForTheRest() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let refused = try dani.post("/clients/\(gustavo)/evaluations", [
            ("protocol", "jp7"), ("weight", "85,4"), ("height", "178"), ("sf_chest_1", "16"), ("p_waist", "91"),
        ])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Tríceps: preencha este campo."))
    }

    @Test func nothingMeasuredAsksForTheSkinfolds() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let refused = try dani.post("/clients/\(gustavo)/evaluations", [("protocol", "jp7"), ("weight", "85,4"), ("height", "178")])
        #expect(refused.status == 422)
    }
}
