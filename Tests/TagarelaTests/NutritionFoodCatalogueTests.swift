import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Issue 52, item 4: the catalogue can be corrected (edit, merge, remove) and past meals keep the figures
/// they were prescribed with.
@Suite struct NutritionFoodCatalogueTests {
    /// A food Elisa's answered meals prescribe, and the energy of those meals as stored.
    func usedFood(_ test: TestApp, _ patient: Int64) throws -> (Food, [Int64: Double]) {
        try test.read { db in
            let foodId = try #require(try Int64.fetchOne(db, sql: """
                SELECT l.foodId FROM mealLine l JOIN meal m ON m.id = l.mealId
                WHERE m.patientId = ? AND m.status = 'fulfilled' GROUP BY l.foodId ORDER BY count(*) DESC LIMIT 1
                """, arguments: [patient]))
            let food = try #require(try Food.fetchOne(db, key: foodId))
            let energies = try NutritionQueries.energies(patientId: patient, from: "2000-01-01", to: "2100-01-01", db)
            return (food, Dictionary(uniqueKeysWithValues: energies.map { ($0.id, $0.plannedKcal) }))
        }
    }

    func foodForm(_ name: String, kcal: String, version: String) -> [(String, String)] {
        [("name", name), ("unit", "portion"), ("gramsPerUnit", "100"), ("kcal", kcal), ("protein", "2,5"),
         ("carbohydrate", "28"), ("fat", "0,2"), ("version", version)]
    }

    @Test func correctingAFoodLeavesPastMealsAsPrescribedAndTwoTabsGetA409() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (food, before) = try usedFood(test, elisa)
        #expect(!before.isEmpty)
        let form = try nadia.get("/foods/\(food.id!)/edit")
        #expect(form.status == 200)
        #expect(form.text.contains(#"name="version" value="1""#))
        let first = try nadia.post("/foods/\(food.id!)", foodForm("Arroz corrigido", kcal: "131,5", version: "1"))
        #expect(first.status == 303, "\(first.text.prefix(3000))")
        let stored = try #require(try test.read { try Food.fetchOne($0, key: food.id) })
        #expect(stored.kcalPer100g == 131.5 && stored.namePtBR == "Arroz corrigido" && stored.version == 2)
        let (_, after) = try usedFood(test, elisa)
        #expect(after == before, "every past meal's energy is the one it was prescribed with")
        // The week's meals show the name they were prescribed with (the ranking of deviations names the food
        // as the catalogue now calls it).
        let page = try nadia.get("/patients/\(elisa)/nutrition").text
        let meals = page.components(separatedBy: "deviations-title").first ?? page
        #expect(!meals.contains("Arroz corrigido"))
        let shown = try test.read { db in
            let meals = try Meal.fetchAll(db, sql: """
                SELECT * FROM meal WHERE id IN (SELECT mealId FROM mealLine WHERE foodId = ?)
                """, arguments: [food.id])
            return try MealScreen.fetch(meals, db).flatMap(\.lines).filter { $0.line.foodId == food.id }
        }
        #expect(!shown.isEmpty && shown.allSatisfy { $0.food.namePtBR == food.namePtBR && $0.food.kcalPer100g == food.kcalPer100g },
                "every meal page reads the line's own name and figures")

        let second = try nadia.post("/foods/\(food.id!)", foodForm("Arroz da segunda aba", kcal: "131", version: "1"))
        #expect(second.status == 409)
        #expect(second.text.contains(#"value="Arroz da segunda aba""#), "the typed name is kept")
        #expect(second.text.contains(#"name="version" value="2""#), "saving again replaces knowingly")
        #expect(try test.read { try Food.fetchOne($0, key: food.id) }?.namePtBR == "Arroz corrigido")
    }

    @Test func aFoodOver900KcalIsRefusedWithItsTextKept() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let id = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM food") })
        let refused = try nadia.post("/foods/\(id)", foodForm("Óleo estranho", kcal: "1.000", version: "1"))
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"value="Óleo estranho""#))
    }

    @Test func mergingKeepsTheDuplicatesMealsFiguresAndPointsThemToTheKeptFood() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (kept, _) = try usedFood(test, elisa)
        #expect(try nadia.post("/foods", foodForm("Arroz branco cozido (cópia)", kcal: "200", version: "")).status == 303)
        let duplicate = try #require(try test.read { try Food.filter(Column("namePtBR") == "Arroz branco cozido (cópia)").fetchOne($0) })
        let tomorrow = ISODate.string(Date().addingTimeInterval(86_400 * 3), timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
        let created = try nadia.post("/patients/\(elisa)/meals", [
            ("type", "supper"), ("date", tomorrow), ("time", "22:10"), ("food_0", "\(duplicate.id!)"), ("quantity_0", "1"),
            ("unit_0", "household"), ("confirm", "1"),
        ])
        #expect(created.status == 303, "\(created.text.prefix(2000))")
        let before = try test.read { db in
            try NutritionQueries.energies(patientId: elisa, from: "2000-01-01", to: "2100-01-01", db).map(\.plannedKcal)
        }
        #expect(before.contains(200))
        let merged = try nadia.post("/foods/\(duplicate.id!)/merge", [("into", "\(kept.id!)")])
        #expect(merged.status == 303)
        try test.read { db in
            #expect(try Food.fetchOne(db, key: duplicate.id) == nil, "the duplicate left the catalogue")
            let line = try #require(try MealLine.filter(sql: "foodNamePtBR = ?", arguments: ["Arroz branco cozido (cópia)"]).fetchOne(db))
            #expect(line.foodId == kept.id, "its line points to the kept food")
            #expect(try NutritionQueries.energies(patientId: elisa, from: "2000-01-01", to: "2100-01-01", db).map(\.plannedKcal) == before)
        }
        let refused = try nadia.post("/foods/\(kept.id!)/merge", [("into", "\(kept.id!)")])
        #expect(refused.status == 422, "a food cannot be merged into itself")
    }

    @Test func removingAUsedFoodHidesItAndAnUnusedOneIsDeleted() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (used, before) = try usedFood(test, elisa)
        #expect(try nadia.post("/foods/\(used.id!)/remove", []).status == 303)
        let hidden = try #require(try test.read { try Food.fetchOne($0, key: used.id) })
        #expect(hidden.hiddenAt != nil)
        #expect(!(try nadia.get("/foods").text.contains(">\(used.namePtBR)</a>")), "gone from the catalogue")
        #expect(try usedFood(test, elisa).1 == before)
        #expect(try nadia.get("/foods/\(used.id!)/edit").status == 404)

        #expect(try nadia.post("/foods", foodForm("Nunca usado", kcal: "50", version: "")).status == 303)
        let unused = try #require(try test.read { try Food.filter(Column("namePtBR") == "Nunca usado").fetchOne($0) })
        #expect(try nadia.post("/foods/\(unused.id!)/remove", []).status == 303)
        #expect(try test.read { try Food.fetchOne($0, key: unused.id) } == nil)
    }

    @Test func onlyANutritionistCorrectsTheCatalogue() async throws {
        let test = try await TestApp()
        let id = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM food") })
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/foods/\(id)/edit").status == 403)
        #expect(try ana.post("/foods/\(id)/remove", []).status == 403)
        #expect(try test.read { try Food.fetchOne($0, key: id) } != nil)
    }
}

/// The snapshot migration fills lines written before it from their foods' figures of the time.
@Suite struct NutritionFoodSnapshotMigrationTests {
    @Test func existingLinesAreBackFilledAndNewLinesSnapshotTheirFood() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(configuration: configuration)
        let migrator = Migrations.migrator
        try migrator.migrate(queue, upTo: "2026-11 bodycomp: evaluation versions")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO food (id, namePtBR, nameEs, nameCa, nameEn, unit, gramsPerUnit, kcalPer100g, proteinPer100g, source)
                VALUES (1, 'Arroz', 'Arroz', 'Arròs', 'Rice', 'spoon', 25, 128, 2.5, 'TACO');
                INSERT INTO meal (id, patientId, clinicianId, type, date, time, createdAt)
                VALUES (1, 1, 1, 'lunch', '2026-11-01', '12:00', '2026-11-01 10:00:00');
                INSERT INTO mealLine (mealId, foodId, quantity, unit, position) VALUES (1, 1, 4, 'household', 0);
                """)
        }
        try migrator.migrate(queue)
        try queue.write { db in
            let old = try #require(try MealLine.fetchOne(db, sql: "SELECT * FROM mealLine WHERE position = 0"))
            #expect(old.foodKcalPer100g == 128 && old.foodGramsPerUnit == 25 && old.foodNameEn == "Rice" && old.foodProteinPer100g == 2.5)
            try db.execute(sql: "UPDATE food SET kcalPer100g = 140, nameEn = 'White rice' WHERE id = 1")
            var line = MealLine(mealId: 1, foodId: 1, quantity: 2, unit: "household", position: 1)
            try line.insert(db)
            let new = try #require(try MealLine.fetchOne(db, key: line.id))
            #expect(new.foodKcalPer100g == 140 && new.foodNameEn == "White rice", "a new line takes the food's present figures")
            #expect(try MealLine.fetchOne(db, key: old.id)?.foodKcalPer100g == 128, "the old line keeps its own")
        }
    }
}

@Suite struct NutritionHiddenFoodTests {
    @Test func aPendingMealWithAHiddenFoodKeepsItInItsEditFormAndAShippedFoodIsNeverDeleted() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let (meal, foodId) = try test.read { db in
            let meal = try #require(try Meal.queue(of: elisa).fetchAll(db).first)
            return (meal, try #require(try Int64.fetchOne(db, sql: "SELECT foodId FROM mealLine WHERE mealId = ? ORDER BY position",
                                                          arguments: [meal.id])))
        }
        #expect(try nadia.post("/foods/\(foodId)/remove", []).status == 303)
        let form = try nadia.get("/patients/\(elisa)/meals/\(meal.id!)/edit")
        #expect(form.status == 200)
        #expect(form.text.contains(#"value="\#(foodId)" selected"#), "the hidden food stays chosen")
        let newMeal = try nadia.get("/patients/\(elisa)/meals/new")
        #expect(!newMeal.text.contains(#"value="\#(foodId)""#), "a new prescription cannot choose it")

        // An unused shipped food is hidden, not deleted, so the loader does not add it again.
        let shipped = try #require(try test.read { try Int64.fetchOne($0, sql: """
            SELECT id FROM food WHERE key IS NOT NULL AND id NOT IN (SELECT foodId FROM mealLine) LIMIT 1
            """) })
        #expect(try nadia.post("/foods/\(shipped)/remove", []).status == 303)
        #expect(try test.read { try Food.fetchOne($0, key: shipped) }?.hiddenAt != nil)
    }
}
