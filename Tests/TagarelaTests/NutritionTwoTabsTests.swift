import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Two tabs editing the same record: the first save wins, the second answers 409 with what was typed,
/// and saving again from that answer replaces the first knowingly.
@Suite struct NutritionTwoTabsTests {
    func pendingMeal(_ test: TestApp, _ patient: Int64) throws -> (Meal, [MealLine]) {
        try test.read { db in
            let meal = try #require(try Meal.queue(of: patient).fetchAll(db).first)
            return (meal, try MealLine.filter(Column("mealId") == meal.id).order(Column("position")).fetchAll(db))
        }
    }

    func prescription(_ meal: Meal, _ lines: [MealLine], time: String, customName: String? = nil, version: String) -> [(String, String)] {
        var fields = [("type", customName == nil ? meal.type : "custom"), ("customName", customName ?? ""), ("date", meal.date),
                      ("time", time), ("version", version)]
        for (index, line) in lines.enumerated() {
            fields += [("food_\(index)", "\(line.foodId)"), ("quantity_\(index)", "\(line.quantity)"), ("unit_\(index)", line.unit)]
        }
        return fields
    }

    @Test func aMealEditedInTwoTabsKeepsTheFirstSaveAndGivesTheSecondItsTypedTextBack() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (meal, lines) = try pendingMeal(test, elisaId)
        let edit = "/patients/\(elisaId)/meals/\(meal.id!)"
        for _ in 0..<2 {
            let form = try nadia.get(edit + "/edit")
            #expect(form.status == 200)
            #expect(form.text.contains(#"name="version" value="\#(meal.version)""#), "the form names the version it shows")
        }
        let first = try nadia.post(edit, prescription(meal, lines, time: "06:05", version: "\(meal.version)"))
        #expect(first.status == 303)
        let second = try nadia.post(edit, prescription(meal, lines, time: "16:45", customName: "Lanche especial da tarde",
                                                       version: "\(meal.version)"))
        #expect(second.status == 409)
        #expect(second.text.contains("Alguém alterou esta refeição desde que você abriu o formulário"))
        #expect(second.text.contains(#"value="Lanche especial da tarde""#), "the typed name is kept")
        #expect(second.text.contains(#"value="16:45""#), "the typed time is kept")
        let stored = try #require(try test.read { try Meal.fetchOne($0, key: meal.id) })
        #expect(stored.time == "06:05" && stored.customName == nil, "the database holds the first save")
        #expect(stored.version == meal.version + 1)
        #expect(second.text.contains(#"name="version" value="\#(stored.version)""#), "saving again replaces knowingly")

        let again = try nadia.post(edit, prescription(meal, lines, time: "16:45", customName: "Lanche especial da tarde",
                                                      version: "\(stored.version)"))
        #expect(again.status == 303)
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.time == "16:45")
    }

    @Test func aMealEditWithoutAVersionChangesNothing() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (meal, lines) = try pendingMeal(test, elisaId)
        let refused = try nadia.post("/patients/\(elisaId)/meals/\(meal.id!)",
                                     prescription(meal, lines, time: "06:05", version: "").filter { $0.0 != "version" })
        #expect(refused.status == 409)
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.time == meal.time)
    }

    @Test func anEvaluationCorrectedInTwoTabsKeepsTheFirstAndGivesTheSecondItsTypedTextBack() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let saved = try dani.post("/clients/\(gustavo)/evaluations", BodyCompositionTests.fullEvaluation)
        let report = try #require(saved.header("Location")?.split(separator: "?").first.map(String.init))
        let id = try #require(Int64(report.split(separator: "/").last!))
        for _ in 0..<2 {
            #expect(try dani.get(report + "/edit").text.contains(#"name="version" value="1""#))
        }
        let others = BodyCompositionTests.fullEvaluation.filter { $0.0 != "weight" && $0.0 != "p_waist" }
        let first = try dani.post(report, others + [("weight", "84,1"), ("p_waist", "91"), ("version", "1")])
        #expect(first.status == 303)
        let second = try dani.post(report, others + [("weight", "86,7"), ("p_waist", "93,5"), ("version", "1")])
        #expect(second.status == 409)
        #expect(second.text.contains("Alguém corrigiu esta avaliação desde que você abriu o formulário"))
        #expect(second.text.contains(#"value="86,7""#) && second.text.contains(#"value="93,5""#), "what was typed is kept")
        #expect(second.text.contains(#"name="version" value="2""#))
        let stored = try #require(try test.read { try Evaluation.fetchOne($0, key: id) })
        #expect(stored.weightGrams == 84_100 && stored.version == 2, "the database holds the first correction")
        let updates = try test.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM auditEntry WHERE entity = 'evaluation' AND entityId = ? AND action = 'update'",
                             arguments: [id])
        }
        #expect(updates == 1, "the refused correction wrote no audit row")
    }
}
