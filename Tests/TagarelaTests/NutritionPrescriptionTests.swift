import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Prescriptions a clinician would want to look at twice, and numbers read the same way in every form.
@Suite struct NutritionPrescriptionTests {
    func food(_ test: TestApp, _ key: String) throws -> Int64 {
        try test.read { try Food.filter(Column("key") == key).fetchOne($0)!.id! }
    }

    func meals(_ test: TestApp, _ patient: Int64, on date: String) throws -> [Meal] {
        try test.read { try Meal.filter(Column("patientId") == patient && Column("date") == date).fetchAll($0) }
    }

    @Test(arguments: [(AppLocale.ptBR, "1.000", 1000.0), (.ptBR, "1.000,5", 1000.5), (.ptBR, "72.5", 72.5), (.ptBR, "0.250", 0.25),
                      (.ptBR, "1.234.567", 1_234_567), (.es, "1.000", 1000), (.ca, "1.000,5", 1000.5),
                      (.en, "1,000", 1000), (.en, "1,000.5", 1000.5), (.en, "72,5", 72.5), (.en, "1.5", 1.5)])
    func oneNumberReaderByLocale(_ locale: AppLocale, _ text: String, _ expected: Double) {
        #expect(LocalizedFormat(locale: locale, timeZone: .gmt).parseDecimal(text) == expected)
    }

    @Test func aSecondLunchOnADayWarnsAndStoresNothingUntilConfirmed() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let rice = try food(test, "arroz-branco-cozido")
        let before = try meals(test, elisa, on: "2026-11-20")
        #expect(before.contains { $0.type == "lunch" }, "the demo already prescribes a lunch that day")
        let fields = [("type", "lunch"), ("date", "2026-11-20"), ("time", "13:15"),
                      ("food_0", "\(rice)"), ("quantity_0", "3"), ("unit_0", "household")]
        let warned = try nadia.post("/patients/\(elisa)/meals", fields)
        #expect(warned.status == 422)
        #expect(warned.text.contains("Nada foi salvo ainda"))
        #expect(warned.text.contains("20/11/2026 já tem uma refeição deste tipo ou neste horário (12:30)"))
        #expect(warned.text.contains(#"name="confirm" value="1""#))
        #expect(warned.text.contains(#"value="13:15""#), "what was typed is kept")
        #expect(try meals(test, elisa, on: "2026-11-20").count == before.count, "nothing stored")

        let confirmed = try nadia.post("/patients/\(elisa)/meals", fields + [("confirm", "1")])
        #expect(confirmed.status == 303)
        #expect(try meals(test, elisa, on: "2026-11-20").count == before.count + 1)
    }

    @Test func anImplausibleQuantityWarnsWithTheDaysEnergyAndKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let yogurt = try food(test, "iogurte-natural")
        let fields = [("type", "custom"), ("customName", "Ceia"), ("date", "2026-11-25"), ("time", "22:40"),
                      ("food_0", "\(yogurt)"), ("quantity_0", "1.000,5"), ("unit_0", "household")]
        let warned = try nadia.post("/patients/\(elisa)/meals", fields)
        #expect(warned.status == 422)
        #expect(warned.text.contains("1.000,5 é muito para uma refeição"))
        #expect(warned.text.contains("kcal prescritas, mais de 5.000 kcal") || warned.text.contains("kcal prescritas, mais de 5000 kcal"))
        #expect(warned.text.contains(#"value="1.000,5""#))
        #expect(try meals(test, elisa, on: "2026-11-25").isEmpty)

        let unconfirmedEdit = try nadia.post("/patients/\(elisa)/meals", fields + [("confirm", "")])
        #expect(unconfirmedEdit.status == 422)
        #expect(try nadia.post("/patients/\(elisa)/meals", fields + [("confirm", "1")]).status == 303)
        let stored = try #require(try meals(test, elisa, on: "2026-11-25").first)
        #expect(try test.read { try MealLine.filter(Column("mealId") == stored.id).fetchOne($0) }?.quantity == 1000.5)
    }

    @Test func anEditThatMakesAQuantityImplausibleWarnsToo() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let meal = try #require(try test.read { try Meal.queue(of: elisa).fetchAll($0).first })
        let lines = try test.read { try MealLine.filter(Column("mealId") == meal.id).order(Column("position")).fetchAll($0) }
        var fields = [("type", meal.type), ("date", meal.date), ("time", meal.time), ("version", "\(meal.version)")]
        for (index, line) in lines.enumerated() {
            fields += [("food_\(index)", "\(line.foodId)"), ("quantity_\(index)", index == 0 ? "999" : "\(line.quantity)"),
                       ("unit_\(index)", line.unit)]
        }
        let warned = try nadia.post("/patients/\(elisa)/meals/\(meal.id!)", fields)
        #expect(warned.status == 422)
        #expect(warned.text.contains("999 é muito para uma refeição"))
        #expect(try test.read { try MealLine.filter(Column("mealId") == meal.id).order(Column("position")).fetchOne($0) }?.quantity
                == lines[0].quantity)
        #expect(try nadia.post("/patients/\(elisa)/meals/\(meal.id!)", fields + [("confirm", "1")]).status == 303)
    }

    /// "1.000" is a thousand wherever "1.000,5" is a thousand and a half: the meal form and the food form agree.
    @Test func thousandsAreReadAlikeInTheMealAndFoodForms() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let rice = try food(test, "arroz-branco-cozido")
        for (day, typed, expected) in [("2026-11-26", "1.000", 1000.0), ("2026-11-27", "1.000,5", 1000.5)] {
            let saved = try nadia.post("/patients/\(elisa)/meals", [
                ("type", "lunch"), ("date", day), ("time", "12:30"), ("food_0", "\(rice)"), ("quantity_0", typed), ("unit_0", "gram"),
                ("confirm", "1"),
            ])
            #expect(saved.status == 303)
            let meal = try #require(try meals(test, elisa, on: day).first)
            #expect(try test.read { try MealLine.filter(Column("mealId") == meal.id).fetchOne($0) }?.quantity == expected)
        }
        for (name, typed, expected) in [("Sopa caseira A", "1.000", 1000.0), ("Sopa caseira B", "1.000,5", 1000.5)] {
            let saved = try nadia.post("/foods", [("name", name), ("unit", "portion"), ("gramsPerUnit", typed), ("kcal", "40")])
            #expect(saved.status == 303)
            #expect(try test.read { try Food.filter(Column("namePtBR") == name).fetchOne($0) }?.gramsPerUnit == expected)
        }
    }

    /// Copying a day, moving one copied lunch to another time, then copying again adds no second lunch,
    /// and the message says nothing was copied.
    @Test func copyingAgainAfterAnEditAddsNoMealAndSaysSo() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let copy = [("source", "2026-11-20"), ("from", "2026-12-01"), ("to", "2026-12-03")]
        let first = try nadia.post("/patients/\(elisa)/meals/copy", copy)
        #expect(first.status == 303)
        #expect(try nadia.get(first.header("Location")!).text.contains("Dia copiado para todos os dias escolhidos."))
        let lunch = try #require(try meals(test, elisa, on: "2026-12-02").first { $0.type == "lunch" })
        let lines = try test.read { try MealLine.filter(Column("mealId") == lunch.id).order(Column("position")).fetchAll($0) }
        var fields = [("type", "lunch"), ("date", lunch.date), ("time", "13:40"), ("version", "\(lunch.version)")]
        for (index, line) in lines.enumerated() {
            fields += [("food_\(index)", "\(line.foodId)"), ("quantity_\(index)", "\(line.quantity)"), ("unit_\(index)", line.unit)]
        }
        #expect(try nadia.post("/patients/\(elisa)/meals/\(lunch.id!)", fields).status == 303)
        let before = try test.read { try Meal.filter(Column("patientId") == elisa && Column("date") >= "2026-12-01").fetchCount($0) }
        let again = try nadia.post("/patients/\(elisa)/meals/copy", copy)
        #expect(again.status == 303)
        #expect(try nadia.get(again.header("Location")!).text.contains("Nada foi copiado: todos os dias já tinham estas refeições"))
        #expect(try test.read { try Meal.filter(Column("patientId") == elisa && Column("date") >= "2026-12-01").fetchCount($0) } == before)
        #expect(try meals(test, elisa, on: "2026-12-02").filter { $0.type == "lunch" }.map(\.time) == ["13:40"])
    }

    @Test func macronutrientsOver100GramsPer100GramsAreRefusedWithTheFormKept() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let before = try test.read { try Food.fetchCount($0) }
        let refused = try nadia.post("/foods", [("name", "Granola X"), ("unit", "portion"), ("gramsPerUnit", "40"), ("kcal", "450"),
                                                ("protein", "90"), ("carbohydrate", "90"), ("fat", "60")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("somam 240 g por 100 g"))
        #expect(refused.text.contains(#"value="Granola X""#))
        #expect(try test.read { try Food.fetchCount($0) } == before)
        let newMeal = try nadia.get("/patients/\(try test.id(of: "elisa"))/meals/new")
        #expect(newMeal.text.components(separatedBy: #"<select id="food_"#).count - 1 == 8, "eight lines, as the edit form")
    }
}
