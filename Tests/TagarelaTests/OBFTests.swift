import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct OBFTests {
    // MARK: - Fixtures, built in code

    /// A package from the given files, written with the same zip library the app uses.
    static func makeZip(_ files: [(String, Data)]) throws -> [UInt8] {
        let writer = try OBZWriter()
        for (path, data) in files { try writer.add(path, data) }
        return [UInt8](writer.data)
    }

    static func json(_ object: Any) -> Data {
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static let pngDataURI = "data:image/png;base64," + Data(PhotoTests.png).base64EncodedString()

    /// A board as another AAC tool would write it, from the published spec: numeric ids, a data: image, a
    /// picture given only by URL, a recorded sound inlined without a URL, a button without sound,
    /// Fitzgerald pastels, a link to a board that is not in the file.
    static func comida(_ change: (inout [String: Any]) -> Void = { _ in }) -> Data {
        var board: [String: Any] = [
            "format": "open-board-0.1", "id": 1, "locale": "es", "name": "Comida",
            "description_html": "<p>Para la hora de <b>comer</b></p>",
            "license": ["type": "CC-By", "author_name": "Otra herramienta"],
            "buttons": [
                ["id": 1, "label": "galleta", "background_color": "rgb(255, 255, 170)", "border_color": "rgb(200, 200, 100)",
                 "image_id": "img1"],
                ["id": 2, "label": "agua", "vocalization": "quiero agua", "image_id": "img2", "sound_id": "snd1",
                 "background_color": "rgba(204, 255, 170, 1)"],
                ["id": 3, "label": "más", "load_board": ["id": "99", "name": "Más", "url": "https://example.org/boards/99"]],
                ["id": "4", "label": "no está en la cuadrícula"],
            ],
            "grid": ["rows": 2, "columns": 2, "order": [[1, NSNull()], [2, 3]]],
            "images": [
                ["id": "img1", "content_type": "image/png", "width": 4, "height": 2, "data": pngDataURI,
                 "license": ["type": "CC-By", "author_name": "Alguien"]],
                ["id": "img2", "content_type": "image/png", "url": "https://example.org/agua.png"],
            ],
            "sounds": [["id": "snd1", "content_type": "audio/wav",
                        "data": "data:audio/wav;base64," + Data(AACTests.toneWAV()).base64EncodedString()]],
        ]
        change(&board)
        return json(board)
    }

    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("obf-test-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ bytes: [UInt8], limits: OBZLimits = .standard) throws -> [OBFBoard] {
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try OBFReader.read(file: path, limits: limits)
    }

    /// Rewrites every declared uncompressed size (local headers and central directory) to `size`: a zip that lies.
    static func lyingAboutSizes(_ zip: [UInt8], size: UInt32) -> [UInt8] {
        var bytes = zip
        func put(_ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) } }
        var i = 0
        while i + 4 <= bytes.count {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 3, bytes[i + 3] == 4 { put(i + 22) }
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 1, bytes[i + 3] == 2 { put(i + 24) }
            i += 1
        }
        return bytes
    }

    /// A 3 MiB board of spaces that deflates to a few kilobytes (a real bomb is just bigger), its headers
    /// claiming 100 bytes.
    static func bomb() throws -> [UInt8] {
        let manifest = json(["format": "open-board-0.1", "root": "boards/1.obf", "paths": ["boards": ["1": "boards/1.obf"]]])
        let huge = Data(repeating: 0x20, count: 3 << 20)
        return lyingAboutSizes(try makeZip([("manifest.json", manifest), ("boards/1.obf", huge)]), size: 100)
    }

    static func traversal() throws -> [UInt8] {
        let manifest = json(["format": "open-board-0.1", "root": "boards/1.obf"])
        return try makeZip([("manifest.json", manifest), ("boards/1.obf", comida()), ("../../x", Data("gotcha".utf8))])
    }

    // MARK: - Pure rules

    @Test(arguments: ["../../x", "/etc/passwd", "boards\\..\\x", "C:/x", "boards/../../x", "", "a/\0b"])
    func unsafeNamesInsideAPackageAreRefused(_ path: String) {
        #expect(OBZArchive.normalised(path) == nil)
    }

    @Test func harmlessNamesAreKept() {
        #expect(OBZArchive.normalised("./boards/1.obf") == "boards/1.obf")
        #expect(OBZArchive.normalised("images//a.png") == "images/a.png")
    }

    @Test func coloursJoinTheNearestOfTheCliniciansCategories() {
        let defaults = Category.defaults.enumerated().map { index, entry in
            Category(id: Int64(index + 1), clinicianId: 1, name: entry.key, colour: entry.colour.rawValue, position: index)
        }
        func colour(_ background: String?, border: String? = nil, name: String? = nil, among: [Category] = defaults) -> CategoryColour? {
            CategoryMatch.category(named: name, background: background.flatMap(RGB.init(css:)), border: border.flatMap(RGB.init(css:)),
                                   among: among)?.categoryColour
        }
        // CoughDrop's Fitzgerald pastels and strong colours alike.
        #expect(colour("rgb(255, 255, 170)") == .yellow)
        #expect(colour("rgb(204, 255, 170)") == .green)
        #expect(colour("rgb(170, 204, 255)") == .blue)
        #expect(colour("rgb(255, 170, 204)") == .pink)
        #expect(colour("#ffccaa") == .orange)
        #expect(colour("rgba(255,255,255,1)") == .white)
        #expect(colour(nil) == .white)
        // Tagarela's own export: white background, the category's colour on the border.
        #expect(colour("rgb(255, 255, 255)", border: CategoryColour.green.rgb.css) == .green)
        let all = CategoryColour.allCases.enumerated().map { index, colour in
            Category(id: Int64(index + 1), clinicianId: 1, name: colour.rawValue, colour: colour.rawValue, position: index)
        }
        for expected in CategoryColour.allCases {
            #expect(colour(RGB.white.css, border: expected.rgb.css, name: expected.rawValue, among: all) == expected, "\(expected)")
        }
        #expect(colour(RGB.white.css, border: "rgb(170, 170, 170)", among: all) == .white, "a grey outline is not a category")
        #expect(RGB(css: "#f00") == RGB(255, 0, 0))
        #expect(RGB(css: "red") == RGB(255, 0, 0), "a CSS named colour")
        #expect(RGB(css: "reddish") == nil)
    }

    /// One mistake each, and the field and problem the reader must name.
    static func mistake(_ name: String) -> (change: (inout [String: Any]) -> Void, field: String, problem: OBFError.Problem) {
        func button(_ index: Int, _ key: String, _ value: Any?) -> (inout [String: Any]) -> Void {
            { board in
                var buttons = board["buttons"] as! [[String: Any]]
                buttons[index][key] = value
                board["buttons"] = buttons
            }
        }
        switch name {
        case "no id": return (button(3, "id", nil), "buttons[3].id", .missing)
        case "too many rows": return ({ $0["grid"] = ["rows": 17, "columns": 2, "order": []] }, "grid.rows", .outOfRange(17, 1...16))
        case "unknown button":
            return ({ $0["grid"] = ["rows": 1, "columns": 2, "order": [[1, 7]]] }, "grid.order[0][1]", .unknownButton("7"))
        case "not open board": return ({ $0["format"] = "cboard-1" }, "format", .notOpenBoard("cboard-1"))
        case "empty data":
            return ({ board in
                var images = board["images"] as! [[String: Any]]
                images[0]["data"] = "data:image/png;base64,"
                board["images"] = images
            }, "images[0].data", .badDataURI)
        default: return (button(0, "image_id", ["an": "object"]), "buttons[0].image_id", .notText)
        }
    }

    // An image_id that names nothing is a warning, not a refusal (OBFSampleTests); one that is no id at all is refused.
    @Test(arguments: ["no id", "too many rows", "unknown button", "not open board", "empty data", "image id not an id"])
    func aMalformedBoardNamesItsFieldAndItsBoard(_ name: String) throws {
        let (change, field, problem) = Self.mistake(name)
        let error = #expect(throws: OBFError.self) { try read([UInt8](Self.comida(change))) }
        #expect(error == OBFError(board: "Comida", field: field, problem))
    }

    @Test func deeplyNestedJSONIsRefusedWithoutExhaustingTheStack() throws {
        let nested = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        #expect(throws: OBFError(.notAPackage)) { try read(Array(nested.utf8)) }
    }

    @Test func theMessageSaysWhichBoardAndWhichField() throws {
        let catalogues = try Catalogues(directory: TestApp.repositoryRoot + "/Templates/i18n")
        let error = OBFError(board: "Comida", field: "buttons[3].id", .missing)
        #expect(error.message(catalogues.translator(for: .en)) == "Board 'Comida': buttons[3].id is missing.")
        #expect(error.message(catalogues.translator(for: .es)) == "Tablero 'Comida': buttons[3].id falta.")
    }

    @Test func aZipBombIsRefusedWhileInflatingThoughItsHeadersClaimASmallFile() throws {
        let error = #expect(throws: OBFError.self) { try read(Self.bomb()) }
        #expect(error?.problem == .compressedTooWell)
        #expect(error?.file == "boards/1.obf")
        // A file too large is refused from the table of contents when its header says so…
        var limits = OBZLimits()
        limits.maxEntryBytes = 1 << 20
        let honest = try Self.makeZip([("manifest.json", Self.json(["format": "open-board-0.1", "root": "a"])),
                                       ("a", Data(repeating: 0x20, count: 2 << 20))])
        #expect(throws: OBFError(file: "a", .fileTooLarge(maxMiB: 1))) { try read(honest, limits: limits) }
        // …and while inflating when it lies, even below the ratio that gives a bomb away.
        limits.maxRatio = 10_000
        #expect(throws: OBFError(file: "a", .jsonTooLarge(maxMiB: 1))) { try read(Self.lyingAboutSizes(honest, size: 10), limits: limits) }
    }

    @Test func packagesWithTooManyFilesOrAPathOutsideAreRefused() throws {
        var limits = OBZLimits()
        limits.maxEntries = 3
        let many = try Self.makeZip((0..<4).map { ("f\($0)", Data("x".utf8)) })
        #expect(throws: OBFError(.tooManyFiles(max: 3))) { try read(many, limits: limits) }
        #expect(throws: OBFError(file: "../../x", .unsafePath)) { try read(Self.traversal()) }
    }

    @Test func theLogGroupsADaysEventsIntoOneSession() throws {
        let zone = TimeZone(identifier: "America/Sao_Paulo")!
        let day = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, 08:06 in São Paulo
        let taps = [
            OBLBuilder.Tap(id: 1, at: day, planId: 5, position: 2, label: "água", spokenText: "quero água", assisted: true),
            OBLBuilder.Tap(id: 2, at: day.addingTimeInterval(60), planId: 5, position: 3, label: "mais", spokenText: "mais", assisted: false),
            OBLBuilder.Tap(id: 3, at: day.addingTimeInterval(86_400), planId: nil, position: nil, label: "", spokenText: nil, assisted: false),
        ]
        let sentence = OBLBuilder.Sentence(id: 9, at: day.addingTimeInterval(120), text: "quero água",
                                           words: [.init(planId: 5, position: 2, label: "água", spokenText: "quero água")], assisted: true)
        let log = OBLBuilder.log(patientId: 7, locale: "pt-BR", taps: taps, sentences: [sentence], timeZone: zone)
        #expect(log.sessions.map(\.events.count) == [3, 1])
        #expect(log.sessions[0].events.map(\.type) == ["button", "button", "utterance"])
        #expect(log.sessions[0].events[0].buttonId == "c2")
        #expect(log.sessions[0].events[0].vocalization == "quero água")
        #expect(log.sessions[0].events[1].vocalization == nil)
        #expect(log.sessions[0].started == "2026-11-18T11:06:40Z")
    }

    // MARK: - Over HTTP

    struct Cell: Equatable {
        let name: String?
        let spoken: String?
        let pictogram: String?
        let hasImage: Bool
        let audio: String?
        let audioKind: String?
        let category: Int64?
        let link: String?
    }

    /// A plan's cells as a clinician sees them: what each says, shows and sounds like, and where it leads.
    func cells(_ test: TestApp, plan: Int64) throws -> [Int: Cell] {
        try test.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT c.position, s.name, s.spokenText, s.pictogram, s.imagePath, s.audioFile, s.audioKind, s.categoryId,
                       l.name AS link FROM planCell c LEFT JOIN symbol s ON s.id = c.symbolId LEFT JOIN plan l ON l.id = c.linkPlanId
                WHERE c.planId = ? AND (c.symbolId IS NOT NULL OR c.linkPlanId IS NOT NULL)
                """, arguments: [plan])
            return Dictionary(uniqueKeysWithValues: rows.map { row in
                let kind: String? = row["audioKind"]
                return (row["position"] as Int, Cell(
                    name: row["name"], spoken: row["spokenText"], pictogram: row["pictogram"], hasImage: (row["imagePath"] as String?) != nil,
                    // A recording is normalised again on import, so it gets a new name; generated clips keep theirs.
                    audio: kind == "uploaded" ? "recording" : row["audioFile"], audioKind: kind, category: row["categoryId"],
                    link: row["link"]))
            })
        }
    }

    @Test func exportThenImportGivesTheSameGridLabelsLinksPicturesAndSounds() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa"), davi = try test.id(of: "Davi Alves")
        let main = try test.read { db in
            try Plan.fetchOne(db, sql: "SELECT plan.* FROM plan JOIN planCell c ON c.planId = plan.id WHERE plan.patientId = ? AND c.linkPlanId IS NOT NULL",
                              arguments: [carla])!
        }
        // One picture uploaded and one voice recorded, beside pictograms and generated clips.
        let onBoard = try test.read { try Symbol.fetchAll($0, sql: "SELECT s.* FROM symbol s JOIN planCell c ON c.symbolId = s.id WHERE c.planId = ? ORDER BY c.position", arguments: [main.id]) }
        for (index, file) in [(field: "image", filename: "foto.png", contentType: "image/png", content: PhotoTests.png),
                              (field: "audio", filename: "voz.wav", contentType: "audio/wav", content: AACTests.toneWAV())].enumerated() {
            let symbol = onBoard[index]
            let saved = try ana.postMultipart("/symbols/\(symbol.id!)", fields: [
                ("pictogram", index == 0 ? "" : symbol.pictogram ?? ""), ("name", symbol.name), ("spokenText", symbol.spokenText),
                ("categoryId", "\(symbol.categoryId)"), ("scope", ""), ("voice", symbol.voice ?? "pt-BR"),
            ], files: [file])
            #expect(saved.status == 303)
        }

        let editor = try ana.get("/plans/\(main.id!)/edit")
        #expect(editor.text.contains("/plans/\(main.id!)/export.obz"))
        let exported = try ana.get("/plans/\(main.id!)/export.obz")
        #expect(exported.status == 200)
        #expect(exported.header("Content-Type") == "application/zip")
        #expect(exported.header("Content-Disposition")?.contains(".obz") == true)
        let boards = try read(exported.body)
        #expect(boards.count == 2, "the board and the folder it links to")
        #expect(boards[0].cells.compactMap(\.?.linkIndex) == [1])

        let before = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM plan") }!
        let imported = try ana.postMultipart("/patients/\(davi)/boards/import", fields: [],
                                             files: [(field: "file", filename: "dia.obz", contentType: "application/zip", content: exported.body)])
        #expect(imported.status == 303)
        let new = try test.read { try Plan.filter(Column("id") > before).order(Column("id")).fetchAll($0) }
        #expect(imported.header("Location")?.hasPrefix("/obf/imports/") == true)
        #expect(try ana.get(imported.header("Location")!).text.contains("/plans/\(new[0].id!)/edit"), "the result leads to the root board")
        #expect(new.allSatisfy { $0.patientId == davi })
        let folder = try test.read { try Plan.fetchOne($0, key: try PlanCell.filter(Column("planId") == main.id && Column("linkPlanId") != nil).fetchOne($0)!.linkPlanId) }!
        for (original, copy) in zip([main, folder], new) {
            #expect(copy.name == original.name)
            #expect(copy.rows == original.rows && copy.columns == original.columns && copy.type == original.type)
            #expect(try cells(test, plan: copy.id!) == cells(test, plan: original.id!), "\(original.name)")
        }
        // The copies are Davi's own symbols, and the uploaded picture is a new file, checked and re-encoded.
        let copied = try test.read { try Symbol.fetchAll($0, sql: "SELECT DISTINCT s.* FROM symbol s JOIN planCell c ON c.symbolId = s.id WHERE c.planId = ?", arguments: [new[0].id]) }
        // Words that are Ana's own library symbols (same label and picture) are reused, not copied.
        #expect(copied.allSatisfy { $0.patientId == davi || ($0.patientId == nil && $0.clinicianId == main.clinicianId) })
        let picture = try #require(copied.first { $0.imagePath != nil }?.imagePath)
        let stored = try #require(FileManager.default.contents(atPath: test.app.configuration.mediaDirectory + "/" + picture))
        let size = try #require(OBFExporter.pngSize(stored))
        #expect(size.width == 4 && size.height == 2)
        let recording = try #require(copied.first { $0.audioKind == "uploaded" }?.audioFile)
        let seconds = try #require(SpeechAudio.duration(ofFileAt: test.app.speech.directory + "/" + recording))
        #expect(abs(seconds - 0.5) < 0.2)
        test.app.speech.remove(recording)
    }

    @Test func aBoardWrittenByAnotherToolImportsWithAPictureAndAGeneratedVoice() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let form = try ana.get("/patients/\(carla)/boards/import")
        #expect(form.status == 200)
        #expect(form.text.contains(#"enctype="multipart/form-data""#))
        let imported = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                             files: [(field: "file", filename: "comida.obf", contentType: "application/json",
                                                      content: [UInt8](Self.comida()))])
        #expect(imported.status == 303)
        let plan = try test.read { try Plan.filter(Column("patientId") == carla && Column("name") == "Comida").fetchOne($0) }
        let comida = try #require(plan)
        #expect(comida.rows == 2 && comida.columns == 2 && comida.description == "Para la hora de comer")
        #expect(try ana.get(imported.header("Location")!).text.contains("trocadas por pictogramas"),
                "the flash says a picture given only by URL was replaced")
        let cells = try cells(test, plan: comida.id!)
        #expect(Set(cells.keys) == [0, 2, 3], "null keeps its cell empty; a button outside the grid is not imported")
        let colours = try test.read { db in
            Dictionary(uniqueKeysWithValues: try Category.fetchAll(db).map { ($0.id!, $0.categoryColour) })
        }
        let galleta = try #require(cells[0])
        #expect(galleta.name == "galleta" && galleta.hasImage && galleta.pictogram == nil)
        #expect(galleta.audio == SpeechAudio.fileName(text: "galleta", voice: "es") && galleta.audioKind == "generated")
        let comidaCategory = try test.read { try Category.filter(Column("name") == "Comida").fetchOne($0) }
        #expect(galleta.category == comidaCategory?.id, "the set's own category, named after it")
        #expect(colours[galleta.category!].map { !Category.defaults.map(\.colour).contains($0) } == true)
        let agua = try #require(cells[2])
        #expect(agua.spoken == "quiero agua" && agua.pictogram == "1F6B0", "no fetching: the pictogram of the same word")
        #expect(agua.audioKind == "uploaded", "the inlined recording, normalised like an upload")
        #expect(agua.category == galleta.category)
        let mas = try #require(cells[3])
        #expect(mas.link == nil && mas.name == "más", "a link to a board outside the file becomes a word")
        let stored = try test.read { try String.fetchOne($0, sql: "SELECT imagePath FROM symbol WHERE name = 'galleta' AND patientId = ?", arguments: [carla]) }!
        #expect(MediaStore.kind(of: [UInt8](FileManager.default.contents(atPath: test.app.configuration.mediaDirectory + "/" + stored)!.prefix(16))) == .png)
        let recording = try test.read { try String.fetchOne($0, sql: "SELECT audioFile FROM symbol WHERE name = 'agua' AND patientId = ?", arguments: [carla]) }!
        #expect(SpeechAudio.duration(ofFileAt: test.app.speech.directory + "/" + recording) != nil)
        test.app.speech.remove(recording)
    }

    @Test func aDoubleSubmittedImportStoresTheBoardsOnce() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let form = try ana.get("/patients/\(carla)/boards/import")
        let key = try #require(form.text.firstMatch(of: /name="_once" value="([^"]+)"/).map { String($0.1) })
        let plans = try test.read { try Plan.fetchCount($0) }
        var locations: [String?] = []
        for _ in 0..<2 {
            let imported = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [("_once", key)],
                                                 files: [(field: "file", filename: "comida.obf", contentType: "application/json",
                                                          content: [UInt8](Self.comida()))])
            #expect(imported.status == 303)
            locations.append(imported.header("Location"))
        }
        #expect(locations[0] == locations[1], "the second answer is the first one's")
        #expect(try test.read { try Plan.fetchCount($0) } == plans + 1)
    }

    @Test func aFailureAfterTheMediaWereConvertedLeavesNoFilesBehind() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let nadia = try test.read { try User.filter(Column("username") == "nadia").fetchOne($0)! }
        let importer = OBFImporter(media: test.app.media, speech: test.app.speech,
                                   pictograms: test.app.pictograms, temporaryDirectory: test.app.configuration.uploadsDirectory)
        let boards = try read([UInt8](Self.comida()))
        var files = OBFImporter.MadeFiles()
        let faces = try importer.prepareFaces(boards, fallbackLocale: .es, made: &files)
        let made = files.images.map { test.app.configuration.mediaDirectory + "/" + $0 } + files.recordings.map { test.app.speech.directory + "/" + $0 }
        #expect(made.count == 2 && made.allSatisfy { FileManager.default.fileExists(atPath: $0) } && faces.count == 3)
        files.remove(media: test.app.media, speech: test.app.speech)
        #expect(!made.contains { FileManager.default.fileExists(atPath: $0) })

        // Through `prepare` and `store`: Nádia is not Davi's clinician, which the transaction finds only after converting.
        let before = try stored(test)
        #expect(throws: AppError.notFound) {
            let prepared = try importer.prepare(boards, fallbackLocale: .es)
            return try test.write { db in
                try importer.store(prepared, patientId: davi, actor: Actor(user: nadia), now: test.clock.now,
                                   timeZone: test.app.configuration.timeZone, audit: AuditContext(
                                    actorId: nadia.id, actorName: "Nádia", clientAddress: "", now: test.clock.now),
                                   t: test.app.catalogues.translator(for: .es), db)
            }
        }
        #expect(try stored(test) == before, "no picture left in media/images, no row")
    }

    /// Everything an import could add.
    func stored(_ test: TestApp) throws -> String {
        let rows = try test.read { db in
            try ["plan", "planCell", "symbol", "auditEntry"].map {  // a refusal's own audit entry is no change
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)\($0 == "auditEntry" ? " WHERE action <> 'refused'" : "")")!
            }
        }
        let images = (try? FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/images")) ?? []
        return "\(rows) \(images.sorted())"
    }

    @Test func malformedBombedOrEscapingFilesAreRefusedWithNothingStored() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let before = try stored(test)
        let malformed = [UInt8](Self.comida(Self.mistake("no id").change))
        // As deep as the JSON parser allows, decoded on the media pool's thread.
        let deep = [UInt8](Self.comida { board in
            var nested: Any = "fundo"
            for _ in 0..<500 { nested = [nested] }
            board["description_html"] = nested
        })
        for (name, content, says) in [("comida.obf", malformed, "Comida&#39;: buttons[3].id está faltando."),
                                      ("bomba.obz", try Self.bomb(), "boards/1.obf"),
                                      ("fuga.obz", try Self.traversal(), "Arquivo ../../x: é um caminho inseguro"),
                                      ("nada.obf", Array("isto não é um quadro".utf8), "não é um arquivo .obf nem .obz"),
                                      ("fundo.obf", deep, "description_html deveria ser um texto")] {
            let refused = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                                files: [(field: "file", filename: name, contentType: "application/octet-stream", content: content)])
            #expect(refused.status == 422, "\(name)")
            #expect(refused.text.contains(says), "\(name)")
            #expect(try stored(test) == before, "\(name)")
        }
    }

    @Test func theUsageHistoryExportsAsAnOpenBoardLog() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.id(of: "Carla Costa")
        let page = try bruno.get("/patients/\(carla)/usage")
        let link = try #require(page.text.firstMatch(of: /href="(\/patients\/\d+\/usage\.obl\?[^"]+)"/)?.1)
        let response = try bruno.get(String(link).replacingOccurrences(of: "&amp;", with: "&"))
        #expect(response.status == 200)
        #expect(response.header("Content-Disposition")?.hasSuffix(".obl\"") == true)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(log["format"] as? String == "open-board-log-0.1")
        #expect(log["user_id"] as? String == "tagarela:patient:\(carla)")
        let sessions = try #require(log["sessions"] as? [[String: Any]])
        #expect(!sessions.isEmpty)
        var types: Set<String> = []
        for session in sessions {
            #expect(session["type"] as? String == "log")
            #expect(session["started"] is String && session["ended"] is String && session["id"] is String)
            for event in session["events"] as! [[String: Any]] {
                let type = event["type"] as! String
                types.insert(type)
                #expect(event["id"] is String && event["timestamp"] is String)
                if type == "button" {
                    #expect(event["label"] is String && event["board_id"] is String)
                    #expect((event["button_id"] as? String)?.hasPrefix("c") == true)
                } else {
                    #expect(type == "utterance")
                    #expect(event["text"] is String)
                    let buttons = event["buttons"] as! [[String: Any]]
                    #expect(!buttons.isEmpty && buttons.allSatisfy { $0["label"] is String && $0["board_id"] is String })
                }
            }
        }
        #expect(types == ["button", "utterance"])
        let beatriz = try test.browser(loggedInAs: "beatriz")
        #expect(try beatriz.get("/patients/\(carla)/usage.obl").status == 404)
    }

    @Test func onlyALinkedClinicianExportsOrImportsBoards() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves"), carla = try test.id(of: "Carla Costa")
        let daviPlan = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM plan WHERE patientId = ?", arguments: [davi]) }!
        let carlaPlan = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM plan WHERE patientId = ?", arguments: [carla]) }!
        let file = [(field: "file", filename: "comida.obf", contentType: "application/json", content: [UInt8](Self.comida()))]
        let nadia = try test.browser(loggedInAs: "nadia")  // a clinician, but not Davi's
        let bruno = try test.browser(loggedInAs: "bruno")  // Carla's tutor
        let before = try stored(test)
        // nadia is a nutritionist: boards are speech therapy's (403 before any record is looked at).
        #expect(try nadia.get("/plans/\(daviPlan)/export.obz").status == 403)
        #expect(try nadia.get("/plans/\(daviPlan)/export.obf").status == 403)
        #expect(try nadia.get("/patients/\(davi)/boards/import").status == 403)
        #expect(try nadia.postMultipart("/patients/\(davi)/boards/import", fields: [], files: file).status == 403)

        #expect(try bruno.get("/plans/\(carlaPlan)/export.obz").status == 403)
        #expect(try bruno.postMultipart("/patients/\(carla)/boards/import", fields: [], files: file).status == 403)
        #expect(!(try bruno.get("/patients/\(carla)/plans").text.contains("export.obz")))
        #expect(try stored(test) == before)

        let ana = try test.browser(loggedInAs: "ana")
        let single = try ana.get("/plans/\(carlaPlan)/export.obf")
        #expect(single.status == 200)
        let board = try #require(try JSONSerialization.jsonObject(with: Data(single.body)) as? [String: Any])
        #expect(board["format"] as? String == "open-board-0.1" && board["id"] is String)
        let images = board["images"] as! [[String: Any]]
        #expect(!images.isEmpty && images.allSatisfy { ($0["data"] as? String)?.hasPrefix("data:image/svg+xml;base64,") == true })
        #expect(images.allSatisfy { ($0["license"] as? [String: Any])?["type"] as? String == "CC BY-SA 4.0" })
    }
}
