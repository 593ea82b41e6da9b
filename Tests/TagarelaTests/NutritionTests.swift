import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct NutritionTests {
    func queue(_ test: TestApp, _ patient: Int64) throws -> [Meal] {
        try test.read { try Meal.queue(of: patient).fetchAll($0) }
    }

    func lines(_ test: TestApp, _ meal: Int64) throws -> [MealLine] {
        try test.read { try MealLine.filter(Column("mealId") == meal).order(Column("position")).fetchAll($0) }
    }

    @Test func thePatientAnswersTheOldestPendingMealWithAChangedQuantity() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let patient = try test.id(of: "elisa")
        let current = try #require(try queue(test, patient).first)
        let page = try elisa.get("/meals")
        #expect(page.text.contains("/meals/\(current.id!)/answer?followed=1"))
        let form = try elisa.get("/meals/\(current.id!)/answer?followed=1")
        #expect(form.status == 200)
        let first = try #require(try lines(test, current.id!).first)
        #expect(form.text.contains(#"name="q_\#(first.id!)" value="1""#), "prefilled with the prescription")
        #expect(form.text.contains(#"name="version" value="1""#), "the answer names the prescription shown")
        let answered = try elisa.post("/meals/\(current.id!)/answer", [("followed", "1"), ("q_\(first.id!)", "1,5"), ("hunger", "3"),
                                                                       ("version", "1")])
        #expect(answered.status == 303)
        let meal = try test.read { try Meal.fetchOne($0, key: current.id) }
        #expect(meal?.status == "fulfilled")
        #expect(meal?.hunger == 3)
        #expect(try lines(test, current.id!).first?.consumedQuantity == 1.5)
        let next = try elisa.get("/meals")
        #expect(next.text.contains("Resposta salva: refeição seguida."))
        #expect(!next.text.contains("/meals/\(current.id!)/answer"), "an answered meal never comes back")
    }

    @Test func aMealThatIsNotTheOldestIsRefusedAndNothingChanges() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let pending = try queue(test, try test.id(of: "elisa"))
        let later = pending[1]
        let before = try test.read { try Row.fetchAll($0, sql: "SELECT * FROM meal") }
        let refused = try elisa.post("/meals/\(later.id!)/answer", [("followed", "1")])
        #expect(refused.status == 409)
        #expect(refused.text.contains("responda primeiro a mais antiga"))
        #expect(refused.text.contains("/meals/\(pending[0].id!)/answer"))
        #expect(try test.read { try Row.fetchAll($0, sql: "SELECT * FROM meal") } == before)
    }

    @Test func aDoubleSubmitAnswersOnceAndKeepsTheFirstAnswer() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let current = try #require(try queue(test, try test.id(of: "elisa")).first)
        #expect(try elisa.post("/meals/\(current.id!)/answer", [("followed", "0"), ("reason", "Sem fome"), ("instead", "Nada"),
                                                                ("version", "1")]).status == 303)
        let again = try elisa.post("/meals/\(current.id!)/answer", [("followed", "1"), ("version", "1")])
        #expect(again.status == 303)
        #expect(try elisa.get("/meals").text.contains("já tinha sido respondida"))
        let meal = try test.read { try Meal.fetchOne($0, key: current.id) }
        #expect(meal?.status == "not_fulfilled")
        #expect(meal?.reason == "Sem fome")
    }

    @Test func notFollowingNeedsBothTextsAndKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let current = try #require(try queue(test, try test.id(of: "elisa")).first)
        let refused = try elisa.post("/meals/\(current.id!)/answer", [("followed", "0"), ("reason", ""), ("instead", "Pizza de calabresa"),
                                                                      ("version", "1")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Conte por que não seguiu a refeição."))
        #expect(refused.text.contains("Pizza de calabresa"))
        #expect(try test.read { try Meal.fetchOne($0, key: current.id) }?.status == "pending")
    }

    @Test func anotherPatientsMealIsNotFound() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let carlasMeal = try #require(try queue(test, try test.id(of: "Carla Costa")).first)
        #expect(try elisa.get("/meals/\(carlasMeal.id!)/answer").status == 404)
        #expect(try elisa.post("/meals/\(carlasMeal.id!)/answer", [("followed", "1")]).status == 404)
        #expect(try elisa.get("/meals/\(carlasMeal.id!)/photo").status == 404)
        #expect(try test.read { try Meal.fetchOne($0, key: carlasMeal.id) }?.status == "pending")
    }

    @Test func aMealPhotoIsForThePatientAndTheirNutritionistNotTheirSpeechTherapist() async throws {
        let test = try await TestApp()
        let carlasMeal = try #require(try queue(test, try test.id(of: "Carla Costa")).first)
        let photo = "photos/meal-test.jpg"
        try FileManager.default.createDirectory(atPath: test.app.media.directory + "/photos", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: test.app.media.directory + "/" + photo, contents: Data([0xFF, 0xD8, 0xFF])))
        try test.write { db in try db.execute(sql: "UPDATE meal SET photoPath = ? WHERE id = ?", arguments: [photo, carlasMeal.id]) }
        #expect(try test.browser(loggedInAs: "nadia").get("/meals/\(carlasMeal.id!)/photo").status == 200)
        #expect(try test.browser(loggedInAs: "ana").get("/meals/\(carlasMeal.id!)/photo").status == 403)
    }

    /// Every number of a new food is read the user's way and, when wrong, named in the message next to it.
    @Test func aFoodWithAWrongNumberIsShownAgainWithWhatWasTypedAndTheFieldNamed() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let typed = [("name", "Bolo de fubá"), ("unit", "slice"), ("gramsPerUnit", "60"), ("kcal", "2000"), ("protein", "muito"),
                     ("carbohydrate", "55,5"), ("fat", "")]
        let refused = try nadia.post("/foods", typed)
        #expect(refused.status == 422)
        let page = refused.text
        #expect(page.contains("Energia (kcal/100 g): o valor deve ficar entre 0 e 900 kcal"))
        #expect(page.contains("Proteínas (g/100 g): informe um número (ex.: 0,5)."))
        #expect(page.contains(#"id="protein" name="protein" inputmode="decimal" value="muito" aria-invalid="true""#))
        #expect(page.contains(#"value="Bolo de fubá""#) && page.contains(#"value="55,5""#), "nothing typed is lost")
        #expect(try test.read { try Food.filter(Column("namePtBR") == "Bolo de fubá").fetchCount($0) } == 0)

        let saved = try nadia.post("/foods", typed.map { $0.0 == "kcal" ? ("kcal", "362") : $0.0 == "protein" ? ("protein", "7,2") : $0 })
        #expect(saved.status == 303)
        let food = try #require(try test.read { try Food.filter(Column("namePtBR") == "Bolo de fubá").fetchOne($0) })
        #expect(food.kcalPer100g == 362 && food.proteinPer100g == 7.2 && food.carbohydratePer100g == 55.5 && food.fatPer100g == nil)
    }

    @Test func onlyALinkedNutritionistReviewsAndPrescribes() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "lia", name: "Lia Nunes", specialties: ["nutrition"],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let elisa = try test.id(of: "elisa"), carla = try test.id(of: "Carla Costa")
        let lia = try test.browser(loggedInAs: "lia")
        #expect(try lia.get("/patients/\(elisa)/nutrition").status == 404)
        let before = try test.snapshot()
        #expect(try lia.post("/patients/\(elisa)/meals", [("type", "lunch"), ("date", "2026-11-20"), ("time", "12:00"),
                                                          ("food_0", "1"), ("quantity_0", "1")]).status == 404)
        #expect(try test.snapshot() == before)
        #expect(try test.browser(loggedInAs: "ana").get("/patients/\(carla)/nutrition").status == 403, "speech therapy only")
        #expect(try test.browser(loggedInAs: "nadia").get("/patients/\(carla)/nutrition").status == 200)
    }

    @Test func aPrescribedMealComputesItsEnergyAndAnEarlierOneTakesTheTurn() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let rice = try test.read { try Food.filter(Column("key") == "arroz-branco-cozido").fetchOne($0)! }
        // 4 spoons × 25 g × 128 kcal/100 g = 128 kcal; 150 g × 128 kcal/100 g = 192 kcal; total 320 kcal.
        let created = try nadia.post("/patients/\(elisa)/meals", [
            ("type", "custom"), ("customName", "Lanche pós-treino"), ("date", "01/11/2026"), ("time", "0930"),
            ("food_0", "\(rice.id!)"), ("quantity_0", "4"), ("unit_0", "household"),
            ("food_1", "\(rice.id!)"), ("quantity_1", "150"), ("unit_1", "gram"),
        ])
        #expect(created.status == 303)
        let meal = try #require(try queue(test, elisa).first)
        #expect(meal.customName == "Lanche pós-treino" && meal.date == "2026-11-01" && meal.time == "09:30")
        let checkIn = try test.browser(loggedInAs: "elisa").get("/meals")
        #expect(checkIn.text.contains("Lanche pós-treino"))
        #expect(checkIn.text.contains("320 kcal"))
        // 4 spoons (100 g) + 150 g of rice: 250 g × 2.5 g protein, 28.1 g carbohydrate, 0.2 g fat per 100 g.
        #expect(checkIn.text.contains("Proteínas 6 g · carboidratos 70 g · gorduras 0 g") ||
                checkIn.text.contains("Proteínas 6 g · carboidratos 70 g · gorduras 1 g"))
    }

    @Test func prescriptionErrorsNameTheLineAndKeepTheForm() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let refused = try nadia.post("/patients/\(elisa)/meals", [("type", "lunch"), ("date", "2026-11-20"), ("time", "25:00"),
                                                                  ("food_0", ""), ("quantity_0", "2"), ("customName", "x")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Horário inválido"))
        #expect(refused.text.contains("Escolha o alimento desta linha."))
        #expect(refused.text.contains(#"id="quantity_0" name="quantity_0" inputmode="decimal" value="2""#))
    }

    /// The catalogue is rendered once per chosen food and shared by the lines that chose it: each line
    /// must still show its own food, and only its own, on the edit form and on a refused form.
    @Test func everyLineOfThePrescriptionFormShowsItsOwnFood() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let (rice, beans, foodCount) = try test.read { db in
            (try Food.filter(Column("key") == "arroz-branco-cozido").fetchOne(db)!.id!,
             try Food.filter(Column("key") == "feijao-carioca-cozido").fetchOne(db)!.id!, try Food.fetchCount(db))
        }
        func selects(_ html: String) -> [String] {
            html.components(separatedBy: "<select id=\"food_").dropFirst().map { $0.components(separatedBy: "</select>")[0] }
        }
        func chosen(_ select: String) -> [String] {
            select.components(separatedBy: "<option value=\"").dropFirst().filter { $0.contains("\" selected>") }
                .map { String($0.prefix { $0 != "\"" }) }
        }
        let refused = try nadia.post("/patients/\(elisa)/meals", [
            ("type", "lunch"), ("date", "2026-11-20"), ("time", "25:00"),
            ("food_0", "\(rice)"), ("quantity_0", "2"), ("unit_0", "household"),
            ("food_1", "\(beans)"), ("quantity_1", "1"), ("unit_1", "household"),
            ("food_2", "\(rice)"), ("quantity_2", "100"), ("unit_2", "gram"),
        ])
        #expect(refused.status == 422)
        let refusedLines = selects(refused.text)
        #expect(refusedLines.count == 8, "the new-meal form offers as many lines as the edit form")
        #expect(refusedLines.map(chosen) == [["\(rice)"], ["\(beans)"], ["\(rice)"], [], [], [], [], []])
        for line in refusedLines {
            #expect(line.components(separatedBy: "<option").count - 1 == foodCount + 1, "every food, and the empty choice")
        }

        let meal = try #require(try queue(test, elisa).last)
        let saved = try lines(test, meal.id!)
        #expect(saved.count >= 2)
        let edit = try nadia.get("/patients/\(elisa)/meals/\(meal.id!)/edit")
        #expect(edit.status == 200)
        let editLines = selects(edit.text)
        #expect(editLines.count >= saved.count + 2, "two empty lines to add foods")
        #expect(Array(editLines.map(chosen).prefix(saved.count)) == saved.map { ["\($0.foodId)"] })
        #expect(editLines.dropFirst(saved.count).allSatisfy { chosen($0).isEmpty })
    }

    @Test func answeredMealsCannotBeEditedPendingOnesCanBeWithdrawn() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let answered = try test.read { try Meal.filter(Column("patientId") == elisa && Column("status") == "fulfilled").fetchOne($0)! }
        #expect(try nadia.get("/patients/\(elisa)/meals/\(answered.id!)/edit").status == 409)
        #expect(try nadia.post("/patients/\(elisa)/meals/\(answered.id!)/withdraw").status == 409)
        let pending = try #require(try queue(test, elisa).last)
        #expect(try nadia.post("/patients/\(elisa)/meals/\(pending.id!)/withdraw").status == 303)
        #expect(try test.read { try Meal.fetchOne($0, key: pending.id) } == nil)
    }

    @Test func aRefusedCopyOrWeightComesBackWithWhatWasTyped() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let copy = try nadia.post("/patients/\(elisa)/meals/copy", [("source", "2026-11-20"), ("from", "2026-12-09"), ("to", "2026-12-01")])
        #expect(copy.status == 422)
        #expect(copy.text.contains(#"id="copy-from" name="from" type="date" value="2026-12-09""#))
        #expect(copy.text.contains("Confira as datas"))
        let weights = { try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM weightEntry WHERE patientId = ?", arguments: [elisa]) } }
        let before = try weights()
        let weight = try nadia.post("/patients/\(elisa)/weights", [("kg", "7000"), ("measuredOn", "2026-11-20")])
        #expect(weight.status == 422)
        #expect(weight.text.contains(#"value="7000""#))
        #expect(weight.text.contains(#"id="kg-error""#))
        #expect(try weights() == before)
    }

    @Test func copyingADayFillsARangeOnce() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let count = { try test.read { try Meal.filter(Column("patientId") == elisa).fetchCount($0) } }
        let before = try count()
        let source = try test.read { try String.fetchOne($0, sql: "SELECT min(date) FROM meal WHERE patientId = ?", arguments: [elisa])! }
        let fields = [("source", source), ("from", "2026-12-01"), ("to", "2026-12-07")]
        #expect(try nadia.post("/patients/\(elisa)/meals/copy", fields).status == 303)
        #expect(try count() == before + 7 * 4)
        #expect(try nadia.post("/patients/\(elisa)/meals/copy", fields).status == 303)
        #expect(try count() == before + 7 * 4, "copying twice adds nothing")
    }

    @Test func theReviewShowsAdherenceDeviationsAndTheEnergyChart() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let page = try nadia.get("/patients/\(try test.id(of: "Carla Costa"))/nutrition?from=2026-11-01&to=2026-11-30")
        #expect(page.status == 200)
        #expect(page.text.contains("Adesão no período"))
        #expect(page.text.contains(#"<svg class="chart""#))
        #expect(page.text.contains("diferente do prescrito"))
        let dashboard = try nadia.get("/clinician").text
        let section = try #require(dashboard.firstMatch(of: /id="nutrition-title".*?<\/section>/.dotMatchesNewlines())?.0)
        #expect(section.range(of: "Carla Costa")!.lowerBound < section.range(of: "Elisa Martins")!.lowerBound,
                "lower adherence first")
    }

    @Test func aPatientWithNothingPendingSeesAnEmptyState() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        try test.write { db in try db.execute(sql: "DELETE FROM meal WHERE patientId = ? AND status = 'pending'", arguments: [elisa]) }
        let page = try test.browser(loggedInAs: "elisa").get("/meals")
        #expect(page.status == 200)
        #expect(page.text.contains("Nenhuma refeição para responder agora."))
    }

    @Test func importingTheSameWeightsTwiceAddsNothingAndNeedsSharing() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let id = try test.id(of: "elisa")
        let count = { try test.read { try WeightEntry.filter(Column("patientId") == id).fetchCount($0) } }
        let before = try count()
        let csv = "data;peso\n2026-10-01;80,2\n2026-10-08;79,9\n"
        let first = try elisa.post("/measurements/import", [("csv", csv)])
        #expect(first.status == 303 && first.header("Location") == "/measurements?added=2")
        let second = try elisa.post("/measurements/import", [("csv", csv)])
        #expect(second.header("Location") == "/measurements?added=0")
        #expect(try count() == before + 2)
        // One unreadable line no longer blocks the others: it is named and kept to correct.
        let bad = try elisa.post("/measurements/import", [("csv", "2026-10-01;80,2\nontem;oitenta\n21/10/2026;79,5\n")])
        #expect(bad.status == 200)
        #expect(bad.text.contains("Pesos adicionados: 1. Linhas deixadas de fora por não poderem ser lidas: 1."))
        #expect(bad.text.contains("Linha 2: “ontem;oitenta”"))
        #expect(bad.text.contains(">ontem;oitenta</textarea>"), "the unreadable line stays in the box")
        #expect(try count() == before + 3, "dd/mm/yyyy is read")
        let counted = try elisa.post("/measurements/import", [("csv", "22/10/2026;79,4\n")])
        #expect(try elisa.get(counted.header("Location")!).text.contains("Importação concluída. Pesos adicionados: 1."))
        #expect(try elisa.post("/measurements/sharing", [("share", "0")]).status == 303)
        #expect(try elisa.post("/measurements/import", [("csv", "2026-09-01;81\n")]).status == 422)
        #expect(try count() == before + 4)
    }

    @Test func energyAdherenceAndWeightFilesAreComputedPurely() throws {
        let rice = FoodComposition(gramsPerUnit: 25, kcal: 128, protein: 2.5, carbohydrate: 28.1, fat: 0.2)
        let spoons = NutritionRules.nutrients(of: rice, quantity: 4, unit: .household)
        #expect(abs(spoons.kcal - 128) < 1e-9)
        #expect(abs(spoons.carbohydrate - 28.1) < 1e-9)
        #expect(abs(NutritionRules.nutrients(of: rice, quantity: 150, unit: .gram).kcal - 192) < 1e-9)
        let meals: [NutritionRules.ScheduledMeal] = [
            .init(status: .fulfilled, date: "2026-11-10", time: "12:30"), .init(status: .fulfilled, date: "2026-11-11", time: "12:30"),
            .init(status: .notFulfilled, date: "2026-11-11", time: "19:30"), .init(status: .pending, date: "2026-11-12", time: "07:30"),
            .init(status: .pending, date: "2026-11-12", time: "19:30"), .init(status: .fulfilled, date: "2026-10-01", time: "12:00"),
        ]
        let figures = NutritionRules.adherence(meals, from: "2026-11-01", to: "2026-11-30", nowDate: "2026-11-12", nowTime: "13:00")
        #expect(figures == NutritionRules.Adherence(fulfilled: 2, notFulfilled: 1, pending: 2, overdue: 1))
        #expect(abs(figures.rate! - 2.0 / 3.0) < 1e-12)
        #expect(NutritionRules.Adherence().rate == nil)
        let format = LocalizedFormat(locale: .ptBR, timeZone: TimeZone(identifier: "UTC")!)
        let today = try #require(format.parseDate("2026-11-22"))
        let parsed = NutritionRules.weightCSV("data,peso\n21/11/2026,72,5\n\n2026-11-22;72.1\n", today: today, format: format)
        #expect(parsed.entries.map(\.date) == ["2026-11-21", "2026-11-22"])
        #expect(parsed.entries.map(\.kg) == [72.5, 72.1])
        #expect(parsed.badLines.isEmpty)
        let future = NutritionRules.weightCSV("2026-11-22;72\n2027-01-05;71\n", today: today, format: format)
        #expect(future.entries.map(\.date) == ["2026-11-22"])
        #expect(future.badLines == [2], "a weight from the future is refused, as on the form")
        #expect(MealInput.time("7:30") == "07:30" && MealInput.time("2400") == nil && MealInput.time("12h05") == "12:05")
    }
}
