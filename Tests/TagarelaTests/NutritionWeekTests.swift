import Foundation
import GRDB
@testable import Tagarela
import Testing

/// The nutritionist's week, the estimate of what was eaten instead of a meal not followed, and the
/// weekly plan: pure rules first, then the store against real SQLite, then HTTP against the real server.
@Suite struct NutritionWeekTests {
    // MARK: - Pure rules

    @Test func aWeekStartsOnMondayWhateverDayItIsAskedFor() {
        #expect(NutritionWeek.monday(of: "2026-11-18") == "2026-11-16")  // a Wednesday
        #expect(NutritionWeek.monday(of: "2026-11-16") == "2026-11-16")  // a Monday is its own week's start
        #expect(NutritionWeek.monday(of: "2026-11-22") == "2026-11-16", "Sunday ends the week, it does not start one")
        #expect(NutritionWeek.monday(of: "2027-01-01") == "2026-12-28", "a week crosses the new year")
        #expect(NutritionWeek.monday(of: "2024-03-01") == "2024-02-26", "through a 29 February")
        #expect(NutritionWeek.monday(of: "1969-12-31") == "1969-12-29", "before day 0 too")
        #expect(NutritionWeek.monday(of: "2026-02-30") == nil)
        #expect(NutritionWeek.days(from: "2026-12-28") == ["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31",
                                                           "2027-01-01", "2027-01-02", "2027-01-03"])
    }

    @Test func theWeekOfAnInstantIsTheClinicsNotUTCsAndSummerTimeMovesNoDay() throws {
        let iso = ISO8601DateFormatter()
        let saoPaulo = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        // Sunday 22 Nov, 23:30 in São Paulo is already Monday in UTC.
        let lateSunday = try #require(iso.date(from: "2026-11-23T02:30:00Z"))
        #expect(NutritionWeek.monday(at: lateSunday, timeZone: saoPaulo) == "2026-11-16")
        #expect(NutritionWeek.monday(at: lateSunday, timeZone: TimeZone(identifier: "UTC")!) == "2026-11-23")
        // Madrid moves to summer time on Sunday 29 March 2026 at 02:00: the hour lost changes no day.
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        #expect(NutritionWeek.monday(at: try #require(iso.date(from: "2026-03-29T21:30:00Z")), timeZone: madrid) == "2026-03-23",
                "23:30 on Sunday (UTC+2)")
        #expect(NutritionWeek.monday(at: try #require(iso.date(from: "2026-03-29T22:30:00Z")), timeZone: madrid) == "2026-03-30",
                "00:30 on Monday (UTC+2)")
        // And back to winter time on Sunday 25 October: 23:30 on Sunday is 22:30 UTC.
        #expect(NutritionWeek.monday(at: try #require(iso.date(from: "2026-10-25T22:30:00Z")), timeZone: madrid) == "2026-10-19")
        #expect(NutritionWeek.monday(at: try #require(iso.date(from: "2026-10-25T23:30:00Z")), timeZone: madrid) == "2026-10-26")
    }

    @Test func anyBookmarkLandsOnASensibleWeek() {
        let today = "2026-11-18", current = "2026-11-16"
        func week(_ week: String?, from: String? = nil, to: String? = nil) -> String {
            NutritionWeek.requested(week: week, from: from, to: to, today: today)
        }
        #expect(week(nil) == current)
        #expect(week("2026-11-23") == "2026-11-23")
        #expect(week("2026-11-26") == "2026-11-23", "any day of a week shows that week")
        #expect(week(" 2026-11-09 ") == "2026-11-09")
        #expect(week("2026-W48") == "2026-11-23", "what a week picker sends")
        #expect(week("2026-w01") == "2025-12-29")
        #expect(week("2026-W53") == "2026-12-28", "2026 starts on a Thursday: it has 53 weeks")
        #expect(week("2025-W53") == current, "2025 has 52")
        for bad in ["", "abc", "2026-13-01", "2026-02-30", "2026-2-3", "0000-01-01", "1899-12-31", "2200-01-01", "99999-12-31",
                    "2026-W99", "2026-W00", "'; DROP TABLE meal; --", "\u{0}", String(repeating: "9", count: 5000), "-0001-01-01"] {
            #expect(week(bad) == current, "\(bad.prefix(20))")
        }
        // The page's former period filter: a period holding today shows this week, else the week it starts.
        #expect(week(nil, from: "2026-11-01", to: "2026-11-30") == current)
        #expect(week(nil, from: "2000-01-01", to: "2100-01-01") == current)
        #expect(week(nil, from: "2026-10-07", to: "2026-10-20") == "2026-10-05")
        #expect(week(nil, from: "1999-03-15") == "1999-03-15", "a forgotten meal decades ago can still be shown")
        #expect(week(nil, from: "ontem", to: "amanhã") == current)
        #expect(week("2026-11-02", from: "1999-03-15") == "2026-11-02", "week wins over an old period")
    }

    @Test func aCellSaysItsStatusByMarkAsWellAsColour() {
        let now = (date: "2026-11-18", time: "13:00")
        #expect(NutritionWeek.cellStatus(.fulfilled, date: "2026-11-17", time: "12:30", quantityChanged: false, now: now) == .followed)
        #expect(NutritionWeek.cellStatus(.fulfilled, date: "2026-11-17", time: "12:30", quantityChanged: true, now: now) == .changed)
        #expect(NutritionWeek.cellStatus(.notFulfilled, date: "2026-11-17", time: "12:30", quantityChanged: false, now: now) == .notFollowed)
        #expect(NutritionWeek.cellStatus(.pending, date: "2026-11-18", time: "12:30", quantityChanged: false, now: now) == .overdue)
        #expect(NutritionWeek.cellStatus(.pending, date: "2026-11-18", time: "13:00", quantityChanged: false, now: now) == .upcoming,
                "a meal is late only after its time")
        #expect(NutritionWeek.cellStatus(.pending, date: "2026-11-25", time: "07:00", quantityChanged: false, now: now) == .upcoming)
        #expect(!NutritionWeek.isDense(columns: 4, busiestDayLines: 19), "the demo's week prints at the usual size")
        #expect(NutritionWeek.isDense(columns: 6, busiestDayLines: 10) && NutritionWeek.isDense(columns: 3, busiestDayLines: 25))
        let marks = NutritionWeek.CellStatus.allCases.map(\.mark)
        #expect(Set(marks).count == marks.count, "every status has its own mark")
    }

    @Test func anEstimateCountsInTheEnergyAndAMissingOneIsLeftOutNotCountedAsZero() {
        #expect(NutritionWeek.eatenKcal(.fulfilled, plannedKcal: 500, consumedKcal: 450, eatenShare: nil) == 450)
        #expect(NutritionWeek.eatenKcal(.notFulfilled, plannedKcal: 600, consumedKcal: 600, eatenShare: 50) == 300)
        #expect(NutritionWeek.eatenKcal(.notFulfilled, plannedKcal: 600, consumedKcal: 600, eatenShare: 0) == 0, "nothing is a known 0")
        #expect(NutritionWeek.eatenKcal(.notFulfilled, plannedKcal: 600, consumedKcal: 600, eatenShare: nil) == nil)
        #expect(NutritionWeek.eatenKcal(.pending, plannedKcal: 600, consumedKcal: 600, eatenShare: 100) == nil)
        let meals: [NutritionRules.ScheduledMeal] = [
            .init(status: .fulfilled, date: "2026-11-16", time: "07:30", plannedKcal: 500, eatenKcal: 450),
            .init(status: .notFulfilled, date: "2026-11-16", time: "12:30", plannedKcal: 600, eatenKcal: 300),
            .init(status: .notFulfilled, date: "2026-11-16", time: "19:30", plannedKcal: 700, eatenKcal: nil),
            .init(status: .pending, date: "2026-11-18", time: "07:30", plannedKcal: 400, eatenKcal: nil),
            .init(status: .fulfilled, date: "2026-11-09", time: "07:30", plannedKcal: 900, eatenKcal: 900),
        ]
        let figures = NutritionRules.adherence(meals, from: "2026-11-16", to: "2026-11-22", nowDate: "2026-11-18", nowTime: "13:00")
        #expect(figures.fulfilled == 1 && figures.notFulfilled == 2 && figures.pending == 1 && figures.overdue == 1)
        #expect(figures.rate == 1.0 / 3.0, "adherence stays meals followed ÷ meals answered")
        #expect(figures.estimated == 1)
        #expect(figures.plannedKcal == 1100 && figures.eatenKcal == 750, "the meal without an estimate is on neither side")
        #expect(abs(figures.energyRate! - 750.0 / 1100.0) < 1e-12)
        #expect(NutritionRules.adherence([], from: "2026-11-16", to: "2026-11-22", nowDate: "2026-11-18", nowTime: "13:00").energyRate == nil)
        let half = NutritionRules.scaled(Nutrients(kcal: 600, protein: 30, carbohydrate: 80, fat: 20), share: 50)
        #expect(half == Nutrients(kcal: 300, protein: 15, carbohydrate: 40, fat: 10))
    }

    // MARK: - Store

    func audit(_ test: TestApp) throws -> AuditContext {
        AuditContext(actorId: try test.id(of: "elisa"), actorName: "elisa", clientAddress: "test", now: test.clock.now)
    }

    @Test func aMealNotFollowedKeepsItsEstimateAndAFollowedOneNone() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let audit = try audit(test)
        try test.write { db in
            let queue = try Meal.queue(of: elisa).fetchAll(db)
            let answer = MealAnswer(followed: false, consumed: [:], reason: "Sem fome", instead: "Uma fruta", hunger: nil, eatenShare: 25)
            try Meals.answer(queue[0], with: answer, photo: nil, audit: audit, db)
            let stored = try #require(try Meal.fetchOne(db, key: queue[0].id))
            #expect(stored.status == "not_fulfilled" && stored.eatenShare == 25)
            let entry = try #require(try AuditEntry.order(Column("id").desc).fetchOne(db))
            #expect(entry.entity == "meal" && entry.entityId == queue[0].id && entry.summary == "not_fulfilled")
            let screen = try MealScreen.fetch(stored, db)
            #expect(abs(screen.eaten!.kcal - screen.prescribed.kcal / 4) < 1e-9)

            let followed = MealAnswer(followed: true, consumed: [:], reason: nil, instead: nil, hunger: nil, eatenShare: 50)
            try Meals.answer(queue[1], with: followed, photo: nil, audit: audit, db)
            #expect(try Meal.fetchOne(db, key: queue[1].id)?.eatenShare == nil, "a followed meal has its quantities, no estimate")
            #expect(throws: AppError.conflict) { try Meals.answer(stored, with: answer, photo: nil, audit: audit, db) }
            #expect(throws: (any Error).self) {
                try db.execute(sql: "UPDATE meal SET eatenShare = 400 WHERE id = ?", arguments: [queue[0].id])
            }
        }
    }

    /// The week's summaries sum energy in SQL; it must be the same arithmetic as the meal pages'.
    @Test func theEnergySummedInSQLIsTheMealPagesEnergy() async throws {
        let test = try await TestApp()
        for person in ["elisa", "Carla Costa"] {
            let patient = try test.id(of: person)
            try test.write { db in
                try db.execute(sql: """
                    UPDATE meal SET eatenShare = 50 WHERE id = (SELECT min(id) FROM meal WHERE patientId = ? AND status = 'not_fulfilled')
                    """, arguments: [patient])
            }
            let (energies, screens) = try test.read { db in
                (try NutritionQueries.energies(patientId: patient, from: "2000-01-01", to: "2100-01-01", db),
                 try MealScreen.fetch(try Meal.filter(Column("patientId") == patient).order(Column("date"), Column("time"), Column("id")).fetchAll(db), db))
            }
            #expect(energies.count == screens.count && !energies.isEmpty)
            #expect(energies.contains { $0.status == .notFulfilled && $0.eatenKcal != nil })
            for (sum, screen) in zip(energies, screens) {
                #expect(sum.id == screen.meal.id)
                #expect(abs(sum.plannedKcal - screen.prescribed.kcal) < 1e-6)
                #expect(sum.eatenKcal.map { abs($0 - (screen.eaten?.kcal ?? -1)) < 1e-6 } ?? (screen.eaten == nil))
            }
        }
    }

    // MARK: - HTTP

    static func weekTitle(_ monday: String) -> String {
        let format = LocalizedFormat(locale: .ptBR, timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
        return "Semana de \(format.shortDate(iso: monday)) a \(format.shortDate(iso: ISODate.adding(6, to: monday)))"
    }

    static func occurrences(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func theWeekPageShowsTheWeekAndMovesToOlderAndLaterWeeks() async throws {
        let test = try await TestApp()  // Wednesday 18 November 2026
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let page = try nadia.get("/patients/\(elisa)/nutrition")
        #expect(page.status == 200)
        #expect(page.text.contains(Self.weekTitle("2026-11-16")))
        #expect(page.text.contains(#"href="/patients/\#(elisa)/nutrition?week=2026-11-09" rel="prev""#))
        #expect(page.text.contains(#"href="/patients/\#(elisa)/nutrition?week=2026-11-23" rel="next""#))
        #expect(page.text.contains(#"href="/patients/\#(elisa)/nutrition/plan?week=2026-11-16""#))
        let inWeek = try test.read {
            try Meal.filter(Column("patientId") == elisa && Column("date") >= "2026-11-16" && Column("date") <= "2026-11-22").fetchAll($0)
        }
        #expect(inWeek.count > 10)
        #expect(Self.occurrences(#"<div class="week-meal status-"#, in: page.text) == inWeek.count, "one block per meal of the week")
        #expect(Self.occurrences(#"<tr class="week-day"#, in: page.text) == 7)
        for meal in inWeek where meal.status == "pending" {
            #expect(page.text.contains(#"href="/patients/\#(elisa)/meals/\#(meal.id!)/edit""#), "editing is one click from the cell")
        }
        // The summaries come before the grid.
        let summary = try #require(page.text.range(of: #"id="adherence-title""#)), grid = try #require(page.text.range(of: "week-grid"))
        #expect(summary.lowerBound < grid.lowerBound)
        #expect(page.text.range(of: #"id="deviations-title""#)!.lowerBound < grid.lowerBound)

        let older = try nadia.get("/patients/\(elisa)/nutrition?week=2026-11-09")
        #expect(older.status == 200 && older.text.contains(Self.weekTitle("2026-11-09")))
        #expect(older.text.contains(#"href="/patients/\#(elisa)/nutrition?week=2026-11-16">Esta semana"#), "back to this week in one click")
        #expect(older.text.contains("status-followed") && !older.text.contains(#"class="week-edit""#), "an answered week has nothing to edit")
        let empty = try nadia.get("/patients/\(elisa)/nutrition?week=2027-06-07")
        #expect(empty.status == 200 && empty.text.contains("Nenhuma refeição prescrita nesta semana."))
        #expect(empty.text.contains(#"href="/patients/\#(elisa)/meals/new?date=2027-06-09""#), "a meal is added from its day")
    }

    @Test func aMalformedOrOldWeekNeverBreaksThePage() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let elisa = try test.id(of: "elisa")
        let current = Self.weekTitle("2026-11-16")
        for query in ["week=abc", "week=2026-13-01", "week=2026-02-30", "week=0000-01-01", "week=99999-12-31", "week=2026-W99",
                      "week=%27%3B%20DROP%20TABLE%20meal%3B--", "week=", "week=\(String(repeating: "9", count: 3000))",
                      "week=2026-11-18&week=x", "from=ontem&to=amanha", "from=2026-11-01&to=2026-11-30", "week[]=1"] {
            let page = try nadia.get("/patients/\(elisa)/nutrition?\(query)")
            #expect(page.status == 200, "\(query.prefix(30))")
            #expect(page.text.contains(current), "\(query.prefix(30)) shows this week")
        }
        // An encoded NUL is refused whole (the server would otherwise cut the value there), in the reader's language.
        let nul = try nadia.get("/patients/\(elisa)/nutrition?week=%00")
        #expect(nul.status == 400)
        #expect(nul.text.contains("Pedido inválido"))
        let bookmark = try nadia.get("/patients/\(elisa)/nutrition?from=2026-11-09&to=2026-11-12")
        #expect(bookmark.text.contains(Self.weekTitle("2026-11-09")), "an old period bookmark shows the week it starts")
        #expect(try nadia.get("/patients/\(elisa)/nutrition/plan?week=garbage").status == 200)
        #expect(try test.browser(loggedInAs: "elisa").get("/meals/plan?week=%FF%FE").status == 200)
    }

    @Test func anotherCliniciansPatientIsNotFoundAndASpeechTherapistIsRefused() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "lia", name: "Lia Nunes", specialties: ["nutrition"],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let elisa = try test.id(of: "elisa"), carla = try test.id(of: "Carla Costa")
        let lia = try test.browser(loggedInAs: "lia")
        for path in ["/patients/\(elisa)/nutrition?week=2026-11-16", "/patients/\(elisa)/nutrition/plan?week=2026-11-16",
                     "/patients/\(elisa)/nutrition/plan"] {
            let page = try lia.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(!page.text.contains("Elisa"), "\(path) names nobody")
        }
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/patients/\(carla)/nutrition?week=2026-11-16").status == 403)
        #expect(try ana.get("/patients/\(carla)/nutrition/plan").status == 403)
        #expect(try test.browser(loggedInAs: "elisa").get("/patients/\(elisa)/nutrition/plan").status == 403, "the patient has their own")
    }

    @Test func aPatientCannotAnswerOrSeeSomeoneElsesMeal() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let elisa = try test.browser(loggedInAs: "elisa")
        let carlasMeal = try #require(try test.read { try Meal.queue(of: carla).fetchOne($0) })
        let before = try test.snapshot()
        let answer = [("followed", "0"), ("version", "\(carlasMeal.version)"), ("reason", "x"), ("instead", "y"), ("eaten", "50")]
        #expect(try elisa.post("/meals/\(carlasMeal.id!)/answer", answer).status == 404)
        #expect(try elisa.post("/patients/\(carla)/meals/\(carlasMeal.id!)", [("type", "lunch")]).status == 403)
        #expect(try test.snapshot() == before, "nothing changed")
        let plan = try elisa.get("/meals/plan?week=2026-11-16")
        #expect(plan.status == 200)
        let elisaId = try test.id(of: "elisa")
        let ownMeals = try test.read {
            try Meal.filter(Column("patientId") == elisaId && Column("date") >= "2026-11-16" && Column("date") <= "2026-11-22").fetchCount($0)
        }
        #expect(Self.occurrences(#"<div class="plan-meal">"#, in: plan.text) == ownMeals, "only her own meals")
    }

    /// Each meal of the week is rendered on its own and kept (`RequestContext.piece`): a meal answered
    /// since the last load shows its answer, and a second session's withdraw forms carry its own token,
    /// never the first one's.
    @Test func aKeptMealShowsItsAnswerAtTheNextLoadAndEachSessionItsOwnToken() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let meal = try #require(try test.read { try Meal.queue(of: elisaId).fetchOne($0) })
        let week = "/patients/\(elisaId)/nutrition?week=\(NutritionWeek.monday(of: meal.date)!)"
        func tokens(_ html: String) -> Set<String> {
            Set(html.components(separatedBy: #"name="_csrf" value=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) })
        }
        let first = try test.browser(loggedInAs: "nadia"), second = try test.browser(loggedInAs: "nadia")
        let before = try first.get(week)
        #expect(before.text.contains(#"action="/patients/\#(elisaId)/meals/\#(meal.id!)/withdraw""#))
        #expect(test.app.caches.pieces.count > 0, "the meals were kept")
        let again = try first.get(week)
        #expect(again.text == before.text, "the same week from the kept meals")
        let firstTokens = tokens(before.text), secondPage = try second.get(week)
        #expect(firstTokens.count == 1 && tokens(secondPage.text).count == 1, "one token on every form of the page")
        #expect(tokens(secondPage.text) != firstTokens, "the second session's own")

        #expect(try test.browser(loggedInAs: "elisa").post("/meals/\(meal.id!)/answer", [
            ("followed", "0"), ("version", "\(meal.version)"), ("reason", "Festa"), ("instead", "Bolo"), ("eaten", "50"),
        ]).status == 303)
        let after = try first.get(week)
        #expect(!after.text.contains(#"action="/patients/\#(elisaId)/meals/\#(meal.id!)/withdraw""#), "answered: nothing to withdraw")
        #expect(after.text.contains("Comeu metade do plano"), "the meal's estimate, in its details")

        // Another pending meal of the week, prescribed again meanwhile: its new time shows.
        let other = try #require(try test.read { db in
            try Meal.filter(Column("patientId") == elisaId && Column("status") == "pending" && Column("id") != meal.id
                            && Column("date") >= NutritionWeek.monday(of: meal.date)! && Column("date") <= ISODate.adding(6, to: NutritionWeek.monday(of: meal.date)!))
                .fetchOne(db)
        })
        let otherLines = try test.read { try MealLine.filter(Column("mealId") == other.id).order(Column("position")).fetchAll($0) }
        var fields = [("type", other.type), ("customName", other.customName ?? ""), ("date", other.date), ("time", "06:05"),
                      ("version", "\(other.version)")]
        for (index, line) in otherLines.enumerated() {
            fields += [("food_\(index)", "\(line.foodId)"), ("quantity_\(index)", "\(line.quantity)"), ("unit_\(index)", line.unit)]
        }
        #expect(!after.text.contains(#"<span class="week-time">06:05</span>"#))
        #expect(try first.post("/patients/\(elisaId)/meals/\(other.id!)", fields).status == 303)
        #expect(try first.get(week).text.contains(#"<span class="week-time">06:05</span>"#), "the meal as prescribed now")

        // The same meals in another language are rendered in it, not taken from the Portuguese ones.
        #expect(try second.post("/account/language", [("locale", "es")]).status == 303)
        let spanish = try second.get(week)
        #expect(spanish.text.contains("Alimentos y respuesta") && !spanish.text.contains("Alimentos e resposta"))
    }

    @Test func anEstimateIsAnsweredOnceAndReachesTheNutritionistsWeek() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let elisa = try test.browser(loggedInAs: "elisa")
        let meal = try #require(try test.read { try Meal.queue(of: elisaId).fetchOne($0) })
        let form = try elisa.get("/meals/\(meal.id!)/answer?followed=0")
        #expect(form.text.contains(#"name="eaten" value="50""#) && form.text.contains("Quanto comeu, comparado ao plano?"))

        let wrong = try elisa.post("/meals/\(meal.id!)/answer", [("followed", "0"), ("version", "\(meal.version)"), ("reason", "Festa"),
                                                                ("instead", "Bolo"), ("eaten", "75")])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains(#"id="eaten-error""#) && wrong.text.contains("Festa"), "named, and what was typed is kept")
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.status == "pending")

        let fields = [("followed", "0"), ("version", "\(meal.version)"), ("reason", "Festa"), ("instead", "Bolo"), ("eaten", "150")]
        let audits = { try test.read { try AuditEntry.filter(Column("entity") == "meal" && Column("entityId") == meal.id).fetchCount($0) } }
        let auditsBefore = try audits()
        #expect(try elisa.post("/meals/\(meal.id!)/answer", fields).status == 303)
        let again = try elisa.post("/meals/\(meal.id!)/answer", fields.map { $0.0 == "eaten" ? ("eaten", "0") : $0 })
        #expect(again.status == 303, "a double submit is told, not saved")
        #expect(try elisa.get("/meals").text.contains("já tinha sido respondida"))
        let stored = try #require(try test.read { try Meal.fetchOne($0, key: meal.id) })
        #expect(stored.eatenShare == 150 && stored.status == "not_fulfilled")
        #expect(try audits() == auditsBefore + 1, "one answer, one audit row")

        let prescribed = try test.read { try MealScreen.fetch(stored, $0).prescribed.kcal }
        let format = LocalizedFormat(locale: .ptBR, timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
        let page = try test.browser(loggedInAs: "nadia").get("/patients/\(elisaId)/nutrition?week=\(NutritionWeek.monday(of: meal.date)!)")
        #expect(page.text.contains("comido ≈ \(format.decimal(prescribed * 1.5, fractionDigits: 0)) kcal (estimativa)"))
        #expect(page.text.contains("Comeu mais (1½ do plano)"))
        #expect(page.text.contains("Bolo"), "what was eaten instead is at the top")
        #expect(try elisa.get("/meals/\(meal.id!)").text.contains("Comeu mais (1½ do plano)"))
    }

    @Test func theWeeklyPlanIsPrintableForTheNutritionistAndShownToThePatient() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "elisa")
        let plan = try test.browser(loggedInAs: "nadia").get("/patients/\(elisaId)/nutrition/plan?week=2026-11-16")
        #expect(plan.status == 200)
        #expect(plan.text.contains("Plano alimentar da semana") && plan.text.contains("data-print"))
        #expect(plan.text.contains("Arroz branco cozido") || plan.text.contains("Arroz"))
        #expect(plan.text.contains(#"href="/patients/\#(elisaId)/nutrition?week=2026-11-16""#), "back to the same week")

        let elisa = try test.browser(loggedInAs: "elisa")
        let mine = try elisa.get("/meals/plan")
        #expect(mine.status == 200)
        #expect(mine.text.contains(#"id="today-title""#))
        let today = try test.read { try Meal.filter(Column("patientId") == elisaId && Column("date") == "2026-11-18").fetchCount($0) }
        #expect(today > 0)
        let todaySection = try #require(mine.text.firstMatch(of: /id="today-title".*?<\/section>/.dotMatchesNewlines())?.0)
        #expect(Self.occurrences(#"<li class="plan-meal status-"#, in: String(todaySection)) == today)
        #expect(mine.text.contains(#"href="/meals/plan?week=2026-11-23""#))
        #expect(try elisa.get("/meals").text.contains(#"href="/meals/plan""#), "the check-in leads to the plan")
        #expect(try elisa.get("/patient").text.contains(#"href="/meals/plan""#), "so does the home")
    }
}
