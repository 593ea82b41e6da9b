import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The rules behind boards that fit the screen and the paper, and the routes that use them.
@Suite struct BoardFitTests {
    // MARK: - Pure rules

    @Test func theLongestWordDecidesTheBoardsLabelSize() {
        #expect(LabelFit.longestWord(["eu", "televisão", "fazer xixi"]) == 9)
        #expect(LabelFit.cssClass(labels: ["eu", "televisão"]) == "label-chars-9")
        #expect(LabelFit.cssClass(labels: ["eu", "sim"]) == "label-chars-4", "short words share the smallest class")
        #expect(LabelFit.cssClass(labels: [String(repeating: "a", count: 30)]) == "label-chars-16")
        #expect(LabelFit.cssClass(labels: []) == "label-chars-4")
    }

    @Test func aTrailKeepsTheWayBackAndHome() {
        #expect(BoardTrail.parse("3,8") == [3, 8])
        #expect(BoardTrail.parse("3,abc,-1,3,0,8") == [3, 8], "junk, repeats and non-ids are dropped")
        #expect(BoardTrail.parse(nil) == [])
        #expect(BoardTrail.parse((1...20).map(String.init).joined(separator: ",")).count == BoardTrail.longest)
        let trail = BoardTrail(boards: [3, 8])
        #expect(trail.backURL == "/play/8?from=3")
        #expect(trail.homeURL == "/play/3")
        #expect(BoardTrail(boards: [3]).backURL == "/play/3")
        #expect(BoardTrail(boards: []).backURL == nil && BoardTrail(boards: []).homeURL == nil)
        let grid = #"<a class="cell" href="/play/12?from=9">x</a><a href="/play/13?from=91">y</a>"#
        #expect(trail.folderLinks(in: grid, from: 9) == #"<a class="cell" href="/play/12?from=3,8,9">x</a><a href="/play/13?from=91">y</a>"#)
        #expect(BoardTrail(boards: []).folderLinks(in: grid, from: 9) == grid)
    }

    @Test func theDeviceModelMatchesTheDemoBoardsAndWarnsAboutBigGrids() {
        // The demo's 4 × 5 board keeps 64 px cells on a 360 × 640 phone; a 6 × 8 board does not.
        #expect(BoardFit.cells(rows: 4, columns: 5, width: 360, height: 640).fits)
        #expect(BoardFit.cells(rows: 3, columns: 5, width: 1920, height: 1080).fits)
        let big = BoardFit.cells(rows: 6, columns: 8, width: 360, height: 640)
        #expect(!big.fits)
        #expect(big.cellWidth < 64)
        #expect(BoardFit.cells(rows: 6, columns: 8, width: 1280, height: 800).fits)
        // Scanning's padding and bigger controls take room too.
        let plain = BoardFit.cells(rows: 4, columns: 5, width: 768, height: 1024)
        let scanned = BoardFit.cells(rows: 4, columns: 5, width: 768, height: 1024, control: 80, scanning: true)
        #expect(scanned.cellHeight < plain.cellHeight && scanned.cellWidth < plain.cellWidth)
        #expect(BoardFit.cells(rows: 1, columns: 1, width: 360, height: 640, hasStrip: false).cellHeight
                > BoardFit.cells(rows: 1, columns: 1, width: 360, height: 640).cellHeight)
    }

    @Test func paperTurnsToTheGridsShape() {
        #expect(PrintSheet.orientation(rows: 3, columns: 5) == .landscape)
        #expect(PrintSheet.orientation(rows: 3, columns: 3) == .landscape)
        #expect(PrintSheet.orientation(rows: 6, columns: 2) == .portrait)
        #expect(PrintSheet.shape(count: 12) == (3, 5))
        #expect(PrintSheet.shape(count: 1) == (1, 2) || PrintSheet.shape(count: 1) == (1, 1))
        #expect(PrintSheet.shape(count: 0) == (1, 1))
        for count in 1...144 {
            let shape = PrintSheet.shape(count: count)
            #expect(shape.rows * shape.columns >= count && shape.columns <= 12 && shape.rows <= 12, "\(count)")
            #expect(shape.columns >= shape.rows, "a sentence plan's sheet is on its side: \(count)")
        }
    }

    @Test func aBookNumbersItsPagesAfterTheCover() {
        func plan(_ id: Int64, _ name: String, _ type: PlanType) -> Plan {
            Plan(id: id, patientId: 1, clinicianId: 2, tutorId: nil, name: name, description: "", startsOn: "2026-11-01",
                 type: type.rawValue, rows: 1, columns: 2, createdAt: .now, updatedAt: .now)
        }
        let ordered = BookPage.order([plan(1, "Frases", .sentence), plan(2, "Ajuda", .bigSymbol), plan(3, "Meu dia", .board),
                                      plan(4, "casa", .board)])
        #expect(ordered.map(\.id) == [4, 3, 2, 1], "boards first, by name; then big symbols; then sentence plans")
        #expect(BookPage.pageNumbers(of: ordered) == [4: 2, 3: 3, 2: 4, 1: 5])
    }

    // MARK: - Pages

    @Test func theBookHasACoverAndEveryPlanWithFolderPageReferences() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let page = try test.browser(loggedInAs: "ana").get("/patients/\(carla)/book")
        #expect(page.status == 200)
        let sheets = page.text.matches(of: /<article class="print-sheet/).count
        let plans = try test.read { try Plan.filter(Column("patientId") == carla).fetchCount($0) }
        #expect(sheets == plans + 1)
        #expect(page.text.contains("Ana Souza"))
        let things = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Coisas e comidas").fetchOne($0)! }
        let ordered = BookPage.order(try test.read { try Plan.filter(Column("patientId") == carla).fetchAll($0) })
        let number = try #require(BookPage.pageNumbers(of: ordered)[things.id!])
        #expect(page.text.contains("<span class=\"cell-note\">→ p. \(number)</span>"))
        #expect(page.text.contains(#"lang="pt-BR""#), "labels say their language")
        // The tutor of the child may print it; a tutor or clinician of someone else may not know it exists.
        #expect(try test.browser(loggedInAs: "bruno").get("/patients/\(carla)/book").status == 200)
        #expect(try test.browser(loggedInAs: "beatriz").get("/patients/\(carla)/book").status == 404)
        #expect(try test.browser(loggedInAs: "elisa").get("/patients/\(carla)/book").status == 403)
        #expect(try test.browser(loggedInAs: "ana").get("/patients/999999/book").status == 404)
    }

    @Test func aSentencePlanPrintsItsWordsWithTheirRoles() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let plan = try test.read {
            try Plan.filter(Column("patientId") == carla && Column("type") == PlanType.sentence.rawValue).fetchOne($0)!
        }
        let page = try test.browser(loggedInAs: "ana").get("/plans/\(plan.id!)/print")
        #expect(page.status == 200)
        #expect(page.text.contains("print-landscape"))
        #expect(page.text.contains(">sujeito</span>") && page.text.contains(">verbo</span>") && page.text.contains(">complemento</span>"))
    }

    @Test func theEditorShowsTheBoardOnEachScreenAndWarnsWhenItCannotFit() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let day = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Meu dia").fetchOne($0)! }
        let fits = try ana.get("/plans/\(day.id!)/edit")
        #expect(fits.text.matches(of: /class="fit-device"/).count == BoardFit.devices.count - 1, "all but a phone on its side")
        #expect(fits.text.contains("fit-warning"), "a 4 × 5 board does not fit a phone on its side")
        let created = try ana.post("/patients/\(carla)/plans", [("name", "Grande"), ("type", "board"), ("rows", "6"), ("columns", "8"),
                                                                ("startsOn", ""), ("tutorId", ""), ("description", "")])
        let editor = try ana.get(try #require(created.header("Location")))
        #expect(editor.text.contains("fit-warning"))
        #expect(editor.text.contains("Celular (360 × 640)"))
    }

    @Test func aFolderDeepInABoardSetHasBackAndHome() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.id(of: "Carla Costa")
        let plans = try test.read { try Plan.filter(Column("patientId") == carla).order(Column("id")).fetchAll($0) }
        let other = try test.read { try Plan.filter(Column("patientId") != carla).fetchOne($0)! }
        _ = try bruno.post("/patients/\(carla)/patient-mode", [("plan", "\(plans[0].id!)")])
        let (a, b, c) = (plans[1].id!, plans[2].id!, plans[3].id!)
        let page = try bruno.get("/play/\(c)?from=\(a),\(other.id!),\(b)")
        #expect(page.status == 200)
        #expect(page.text.contains(#"class="button button-large player-back" href="/play/\#(b)?from=\#(a)""#))
        #expect(page.text.contains(#"class="button button-large player-home" href="/play/\#(a)""#))
        #expect(!page.text.contains(",\(other.id!)"), "another child's board is not on the way")
        let root = try bruno.get("/play/\(a)")
        #expect(!root.text.contains("player-back") && !root.text.contains("player-home"))
    }
}
