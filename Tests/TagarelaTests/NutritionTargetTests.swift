import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Issue 52, item 6: a daily energy and macronutrient target per patient, against the prescription and what
/// was eaten, with a version like every other edit.
@Suite struct NutritionTargetTests {
    func target(_ kcal: String, protein: String = "90", version: String) -> [(String, String)] {
        [("targetKcal", kcal), ("targetProtein", protein), ("targetCarbohydrate", "250"), ("targetFat", ""), ("targetVersion", version)]
    }

    @Test func theStandingIsWithinTenPercent() {
        #expect(TargetStanding.of(1800, target: 2000) == .within)
        #expect(TargetStanding.of(1799, target: 2000) == .under)
        #expect(TargetStanding.of(2200, target: 2000) == .within)
        #expect(TargetStanding.of(2201, target: 2000) == .over)
    }

    @Test func aTargetIsSetAndEachDayIsShownAgainstIt() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let empty = try nadia.get("/patients/\(elisa)/nutrition")
        #expect(empty.text.contains("Ainda sem meta diária"))
        #expect(empty.text.contains(#"name="targetVersion" value="0""#))
        let saved = try nadia.post("/patients/\(elisa)/nutrition/target", target("1.800", version: "0"))
        #expect(saved.status == 303)
        let stored = try #require(try test.read { try DailyTarget.fetchOne($0, key: elisa) })
        #expect(stored.kcal == 1800 && stored.proteinG == 90 && stored.fatG == nil && stored.version == 1)
        let page = try nadia.get("/patients/\(elisa)/nutrition").text
        #expect(page.contains("meta 1.800 kcal"))
        #expect(page.contains("target-under") || page.contains("target-within") || page.contains("target-over"))
        #expect(page.contains("comido"), "what was eaten beside what was prescribed")
        #expect(page.contains(#"name="targetVersion" value="1""#))
    }

    @Test func aSecondTabGetsA409WithItsFiguresKept() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        #expect(try nadia.post("/patients/\(elisa)/nutrition/target", target("1800", version: "0")).status == 303)
        let second = try nadia.post("/patients/\(elisa)/nutrition/target", target("2345", protein: "77", version: "0"))
        #expect(second.status == 409)
        #expect(second.text.contains(#"value="2345""#) && second.text.contains(#"value="77""#))
        #expect(second.text.contains("Alguém alterou esta meta diária"))
        #expect(second.text.contains(#"name="targetVersion" value="1""#), "saving again replaces knowingly")
        #expect(try test.read { try DailyTarget.fetchOne($0, key: elisa) }?.kcal == 1800)
        #expect(try nadia.post("/patients/\(elisa)/nutrition/target", target("2345", version: "1")).status == 303)
    }

    @Test func anImplausibleTargetIsRefusedInWordsAndStoresNothing() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let refused = try nadia.post("/patients/\(elisa)/nutrition/target", target("40.000", protein: "muito", version: "0"))
        #expect(refused.status == 422)
        #expect(refused.text.contains("Energia: o valor deve ficar entre"))
        #expect(refused.text.contains("Proteínas: informe um número"), "the field named in its message")
        #expect(refused.text.contains(#"value="muito""#))
        #expect(try test.read { try DailyTarget.fetchOne($0, key: elisa) } == nil)
    }

    @Test func onlyTheNutritionistSetsIt() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.post("/patients/\(elisa)/nutrition/target", target("1800", version: "0")).status == 403)
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect([403, 404].contains(try bruno.post("/patients/\(elisa)/nutrition/target", target("1800", version: "0")).status))
        #expect(try test.read { try DailyTarget.fetchOne($0, key: elisa) } == nil)
    }
}
