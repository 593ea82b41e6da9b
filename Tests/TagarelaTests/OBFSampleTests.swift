import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The Open Board Format's own example files (Tests/Fixtures/obf-samples, MIT, from CoughDrop/obf), and
/// what other apps' board sets need: warnings instead of refusals, hundreds of boards, one entry for the
/// child, one category per set, the locale kept, sentence plans exported.
@Suite struct OBFSampleTests {
    static let samples = TestApp.repositoryRoot + "/Tests/Fixtures/obf-samples"

    // MARK: - What a file holds, counted without Tagarela's reader

    struct Counts: Equatable, CustomStringConvertible {
        var boards = 0
        /// Buttons placed in a grid (the spec's importers ignore the others).
        var buttons = 0
        /// Pictures and sounds (per board, by id) that a placed button uses and whose bytes are in the file.
        var images = 0
        var sounds = 0
        /// `image_id`s and `sound_id`s of placed buttons that name nothing on their board.
        var missing = 0

        var description: String { "\(boards) boards, \(buttons) buttons, \(images) images, \(sounds) sounds, \(missing) missing" }
    }

    /// A file inside a zip, read by `unzip`, not by the app's own zip code.
    static func unzip(_ archive: String, _ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", archive, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func text(_ value: Any?) -> String? {
        switch value {
        case let text as String: text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
        case let number as NSNumber: "\(number)"
        default: nil
        }
    }

    static func boards(in path: String) throws -> [[String: Any]] {
        guard path.hasSuffix(".obz") else { return [try object(try Data(contentsOf: URL(fileURLWithPath: path)))] }
        let manifest = try object(try unzip(path, "manifest.json"))
        let root = try #require(manifest["root"] as? String)
        let listed = ((manifest["paths"] as? [String: Any])?["boards"] as? [String: String] ?? [:]).values.sorted()
        return try ([root] + listed.filter { $0 != root }).map { try object(try unzip(path, $0)) }
    }

    static func expected(_ file: String) throws -> Counts {
        var counts = Counts()
        let inFile = try boards(in: samples + "/" + file)
        // A folder to a board the file does not hold (by path, else by id) stays a word and is listed.
        var known = Set(inFile.compactMap { text($0["id"]) })
        if file.hasSuffix(".obz") {
            let manifest = try object(try unzip(samples + "/" + file, "manifest.json"))
            known.formUnion(((manifest["paths"] as? [String: Any])?["boards"] as? [String: String] ?? [:]).values)
            if let root = manifest["root"] as? String { known.insert(root) }
        }
        for board in inFile {
            counts.boards += 1
            func byID(_ key: String) -> [String: [String: Any]] {
                Dictionary((board[key] as? [[String: Any]] ?? []).compactMap { item in text(item["id"]).map { ($0, item) } },
                           uniquingKeysWith: { first, _ in first })
            }
            let images = byID("images"), sounds = byID("sounds"), buttons = byID("buttons")
            let order = ((board["grid"] as? [String: Any])?["order"] as? [[Any]]) ?? []
            // A hidden button, or one whose action the player's own controls do (`:clear`…), is left out and listed.
            let all = order.flatMap { $0 }.compactMap { text($0).flatMap { buttons[$0] } }
            let placed = all.filter { button in
                var actions: [String] = button["actions"] as? [String] ?? []
                if let action = button["action"] as? String { actions.append(action) }
                let isHidden = button["hidden"] as? Bool ?? false
                let isControl = button["load_board"] == nil && actions.contains { OBFReader.playerActions.contains($0) }
                return !isHidden && !isControl
            }
            counts.missing += all.count - placed.count
            counts.buttons += placed.count
            counts.missing += placed.filter { button in
                guard let link = button["load_board"] as? [String: Any] else { return false }
                return !known.contains(text(link["path"]) ?? "\u{0}") && !known.contains(text(link["id"]) ?? "\u{0}")
            }.count
            var usedImages: Set<String> = [], usedSounds: Set<String> = []
            for button in placed {
                for (key, table) in [("image_id", images), ("sound_id", sounds)] {
                    guard let id = text(button[key]) else { continue }
                    guard let descriptor = table[id] else { counts.missing += 1; continue }
                    guard text(descriptor["data"]) != nil || text(descriptor["path"]) != nil else { continue }
                    if key == "image_id" { usedImages.insert(id) } else { usedSounds.insert(id) }
                }
            }
            counts.images += usedImages.count
            counts.sounds += usedSounds.count
        }
        return counts
    }

    static let files = ["inline_images.obf", "foreign.obf", "links.obz", "path_images.obz", "lots_of_stuff.obz", "pageset.obz"]

    func upload(_ browser: Browser, patient: Int64, name: String, content: [UInt8], job: String? = nil) throws -> WireResponse {
        try browser.postMultipart("/patients/\(patient)/boards/import", fields: job.map { [("job", $0)] } ?? [],
                                  files: [(field: "file", filename: name, contentType: "application/octet-stream", content: content)])
    }

    func importRecord(_ test: TestApp, _ response: WireResponse) throws -> OBFImportRecord {
        let location = try #require(response.header("Location"))
        let id = try #require(location.firstMatch(of: /^\/obf\/imports\/(\d+)$/).flatMap { Int64($0.1) }, "\(location)")
        return try #require(try test.read { try OBFImportRecord.fetchOne($0, key: id) })
    }

    // MARK: - The example files

    @Test(arguments: files)
    func eachExampleFileImportsWithTheCountsOfTheFile(_ file: String) async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/" + file)))
        let expected = try Self.expected(file)
        print("OBF sample \(file): \(expected)")

        // The clips of a set's words are made once for every import (content-addressed): made here first, timed,
        // so the upload below answers within the test client's 30 s even for pageset's 663 words.
        let importer = OBFImporter(media: test.app.media, speech: test.app.speech, pictograms: test.app.pictograms,
                                   temporaryDirectory: test.app.configuration.uploadsDirectory)
        let started = ContinuousClock.now
        let warm = try importer.prepare(try OBFReader.read(file: Self.samples + "/" + file, name: file), fallbackLocale: .ptBR)
        warm.made.remove(media: test.app.media, speech: test.app.speech)
        print("OBF sample \(file): pictures and sounds prepared in \(ContinuousClock.now - started)")

        let plansBefore = try test.read { try Plan.fetchCount($0) }
        let response = try upload(ana, patient: carla, name: file, content: content)
        #expect(response.status == 303, "\(file): \(response.text.prefix(400))")
        let record = try importRecord(test, response)
        let imported = Counts(boards: record.boards, buttons: record.buttons, images: record.images, sounds: record.sounds,
                              missing: record.warningList.count)
        #expect(imported == expected, "\(file)")

        // What is stored says the same: one plan per board, one cell per placed button.
        let (plans, cells) = try test.read { db in
            (try Plan.fetchCount(db), try Int.fetchOne(db, sql: """
                SELECT count(*) FROM planCell JOIN obfImportBoard b ON b.planId = planCell.planId
                WHERE b.importId = ? AND (symbolId IS NOT NULL OR linkPlanId IS NOT NULL)
                """, arguments: [record.id])!)
        }
        #expect(plans == plansBefore + expected.boards)
        #expect(cells == expected.buttons)

        // The result page shows the counts to the clinician.
        let page = try ana.get(response.header("Location")!)
        #expect(page.status == 200)
        #expect(page.text.contains("<dd>\(expected.boards)</dd>") && page.text.contains("<dd>\(expected.buttons)</dd>"))
    }

    @Test func aButtonWhosePictureNamesNothingImportsWithoutItAndTheClinicianIsWarned() async throws {
        // The reader alone: lots_of_stuff's root board names images "i9" and "i11", which it does not define.
        let boards = try OBFReader.read(file: Self.samples + "/lots_of_stuff.obz", name: "lots_of_stuff.obz")
        let root = try #require(boards.first)
        #expect(root.name == "Lots of Stuff Board")
        let kitty = try #require(root.cells.compactMap { $0 }.first { $0.label == "kitty" })
        #expect(kitty.image == nil && kitty.sound != nil, "the picture is dropped, the sound it does have is kept")
        #expect(root.warnings.contains(OBFWarning(kind: .missingImage, board: "Lots of Stuff Board", button: "kitty", id: "i11")))
        // 7 pictures or sounds that name nothing, and on each of the two boards a hidden button and a `:clear` one.
        #expect(boards.flatMap(\.warnings).filter { [.missingImage, .missingSound].contains($0.kind) }.count == 7)
        #expect(boards.flatMap(\.warnings).filter { [.hidden, .action].contains($0.kind) }.count == 4)

        // A sound that names nothing is the same.
        let lone = try OBFSampleTests.object(OBFTests.comida { board in
            var buttons = board["buttons"] as! [[String: Any]]
            buttons[0]["sound_id"] = "nowhere"
            board["buttons"] = buttons
        })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("obf-\(UUID().uuidString).obf").path
        try JSONSerialization.data(withJSONObject: lone).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let comida = try OBFReader.read(file: path)
        #expect(comida[0].warnings == [OBFWarning(kind: .missingSound, board: "Comida", button: "galleta", id: "nowhere"),
                                       OBFWarning(kind: .brokenLink, board: "Comida", button: "más", id: "99")])
        #expect(comida[0].cells[0]?.sound == nil)

        // Through the page: imported, and the result lists the buttons without their picture.
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let response = try upload(ana, patient: carla, name: "lots_of_stuff.obz",
                                  content: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/lots_of_stuff.obz"))))
        #expect(response.status == 303)
        let page = try ana.get(response.header("Location")!)
        #expect(page.text.contains("12 botões importados sem figura ou som, ou deixados de fora"))
        #expect(page.text.contains("botão &#39;kitty&#39;: ele abre o quadro &#39;http://www.example.com/load_board&#39;, que não está no arquivo"),
                "a folder to a board the file lacks is listed, named by its url")
        #expect(page.text.contains("a ação :clear já é um botão do próprio reprodutor"))
        #expect(page.text.contains("Quadro &#39;Lots of Stuff Board&#39;, botão &#39;kitty&#39;: não há figura &#39;i11&#39; no arquivo."))
    }

    // MARK: - Large sets

    /// `count` boards of one word each, every board's folder leading to the next (the last back to the first).
    static func chain(_ count: Int) throws -> [UInt8] {
        var files: [(String, Data)] = []
        var paths: [String: String] = [:]
        for index in 0..<count {
            let next = (index + 1) % count
            files.append(("boards/b\(index).obf", OBFTests.json([
                "format": "open-board-0.1", "id": "b\(index)", "locale": "pt-BR", "name": "Página \(index)",
                "buttons": [["id": "w", "label": "sim"],
                            ["id": "f", "label": "Página \(next)", "load_board": ["id": "b\(next)", "path": "boards/b\(next).obf"]]],
                "grid": ["rows": 1, "columns": 2, "order": [["w", "f"]]],
            ])))
            paths["b\(index)"] = "boards/b\(index).obf"
        }
        files.append(("manifest.json", OBFTests.json(["format": "open-board-0.1", "root": "boards/b0.obf", "paths": ["boards": paths]])))
        return try OBFTests.makeZip(files)
    }

    @Test func aSetOf500BoardsImportsWithItsProgressAndTheChildSeesOneEntry() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let job = "test-job-\(UUID().uuidString.prefix(8))"
        let started = ContinuousClock.now
        let response = try upload(ana, patient: carla, name: "grande.obz", content: try Self.chain(500), job: job)
        print("OBF 500 boards imported in \(ContinuousClock.now - started)")
        #expect(response.status == 303, "\(response.text.prefix(300))")
        let record = try importRecord(test, response)
        #expect(record.boards == 500 && record.buttons == 1000)
        let linked = try test.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM planCell JOIN obfImportBoard b ON b.planId = planCell.planId
                WHERE b.importId = ? AND linkPlanId IN (SELECT planId FROM obfImportBoard WHERE importId = ?)
                """, arguments: [record.id, record.id])
        }
        #expect(linked == 500, "every folder leads to a board of the set")

        // The progress the page polled ends "done"; nobody else can read it, and a made-up job is nothing.
        let progress = try ana.get("/obf/import-progress?job=\(job)")
        #expect(progress.status == 200)
        let state = try OBFSampleTests.object(Data(progress.body))
        #expect(state["phase"] as? String == "done")
        #expect(try ana.get("/obf/import-progress?job=another-job-1").status == 404)
        #expect(try ana.get("/obf/import-progress?job=%2F..%2F").status == 404)
        let dani = try test.browser(loggedInAs: "dani")
        #expect([403, 404].contains(try dani.get("/obf/import-progress?job=\(job)").status))

        // The child: one tile for the set (its root), none for its 499 other boards; the root's folder opens the next.
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        for list in ["/play", "/patient"] {
            let page = try child.get(list).text
            #expect(page.contains("Página 0"), "\(list)")
            #expect(!page.contains("Página 1<") && !page.contains("Página 499"), "\(list)")
        }
        let sub = try test.read { try Int64.fetchOne($0, sql: "SELECT planId FROM obfImportBoard WHERE importId = ? AND NOT isRoot ORDER BY planId LIMIT 1",
                                                    arguments: [record.id]) }!
        let root = try child.get("/play/\(record.rootPlanId)")
        #expect(root.status == 200 && root.text.contains("/play/\(sub)"))
        #expect(try child.get("/play/\(sub)").status == 200, "a sub-board still plays when reached by its folder")

        // One more than the limit is refused, naming it, and nothing is stored.
        let plans = try test.read { try Plan.fetchCount($0) }
        let refused = try upload(ana, patient: carla, name: "demais.obz", content: try Self.chain(501))
        #expect(refused.status == 422)
        #expect(refused.text.contains("500"))
        #expect(try test.read { try Plan.fetchCount($0) } == plans)
    }

    // MARK: - Words: one category per set, the clinician's own reused

    /// A Portuguese symbol in the clinician's library, drawn with `pictogram`.
    func librarySymbol(_ test: TestApp, of clinicianId: Int64, _ name: String, spoken: String, pictogram: String) throws -> Int64 {
        try test.write { db in
            let category = try Category.forClinicianReadOnly(clinicianId, db)[0]
            var symbol = Symbol(clinicianId: clinicianId, patientId: nil, categoryId: category.id!, name: name, spokenText: spoken,
                                pictogram: pictogram, imagePath: nil, audioFile: nil, audioKind: "generated", voice: "pt-BR",
                                createdAt: test.clock.now, updatedAt: test.clock.now)
            try symbol.insert(db)
            return symbol.id!
        }
    }

    @Test func importedWordsGoToOneCategoryNamedAfterTheSetAndReuseTheCliniciansSymbols() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let anaID = try test.id(of: "Ana Souza")
        let importer = OBFImporter(media: test.app.media, speech: test.app.speech, pictograms: test.app.pictograms,
                                   temporaryDirectory: test.app.configuration.uploadsDirectory)
        let water = try #require(importer.pictogram(for: "água", locale: .ptBR))
        // Ana's own "Água" with that pictogram, in her library.
        let existing = try librarySymbol(test, of: anaID, "Água", spoken: "água", pictogram: water)
        // "gato" three times over two boards, with the three Fitzgerald colours another app gave them.
        let board = { (id: String, name: String, colours: [String]) in
            OBFTests.json([
                "format": "open-board-0.1", "id": id, "locale": "pt-BR", "name": name,
                "buttons": colours.enumerated().map { ["id": "g\($0.offset)", "label": "gato", "background_color": $0.element] }
                    + [["id": "a", "label": "água"]],
                "grid": ["rows": 2, "columns": 2, "order": [["g0", colours.count > 1 ? "g1" : NSNull()], ["a", NSNull()]]],
            ])
        }
        let zip = try OBFTests.makeZip([
            ("a.obf", board("a", "Bichos", ["rgb(204, 255, 170)", "rgb(255, 255, 170)"])), ("b.obf", board("b", "Mais bichos", ["rgb(170, 204, 255)"])),
            ("manifest.json", OBFTests.json(["format": "open-board-0.1", "root": "a.obf", "paths": ["boards": ["a": "a.obf", "b": "b.obf"]]])),
        ])
        let response = try upload(ana, patient: carla, name: "bichos.obz", content: zip)
        #expect(response.status == 303)
        let record = try importRecord(test, response)
        let category = try #require(try test.read { try Category.fetchOne($0, key: record.categoryId) })
        #expect(category.name == "Bichos" && category.clinicianId == anaID)
        let used = try test.read { db in
            try Row.fetchAll(db, sql: """
                SELECT DISTINCT s.id, s.name, s.categoryId FROM planCell c JOIN symbol s ON s.id = c.symbolId
                JOIN obfImportBoard b ON b.planId = c.planId WHERE b.importId = ?
                """, arguments: [record.id])
        }
        let cats = used.filter { $0["name"] as String == "gato" }
        #expect(cats.count == 1, "one 'gato', whatever colours it had")
        #expect(cats.allSatisfy { $0["categoryId"] as Int64 == category.id! })
        #expect(used.filter { $0["name"] as String != "gato" }.map { $0["id"] as Int64 } == [existing],
                "'água' with the same pictogram is Ana's own symbol")
        #expect(record.reusedSymbols == 1)

        // The same set again: its category is the same, and every word is reused.
        let again = try importRecord(test, try upload(ana, patient: carla, name: "bichos.obz", content: zip))
        #expect(again.categoryId == record.categoryId)
        #expect(again.reusedSymbols == 2)
        #expect(try test.read { try Category.filter(Column("clinicianId") == anaID && Column("name") == "Bichos").fetchCount($0) } == 1)
    }

    /// Accents make another word: "vovó" (grandmother) is not Ana's "vovô" (grandfather), even drawn with the
    /// same picture. Matching used to ignore accents and joined them.
    @Test func aWordDifferingByAnAccentIsNotReused() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa"), anaID = try test.id(of: "Ana Souza")
        let importer = OBFImporter(media: test.app.media, speech: test.app.speech, pictograms: test.app.pictograms,
                                   temporaryDirectory: test.app.configuration.uploadsDirectory)
        let picture = try #require(importer.pictogram(for: "vovó", locale: .ptBR))
        let grandfather = try librarySymbol(test, of: anaID, "vovô", spoken: "vovô", pictogram: picture)
        let board = OBFTests.json([
            "format": "open-board-0.1", "id": "f", "locale": "pt-BR", "name": "Família",
            "buttons": [["id": "1", "label": "vovó"]], "grid": ["rows": 1, "columns": 1, "order": [["1"]]],
        ])
        let record = try importRecord(test, try upload(ana, patient: carla, name: "familia.obf", content: [UInt8](board)))
        let used = try test.read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.id, s.name FROM planCell c JOIN symbol s ON s.id = c.symbolId
                JOIN obfImportBoard b ON b.planId = c.planId WHERE b.importId = ?
                """, arguments: [record.id])
        }
        #expect(used.map { $0["name"] as String } == ["vovó"], "the button says its own word")
        #expect(!used.contains { $0["id"] as Int64 == grandfather })
        // Ana's own "vovó" (the demo's library has one) may be reused; her "vovô" never.
        #expect(record.reusedSymbols <= 1)
    }

    // MARK: - Export

    @Test func aBoardKeepsItsLocaleWhenExportedAgain() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let boards = OBFTests.json([
            "format": "open-board-0.1", "id": "1", "locale": "es_ES", "name": "Comer",
            "buttons": [["id": "1", "label": "galleta"], ["id": "2", "label": "agua"]],
            "grid": ["rows": 1, "columns": 2, "order": [["1", "2"]]],
        ])
        let record = try importRecord(test, try upload(ana, patient: carla, name: "comer.obf", content: [UInt8](boards)))
        for format in ["obf", "obz"] {
            let exported = try ana.get("/plans/\(record.rootPlanId)/export.\(format)")
            #expect(exported.status == 200)
            let board: [String: Any]
            if format == "obf" {
                board = try OBFSampleTests.object(Data(exported.body))
            } else {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("obf-\(UUID().uuidString).obz").path
                try Data(exported.body).write(to: URL(fileURLWithPath: path))
                defer { try? FileManager.default.removeItem(atPath: path) }
                board = try Self.boards(in: path)[0]
            }
            #expect(board["locale"] as? String == "es_ES", "\(format)")
        }
        // A board made in Tagarela says the language its words speak (issue 54: Carla's Portuguese boards
        // went out as her screens' "ca").
        let own = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM plan WHERE patientId = ? AND type = 'board'", arguments: [carla]) }!
        let board = try OBFSampleTests.object(Data(try ana.get("/plans/\(own)/export.obf").body))
        #expect(board["locale"] as? String == "pt-BR")
    }

    @Test func aSentencePlanExportsAsBoardsPlusItsGrammar() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let plan = try #require(try test.read { db in
            try Plan.fetchOne(db, sql: """
                SELECT plan.* FROM plan JOIN clinicianPatient cp ON cp.patientId = plan.patientId JOIN user ON user.id = cp.clinicianId
                WHERE plan.type = 'sentence' AND user.username = 'ana' ORDER BY plan.id LIMIT 1
                """)
        })
        let (words, links) = try test.read { db in
            (try SentenceWord.filter(Column("planId") == plan.id).fetchCount(db),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sentenceLink l JOIN sentenceWord w ON w.id = l.fromWordId WHERE w.planId = ?",
                              arguments: [plan.id])!)
        }
        let exported = try ana.get("/plans/\(plan.id!)/export.obz")
        #expect(exported.status == 200)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("obf-\(UUID().uuidString).obz").path
        try Data(exported.body).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let boards = try Self.boards(in: path)
        #expect(boards.count == 3, "subjects, verbs, complements")
        let root = boards.first { $0["id"] as? String == "\(plan.id!)" }
        let sentence = try #require(root?["ext_tagarela_sentence"] as? [String: Any])
        #expect((sentence["words"] as? [[String: Any]])?.count == words)
        #expect((sentence["links"] as? [[String]])?.count == links)
        let roleBoards = try #require(sentence["boards"] as? [String: String])
        #expect(Set(roleBoards.values) == Set(boards.compactMap { $0["id"] as? String }))
        // Every word is a button that speaks, on its role's board; the subjects' board opens the verbs'.
        let placed = boards.reduce(0) { sum, board in sum + ((board["buttons"] as? [[String: Any]]) ?? []).filter { $0["load_board"] == nil }.count }
        #expect(placed == words)
        let folder = (root?["buttons"] as? [[String: Any]])?.compactMap { $0["load_board"] as? [String: Any] }.first
        #expect(folder?["id"] as? String == roleBoards["verb"])
        // Read back by Tagarela's own importer: three boards, linked.
        let read = try OBFReader.read(file: path)
        #expect(read.count == 3 && read[0].cells.contains { $0?.linkIndex != nil })
        #expect(try ana.get("/plans/\(plan.id!)/export.obf").status == 200)
    }
}
