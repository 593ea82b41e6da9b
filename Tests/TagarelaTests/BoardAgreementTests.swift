import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Issue 19's last gaps: the board strip says the agreeing form (as the sentence builder does), an
/// adjective agrees with the noun before it, and an imported Open Board set keeps its buttons' colours.
@Suite struct BoardAgreementTests {
    static func word(_ text: String, _ language: String) -> (text: String, forms: WordForms?) {
        (text, WordLexicon.lookup(text, language: language))
    }

    static func said(_ words: [String], _ language: String) -> String {
        Agreement.sentence(words.map { word($0, language) }).joined(separator: " ")
    }

    // MARK: - An adjective agrees with the noun before it

    @Test func anAdjectiveTakesTheGenderAndNumberOfTheNearestNounBeforeIt() {
        // pt-BR
        #expect(Self.said(["bola", "azul"], "pt-BR") == "bola azul")
        #expect(Self.said(["casa", "bonito"], "pt-BR") == "casa bonita")
        #expect(Self.said(["os", "carros", "bonito"], "pt-BR") == "os carros bonitos")
        #expect(Self.said(["bolas", "azul"], "pt-BR") == "bolas azuis")
        // the nearest noun wins over the subject; with no noun the subject; else masculine singular
        #expect(Self.said(["papai", "quer", "bola", "bonito"], "pt-BR") == "papai quer bola bonita")
        #expect(Self.said(["ela", "estou", "cansado"], "pt-BR") == "ela está cansada")
        #expect(Self.said(["estou", "cansado"], "pt-BR") == "estou cansado")
        // es
        #expect(Self.said(["pelota", "azul"], "es") == "pelota azul")
        #expect(Self.said(["casa", "bonito"], "es") == "casa bonita")
        #expect(Self.said(["los", "coches", "bonito"], "es") == "los coches bonitos")
        #expect(Self.said(["ella", "estoy", "cansado"], "es") == "ella está cansada")
        // ca
        #expect(Self.said(["pilota", "blau"], "ca") == "pilota blava")
        #expect(Self.said(["casa", "bonic"], "ca") == "casa bonica")
        #expect(Self.said(["els", "cotxes", "bonic"], "ca") == "els cotxes bonics")
        #expect(Self.said(["ell", "vull", "pilotes", "petit"], "ca") == "ell vol pilotes petites")
    }

    /// The demo's things (its folder board) × the demo's adjectives, in each language: every noun is
    /// known with its gender, and every adjective after it takes that noun's gender and number.
    @Test(arguments: [
        ("pt-BR", ["bola", "carro", "casa", "escola", "maçã", "banana", "pão", "biscoito", "suco", "leite", "ursinho", "pizza", "televisão"],
         ["azul", "bonito", "grande", "pequeno", "feliz", "triste", "cansado", "bravo", "doente"]),
        ("es", ["pelota", "coche", "casa", "escuela", "manzana", "plátano", "pan", "galleta", "zumo", "leche", "osito", "pizza", "tele"],
         ["azul", "bonito", "grande", "pequeño", "contento", "triste", "cansado", "enfadado", "enfermo", "asustado"]),
        ("ca", ["pilota", "cotxe", "casa", "escola", "poma", "plàtan", "pa", "galeta", "suc", "llet", "osset", "pizza", "tele"],
         ["blau", "bonic", "gran", "petit", "content", "trist", "cansat", "enfadat", "malalt", "espantat"]),
    ])
    func everyDemoThingTakesEveryDemoAdjectiveInItsGender(_ language: String, _ nouns: [String], _ adjectives: [String]) throws {
        for noun in nouns {
            let forms = try #require(WordLexicon.lookup(noun, language: language), "\(noun)")
            #expect(forms.wordClass == .noun && forms.gender != nil && forms.number == .singular, "\(noun)")
            let plural = try #require(forms.forms["\(forms.gender!.rawValue)p"], "\(noun) has a plural")
            #expect(WordLexicon.lookup(plural, language: language)?.number == .plural, "\(plural)")
            for adjective in adjectives {
                let grammar = try #require(WordLexicon.lookup(adjective, language: language), "\(adjective)")
                #expect(grammar.wordClass == .adjective)
                for (said, key) in [(noun, "\(forms.gender!.rawValue)s"), (plural, "\(forms.gender!.rawValue)p")] {
                    let spoken = Agreement.sentence([Self.word(said, language), Self.word(adjective, language)])
                    #expect(spoken == [said, grammar.forms[key]!], "\(said) \(adjective)")
                }
            }
        }
    }

    // MARK: - The board's cells carry their forms

    static func symbol(_ id: Int64, _ text: String, voice: String = "pt-BR") -> Symbol {
        let now = Date(timeIntervalSince1970: 0)
        return Symbol(id: id, clinicianId: 1, categoryId: 1, name: text, spokenText: text, pictogram: "1F600", audioKind: "generated",
                      voice: voice, createdAt: now, updatedAt: now)
    }

    @Test func aVerbCellCarriesEveryFormThatDiffersWithItsClipAndAPronounItsPerson() throws {
        let symbols = [Self.symbol(1, "eu"), Self.symbol(2, "querer"), Self.symbol(3, "bola"), Self.symbol(4, "Bonito"),
                       Self.symbol(5, "sim"), Self.symbol(6, "vull", voice: "ca")]
        let forms = Dictionary(uniqueKeysWithValues: symbols.compactMap { symbol in
            WordLexicon.lookup(symbol.spokenText, language: symbol.voice).map { (symbol.id!, $0) }
        })
        let words = BoardWords.words(for: symbols, forms: forms, fallback: .ptBR)
        #expect(words[5] == nil, "a word without grammar says itself")
        #expect(words[1]?.word == BoardWord(c: "pronoun", p: 1, n: "s", g: nil, f: [:]))
        #expect(words[3]?.word == BoardWord(c: "noun", p: 3, n: "s", g: "f", f: [:]))
        let querer = try #require(words[2])
        #expect(querer.word.c == "verb")
        #expect(querer.word.f["inf"] == nil, "the infinitive is the symbol's own clip")
        #expect(querer.word.f["1s"] == ["quero", BoardWords.Clip(text: "quero", voice: "pt-br").url])
        #expect(querer.word.f["3s"]?.first == "quer")
        #expect(querer.clips.count == 6)
        #expect(querer.word.f["1s"]?[1].hasPrefix("/media/audio/") == true)
        #expect(words[4]?.word.f["fs"]?.first == "Bonita", "the label keeps the symbol's capital")
        let vull = try #require(words[6])
        #expect(vull.word.f["3s"] == ["vol", BoardWords.Clip(text: "vol", voice: "ca").url], "in the symbol's own voice")
        #expect(vull.word.f["inf"]?.first == "voler")
        #expect(querer.word.json.contains(#""1s":["quero","/media/audio/"#))
    }

    @Test func theStripIsLoggedAsItWasSaid() {
        let symbols = [Self.symbol(1, "eu"), Self.symbol(2, "querer"), Self.symbol(3, "comer"), Self.symbol(4, "mamãe"),
                       Self.symbol(5, "bola"), Self.symbol(6, "bonito")]
        let forms = Dictionary(uniqueKeysWithValues: symbols.compactMap { symbol in
            WordLexicon.lookup(symbol.spokenText, language: symbol.voice).map { (symbol.id!, $0) }
        })
        func said(_ ids: [Int]) -> String { BoardWords.spokenText(ids.map { symbols[$0 - 1] }, forms: forms) }
        #expect(said([1, 2, 3]) == "eu quero comer")
        #expect(said([4, 2, 3]) == "mamãe quer comer")
        #expect(said([2, 3]) == "quero comer", "no subject: the child speaks of themself")
        #expect(said([4, 2, 5, 6]) == "mamãe quer bola bonita")
    }

    // MARK: - Over HTTP: the board and the strip's log

    func plan(_ test: TestApp, patient: String, named name: String) throws -> Plan {
        let id = try test.id(of: patient)
        return try test.read { try Plan.filter(Column("patientId") == id && Column("name") == name).fetchOne($0)! }
    }

    @Test func theChildsBoardOffersTheAgreeingFormsAndTheStripLogsThem() async throws {
        let test = try await TestApp()
        let board = try plan(test, patient: "Carla Costa", named: "Meu dia")
        let (eu, querer, mamae, comer) = try test.read { db in
            let ids = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT s.name, s.id FROM planCell c JOIN symbol s ON s.id = c.symbolId WHERE c.planId = ?
                """, arguments: [board.id]).map { ($0["name"] as String, $0["id"] as Int64) })
            return (ids["eu"]!, ids["querer"]!, ids["mamãe"]!, ids["comer"]!)
        }
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [("plan", "\(board.id!)")])
        let started = ContinuousClock.now
        let page = try bruno.get("/play/\(board.id!)")
        print("board 'Meu dia' first shown (its form clips made if missing) in \(ContinuousClock.now - started)")
        #expect(page.status == 200)
        let cell = try #require(page.text.split(separator: "\n").first { $0.contains(#"data-label="querer""#) }, "the cell of 'querer'")
        #expect(cell.contains("data-word=") && cell.contains("quero") && cell.contains(SpeechAudio.fileName(text: "quero", voice: "pt-br")),
                "the cell of 'querer' carries 'quero' and its clip")
        #expect(test.app.speech.existing(text: "quero", voice: "pt-br") != nil, "the form's clip is made before the board is shown")
        #expect(test.app.speech.existing(text: "quer", voice: "pt-br") != nil)
        let again = ContinuousClock.now
        #expect(try bruno.get("/play/\(board.id!)").status == 200)
        print("board 'Meu dia' shown again in \(ContinuousClock.now - again)")

        func strip(_ key: String, _ ids: [Int64]) throws -> Int {
            try bruno.client.postForm("/taps", [("key", key), ("symbols", ids.map(String.init).joined(separator: ",")), ("plan", "\(board.id!)")],
                                      headers: bruno.cookieHeader + [("X-CSRF-Token", bruno.csrf)]).status
        }
        #expect(try strip("agree-strip-0001", [eu, querer, comer]) == 204)
        #expect(try strip("agree-strip-0002", [mamae, querer]) == 204)
        let logged = try test.read { try Row.fetchAll($0, sql: "SELECT key, text, symbolIds FROM sentence WHERE key LIKE 'agree-strip-%' ORDER BY key") }
        #expect(logged.map { $0["text"] as String } == ["eu quero comer", "mamãe quer"])
        #expect(logged.first?["symbolIds"] == "\(eu),\(querer),\(comer)", "the symbols are logged, not the forms")
    }

    // MARK: - Imported colours

    @Test func aColourIsKeptAsWrittenAndShownThroughThePalette() {
        #expect(CellColours.kept(" rgb( 255, 0,  0) ") == "rgb( 255, 0,  0)")
        #expect(CellColours.kept("rgba(0, 0, 0, 0.1)") == "rgba(0, 0, 0, 0.1)")
        #expect(CellColours.kept("blue") == "blue", "a named colour is a colour the format allows")
        #expect(CellColours.paletteCode("blue") == "00f")
        #expect(CellColours.kept("bluish") == nil)
        #expect(CellColours.kept("url(javascript:x)") == nil)
        #expect(CellColours.kept(String(repeating: " ", count: 3)) == nil)
        #expect(CellColours.paletteCode("rgb(255,156,248)") == "f9f")
        #expect(CellColours.paletteCode("#444") == "333")
        #expect(CellColours.paletteCode("rgba(0, 255, 0, 0.5)") == "9f9", "laid over white")
        #expect(CellColours.classes(background: "rgb(255, 255, 170)", border: "#000") == "bg-ff9 bd-000")
        #expect(CellColours.classes(background: nil, border: nil) == "")
    }

    /// Placed buttons with a colour the importer keeps, counted from the file itself.
    static func colouredButtons(_ file: String) throws -> (buttons: Int, coloured: Int) {
        var buttons = 0, coloured = 0
        for board in try OBFSampleTests.boards(in: OBFSampleTests.samples + "/" + file) {
            let byID = Dictionary((board["buttons"] as? [[String: Any]] ?? []).compactMap { item in
                OBFSampleTests.text(item["id"]).map { ($0, item) }
            }, uniquingKeysWith: { first, _ in first })
            let order = ((board["grid"] as? [String: Any])?["order"] as? [[Any]]) ?? []
            for button in order.flatMap({ $0 }).compactMap({ OBFSampleTests.text($0).flatMap { byID[$0] } }) {
                buttons += 1
                if [button["background_color"], button["border_color"]].contains(where: { RGB(css: ($0 as? String) ?? "") != nil }) {
                    coloured += 1
                }
            }
        }
        return (buttons, coloured)
    }

    /// Every sample file, read as the import reads it: each coloured button keeps its colours.
    @Test(arguments: OBFSampleTests.files)
    func eachSampleKeepsTheColoursOfEveryColouredButton(_ file: String) throws {
        let boards = try OBFReader.read(file: OBFSampleTests.samples + "/" + file, name: file)
        let kept = boards.flatMap(\.cells).compactMap { $0 }.filter { $0.backgroundText != nil || $0.borderText != nil }
        let expected = try Self.colouredButtons(file)
        print("OBF sample \(file): \(expected.coloured) of \(expected.buttons) placed buttons coloured, \(kept.count) kept")
        #expect(kept.count == expected.coloured)
        if file == "pageset.obz" { #expect(expected.coloured == 1007) }
    }

    // The round trip through the pages for the small files (the big ones' imports are timed by OBFSampleTests,
    // which a second import of them alongside would only slow down).
    @Test(arguments: ["inline_images.obf", "foreign.obf", "path_images.obz"])
    func anImportedSetKeepsItsColoursOnTheBoardAndBackInItsExport(_ file: String) async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let response = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [], files: [
            (field: "file", filename: file, contentType: "application/octet-stream",
             content: [UInt8](try Data(contentsOf: URL(fileURLWithPath: OBFSampleTests.samples + "/" + file)))),
        ])
        #expect(response.status == 303, "\(file): \(response.text.prefix(300))")
        let location = try #require(response.header("Location"))
        let importId = try #require(location.firstMatch(of: /(\d+)$/).flatMap { Int64($0.1) })
        let (root, coloured) = try test.read { db in
            (try Int64.fetchOne(db, sql: "SELECT rootPlanId FROM obfImport WHERE id = ?", arguments: [importId])!,
             try Int.fetchOne(db, sql: """
                SELECT count(*) FROM planCell c JOIN obfImportBoard b ON b.planId = c.planId
                WHERE b.importId = ? AND (c.backgroundColour IS NOT NULL OR c.borderColour IS NOT NULL)
                """, arguments: [importId])!)
        }
        let expected = try Self.colouredButtons(file)
        print("OBF sample \(file): \(coloured) coloured cells imported, \(expected.coloured) of \(expected.buttons) buttons coloured in the file")
        #expect(coloured == expected.coloured)

        // The file's colours, by label, against the export of the imported root board.
        let original = try OBFSampleTests.boards(in: OBFSampleTests.samples + "/" + file)[0]
        let exported = try OBFSampleTests.object(Data(try ana.get("/plans/\(root)/export.obf").body))
        func colours(_ board: [String: Any]) -> [String: [String?]] {
            Dictionary((board["buttons"] as? [[String: Any]] ?? []).compactMap { button -> (String, [String?])? in
                guard let label = button["label"] as? String else { return nil }
                return (label, [CellColours.kept(button["background_color"] as? String), CellColours.kept(button["border_color"] as? String)])
            }, uniquingKeysWith: { first, _ in first })
        }
        let before = colours(original), after = colours(exported)
        for (label, pair) in before where after[label] != nil {
            if let background = pair[0] { #expect(after[label]?[0] == background, "\(file) '\(label)' background") }
            if let border = pair[1] { #expect(after[label]?[1] == border, "\(file) '\(label)' border") }
        }
        #expect(before.isEmpty || !after.isEmpty)

        // The child's board and the editor paint them.
        if expected.coloured > 0 {
            let editor = try ana.get("/plans/\(root)/edit")
            #expect(editor.text.contains(" bg-") || editor.text.contains(" bd-"), "\(file): the editor shows the colours")
        }
    }
}
