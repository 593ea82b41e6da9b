import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Issue 14 for meals and evaluations: states a happy path never reaches (an old tab, a meal changed or
/// withdrawn meanwhile, a future day, a typing slip in a date, a double tap), each of which once
/// stopped the server, lost what was typed or stored something wrong.
@Suite struct RecordsTrustTests {
    func queue(_ test: TestApp, _ patient: Int64) throws -> [Meal] {
        try test.read { try Meal.queue(of: patient).fetchAll($0) }
    }

    func lines(_ test: TestApp, _ meal: Int64) throws -> [MealLine] {
        try test.read { try MealLine.filter(Column("mealId") == meal).order(Column("position")).fetchAll($0) }
    }

    func mealCount(_ test: TestApp) throws -> Int { try test.read { try Meal.fetchCount($0) } }

    /// The hidden fields of a page's answer form (version and foods), as a browser would send them back.
    func hiddenFields(_ page: String) -> [(String, String)] {
        page.matches(of: /<input type="hidden" name="(version|qf_\d+)" value="(\d+)">/).map { (String($0.1), String($0.2)) }
    }

    /// The prescription form of a stored meal, as the nutritionist's edit page sends it back.
    func prescription(_ test: TestApp, _ meal: Meal, changing quantity: Double? = nil) throws -> [(String, String)] {
        var fields = [("type", meal.type), ("date", meal.date), ("time", meal.time), ("version", "\(meal.version)")]
        for (index, line) in try lines(test, meal.id!).enumerated() {
            let value = index == 0 ? quantity ?? line.quantity : line.quantity
            fields += [("food_\(index)", "\(line.foodId)"), ("quantity_\(index)", "\(value)"), ("unit_\(index)", line.unit)]
        }
        return fields
    }

    // MARK: - Item 1: one page load stopped the whole server

    @Test func anOldBookmarkToALaterMealAnswersTheConflictPageAndTheServerStaysUp() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let pending = try queue(test, try test.id(of: "elisa"))
        for followed in ["1", "0"] {
            let page = try elisa.get("/meals/\(pending[1].id!)/answer?followed=\(followed)")
            #expect(page.status == 409)
            #expect(page.text.contains("responda primeiro a mais antiga"))
            #expect(page.text.contains("/meals/\(pending[0].id!)/answer?followed=1"), "the meal whose turn it is")
        }
        #expect(try elisa.get("/healthz").status == 200)
        #expect(try elisa.get("/meals").status == 200)
    }

    @Test func aWeightRefusedForLackOfSharingIsShownFromTheSameWrite() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        #expect(try elisa.post("/measurements/sharing", [("share", "0")]).status == 303)
        let refused = try elisa.post("/measurements", [("kg", "71,5"), ("measuredOn", "2026-11-10")])
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"value="71,5""#))
        let imported = try elisa.post("/measurements/import", [("csv", "2026-11-01;72\n")])
        #expect(imported.status == 422)
        #expect(imported.text.contains("2026-11-01;72"))
        #expect(try elisa.get("/healthz").status == 200)
    }

    // MARK: - Item 5: answers name what they answer

    @Test func aMealEditedWhileTheFormWasOpenIsRefusedWithTheNewPrescriptionAndTheTypedAnswer() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let elisa = try test.browser(loggedInAs: "elisa")
        let meal = try #require(try queue(test, elisaId).first)
        let oldLines = try lines(test, meal.id!)
        let form = try elisa.get("/meals/\(meal.id!)/answer?followed=1")
        let hidden = hiddenFields(form.text)
        #expect(hidden.contains { $0 == ("version", "1") })

        // Meanwhile the nutritionist doubles the first line.
        let nadia = try test.browser(loggedInAs: "nadia")
        #expect(try nadia.post("/patients/\(elisaId)/meals/\(meal.id!)", try prescription(test, meal, changing: oldLines[0].quantity * 2)).status == 303)
        let newLines = try lines(test, meal.id!)

        let typed = [("followed", "1"), ("q_\(oldLines[0].id!)", "3"), ("hunger", "4")]
        let refused = try elisa.post("/meals/\(meal.id!)/answer", typed + hidden)
        #expect(refused.status == 409)
        #expect(refused.text.contains("A nutricionista mudou esta refeição"))
        #expect(!refused.text.contains("Resposta salva"))
        #expect(refused.text.contains(#"name="q_\#(newLines[0].id!)" value="3""#), "the typed quantity follows its food")
        #expect(refused.text.contains(#"name="q_\#(newLines[1].id!)" value="1""#), "the others show the new prescription")
        #expect(refused.text.contains(#"value="4" checked"#), "the hunger chosen is kept")
        #expect(refused.text.contains(#"name="version" value="2""#))
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.status == "pending")

        // Sent again from the refreshed form, the answer is saved against the new prescription.
        let saved = try elisa.post("/meals/\(meal.id!)/answer", typed.filter { $0.0 != "q_\(oldLines[0].id!)" }
                                   + [("q_\(newLines[0].id!)", "3")] + hiddenFields(refused.text))
        #expect(saved.status == 303)
        #expect(try lines(test, meal.id!).first?.consumedQuantity == 3)
    }

    @Test func anAnswerWithoutTheVersionShownIsNeverSaved() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let meal = try #require(try queue(test, try test.id(of: "elisa")).first)
        let refused = try elisa.post("/meals/\(meal.id!)/answer", [("followed", "0"), ("reason", "Sem fome"), ("instead", "Nada")])
        #expect(refused.status == 409)
        #expect(refused.text.contains("Sem fome"))
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.status == "pending")
    }

    @Test func aMealWithdrawnWhileTheFormWasOpenSaysSoAndKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let elisa = try test.browser(loggedInAs: "elisa")
        let meal = try #require(try queue(test, elisaId).first)
        let hidden = hiddenFields(try elisa.get("/meals/\(meal.id!)/answer?followed=0").text)
        #expect(try test.browser(loggedInAs: "nadia").post("/patients/\(elisaId)/meals/\(meal.id!)/withdraw").status == 303)
        let before = try test.read { try Row.fetchAll($0, sql: "SELECT * FROM meal") }
        let refused = try elisa.post("/meals/\(meal.id!)/answer",
                                     [("followed", "0"), ("reason", "Almocei fora"), ("instead", "Feijoada completa")] + hidden)
        #expect(refused.status == 404)
        #expect(refused.text.contains("não está mais no seu plano"))
        #expect(refused.text.contains("Almocei fora") && refused.text.contains("Feijoada completa"))
        #expect(refused.text.contains("/answer?followed=1"), "the next meal is offered")
        #expect(try test.read { try Row.fetchAll($0, sql: "SELECT * FROM meal") } == before)
    }

    @Test func aRefusedFollowedAnswerNamesTheFoodsOfWhatWasTyped() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let elisa = try test.browser(loggedInAs: "elisa")
        let meal = try #require(try queue(test, elisaId).first)
        let form = try elisa.get("/meals/\(meal.id!)/answer?followed=1")
        let line = try #require(try lines(test, meal.id!).first)
        let food = try #require(try test.read { try Food.fetchOne($0, key: line.foodId) })
        #expect(try test.browser(loggedInAs: "nadia").post("/patients/\(elisaId)/meals/\(meal.id!)/withdraw").status == 303)
        let refused = try elisa.post("/meals/\(meal.id!)/answer", [("followed", "1"), ("q_\(line.id!)", "2,5")] + hiddenFields(form.text))
        #expect(refused.status == 404)
        #expect(refused.text.contains("<dt>\(food.namePtBR)</dt><dd>2,5</dd>"))
    }

    // MARK: - Item 10: patients answer meals of their day, not ahead

    @Test func aMealOfALaterDayIsShownButNotAnsweredYet() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let today = ISODate.string(test.clock.now, timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
        try test.write { db in
            try db.execute(sql: "DELETE FROM meal WHERE patientId = ? AND status = 'pending' AND date <= ?", arguments: [elisaId, today])
        }
        let tomorrow = try #require(try queue(test, elisaId).first)
        #expect(tomorrow.date > today)
        let elisa = try test.browser(loggedInAs: "elisa")
        let checkIn = try elisa.get("/meals")
        #expect(checkIn.text.contains("você poderá respondê-la a partir desse dia"))
        #expect(!checkIn.text.contains("/answer?followed=1"))
        #expect(try elisa.get("/meals/\(tomorrow.id!)/answer?followed=1").status == 409)
        let refused = try elisa.post("/meals/\(tomorrow.id!)/answer", [("followed", "0"), ("reason", "Viagem"), ("instead", "Sanduíche"),
                                                                      ("version", "\(tomorrow.version)")])
        #expect(refused.status == 409)
        #expect(refused.text.contains("ainda não chegou"))
        #expect(refused.text.contains("Sanduíche"))
        #expect(try test.read { try Meal.fetchOne($0, key: tomorrow.id) }?.status == "pending")
    }

    // MARK: - Item 10: plausible dates

    @Test(arguments: ["1999-03-15", "2028-01-10", "15/03/1999"])
    func aMealDateFarFromTodayIsRefusedWithItsRangeAndTheFormKept(_ date: String) async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let rice = try test.read { try Food.filter(Column("key") == "arroz-branco-cozido").fetchOne($0)! }
        let before = try mealCount(test)
        let refused = try nadia.post("/patients/\(elisa)/meals", [("type", "lunch"), ("date", date), ("time", "12:30"),
                                                                  ("food_0", "\(rice.id!)"), ("quantity_0", "4,5")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Data: a refeição deve ficar entre 18/11/2025 e 18/11/2027"))
        #expect(refused.text.contains(#"id="date-error""#))
        #expect(refused.text.contains(#"value="4,5""#))
        #expect(try mealCount(test) == before)
    }

    @Test func copyingADayIntoADistantRangeIsRefused() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let before = try mealCount(test)
        let refused = try nadia.post("/patients/\(elisa)/meals/copy", [("source", "2026-11-18"), ("from", "2029-01-01"), ("to", "2029-01-03")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("a refeição deve ficar entre"))
        #expect(try mealCount(test) == before)
    }

    @Test(arguments: [("1990-05-01", "anterior ao nascimento (23/01/1991)"), ("2026-12-01", "não pode ser no futuro"),
                      ("1900-01-01", "anterior ao nascimento")])
    func aWeightDateOutsideThePatientsLifeIsRefusedForBoth(_ date: String, _ message: String) async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let count = { try test.read { try WeightEntry.filter(Column("patientId") == elisaId).fetchCount($0) } }
        let before = try count()
        let nadia = try test.browser(loggedInAs: "nadia")
        let byNutritionist = try nadia.post("/patients/\(elisaId)/weights", [("kg", "70,2"), ("measuredOn", date)])
        #expect(byNutritionist.status == 422)
        #expect(byNutritionist.text.contains(message))
        #expect(byNutritionist.text.contains(#"value="70,2""#) && byNutritionist.text.contains(#"value="\#(date)""#))
        let elisa = try test.browser(loggedInAs: "elisa")
        let byPatient = try elisa.post("/measurements", [("kg", "70,2"), ("measuredOn", date)])
        #expect(byPatient.status == 422)
        #expect(byPatient.text.contains(message))
        #expect(byPatient.text.contains(#"id="measuredOn-error""#))
        let imported = try elisa.post("/measurements/import", [("csv", "\(date);70,2\n")])
        #expect(imported.status == 422)
        #expect(try count() == before)
    }

    @Test func aForgottenMealInThePastIsShownToTheNutritionistAsBlockingTheQueue() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let nadia = try test.browser(loggedInAs: "nadia")
        let old = try test.write { db -> Int64 in
            var meal = Meal(patientId: elisaId, clinicianId: try test.id(of: "nadia"), type: "lunch", date: "1999-03-15", time: "12:30",
                            createdAt: test.clock.now)
            try meal.insert(db)
            return meal.id!
        }
        let page = try nadia.get("/patients/\(elisaId)/nutrition")
        #expect(page.status == 200)
        #expect(page.text.contains("Refeições atrasadas"))
        #expect(page.text.contains("1999"))
        #expect(page.text.contains("/patients/\(elisaId)/meals/\(old)/edit"))
        #expect(page.text.contains("?week=1999-03-15"))
        #expect(try queue(test, elisaId).first?.id == old, "it is indeed the patient's next meal")
        try test.write { db in try db.execute(sql: "DELETE FROM meal WHERE patientId = ? AND status = 'pending'", arguments: [elisaId]) }
        #expect(!(try nadia.get("/patients/\(elisaId)/nutrition").text.contains("Refeições atrasadas")))
    }

    // MARK: - Item 6: pasted weight lines and the empty file field

    @Test func pastedWeightLinesWinOverTheEmptyFileABrowserSends() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        try elisa.get("/measurements")
        let imported = try elisa.postMultipart("/measurements/import", fields: [("csv", "2026-10-01;80,2\n2026-10-08;79,9\n")],
                                               files: [("file", "", "application/octet-stream", [])])
        #expect(imported.status == 303)
        #expect(imported.header("Location") == "/measurements?added=2")
        let file = try elisa.postMultipart("/measurements/import", fields: [("csv", "")],
                                           files: [("file", "pesos.csv", "text/csv", Array("2026-09-01;81\n".utf8))])
        #expect(file.header("Location") == "/measurements?added=1", "a real file still counts")
    }

    // MARK: - Pure rules

    @Test func nutritionDateRangesFitWhatEachDateMeans() {
        #expect(NutritionDates.mealRange(today: "2026-11-18") == "2025-11-18"..."2027-11-18")
        #expect(NutritionDates.weightRange(today: "2026-11-18", birthDate: "1991-01-23") == "1991-01-23"..."2026-11-18")
        #expect(NutritionDates.weightRange(today: "2026-11-18", birthDate: nil).lowerBound == "1906-11-18")
        #expect(NutritionDates.weightRange(today: "2026-11-18", birthDate: "2030-01-01").upperBound == "2026-11-18",
                "a birth date in the future is ignored, never an empty range")
        #expect(NutritionDates.isAnswerable(mealDate: "2026-11-18", today: "2026-11-18"))
        #expect(!NutritionDates.isAnswerable(mealDate: "2026-11-19", today: "2026-11-18"))
        #expect(NutritionDates.isOverdue(date: "2026-11-18", time: "07:30", now: ("2026-11-18", "08:00")))
        #expect(!NutritionDates.isOverdue(date: "2026-11-18", time: "12:30", now: ("2026-11-18", "08:00")))
        #expect(NutritionRules.importText(file: [], pasted: "a") == "a")
        #expect(NutritionRules.importText(file: Array("\r\n".utf8), pasted: "a") == "a")
        #expect(NutritionRules.importText(file: nil, pasted: "a") == "a")
        #expect(NutritionRules.importText(file: Array("b".utf8), pasted: "a") == "b")
        let format = LocalizedFormat(locale: .ptBR, timeZone: TimeZone(identifier: "UTC")!)
        let parsed = NutritionRules.weightCSV("1990-01-01;70\n1992-01-01;71\n", today: format.parseDate("2026-11-18")!,
                                              birthDate: "1991-01-23", format: format)
        #expect(parsed.badLines == [1] && parsed.entries.map(\.date) == ["1992-01-01"])
    }

    @Test func aTypedQuantityFollowsItsFoodOntoTheChangedMeal() {
        let form = FormState(values: ["q_10": "3", "qf_10": "7", "q_11": "2", "qf_11": "8", "q_12": "9", "qf_12": "99",
                                      "reason": "", "hunger": "2"])
        let lines = [MealLine(id: 20, mealId: 1, foodId: 8, quantity: 1, unit: "household", position: 0),
                     MealLine(id: 21, mealId: 1, foodId: 7, quantity: 1, unit: "household", position: 1),
                     MealLine(id: 22, mealId: 1, foodId: 5, quantity: 1, unit: "household", position: 2)]
        let carried = CheckInRoutes.carried(form, to: lines)
        #expect(carried.values["q_20"] == "2" && carried.values["q_21"] == "3")
        #expect(carried.values["q_22"] == nil, "a new food shows its prescription")
        #expect(carried.values["hunger"] == "2")
    }

    @Test func evaluationDatesFitTheClientsAge() {
        #expect(EvaluationDates.birthRange(today: "2026-11-18") == "1906-11-18"..."2021-11-18")
        #expect(EvaluationDates.adding(years: 5, to: "2020-02-29") == "2025-03-01")
        #expect(EvaluationDates.adding(years: 4, to: "2020-02-29") == "2024-02-29")
        #expect(ISODate.age(birthDate: "2020-02-29", today: EvaluationDates.adding(years: 5, to: "2020-02-29")) == 5)
        #expect(EvaluationDates.problem(takenOn: "2026-11-18", birthDate: "1993-04-02", today: "2026-11-18") == nil)
        #expect(EvaluationDates.problem(takenOn: "2026-11-19", birthDate: "1993-04-02", today: "2026-11-18") == .future)
        #expect(EvaluationDates.problem(takenOn: "2024-06-01", birthDate: "2020-01-01", today: "2026-11-18") == .tooYoung("2025-01-01"))
        #expect(EvaluationDates.problem(takenOn: "2026-11-18", birthDate: "2023-04-02", today: "2026-11-18") == .birthImplausible)
        #expect(EvaluationDates.problem(takenOn: "2026-11-18", birthDate: "1900-01-01", today: "2026-11-18") == .birthImplausible)
        #expect(EvaluationDates.problem(takenOn: "2019-12-31", birthDate: "1900-01-01", today: "2026-11-18") == nil)
    }

    // MARK: - Item 4: an evaluation before the client's 5th birthday

    static let evaluation = BodyCompositionTests.fullEvaluation

    func evaluationCount(_ test: TestApp) throws -> Int { try test.read { try Evaluation.fetchCount($0) } }

    @Test func anEvaluationBeforeTheFifthBirthdayIsANamedErrorThatKeepsEveryValue() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let created = try dani.post("/clients", [("displayName", "Iara Lopes"), ("sex", "female"), ("birthDate", "2020-01-01")])
        let client = try #require(created.header("Location"))
        let before = try evaluationCount(test)
        let refused = try dani.post(client + "/evaluations", Self.evaluation + [("takenOn", "2024-06-01")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("a partir de 01/01/2025, quando o cliente completa 5 anos"))
        for (_, value) in Self.evaluation where value.contains(",") { #expect(refused.text.contains(#"value="\#(value)""#)) }
        #expect(refused.text.contains(#"value="2024-06-01""#))
        let future = try dani.post(client + "/evaluations", Self.evaluation + [("takenOn", "2027-01-01")])
        #expect(future.status == 422 && future.text.contains("não pode ser no futuro"))
        #expect(try evaluationCount(test) == before)
        #expect(try dani.post(client + "/evaluations", Self.evaluation + [("takenOn", "2025-01-01")]).status == 303)
    }

    @Test func aClientsBirthYearTypoIsCaughtOnTheClientFormAndNeverGivesA500Later() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let refused = try dani.post("/clients", [("displayName", "Joana Prado"), ("sex", "female"), ("birthDate", "2023-04-02"),
                                                 ("contact", "(48) 99999-0000")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Data de nascimento: informe uma data entre 18/11/1906 e 18/11/2021"))
        #expect(refused.text.contains(#"value="2023-04-02""#) && refused.text.contains("(48) 99999-0000"))
        let gustavo = try test.id(of: "Gustavo Pereira")
        let edit = try dani.post("/clients/\(gustavo)", [("displayName", "Gustavo Pereira"), ("sex", "male"), ("birthDate", "1879-11-11")])
        #expect(edit.status == 422)
        // A birth date stored before these ranges existed: the evaluation form says what to fix.
        try test.write { db in try db.execute(sql: "UPDATE patient SET birthDate = '2023-04-02' WHERE userId = ?", arguments: [gustavo]) }
        let before = try evaluationCount(test)
        let evaluation = try dani.post("/clients/\(gustavo)/evaluations", Self.evaluation)
        #expect(evaluation.status == 422)
        #expect(evaluation.text.contains("Corrija a data de nascimento no perfil"))
        #expect(evaluation.text.contains(#"value="17,5""#))
        #expect(try evaluationCount(test) == before)
    }

    // MARK: - Item 7: a double tap on "Save evaluation"

    @Test func twoSimultaneousSavesOfTheSameFormStoreOneEvaluation() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let form = try dani.get("/clients/\(gustavo)/evaluations/new")
        let key = String(try #require(form.text.firstMatch(of: /name="_once" value="([^"]+)"/)?.1))
        let fields = [("_csrf", dani.csrf), ("_once", key)] + Self.evaluation
        let before = try evaluationCount(test)
        let (client, headers) = (dani.client, dani.cookieHeader)
        async let first = Task.detached { try client.postForm("/clients/\(gustavo)/evaluations", fields, headers: headers) }.value
        async let second = Task.detached { try client.postForm("/clients/\(gustavo)/evaluations", fields, headers: headers) }.value
        let answers = try await [first, second]
        #expect(answers.map(\.status) == [303, 303])
        #expect(answers[0].header("Location") == answers[1].header("Location"), "both show the one stored")
        #expect(try evaluationCount(test) == before + 1)
        let again = try dani.post("/clients/\(gustavo)/evaluations", [("_once", key)] + Self.evaluation)
        #expect(again.status == 303 && again.header("Location") == answers[0].header("Location"))
        #expect(try evaluationCount(test) == before + 1)
        // A new form is a new evaluation.
        let next = try dani.get("/clients/\(gustavo)/evaluations/new")
        #expect(next.text.firstMatch(of: /name="_once" value="([^"]+)"/)?.1 != Substring(key))
    }

    @Test func aRefusedFormIsStoredOnceWhenCorrectedAndSentTwice() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let key = String(try #require(try dani.get("/clients/\(gustavo)/evaluations/new").text
            .firstMatch(of: /name="_once" value="([^"]+)"/)?.1))
        let refused = try dani.post("/clients/\(gustavo)/evaluations", [("_once", key)] + Self.evaluation.filter { $0.0 != "weight" })
        #expect(refused.status == 422)
        let before = try evaluationCount(test)
        let saved = try dani.post("/clients/\(gustavo)/evaluations", [("_once", key)] + Self.evaluation)
        #expect(saved.status == 303)
        #expect(try dani.post("/clients/\(gustavo)/evaluations", [("_once", key)] + Self.evaluation).header("Location")
                == saved.header("Location"))
        #expect(try evaluationCount(test) == before + 1)
    }

    @Test func theNutritionAndClientCreateFormsCarryAOneTimeKey() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        #expect(try nadia.get("/patients/\(try test.id(of: "elisa"))/meals/new").text.contains(#"name="_once""#))
        #expect(try nadia.get("/foods").text.contains(#"name="_once""#))
        #expect(try test.browser(loggedInAs: "dani").get("/clients/new").text.contains(#"name="_once""#))
    }

    // MARK: - Corrections, deletions and the report's export

    @Test func aTrainerCorrectsAnEvaluationAndTheAuditKeepsThePreviousValues() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let saved = try dani.post("/clients/\(gustavo)/evaluations", Self.evaluation)
        let report = try #require(saved.header("Location")?.split(separator: "?").first.map(String.init))
        let id = try #require(Int64(report.split(separator: "/").last!))
        let edit = try dani.get(report + "/edit")
        #expect(edit.status == 200)
        #expect(edit.text.contains(#"action="\#(report)""#))
        #expect(edit.text.contains(#"id="weight" name="weight" inputmode="decimal" autocomplete="off" value="85,4""#))
        #expect(edit.text.contains(#"data-draft="evaluation-\#(gustavo)-\#(id)""#))
        let corrected = try dani.post(report, Self.evaluation.filter { $0.0 != "weight" } + [("weight", "58,4"), ("version", "1")])
        #expect(corrected.status == 303)
        #expect(try test.read { try Evaluation.fetchOne($0, key: id) }?.weightGrams == 58_400)
        let audit = try #require(try test.read {
            try String.fetchOne($0, sql: "SELECT summary FROM auditEntry WHERE entity = 'evaluation' AND entityId = ? AND action = 'update'",
                                arguments: [id])
        })
        #expect(audit.contains("before:") && audit.contains("weight 85.4 kg") && audit.contains("after:") && audit.contains("weight 58.4 kg"))
        #expect(try dani.get("/clients/\(gustavo)").text.contains("58,4 kg"))
        let invalid = try dani.post(report, Self.evaluation.filter { $0.0 != "weight" } + [("weight", "5000"), ("version", "2")])
        #expect(invalid.status == 422 && invalid.text.contains(#"value="5000""#))
        #expect(try test.read { try Evaluation.fetchOne($0, key: id) }?.weightGrams == 58_400)
    }

    @Test func deletingAnEvaluationAsksFirstThenLeavesHistoryChartsAndComparisons() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let ids = try test.read { try Int64.fetchAll($0, sql: "SELECT id FROM evaluation WHERE patientId = ? ORDER BY takenOn", arguments: [gustavo]) }
        let doomed = ids.last!
        let confirm = try dani.get("/clients/\(gustavo)/evaluations/\(doomed)/delete")
        #expect(confirm.status == 200)
        #expect(confirm.text.contains("sai do histórico, dos gráficos e das comparações"))
        #expect(try test.read { try Evaluation.fetchOne($0, key: doomed) } != nil, "asking changes nothing")
        let deleted = try dani.post("/clients/\(gustavo)/evaluations/\(doomed)/delete")
        #expect(deleted.status == 303 && deleted.header("Location") == "/clients/\(gustavo)")
        #expect(try test.read { try Evaluation.fetchOne($0, key: doomed) } == nil)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM skinfoldReading WHERE evaluationId = ?", arguments: [doomed]) } == 0)
        #expect(!(try dani.get("/clients/\(gustavo)").text.contains("/evaluations/\(doomed)\"")))
        #expect(try dani.get("/clients/\(gustavo)/compare?first=\(ids[0])&second=\(doomed)").status == 404)
        #expect(try dani.get("/clients/\(gustavo)/evaluations/\(doomed)").status == 404)
        let audit = try test.read {
            try String.fetchOne($0, sql: "SELECT summary FROM auditEntry WHERE entity = 'evaluation' AND entityId = ? AND action = 'delete'",
                                arguments: [doomed])
        }
        #expect(audit?.contains("weight") == true)
    }

    @Test func anotherTrainerCannotCorrectOrDeleteAndNothingChanges() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "trainer", username: "teo", name: "Teo Ramos", specialties: [],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let teo = try test.browser(loggedInAs: "teo")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        let fernanda = try test.id(of: "Fernanda Dias")
        let snapshot = { try test.read { try Row.fetchAll($0, sql: "SELECT * FROM evaluation").map(\.description) } }
        let before = try snapshot()
        #expect(try teo.get("/clients/\(gustavo)/evaluations/\(id)/edit").status == 404)
        #expect(try teo.post("/clients/\(gustavo)/evaluations/\(id)", Self.evaluation).status == 404)
        #expect(try teo.post("/clients/\(gustavo)/evaluations/\(id)/delete").status == 404)
        let dani = try test.browser(loggedInAs: "dani")
        #expect(try dani.post("/clients/\(fernanda)/evaluations/\(id)/delete").status == 404, "another client's evaluation")
        #expect(try snapshot() == before)
    }

    @Test func openingTheReportIsAnAuditedExport() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        let exports = { try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE action = 'export' AND entityId = ?",
                                                            arguments: [id]) } }
        #expect(try exports() == 0)
        #expect(try dani.get("/clients/\(gustavo)/evaluations/\(id)").status == 200)
        #expect(try exports() == 1)
        #expect(try test.read { try String.fetchOne($0, sql: "SELECT actorName FROM auditEntry WHERE action = 'export'") } == "Daniel Rocha")
    }
}
