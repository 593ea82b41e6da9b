import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct AACTests {
    func plan(_ test: TestApp, patient: String, named name: String) throws -> Plan {
        let id = try test.id(of: patient)
        return try test.read { try Plan.filter(Column("patientId") == id && Column("name") == name).fetchOne($0)! }
    }

    func symbolsOn(_ test: TestApp, _ plan: Plan) throws -> [Int64] {
        try test.read { try Int64.fetchAll($0, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position", arguments: [plan.id]) }
    }

    @Test func aSymbolFromThePictogramLibraryGetsItsClipAtOnce() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let search = try ana.get("/symbols/new?q=agua")
        #expect(search.text.contains("/symbols/new?pictogram=1F6B0"), "accent-insensitive search finds água")
        let category = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM category") }!
        let created = try ana.postMultipart("/symbols", fields: [
            ("pictogram", "1F6B0"), ("name", "água gelada"), ("spokenText", "quero água gelada"), ("categoryId", "\(category)"),
            ("scope", ""), ("voice", "pt-BR"),
        ], files: [])
        #expect(created.status == 303)
        let symbol = try test.read { try Symbol.filter(Column("name") == "água gelada").fetchOne($0)! }
        let clip = try #require(symbol.audioFile)
        #expect(clip == SpeechAudio.fileName(text: "quero água gelada", voice: "pt-br"))
        let audio = try ana.get("/media/audio/\(clip)")
        #expect(audio.status == 200)
        #expect(audio.header("Content-Type") == "audio/mpeg")
        #expect(audio.body.count > 1000)
        #expect(try ana.get("/symbols").text.contains("água gelada"))
    }

    /// A page never writes: a new clinician's symbol form offers the default categories unsaved, and the
    /// first symbol saved in one of them creates them.
    @Test func aNewClinicianIsOfferedTheDefaultCategoriesAndTheFirstSymbolCreatesThem() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "lia", name: "Lia Nunes", specialties: ["speech"],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let lia = try test.browser(loggedInAs: "lia"), liaId = try test.id(of: "lia")
        func categories() throws -> [Tagarela.Category] {
            try test.read { try Category.filter(Column("clinicianId") == liaId).order(Column("position")).fetchAll($0) }
        }
        let form = try lia.get("/symbols/new")
        #expect(form.status == 200)
        #expect(form.text.contains(#"value="default-0""#) && form.text.contains(#"value="default-5""#))
        #expect(try categories().isEmpty, "showing the form created nothing")

        let fields = [("pictogram", "1F6B0"), ("name", "água"), ("spokenText", ""), ("scope", ""), ("voice", "pt-BR")]
        #expect(try lia.postMultipart("/symbols", fields: fields + [("categoryId", "default-99")], files: []).status == 422)
        #expect(try categories().isEmpty, "a refused form created nothing")
        #expect(try lia.postMultipart("/symbols", fields: fields + [("categoryId", "default-1")], files: []).status == 303)
        let created = try categories()
        #expect(created.count == Category.defaults.count)
        let symbol = try test.read { try Symbol.filter(Column("clinicianId") == liaId && Column("name") == "água").fetchOne($0) }
        #expect(symbol?.categoryId == created[1].id, "the second default, as chosen")
        #expect(try lia.get("/symbols/new").text.contains(#"value="\#(created[0].id!)""#), "from then on, the saved ones")
    }

    @Test func editingASymbolChoosesANewPictogramAndKeepsItsName() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let symbol = try test.read { try Symbol.filter(Column("name") == "comer" && Column("patientId") == nil).fetchOne($0)! }
        let path = "/symbols/\(symbol.id!)/edit"
        let search = try ana.get("\(path)?q=agua")
        #expect(search.text.contains(#"action="\#(path)""#), "the library search stays on the edit page")
        #expect(search.text.contains("\(path)?pictogram=1F6B0"))
        let chosen = try ana.get("\(path)?pictogram=1F6B0")
        #expect(chosen.text.contains(#"name="pictogram" value="1F6B0""#))
        #expect(chosen.text.contains(#"id="name" name="name" value="comer""#))
        let saved = try ana.postMultipart("/symbols/\(symbol.id!)", fields: [
            ("pictogram", "1F6B0"), ("name", "comer"), ("spokenText", symbol.spokenText), ("categoryId", "\(symbol.categoryId)"),
            ("scope", ""), ("voice", symbol.voice ?? "pt-BR"),
        ], files: [])
        #expect(saved.status == 303)
        #expect(try test.read { try Symbol.fetchOne($0, key: symbol.id)?.pictogram } == "1F6B0")
    }

    /// Half a second of a 440 Hz tone as a 16-bit mono WAV, the kind of file a phone's recorder hands over.
    static func toneWAV() -> [UInt8] {
        let rate = 8000, samples = rate / 2
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var pcm: [UInt8] = []
        for i in 0..<samples {
            let phase = 2 * Double.pi * 440 * Double(i) / Double(rate)
            pcm += le16(Int(8000 * sin(phase)) & 0xFFFF)
        }
        var wav: [UInt8] = Array("RIFF".utf8) + le32(36 + pcm.count) + Array("WAVEfmt ".utf8)
        wav += le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
        wav += Array("data".utf8) + le32(pcm.count)
        return wav + pcm
    }

    @Test func aRecordedVoiceCanGiveWayToTheGeneratedOneAndIsDeleted() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let symbol = try test.read { try Symbol.filter(Column("name") == "comer" && Column("patientId") == nil).fetchOne($0)! }
        let fields = [("pictogram", symbol.pictogram ?? ""), ("name", "comer"), ("spokenText", symbol.spokenText),
                      ("categoryId", "\(symbol.categoryId)"), ("scope", ""), ("voice", symbol.voice ?? "pt-BR")]
        let recorded = try ana.postMultipart("/symbols/\(symbol.id!)", fields: fields,
                                             files: [(field: "audio", filename: "voz.wav", contentType: "audio/wav", content: Self.toneWAV())])
        #expect(recorded.status == 303)
        let recording = try #require(try test.read { try Symbol.fetchOne($0, key: symbol.id) })
        #expect(recording.audioKind == "uploaded")
        let recordingPath = test.app.speech.directory + "/" + (recording.audioFile ?? "")
        #expect(FileManager.default.fileExists(atPath: recordingPath))
        #expect(try ana.get("/symbols/\(symbol.id!)/edit").text.contains(#"name="audioSource" value="generated""#))

        let generated = try ana.postMultipart("/symbols/\(symbol.id!)", fields: fields + [("audioSource", "generated")], files: [])
        #expect(generated.status == 303)
        let after = try #require(try test.read { try Symbol.fetchOne($0, key: symbol.id) })
        #expect(after.audioKind == "generated")
        #expect(after.audioFile == symbol.audioFile, "the shared generated clip for the same text and voice")
        #expect(!FileManager.default.fileExists(atPath: recordingPath), "the recording given up is deleted")
        #expect(!(try ana.get("/symbols/\(symbol.id!)/edit").text.contains("audioSource")))
    }

    @Test func aSymbolWithoutNameOrPictureKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let before = try test.snapshot()
        let refused = try ana.postMultipart("/symbols", fields: [("name", ""), ("spokenText", "bom dia professora"), ("categoryId", "")],
                                            files: [])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Informe o nome."))
        #expect(refused.text.contains("Escolha uma das opções."))
        #expect(refused.text.contains(#"value="bom dia professora""#))
        #expect(try test.snapshot() == before)
    }

    @Test(arguments: [
        ("texto.png", "image/png", Array("isto não é uma imagem, é texto".utf8)),
        ("desenho.svg", "image/svg+xml", Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)),
        ("vazia.png", "image/png", []),
    ])
    func picturesThatAreNotImagesAreRefused(_ name: String, _ type: String, _ content: [UInt8]) async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let category = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM category") }!
        let refused = try ana.postMultipart("/symbols", fields: [("name", "bola"), ("categoryId", "\(category)")],
                                            files: [(field: "image", filename: name, contentType: type, content: content)])
        #expect(refused.status == 422)
        #expect(refused.text.contains(content.isEmpty ? "o arquivo escolhido está vazio (0 bytes)" : "Esta imagem não pôde ser lida"))
        #expect(refused.text.contains(#"value="bola""#))
    }

    @Test func aTwentyMegabyteImageIsTooLarge() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let refused = try ana.postMultipart("/symbols", fields: [("name", "foto")],
                                            files: [(field: "image", filename: "big.png", contentType: "image/png",
                                                     content: [0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 0, count: 20 << 20))])
        #expect(refused.status == 413)
    }

    @Test func theEditorPlacesMovesLinksAndClearsCells() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let created = try ana.post("/patients/\(carla)/plans", [("name", "Parque"), ("type", "board"), ("rows", "2"), ("columns", "3"),
                                                              ("tutorId", "\(try test.id(of: "bruno"))")])
        #expect(created.status == 303)
        let board = try plan(test, patient: "Carla Costa", named: "Parque")
        #expect(try ana.get("/plans/\(board.id!)/edit?cell=0").text.contains("Casa 1"))
        let symbols = try symbolsOn(test, try plan(test, patient: "Carla Costa", named: "Palavras principais"))
        #expect(try ana.post("/plans/\(board.id!)/cells/0", [("symbol", "\(symbols[0])")]).status == 303)
        #expect(try ana.post("/plans/\(board.id!)/cells/1", [("symbol", "\(symbols[1])")]).status == 303)
        #expect(try ana.post("/plans/\(board.id!)/cells/0", [("moveTo", "5")]).status == 303)
        let folder = try plan(test, patient: "Carla Costa", named: "Coisas e comidas")
        #expect(try ana.post("/plans/\(board.id!)/cells/2", [("link", "\(folder.id!)")]).status == 303)
        #expect(try ana.post("/plans/\(board.id!)/cells/1", [("clear", "1")]).status == 303)
        let cells = try test.read { try PlanCell.filter(Column("planId") == board.id).order(Column("position")).fetchAll($0) }
        #expect(cells.first { $0.position == 5 }?.symbolId == symbols[0])
        #expect(cells.first { $0.position == 0 }?.symbolId == nil)
        #expect(cells.first { $0.position == 1 }?.symbolId == nil)
        #expect(cells.first { $0.position == 2 }?.linkPlanId == folder.id)
        // A symbol of another patient, a board of another patient, or a cell outside the grid: not found.
        let davi = try test.id(of: "Davi Alves")
        let daviOnly = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM symbol WHERE patientId = ?", arguments: [davi]) }!
        #expect(try ana.post("/plans/\(board.id!)/cells/3", [("symbol", "\(daviOnly)")]).status == 404)
        let daviBoard = try plan(test, patient: "Davi Alves", named: "Mi día")
        #expect(try ana.post("/plans/\(board.id!)/cells/3", [("link", "\(daviBoard.id!)")]).status == 404)
        #expect(try ana.post("/plans/\(board.id!)/cells/6", [("clear", "1")]).status == 404)
    }

    @Test(arguments: [("0", "0"), ("17", "3"), ("3", "17"), ("1", "1")])
    func boardSizesOutsideOneByTwoToSixteenBySixteenAreRefused(_ rows: String, _ columns: String) async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let refused = try ana.post("/patients/\(try test.id(of: "Carla Costa"))/plans",
                                   [("name", "Grande"), ("type", "board"), ("rows", rows), ("columns", columns)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("de 1 a 16 linhas"))
        #expect(refused.text.contains(#"value="Grande""#))
    }

    @Test func boardsAreReachableOnlyThroughThePatient() async throws {
        let test = try await TestApp()
        let carlasBoard = try plan(test, patient: "Carla Costa", named: "Meu dia")
        let carla = try test.id(of: "Carla Costa")
        #expect(try test.browser(loggedInAs: "beatriz").get("/patients/\(carla)/plans").status == 404, "tutor of another patient")
        #expect(try test.browser(loggedInAs: "beatriz").get("/plans/\(carlasBoard.id!)/print").status == 404)
        #expect(try test.browser(loggedInAs: "bruno").get("/plans/\(carlasBoard.id!)/edit").status == 403, "tutors do not edit")
        #expect(try test.browser(loggedInAs: "elisa").get("/plans/\(carlasBoard.id!)/edit").status == 403, "patients do not edit")
        #expect(try test.browser(loggedInAs: "elisa").get("/play/\(carlasBoard.id!)").status == 404, "another patient's board")
        #expect(try test.browser(loggedInAs: "ana").get("/plans/\(carlasBoard.id!)/print").status == 200, "a linked clinician")
        #expect(try test.browser(loggedInAs: "nadia").get("/plans/\(carlasBoard.id!)/print").status == 403, "a linked nutritionist")
        let symbol = try symbolsOn(test, carlasBoard)[0]
        let bruno = try test.browser(loggedInAs: "bruno"), elisa = try test.browser(loggedInAs: "elisa")
        let before = try test.snapshot()
        #expect(try bruno.post("/plans/\(carlasBoard.id!)/cells/0", [("clear", "1")]).status == 403)
        #expect(try elisa.post("/plans/\(carlasBoard.id!)/cells/0", [("symbol", "\(symbol)")]).status == 403)
        #expect(try test.snapshot() == before)
    }

    @Test func tapsFromPatientModeAreLoggedOnceWithTheAssistingTutor() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        let board = try plan(test, patient: "Carla Costa", named: "Meu dia")
        let opened = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [("plan", "\(board.id!)")])
        #expect(opened.header("Location") == "/play/\(board.id!)")
        let page = try bruno.get("/play/\(board.id!)")
        #expect(page.status == 200)
        #expect(page.text.contains("data-audio=\"/media/audio/"))
        #expect(page.text.contains("cell-folder"))
        let folder = try #require(page.text.firstMatch(of: /href="(\/play\/\d+\?from=\d+)"/)?.1)
        let inside = try bruno.get(String(folder))
        #expect(inside.text.contains(#"href="/play/\#(board.id!)">← Voltar"#), "a folder board leads back")
        let symbol = try symbolsOn(test, board)[0]
        let count = { try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tap WHERE key LIKE 'test-%'")! } }
        let fields = [("key", "test-3f2a9c1d-aaaa"), ("symbol", "\(symbol)"), ("plan", "\(board.id!)"), ("board", "\(board.id!)"),
                      ("at", "2026-11-18T10:00:00.000Z")]
        #expect(try bruno.client.postForm("/taps", fields, headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status == 204)
        #expect(try bruno.client.postForm("/taps", fields, headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status == 204)
        #expect(try count() == 1, "the same key twice is one tap")
        let tap = try test.read { try Tap.filter(Column("key") == "test-3f2a9c1d-aaaa").fetchOne($0)! }
        #expect(tap.assistedBy == (try test.id(of: "bruno")))
        #expect(try bruno.client.postForm("/taps", [("key", "test-no-csrf-token1")] + fields.dropFirst(), headers: bruno.cookieHeader).status == 403)
        let foreign = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM symbol WHERE patientId IS NOT NULL")! }
        let wrong = [("key", "test-wrong-symbol-1"), ("symbol", "\(foreign)"), ("plan", "\(board.id!)")]
        #expect(try bruno.client.postForm("/taps", wrong, headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status == 404)
        #expect(try count() == 1)
    }

    @Test func anEditReachesThePlayerAtItsNextLoad() async throws {
        let test = try await TestApp()
        let board = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [("plan", "\(board.id!)")])
        let before = try bruno.get("/play/\(board.id!)").text
        #expect(before.contains(#"data-label="eu""#))
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.post("/plans/\(board.id!)/cells/0", [("clear", "1")]).status == 303)
        #expect(!(try bruno.get("/play/\(board.id!)").text.contains(#"data-label="eu""#)), "the cached grid was not reused")
        let symbol = try test.read { try Symbol.filter(Column("name") == "mamãe").fetchOne($0)! }
        try test.write { db in
            try db.execute(sql: "UPDATE symbol SET name = 'mãe', updatedAt = ? WHERE id = ?", arguments: [Date(), symbol.id])
        }
        #expect(try bruno.get("/play/\(board.id!)").text.contains(#"data-label="mãe""#), "a renamed symbol shows at once")
    }

    @Test func aRenamedBoardAndTheBoardAFolderOpensShowAtTheNextLoad() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        #expect(try ana.post("/patients/\(carla)/plans", [("name", "Parque"), ("type", "board"), ("rows", "2"), ("columns", "3"),
                                                          ("tutorId", "\(try test.id(of: "bruno"))")]).status == 303)
        let park = try plan(test, patient: "Carla Costa", named: "Parque")
        let folder = try plan(test, patient: "Carla Costa", named: "Coisas e comidas")
        #expect(try ana.post("/plans/\(park.id!)/cells/0", [("link", "\(folder.id!)")]).status == 303)
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(carla)/patient-mode", [("plan", "\(park.id!)")])
        let before = try bruno.get("/play/\(park.id!)").text
        #expect(before.contains(#"aria-label="Parque""#))
        #expect(before.contains(">Coisas e comidas</span>"), "a folder without a picture shows its board's name")
        // No page renames a board yet: an import or an operator's sqlite3 can.
        try test.write { db in
            try db.execute(sql: "UPDATE plan SET name = 'No parque' WHERE id = ?", arguments: [park.id])
            try db.execute(sql: "UPDATE plan SET name = 'Comidas' WHERE id = ?", arguments: [folder.id])
        }
        let after = try bruno.get("/play/\(park.id!)").text
        #expect(after.contains(#"aria-label="No parque""#), "the grid's label is the board's new name, not a kept grid's")
        #expect(after.contains(">Comidas</span>"))
        #expect(!after.contains("Coisas e comidas"))
    }

    @Test func aNewGridUsesTheCellsAlreadyRenderedForAnotherBoard() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let words = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let symbols = try symbolsOn(test, words)
        #expect(try ana.post("/patients/\(carla)/plans", [("name", "Parque"), ("type", "board"), ("rows", "2"), ("columns", "3"),
                                                          ("tutorId", "\(try test.id(of: "bruno"))")]).status == 303)
        let park = try plan(test, patient: "Carla Costa", named: "Parque")
        for position in 0..<3 {
            #expect(try ana.post("/plans/\(park.id!)/cells/\(position)", [("symbol", "\(symbols[position])")]).status == 303)
        }
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(carla)/patient-mode", [("plan", "\(words.id!)")])
        let first = try bruno.get("/play/\(words.id!)").text
        let kept = test.app.caches.boardCells.count
        #expect(kept >= symbols.count)
        let park1 = try bruno.get("/play/\(park.id!)").text
        #expect(test.app.caches.boardCells.count - kept <= 1, "its three symbols were rendered for the other board; the empty cell may be new")
        for symbol in symbols.prefix(3) {
            let line = try #require(first.split(separator: "\n").first { $0.contains(#"data-symbol="\#(symbol)""#) })
            #expect(park1.contains(line), "the kept cell is the same HTML")
        }
        // The same cell on a page in another language is another piece: a cell without a language of its
        // own prints the page's.
        let cell = PlayerGrid.Cell(isEmpty: false, isFolder: false, folderURL: nil, symbolId: 1, label: "eu", imageURL: nil,
                                   audioURL: nil, colourClass: "cat-yellow", lang: nil, word: nil)
        #expect(cell.key(in: .ptBR) != cell.key(in: .es))
    }

    @Test func aSpokenSentenceIsLoggedOnceAndShowsInTheHistory() async throws {
        let test = try await TestApp()
        let board = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let symbols = try symbolsOn(test, board)
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [("plan", "\(board.id!)")])
        _ = try bruno.get("/play/\(board.id!)")
        let fields = [("key", "test-sentence-0001"), ("symbols", "\(symbols[0]),\(symbols[4]),\(symbols[5])"), ("plan", "\(board.id!)")]
        for _ in 0..<2 {
            #expect(try bruno.client.postForm("/taps", fields, headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status == 204)
        }
        let stored = try test.read { try Row.fetchAll($0, sql: "SELECT text, wordCount FROM sentence WHERE key = 'test-sentence-0001'") }
        #expect(stored.count == 1)
        #expect(stored.first?["text"] == "eu como beber", "logged as said: the verb agrees, the verb after it is an infinitive")
        #expect(stored.first?["wordCount"] == 3)
        let daviOnly = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM symbol WHERE patientId IS NOT NULL")! }
        let foreign = [("key", "test-sentence-0002"), ("symbols", "\(symbols[0]),\(daviOnly)"), ("plan", "\(board.id!)")]
        #expect(try bruno.client.postForm("/taps", foreign, headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status == 404)
        let usage = try test.browser(loggedInAs: "ana").get("/patients/\(try test.id(of: "Carla Costa"))/usage?from=2026-11-01&to=2026-11-30")
        #expect(usage.text.contains("Frases mais longas"))
        #expect(usage.text.contains("<strong>eu como beber</strong>"))
    }

    @Test func aSymbolWithoutAudioStillLogsItsTap() async throws {
        let test = try await TestApp()
        let board = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let symbol = try symbolsOn(test, board)[0]
        try test.write { db in try db.execute(sql: "UPDATE symbol SET audioFile = NULL WHERE id = ?", arguments: [symbol]) }
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [("plan", "\(board.id!)")])
        let page = try bruno.get("/play/\(board.id!)")
        #expect(page.status == 200)
        let tapped = try bruno.client.postForm("/taps", [("key", "test-silent-symbol-1"), ("symbol", "\(symbol)"), ("plan", "\(board.id!)")],
                                              headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)])
        #expect(tapped.status == 204)
    }

    @Test func usageHistoryShowsTapsChartsAndExportsCSV() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let page = try ana.get("/patients/\(carla)/usage?from=2026-11-01&to=2026-11-30")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<svg class="chart""#))
        #expect(page.text.contains("<meter"))
        #expect(page.text.contains("Bruno Costa"))
        let csv = try ana.get("/patients/\(carla)/usage.csv?from=2026-11-01&to=2026-11-30")
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        let lines = csv.text.split(separator: "\r\n")
        #expect(lines.first == "Quando,Plano,Símbolo,Com quem,Modelagem do adulto")
        #expect(lines.count > 50)
        let filtered = try ana.get("/patients/\(carla)/usage?from=2026-11-01&to=2026-11-30&assisted=\(try test.id(of: "bruno"))")
        #expect(!filtered.text.contains(">sozinho<"))
    }

    /// The list shows 50 taps at a time; "older taps" walks back through every tap of the period, once each.
    @Test func usageHistoryPagesBackThroughEveryTapOfThePeriod() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        let period = "from=2026-11-01&to=2026-11-30"
        let all = try bruno.get("/patients/\(carla)/usage.csv?\(period)").text.split(separator: "\r\n").count - 1
        #expect(all > UsagePage.listedTaps)

        var path: String? = "/patients/\(carla)/usage?\(period)"
        var listed = 0, pages = 0
        while let next = path {
            let page = try bruno.get(next).text
            let rows = page.components(separatedBy: "<tr><td>").count - 1
            #expect(rows == min(UsagePage.listedTaps, all - listed))
            #expect(page.contains("Voltar aos mais recentes") == (pages > 0))
            #expect(page.contains("dos \(all) do período") == (pages == 0), "the note is on the latest taps only")
            listed += rows
            pages += 1
            path = page.firstMatch(of: /href="([^"#]*before=[0-9]+)#taps-title">Toques anteriores/)
                .map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
        }
        #expect(listed == all)
        #expect(pages == (all + UsagePage.listedTaps - 1) / UsagePage.listedTaps)

        // A tap of another patient is no place to start from: nothing of theirs shows, not even its time.
        let davi = try test.id(of: "Davi Alves")
        let davisTap = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM tap WHERE patientId = ?", arguments: [davi]) })
        let forged = try bruno.get("/patients/\(carla)/usage?\(period)&before=\(davisTap)").text
        #expect(forged.components(separatedBy: "<tr><td>").count == 1)
    }

    @Test func tutorsNeverSeeClinicalNotesButClinicianSeeTheTutors() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.post("/patients/\(carla)/observations", [("observedOn", "2026-11-17"), ("body", "Pediu água sozinha")]).status == 303)
        let refused = try bruno.post("/patients/\(carla)/observations", [("observedOn", "2026-11-17"), ("body", "")])
        #expect(refused.status == 422)
        let tutorView = try bruno.get("/patients/\(carla)/observations").text
        #expect(tutorView.contains("Pediu água sozinha"))
        #expect(!tutorView.contains("Boa combinação de duas palavras"), "the clinician's note is private")
        let clinicianView = try test.browser(loggedInAs: "ana").get("/patients/\(carla)/observations").text
        #expect(clinicianView.contains("Pediu água sozinha"))
        #expect(clinicianView.contains("Boa combinação de duas palavras"))
    }

    @Test func pureRulesOfBoardsTapsAndCSV() {
        #expect(BoardRules.isValidSize(rows: 1, columns: 2, type: .board))
        #expect(BoardRules.isValidSize(rows: 6, columns: 8, type: .board))
        #expect(!BoardRules.isValidSize(rows: 1, columns: 1, type: .board))
        #expect(BoardRules.isValidSize(rows: 1, columns: 1, type: .bigSymbol))
        #expect(BoardRules.position(4, from: (3, 3), to: (3, 4)) == 5)   // row 1, column 1
        #expect(BoardRules.position(2, from: (3, 3), to: (3, 2)) == nil)  // column 2 no longer exists
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(TapTime.accept("2026-11-18T06:00:00Z", now: now) == ISO8601DateFormatter().date(from: "2026-11-18T06:00:00Z"))
        #expect(TapTime.accept("2031-01-01T00:00:00Z", now: now) == now, "a clock in the future counts as now")
        #expect(TapTime.accept("2020-01-01T00:00:00Z", now: now) == now, "older than 30 days counts as now")
        #expect(TapTime.accept("yesterday", now: now) == now)
        #expect(TapTime.accept("2026-11-18T06:00:00.250Z", now: now) == Date(timeIntervalSince1970: 1_794_981_600.25),
                "the browser's toISOString(), milliseconds kept")
        #expect(CSV.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSV.field("água, gelada") == "\"água, gelada\"")
        #expect(CSV.field("bola") == "bola")
    }

    @Test func theLibrarySearchesEachLanguageIgnoringAccents() throws {
        let library = try PictogramLibrary.load(from: TestApp.repositoryRoot + "/Data/pictograms.json")
        #expect(library.entries.count >= 300)
        #expect(library.search("agua", locale: .ptBR).contains { $0.hexcode == "1F6B0" })
        #expect(library.search("AGUA", locale: .es).contains { $0.hexcode == "1F6B0" })
        #expect(library.search("aigua", locale: .ca).contains { $0.hexcode == "1F6B0" })
        #expect(library.search("water", locale: .en).first?.hexcode == "1F6B0", "words that start with the query first")
        for category in PictogramLibrary.categories {
            #expect(library.entries.filter { $0.category == category }.count >= 8, "\(category)")
        }
    }
}
