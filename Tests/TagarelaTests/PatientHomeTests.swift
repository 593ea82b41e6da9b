import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct PatientHomeRulesTests {
    func data(boards: Int = 0, isChild: Bool = false, played: Bool = false, meals: Int = 0) -> PatientHomeData {
        var data = PatientHomeData()
        data.boards = (0..<boards).map { PatientHomeData.Board(id: Int64($0), name: "b\($0)", imageURL: nil) }
        data.isChild = isChild
        data.hasPlayedGames = played
        data.mealCount = meals
        return data
    }

    @Test func boardsLeadForWhoeverUsesThemAndMealsForAnAdultWithout() {
        #expect(PatientHomeRules.leadsWithBoards(data(boards: 3, isChild: true, meals: 20)))
        #expect(PatientHomeRules.leadsWithBoards(data(boards: 1, meals: 20)), "an adult who uses boards sees them first")
        #expect(!PatientHomeRules.leadsWithBoards(data(meals: 20)))
        #expect(PatientHomeRules.leadsWithBoards(data(isChild: true)), "a child with nothing yet sees the games")
    }

    @Test func gamesAreForChildrenBoardUsersAndWhoeverPlayedThem() {
        #expect(PatientHomeRules.showsGames(data(isChild: true)))
        #expect(PatientHomeRules.showsGames(data(boards: 1)))
        #expect(PatientHomeRules.showsGames(data(played: true)))
        #expect(!PatientHomeRules.showsGames(data(meals: 5)))
    }

    @Test func theCountIsTodaysPendingMeals() {
        var home = data(meals: 6)
        home.todayMeals = [.init(id: 1, title: "a", time: "08:00", status: .fulfilled),
                           .init(id: 2, title: "b", time: "12:00", status: .pending),
                           .init(id: 3, title: "c", time: "19:00", status: .pending)]
        home.earlierPending = 4
        #expect(PatientHomeRules.pendingToday(home) == 2)
    }
}

@Suite struct PatientHomeTests {
    func today(_ test: TestApp) -> String { ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone) }

    @Test func elisaSeesTodaysMealsFirstAndNothingForChildren() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let elisaId = try test.id(of: "Elisa Martins")
        let today = today(test)
        // A meal of an earlier day left unanswered is not one of today's.
        try test.write { db in
            try db.execute(sql: "UPDATE meal SET status = 'pending', answeredAt = NULL WHERE id = (SELECT id FROM meal WHERE patientId = ? AND date < ? ORDER BY date DESC LIMIT 1)",
                           arguments: [elisaId, today])
        }
        let (pendingToday, mealsToday, earlier) = try test.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM meal WHERE patientId = ? AND date = ? AND status = 'pending'", arguments: [elisaId, today])!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM meal WHERE patientId = ? AND date = ?", arguments: [elisaId, today])!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM meal WHERE patientId = ? AND date < ? AND status = 'pending'", arguments: [elisaId, today])!)
        }
        #expect(mealsToday > 0 && earlier > 0)
        let home = try elisa.get("/patient")
        #expect(home.status == 200)
        let text = home.text
        #expect(text.contains(#"id="home-meals""#))
        #expect(!text.contains(#"id="home-boards""#) && !text.contains(#"id="home-activities""#))
        #expect(!text.contains(#"href="/play""#) && !text.contains(#"href="/educat""#) && !text.contains(#"href="/timer""#))
        #expect(!text.contains("Ainda não há pranchas"))
        #expect(text.contains(pendingToday == 0 ? "Todas as refeições de hoje foram respondidas." : "\(pendingToday) para responder hoje"))
        #expect(text.contains("E \(earlier) de dias anteriores ainda sem resposta."))
        #expect(text.matches(of: /class="home-meal[ "]/).count == mealsToday)
        #expect(text.contains(#"href="/meals/history""#) && text.contains(#"href="/measurements""#) && text.contains(#"href="/meals""#))
        #expect(!text.contains("<div class=\"tile"), "no tile that is not a link")
    }

    @Test func carlaSeesHerBoardsAndGamesFirstThenHerMeals() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let carlaId = try test.id(of: "Carla Costa")
        // The boards of a set open from its root's folders (her starter core set's four), so they have no tile.
        let plans = try test.read {
            try Int64.fetchAll($0, sql: "SELECT id FROM plan WHERE patientId = ? AND \(OBFSets.listedToChild)", arguments: [carlaId])
        }
        let text = try carla.get("/patient").text
        let boards = try #require(text.range(of: #"id="home-boards""#))
        let activities = try #require(text.range(of: #"id="home-activities""#))
        let meals = try #require(text.range(of: #"id="home-meals""#))
        #expect(boards.lowerBound < activities.lowerBound && activities.lowerBound < meals.lowerBound)
        for plan in plans { #expect(text.contains(#"<a class="home-tile" href="/play/\#(plan)"><img src=""#), "board \(plan) with its picture") }
        #expect(text.contains(#"href="/educat"><img src="/pictograms/1F3B2.svg""#))
        #expect(text.contains(#"href="/timer"><img src="/pictograms/23F3.svg""#))
        #expect(text.contains(#"<html lang="pt-BR" class="patient-page theme-auto text-standard">"#))
    }

    @Test func davisSpanishPatientModeShowsHisSpanishHome() async throws {
        let test = try await TestApp()
        let davi = try test.patientMode(of: "Davi Alves", openedBy: "beatriz")
        let text = try davi.get("/patient").text
        #expect(text.contains(#"<html lang="es""#))
        #expect(text.contains(#"<h2 id="home-boards">Mis tableros</h2>"#))
        #expect(text.contains(#"<h2 id="home-activities">Juegos y tiempo</h2>"#))
    }
}

@Suite struct DisplaySettingsTests {
    let fields = [("cellSize", "small"), ("labelPosition", "below"), ("selectOn", "press"), ("holdMs", "0"),
                  ("scanning", "off"), ("scanSeconds", "1,5"), ("switches", "one"), ("dwellSeconds", "0")]

    @Test func aTutorChoosesTheDarkThemeAndLargeTextForEveryPageOfThePatient() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        let form = try bruno.get("/patients/\(carlaId)/access").text
        #expect(form.contains(#"name="theme" value="auto" checked"#) && form.contains(#"name="textSize" value="standard" checked"#))
        let saved = try bruno.post("/patients/\(carlaId)/access", fields + [("theme", "dark"), ("textSize", "large")])
        #expect(saved.status == 303)
        #expect(try bruno.get("/tutor").text.contains(#"<html lang="pt-BR">"#), "the tutor's own pages keep the standard look")
        _ = try bruno.post("/patients/\(carlaId)/patient-mode")
        let plan = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? ORDER BY id", arguments: [carlaId])! }
        for path in ["/patient", "/play", "/play/\(plan)", "/timer", "/educat", "/meals"] {
            #expect(try bruno.get(path).text.contains(#"<html lang="pt-BR" class="patient-page theme-dark text-large">"#), "\(path)")
        }
    }

    @Test func anUnknownThemeIsRefusedAndAnOldFormKeepsTheStandardLook() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let refused = try ana.post("/patients/\(carlaId)/access", fields + [("theme", "neon"), ("textSize", "huge")])
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"id="theme-error""#) && refused.text.contains(#"id="textSize-error""#))
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM accessSetting")! } == 0, "nothing saved")
        #expect(try ana.post("/patients/\(carlaId)/access", fields).status == 303, "a tab opened before the display settings")
        let row = try #require(try test.read { try Row.fetchOne($0, sql: "SELECT theme, textSize FROM accessSetting WHERE patientId = ?", arguments: [carlaId]) })
        #expect(row["theme"] as String == "auto" && row["textSize"] as String == "standard")
        #expect(throws: DatabaseError.self) {
            try test.write { try $0.execute(sql: "UPDATE accessSetting SET theme = 'neon'") }
        }
    }

    @Test func theElderlyPatientSeesHerOwnSettingsWithoutPatientMode() async throws {
        let test = try await TestApp()
        let elisaId = try test.id(of: "Elisa Martins")
        try test.write { db in
            try AccessSettings(display: .init(theme: .contrast, textSize: .xlarge)).save(patientId: elisaId, by: elisaId, at: Date(), db)
        }
        let page = try test.browser(loggedInAs: "elisa").get("/meals").text
        #expect(page.contains(#"class="patient-page theme-contrast text-xlarge""#))
    }
}
