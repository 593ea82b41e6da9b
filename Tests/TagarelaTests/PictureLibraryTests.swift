import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The picture library (issue 54, items 3 and 6): the whole OpenMoji set named from CLDR in four languages,
/// searched by exact word first; the cell editor's search of the library, whose picture becomes a symbol in the
/// cell; folder cells with pictures; an imported board's own SVG drawn safely.
@Suite struct PictureLibraryTests {
    static var library: PictogramLibrary {
        get throws {
            try PictogramLibrary.load(curated: TestApp.repositoryRoot + "/Data/pictograms.json",
                                      library: TestApp.repositoryRoot + "/.build/test-data/pictograms/library.json")
        }
    }

    @Test func theWholeSetIsFoundByAWordInEachLanguageIgnoringAccentsAndCase() throws {
        let library = try Self.library
        #expect(library.entries.count >= 3_000, "\(library.entries.count) pictures named")
        // A violin is none of the curated AAC words: only the set's CLDR names find it.
        #expect(try PictogramLibrary.load(from: TestApp.repositoryRoot + "/Data/pictograms.json").entry("1F3BB") == nil)
        for (query, locale, name) in [("violino", AppLocale.ptBR, "violino"), ("VIOLIN", .es, "violín"), ("violí", .ca, "violí"),
                                      ("Violin", .en, "violin"), ("flamenc", .ca, "flamenc"), ("flamenco", .es, "flamenco")] {
            let first = library.search(query, in: [locale]).first
            #expect(first?.name == name, "\(query) in \(locale.rawValue): \(first?.name ?? "nothing")")
        }
        #expect(library.search("violi", in: [.ca]).first?.entry.hexcode == "1F3BB", "violí without its accent")
        #expect(library.named("VIOLÍ", locale: .ca)?.hexcode == "1F3BB" && library.named("violí", locale: .es) == nil,
                "an imported label finds the picture of exactly that name")
        // Found by a keyword of the dataset too ("música" finds the violin), in the language that matched.
        #expect(library.search("instrumento musical", in: [.ca, .es]).contains { $0.entry.hexcode == "1F3BB" && $0.locale == .es })
    }

    @Test func exactWordsComeFirst() throws {
        let library = try Self.library
        let found = library.search("gato", in: [.ptBR])
        #expect(found.count > 5)
        let ranks = found.map { PictogramLibrary.fold($0.name) == "gato" ? 0 : 1 }
        #expect(ranks.first == 0 && ranks == ranks.sorted(), "every picture named exactly gato before \"rosto de gato\"…")
        #expect(found.first?.entry.hexcode == "1F431", "the curated AAC word first among equals")
        // A word inside the name ("rosto de gato" holds gato as a word) before a name that only starts with it.
        let cat = library.search("cat", in: [.en]).prefix(3).map(\.name)
        #expect(cat.first == "cat", "\(cat)")
        #expect(!library.search("cat", in: [.en]).prefix(10).contains { $0.name.hasPrefix("cat") && $0.name != "cat" && !$0.name.contains("cat ") },
                "\"category\" would come after every picture with the word cat")
    }

    @Test func aLanguageWithoutANameFallsBackToEnglishAndSaysSo() throws {
        let library = try Self.library
        let marked = try #require(library.entries.first { !$0.fallback.isEmpty })
        let locale = try #require(AppLocale(rawValue: marked.fallback[0]))
        #expect(marked.name(locale) == marked.names["en"])
        #expect(marked.nameLanguage(locale) == .en)
        let match = try #require(library.search(marked.name(locale), in: [locale]).first { $0.entry.hexcode == marked.hexcode })
        #expect(match.isFallback == (locale != .en))
        // Every picture named in all four languages, by the dataset or by the English fallback.
        #expect(library.entries.allSatisfy { entry in AppLocale.allCases.allSatisfy { entry.names[$0.rawValue]?.isEmpty == false } })
    }

    @Test func theSymbolFormFindsTheWholeSetAndMarksAFallbackName() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let page = try ana.get("/symbols/new?q=violino")
        #expect(page.status == 200)
        #expect(page.text.contains("pictogram=1F3BB"))
        #expect(try ana.get("/pictograms/1F3BB.svg").status == 200, "the picture itself is installed")
        let fallback = try #require(try Self.library.entries.first { $0.fallback.contains("pt-BR") })
        let marked = try ana.get("/symbols/new?q=\(fallback.names["en"]!.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        #expect(marked.text.contains("fallback-mark"), "a name that is English standing in for Portuguese says so")
    }

    // MARK: - The cell editor

    func board(_ test: TestApp, of patient: String) throws -> Plan {
        let id = try test.id(of: patient)
        return try test.read { try Plan.filter(Column("patientId") == id && Column("type") == "board").order(Column("id")).fetchOne($0)! }
    }

    func cell(_ test: TestApp, _ plan: Plan, _ position: Int) throws -> PlanCell? {
        try test.read { try PlanCell.fetchOne($0, key: ["planId": plan.id, "position": position]) }
    }

    @Test func theCellEditorSearchesTheSymbolsAndTheLibraryAndMakesASymbolFromAPicture() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let plan = try board(test, of: "Carla Costa")
        let last = plan.rows * plan.columns - 1
        let editor = try ana.get("/plans/\(plan.id!)/edit?cell=\(last)&q=violino")
        #expect(editor.status == 200)
        #expect(editor.text.contains(#"value="1F3BB""#), "the library's picture offered beside the clinician's symbols")
        #expect(editor.text.contains(#"action="/plans/\#(plan.id!)/cells/\#(last)/picture""#))
        let nothing = try ana.get("/plans/\(plan.id!)/edit?cell=\(last)&q=zzqqxx")
        #expect(nothing.text.contains("zzqqxx") && nothing.text.contains(#"class="empty" role="status""#))

        let made = try ana.post("/plans/\(plan.id!)/cells/\(last)/picture", [("pictogram", "1F3BB"), ("lang", "pt-BR"), ("category", "")])
        #expect(made.status == 303)
        #expect(made.header("Location") == "/plans/\(plan.id!)/edit?cell=\(last)")
        let symbolId = try #require(try cell(test, plan, last)?.symbolId)
        let symbol = try #require(try test.read { try Symbol.fetchOne($0, key: symbolId) })
        #expect(symbol.name == "violino" && symbol.pictogram == "1F3BB" && symbol.voice == "pt-BR")
        #expect(symbol.patientId == plan.patientId, "a symbol of this patient")
        let colour = try test.read { try Category.fetchOne($0, key: symbol.categoryId)?.categoryColour }
        #expect(colour == .orange, "no category chosen: the nouns'")
        #expect(symbol.audioFile == SpeechAudio.fileName(text: "violino", voice: SpeechAudio.voice(for: .ptBR)), "its clip made at once")
        #expect(try ana.get("/plans/\(plan.id!)/edit?cell=\(last)").text.contains("1F3BB.svg"))
        let audited = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE entity = 'symbol' AND entityId = ?",
                                                       arguments: [symbolId]) }
        #expect(audited == 1)

        // Not a picture of the library, another clinician's board, a tutor: refused, nothing made.
        #expect(try ana.post("/plans/\(plan.id!)/cells/\(last)/picture", [("pictogram", "ZZZ")]).status == 400)
        let nadia = try test.browser(loggedInAs: "nadia")
        #expect(try nadia.post("/plans/\(plan.id!)/cells/\(last)/picture", [("pictogram", "1F3BB")]).status == 403)
        #expect(try ana.post("/plans/\(plan.id!)/cells/\(last + 1)/picture", [("pictogram", "1F3BB")]).status == 404)
    }

    @Test func aFolderCellShowsAPictureAndTakesOneFromTheLibraryKeepingItsBoard() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let boards = try test.read { try Plan.filter(Column("patientId") == carla && Column("type") == "board").order(Column("id")).fetchAll($0) }
        try #require(boards.count >= 2)
        let (plan, target) = (boards[0], boards[1])
        let last = plan.rows * plan.columns - 1
        #expect(try ana.post("/plans/\(plan.id!)/cells/\(last)", [("clear", "1")]).status == 303)
        #expect(try ana.post("/plans/\(plan.id!)/cells/\(last)", [("link", "\(target.id!)")]).status == 303)
        let editor = try ana.get("/plans/\(plan.id!)/edit?cell=\(last)&q=violino")
        #expect(editor.text.contains(BoardView.folderPicture), "a folder without a picture of its own shows a folder")
        #expect(editor.text.contains(#"name="name" value="\#(target.name)""#), "the picture keeps the board's name as its word")

        #expect(try ana.post("/plans/\(plan.id!)/cells/\(last)/picture",
                             [("pictogram", "1F3BB"), ("lang", "pt-BR"), ("name", target.name)]).status == 303)
        let folder = try #require(try cell(test, plan, last))
        #expect(folder.linkPlanId == target.id, "still opens its board")
        let symbol = try #require(try test.read { try Symbol.fetchOne($0, key: folder.symbolId) })
        #expect(symbol.name == target.name && symbol.pictogram == "1F3BB")
        let drawn = try test.read { db in BoardView(try BoardScreen.fetch(plan, db), Translator(locale: .ptBR, texts: [:])) }
        #expect(drawn.cells[last].isFolder && drawn.cells[last].imageURL?.hasSuffix("/1F3BB.svg") == true, "the player's folder cell")
        let printed = try ana.get("/plans/\(plan.id!)/print")
        #expect(printed.text.firstMatch(of: /cell-folder"><img src="[^"]*1F3BB\.svg"/) != nil, "the printed board too")
    }

    // MARK: - An imported board's own SVG

    @Test func anSVGIsMadeSafeOrRefused() throws {
        let outside = Data(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd"/><rect style="fill:url(http://x/y)" href='#me'/><style>@import "http://x/a.css";</style></svg>"#.utf8)
        let safe = try #require(SVGPicture.sanitized(outside).flatMap { String(data: $0, encoding: .utf8) })
        #expect(!safe.contains("passwd") && !safe.contains("http://x"), "\(safe)")
        #expect(safe.contains("href='#me'"), "a reference inside the file is kept")
        #expect(SVGPicture.sanitized(Data(#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>"#.utf8)) == nil)
        #expect(SVGPicture.sanitized(Data("<html><svg></svg></html>".utf8)) == nil, "not an SVG document")
        #expect(SVGPicture.sanitized(Data(repeating: 0x20, count: SVGPicture.maxBytes) + Data("<svg/>".utf8)) == nil, "too large")
        #expect(SVGPicture.looksLikeSVG(Data("<?xml version=\"1.0\"?>\n<!-- drawn by hand -->\n<svg width=\"4\">".utf8)))
    }

    /// Illustrator's SVGs (the Mulberry symbols CoughDrop boards carry inline) declare their namespaces as
    /// internal entities: plain text ones are written out and the DOCTYPE dropped; anything else is refused.
    @Test func anIllustratorSVGsOwnEntitiesAreWrittenOutAndNothingElse() throws {
        let illustrator = "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\r\n<!-- Generator: Adobe Illustrator 12.0.1 -->\r\n"
            + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [\r\n"
            + "\t<!ENTITY ns_svg \"http://www.w3.org/2000/svg\">\r\n\t<!ENTITY ns_xlink 'http://www.w3.org/1999/xlink'>\r\n]>\r\n"
            + "<svg xmlns=\"&ns_svg;\" xmlns:xlink=\"&ns_xlink;\" width=\"4\"><text>a &amp; b</text></svg>"
        #expect(SVGPicture.looksLikeSVG(Data(illustrator.utf8)))
        let drawn = try #require(SVGPicture.sanitized(Data(illustrator.utf8)).flatMap { String(data: $0, encoding: .utf8) })
        #expect(drawn.contains(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#), "\(drawn)")
        #expect(!drawn.contains("DOCTYPE") && !drawn.contains("ENTITY") && drawn.contains("a &amp; b"))
        #expect(SVGPicture.sanitized(Data(#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/x.dtd"><svg width="1"/>"#.utf8)) != nil,
                "a DOCTYPE naming the DTD only is dropped")
        for refused in [
            #"<!DOCTYPE svg [<!ENTITY a "x"><!ENTITY b "&a;&a;&a;">]><svg>&b;</svg>"#,               // nesting
            #"<!DOCTYPE svg [<!ENTITY % p "x"> %p;]><svg/>"#,                                      // a parameter entity
            #"<!DOCTYPE svg [<!ENTITY x PUBLIC "-//x" "http://x/y">]><svg>&x;</svg>"#,                // an address
            #"<!DOCTYPE svg [<!ENTITY x "<g/>">]><svg>&x;</svg>"#,                                    // markup
            #"<!DOCTYPE svg [<!ELEMENT svg ANY>]><svg/>"#,                                             // another declaration
            #"<!DOCTYPE html><svg/>"#,                                                                 // not an svg DOCTYPE
            "<!DOCTYPE svg [<!ENTITY x \"" + String(repeating: "y", count: 2000) + "\">]><svg>"
                + String(repeating: "&x;", count: 600) + "</svg>",                                     // past 1 MiB once written out
        ] {
            #expect(SVGPicture.sanitized(Data(refused.utf8)) == nil, "\(refused.prefix(80))")
        }
    }

    static func dataURI(_ svg: String) -> String { "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString() }

    @Test func anImportedBoardKeepsItsOwnSVGPictureDrawnAsAPNG() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let sun = ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="90000" height="45000" viewBox="0 0 20 10"><rect width="20" height="10" fill="#fc0"/><image xlink:href="http://192.0.2.1/track.png" width="1" height="1"/></svg>"##
        let entity = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>"#
        let board: [String: Any] = [
            "format": "open-board-0.1", "id": "svg-1", "locale": "es", "name": "Dibujos propios",
            "buttons": [["id": "1", "label": "solecito", "image_id": "i1"], ["id": "2", "label": "zzqq", "image_id": "i2"]],
            "grid": ["rows": 1, "columns": 2, "order": [["1", "2"]]],
            "images": [["id": "i1", "content_type": "image/svg+xml", "width": 20, "height": 10, "data": Self.dataURI(sun)],
                       ["id": "i2", "content_type": "image/svg+xml", "data": Self.dataURI(entity)]],
        ]
        let json = try JSONSerialization.data(withJSONObject: board)
        let imported = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                             files: [(field: "file", filename: "dibujos.obf", contentType: "application/json",
                                                      content: [UInt8](json))])
        #expect(imported.status == 303)
        let symbols = try test.read { db in
            try Symbol.filter(Column("patientId") == carla && [Column("name") == "solecito", Column("name") == "zzqq"].joined(operator: .or))
                .fetchAll(db)
        }
        let solecito = try #require(symbols.first { $0.name == "solecito" })
        let path = try #require(solecito.imagePath, "its own picture, not a stock one")
        #expect(solecito.pictogram == nil)
        let png = try #require(FileManager.default.contents(atPath: test.app.configuration.mediaDirectory + "/" + path))
        let size = try #require(OBFExporter.pngSize(png))
        #expect(size.width == SVGPicture.maxSide && size.height == SVGPicture.maxSide / 2, "drawn at a bounded size, proportions kept")
        #expect(try ana.get(solecito.imageURL).status == 200)
        let refused = try #require(symbols.first { $0.name == "zzqq" })
        #expect(refused.imagePath == nil && refused.pictogram == OBFImporter.placeholderPictogram, "a DOCTYPE is never parsed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/images")
            .filter { $0.hasSuffix(".svg") }
        #expect(leftovers.isEmpty, "the SVG text is not kept")
    }

    @Test func aClinicianUploadsHerOwnSVGAsASymbolsPictureAndAnUnsafeOneIsRefusedKeepingTheForm() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let category = try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM category") }!
        func fields(_ name: String) -> [(String, String)] {
            [("pictogram", ""), ("name", name), ("spokenText", ""), ("categoryId", "\(category)"), ("scope", ""), ("voice", "pt-BR")]
        }
        let ball = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="red"/></svg>"#
        let created = try ana.postMultipart("/symbols", fields: fields("bola vermelha"),
                                            files: [(field: "image", filename: "bola.svg", contentType: "image/svg+xml", content: [UInt8](ball.utf8))])
        #expect(created.status == 303)
        let symbol = try #require(try test.read { try Symbol.filter(Column("name") == "bola vermelha").fetchOne($0) })
        let path = try #require(symbol.imagePath)
        let png = try #require(FileManager.default.contents(atPath: test.app.configuration.mediaDirectory + "/" + path))
        let size = try #require(OBFExporter.pngSize(png))
        #expect(size.width == SVGPicture.maxSide && size.height == SVGPicture.maxSide)
        #expect(try ana.get(symbol.imageURL).status == 200)

        let unsafe = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>"#
        let refused = try ana.postMultipart("/symbols", fields: fields("bola azul"),
                                            files: [(field: "image", filename: "azul.svg", contentType: "image/svg+xml", content: [UInt8](unsafe.utf8))])
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"value="bola azul""#), "what was typed is kept")
        #expect(refused.text.contains(#"id="image-error""#))
        #expect(try test.read { try Symbol.filter(Column("name") == "bola azul").fetchCount($0) } == 0)
    }
}
