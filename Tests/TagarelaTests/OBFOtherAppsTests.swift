import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Boards written by other apps (issue 54, item 2): the sizes of core-vocabulary layouts, `hidden` buttons,
/// the spec's specialty actions, colours in every CSS form, and the fixtures in Tests/Fixtures/obf-apps.
@Suite struct OBFOtherAppsTests {
    static let apps = TestApp.repositoryRoot + "/Tests/Fixtures/obf-apps"

    static func board(rows: Int, columns: Int, _ change: (inout [[String: Any]]) -> Void = { _ in }) -> [String: Any] {
        var buttons: [[String: Any]] = (0..<(rows * columns)).map { ["id": "b\($0)", "label": "palavra \($0)"] }
        change(&buttons)
        let order = (0..<rows).map { row in (0..<columns).map { "b\(row * columns + $0)" } }
        return ["format": "open-board-0.1", "id": "core", "name": "Core \(rows)x\(columns)", "locale": "pt-BR",
                "buttons": buttons, "grid": ["rows": rows, "columns": columns, "order": order]]
    }

    func read(_ object: [String: Any]) throws -> OBFBoard {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("obf-apps-\(UUID().uuidString).obf").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try #require(try OBFReader.read(file: path, name: "core.obf").first)
    }

    @Test(arguments: [(6, 10), (7, 12), (8, 14), (16, 16)])
    func coreLayoutsReadWhole(_ size: (Int, Int)) throws {
        let board = try read(Self.board(rows: size.0, columns: size.1))
        #expect(board.rows == size.0 && board.columns == size.1)
        #expect(board.cells.compactMap { $0?.label }.count == size.0 * size.1)
        #expect(board.cells.last??.label == "palavra \(size.0 * size.1 - 1)", "the last word keeps its place")
    }

    @Test func aGridBeyondTheBoundsNamesTheBoardTheFieldAndWhy() throws {
        let error = #expect(throws: OBFError.self) { try read(Self.board(rows: 2, columns: 17)) }
        #expect(error?.board == "Core 2x17" && error?.field == "grid.columns")
        #expect(error?.problem == .outOfRange(17, 1...16))
    }

    @Test func hiddenButtonsAndThePlayersOwnActionsLeaveTheirPlaceEmptyAndAreListed() throws {
        let board = try read(Self.board(rows: 2, columns: 4) { buttons in
            buttons[1]["hidden"] = true
            buttons[2]["action"] = ":clear"
            buttons[3]["actions"] = [":backspace"]
            buttons[4]["action"] = ":speak"
            buttons[5]["action"] = "+s"                    // spelling: still a word
            buttons[6]["action"] = ":home"
            buttons[6]["load_board"] = ["id": "core"]      // a folder with an action stays a folder
            buttons[7]["hidden"] = false
        })
        #expect(board.cells.map { $0 == nil } == [false, true, true, true, true, false, false, false])
        #expect(board.warnings.map(\.kind) == [.hidden, .action, .action, .action])
        #expect(board.warnings.map(\.id) == ["b1", ":clear", ":backspace", ":speak"])
        #expect(board.warnings.allSatisfy { $0.board == "Core 2x4" })
    }

    @Test(arguments: [
        ("#ffffaa", RGB(255, 255, 170)), ("#ffa", RGB(255, 255, 170)), ("#ffaf", RGB(255, 255, 170)),
        ("#ffffaa80", RGB(255, 255, 170)), ("rgb(255, 255, 170)", RGB(255, 255, 170)),
        ("rgba(255,255,170,0.5)", RGB(255, 255, 170)), ("rgb(255 255 170 / 50%)", RGB(255, 255, 170)),
        ("rgb(100%, 100%, 0%)", RGB(255, 255, 0)), ("hsl(60, 100%, 83%)", RGB(255, 255, 168)),
        ("hsla(120deg, 100%, 25%, 0.3)", RGB(0, 128, 0)), ("LightBlue", RGB(173, 216, 230)), (" gold ", RGB(255, 215, 0)),
    ])
    func everyCSSColourFormReads(_ case: (String, RGB)) {
        #expect(RGB(css: `case`.0) == `case`.1, "\(`case`.0)")
    }

    @Test func junkIsNoColour() {
        for junk in ["", "#ggg", "#12345", "rgb(300, 0, 0)", "hsl(0, 200%, 50%)", "blurple", "url(x)"] {
            #expect(RGB(css: junk) == nil, "\(junk)")
        }
    }

    /// A plan's cells by position: label, what it says and the board it opens.
    func grid(_ test: TestApp, plan: Int64) throws -> [Int: String] {
        try test.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT c.position, coalesce(s.name, '') || '|' || coalesce(s.spokenText, '') || '|' || coalesce(l.name, '') AS cell
                FROM planCell c LEFT JOIN symbol s ON s.id = c.symbolId LEFT JOIN plan l ON l.id = c.linkPlanId
                WHERE c.planId = ? AND (c.symbolId IS NOT NULL OR c.linkPlanId IS NOT NULL)
                """, arguments: [plan]).map { ($0["position"] as Int, $0["cell"] as String) })
        }
    }

    @Test(arguments: ["lovewords-example-board.obf"])
    func aBoardAnotherAppExportedImportsAndRoundTrips(_ file: String) async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.apps + "/" + file)))
        let before = try test.read { try Int64.fetchOne($0, sql: "SELECT coalesce(max(id), 0) FROM plan") }!
        let imported = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                             files: [(field: "file", filename: file, contentType: "application/json", content: content)])
        #expect(imported.status == 303, "\(imported.text.prefix(300))")
        let page = try ana.get(try #require(imported.header("Location")))
        #expect(page.text.contains(":clear") && page.text.contains(":backspace"), "the left-out buttons are listed")
        #expect(!page.text.contains(":speak"), "a greeting marked :speak says its own vocalization")
        let first = try #require(try test.read { try Plan.filter(Column("id") > before).order(Column("id")).fetchOne($0) })
        let original = try grid(test, plan: first.id!)
        #expect(original.count == 8, "Hello, Goodbye, Thank You, You're Welcome, Yes, No, Please, Help: \(original)")
        #expect(original[0] == "Hello|Hello!|", "the vocalization is what the word says")

        let exported = try ana.get("/plans/\(first.id!)/export.obz")
        #expect(exported.status == 200)
        let middle = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM plan") }!
        let again = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                          files: [(field: "file", filename: "again.obz", contentType: "application/zip", content: exported.body)])
        #expect(again.status == 303)
        let copy = try #require(try test.read { try Plan.filter(Column("id") > middle).order(Column("id")).fetchOne($0) })
        #expect(copy.rows == first.rows && copy.columns == first.columns)
        let copied = try grid(test, plan: copy.id!)
        #expect(copied == original, "same grid, labels and links: \(original) → \(copied)")
    }

    /// Other apps' exports kept in Tests/Fixtures/obf-apps: each imports whole, and a Tagarela export of it
    /// imports again to the same grid, labels and links. (size, the first cell as `grid` prints it, cells)
    @Test(arguments: [("coughdrop-projectcore-36.obf", 6, 6, "like|like|", 36),
                      ("coughdrop-proyecto-core-36-es.obf", 6, 6, "como|como|", 36)])
    func anotherAppsBoardImportsAndItsReExportReimportsTheSame(_ fixture: (String, Int, Int, String, Int)) async throws {
        let (file, rows, columns, first, count) = fixture
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.apps + "/" + file)))
        let before = try test.read { try Int64.fetchOne($0, sql: "SELECT coalesce(max(id), 0) FROM plan") }!
        let imported = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                             files: [(field: "file", filename: file, contentType: "application/json", content: content)])
        #expect(imported.status == 303, "\(imported.text.prefix(300))")
        let plan = try #require(try test.read { try Plan.filter(Column("id") > before).order(Column("id")).fetchOne($0) })
        #expect(plan.rows == rows && plan.columns == columns)
        let original = try grid(test, plan: plan.id!)
        #expect(original.count == count && original[0] == first, "\(original)")

        for format in ["obz", "obf"] {
            let exported = try ana.get("/plans/\(plan.id!)/export.\(format)")
            #expect(exported.status == 200)
            let middle = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM plan") }!
            let again = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                              files: [(field: "file", filename: "again.\(format)", contentType: "application/octet-stream",
                                                       content: exported.body)])
            #expect(again.status == 303, "\(format): \(again.text.prefix(300))")
            let copy = try #require(try test.read { try Plan.filter(Column("id") > middle).order(Column("id")).fetchOne($0) })
            #expect(copy.rows == rows && copy.columns == columns, "\(format)")
            #expect(try grid(test, plan: copy.id!) == original, "\(format): same grid, labels and links")
        }
    }

    /// CoughDrop's Spanish Universal Core keeps its Mulberry pictures inline as SVG `data` (the others,
    /// non-commercial, were taken out of the fixture and are left with their `url`): those six are the board's
    /// own pictures, drawn safely, and the words sit where CoughDrop put them.
    @Test func theSpanishCoreKeepsItsOwnSVGPicturesAndItsPlaces() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let file = "coughdrop-proyecto-core-36-es.obf"
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.apps + "/" + file)))
        let imported = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                             files: [(field: "file", filename: file, contentType: "application/json", content: content)])
        #expect(imported.status == 303, "\(imported.text.prefix(300))")
        let record = try #require(try test.read { try OBFImportRecord.order(Column("id").desc).fetchOne($0) })
        #expect(record.boards == 1 && record.buttons == 36)
        #expect(record.images == 6, "más, mismo, arriba, en, en, dónde: their SVGs")
        #expect(record.warningList.isEmpty, "\(record.warningList)")
        let cells = try grid(test, plan: record.rootPlanId)
        #expect(cells[5] == "más|más|" && cells[12] == "I|I|" && cells[30] == "dónde|dónde|" && cells[35] == "detener|detener|")
        let pictures = try test.read { db in
            try String.fetchAll(db, sql: """
                SELECT s.name FROM planCell c JOIN symbol s ON s.id = c.symbolId
                WHERE c.planId = ? AND s.imagePath IS NOT NULL ORDER BY c.position
                """, arguments: [record.rootPlanId])
        }
        #expect(pictures == ["más", "mismo", "arriba", "en", "en", "dónde"], "\(pictures)")
    }

    /// A Parrot (openboard_wrapper) package of OpenAAC's Quick Core 112, shared without its `images/`
    /// folder and with 5 of its 78 boards: an 11 × 16 home board whose folders open the boards the file
    /// holds, and whose 37 other folders, pictures and `:space` key are listed on the result page.
    @Test func parrotsQuickCoreImportsWithItsLinksAndListsWhatItLeftOut() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let file = "parrot-quick-core-112.obz"
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.apps + "/" + file)))
        let before = try test.read { try Int64.fetchOne($0, sql: "SELECT coalesce(max(id), 0) FROM plan") }!
        let imported = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                             files: [(field: "file", filename: file, contentType: "application/zip", content: content)])
        #expect(imported.status == 303, "\(imported.text.prefix(300))")
        let record = try #require(try test.read { try OBFImportRecord.order(Column("id").desc).fetchOne($0) })
        #expect(record.boards == 5 && record.images == 0)
        let plans = try test.read { try Plan.filter(Column("id") > before).order(Column("id")).fetchAll($0) }
        #expect(plans.first?.name == "Quick Core 112", "the manifest's root first")
        #expect(Set(plans.map(\.name)) == ["Quick Core 112", "Core 112 - drink", "Core 112 - More Animals", "Keyboard", "Numbers"])
        let root = try #require(plans.first { $0.name == "Quick Core 112" })
        #expect(root.rows == 11 && root.columns == 16)
        let home = try grid(test, plan: root.id!)
        #expect(home.count == 91)
        #expect(home[0] == "I|I|" && home[2] == "my|my|" && home[6] == "like|like|")
        #expect(home[1] == "me|me|", "its board is not in the file: a word")
        #expect(home[23]?.hasSuffix("|Core 112 - drink") == true && home[76]?.hasSuffix("|Core 112 - More Animals") == true)
        #expect(home[105]?.hasSuffix("|Keyboard") == true, "a folder with an action stays a folder")
        let keyboard = try #require(plans.first { $0.name == "Keyboard" })
        let keys = try grid(test, plan: keyboard.id!)
        #expect(keyboard.rows == 3 && keyboard.columns == 10 && keys[0] == "q|q|" && keys[19]?.hasSuffix("|Numbers") == true)
        #expect(keys[20] == "shift|shift|" && keys[28] == nil && keys[29] == nil, "space and the hidden emoji key are left out")

        let warnings = record.warningList
        #expect(warnings.filter { $0.kind == .brokenLink }.count == 37)
        #expect(warnings.filter { $0.kind == .missingImage }.count == 168, "every placed button's picture path is absent")
        #expect(warnings.prefix(39).allSatisfy { $0.kind != .missingImage }, "what was left out comes first")
        #expect(warnings.first == OBFWarning(kind: .brokenLink, board: "Quick Core 112", button: "me", id: "board_1_471.obf"))
        #expect(warnings.contains(OBFWarning(kind: .action, board: "Keyboard", button: "space", id: ":space")))
        #expect(warnings.contains(OBFWarning(kind: .hidden, board: "Keyboard", button: "emoji", id: "1")))
        #expect(warnings.contains(OBFWarning(kind: .missingImage, board: "Quick Core 112", button: "I",
                                             id: "images/image_1_5581_0ace054282ba8edf47f00549.png")))
        let page = try ana.get(try #require(imported.header("Location")))
        #expect(page.text.contains("board_1_471.obf"), "the result page names the board a folder opened")

        let exported = try ana.get("/plans/\(root.id!)/export.obz")
        #expect(exported.status == 200)
        let middle = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM plan") }!
        let again = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                          files: [(field: "file", filename: "again.obz", contentType: "application/zip", content: exported.body)])
        #expect(again.status == 303, "\(again.text.prefix(300))")
        let copies = try test.read { try Plan.filter(Column("id") > middle).order(Column("id")).fetchAll($0) }
        #expect(Set(copies.map(\.name)) == Set(plans.map(\.name)))
        for plan in plans {
            let copy = try #require(copies.first { $0.name == plan.name })
            #expect(copy.rows == plan.rows && copy.columns == plan.columns, "\(plan.name)")
            let (before, after) = (try grid(test, plan: plan.id!), try grid(test, plan: copy.id!))
            #expect(after == before, "\(plan.name): same grid, labels and links: \(before.filter { after[$0.key] != $0.value }) → \(after.filter { before[$0.key] != $0.value })")
        }
    }

    @Test func anExportedBoardCarriesItsOwnLanguageNotTheChildsScreen() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa"), davi = try test.id(of: "Davi Alves")
        // Carla reads her screens in Catalan; her boards' words are Portuguese.
        try test.write { try $0.execute(sql: "UPDATE user SET locale = 'ca' WHERE id = ?", arguments: [carla]) }
        for (patient, expected) in [(carla, "pt-BR"), (davi, "es")] {
            let plans = try test.read { try Plan.filter(Column("patientId") == patient && Column("type") == "board").fetchAll($0) }
            #expect(!plans.isEmpty)
            for plan in plans {
                let exported = try ana.get("/plans/\(plan.id!)/export.obf")
                #expect(exported.status == 200)
                let board = try #require(try JSONSerialization.jsonObject(with: Data(exported.body)) as? [String: Any])
                #expect(board["locale"] as? String == expected, "\(plan.name)")
            }
        }
    }
}
