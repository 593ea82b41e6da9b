import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The plan, sentence-plan and symbol stores, against the test app's real database (demo clinic),
/// and the pure rules their handlers read requests with.
@Suite struct AACEditStoreTests {
    static func audit(_ test: TestApp, actor: Int64) -> AuditContext {
        AuditContext(actorId: actor, actorName: "Ana Souza", clientAddress: "127.0.0.1", now: test.clock.now)
    }

    static func auditRows(_ test: TestApp, entity: String, id: Int64?) throws -> [Row] {
        try test.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM auditEntry WHERE entity = ? AND entityId IS ? ORDER BY id", arguments: [entity, id])
        }
    }

    static func ana(_ test: TestApp) throws -> Actor {
        let id = try test.id(of: "ana")
        return try test.read { db in Actor(user: try User.fetchOne(db, key: id)!) }
    }

    // MARK: - Plans

    @Test func aPlanIsCreatedWithItsAuditRow() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test), carla = try test.id(of: "Carla Costa")
        let plan = Plan(patientId: carla, clinicianId: ana.userId, name: "Parque", description: "", startsOn: "2026-11-01",
                        type: "board", rows: 2, columns: 3, createdAt: test.clock.now, updatedAt: test.clock.now)
        let id = try test.write { db in try Plans.create(plan, audit: Self.audit(test, actor: ana.userId), db) }
        let saved = try #require(try test.read { db in try Plan.fetchOne(db, key: id) })
        #expect(saved.name == "Parque" && saved.cellCount == 6)
        let audit = try Self.auditRows(test, entity: "plan", id: id)
        #expect(audit.count == 1)
        #expect(audit.first?["action"] == "create" && audit.first?["summary"] == "Parque")
    }

    @Test func aBoardIsReadWithEveryCellItsSymbolColourLinkAndOwnColours() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        try test.write { db in
            // Every column of a symbol different from the others, so a column read from the wrong place shows.
            try db.execute(sql: "UPDATE symbol SET spokenText = 'dito ' || name, voice = 'pt-br', imagePath = 'images/x.png'")
            try db.execute(sql: "UPDATE planCell SET backgroundColour = '#ffeeaa', borderColour = '#112233' WHERE position = 0")
        }
        let (screens, expected) = try test.read { db in
            let plans = try Plan.filter(Column("patientId") == carla && Column("type") == "board").fetchAll(db)
            let screens = try plans.map { try BoardScreen.fetch($0, db) }
            // What each cell must be, read the plain way: its row, its symbol by key, its category, its link.
            let expected = try screens.map { screen in
                try screen.cells.map { cell -> String in
                    let stored = try Row.fetchOne(db, sql: "SELECT * FROM planCell WHERE planId = ? AND position = ?",
                                                  arguments: [screen.plan.id, cell.position])
                    let symbol = try (stored?["symbolId"] as Int64?).flatMap { try Symbol.fetchOne(db, key: $0) }
                    let colour = try symbol.flatMap { try Category.fetchOne(db, key: $0.categoryId)?.categoryColour } ?? .white
                    let link = try (stored?["linkPlanId"] as Int64?).flatMap { try Plan.fetchOne(db, key: $0)?.name }
                    return "\(String(describing: symbol)) \(colour) \(link ?? "-") \(stored?["backgroundColour"] ?? "-") \(stored?["borderColour"] ?? "-")"
                }
            }
            return (screens, expected)
        }
        let cells = screens.flatMap(\.cells)
        #expect(cells.contains { $0.symbol == nil } && cells.contains { $0.link != nil } && cells.contains { $0.background != nil })
        for (screen, expected) in zip(screens, expected) {
            #expect(screen.cells.map(\.position) == Array(0..<screen.plan.cellCount))
            let read = screen.cells.map { "\(String(describing: $0.symbol)) \($0.colour) \($0.link?.name ?? "-") \($0.background ?? "-") \($0.border ?? "-")" }
            #expect(read == expected, "\(screen.plan.name)")
        }
    }

    @Test func aCellTakesASymbolMovesBySwappingAndClears() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test), carla = try test.id(of: "Carla Costa")
        let (planId, symbols) = try test.write { db -> (Int64, [Int64]) in
            var plan = Plan(patientId: carla, clinicianId: ana.userId, name: "Teste", description: "", startsOn: "2026-11-01",
                            type: "board", rows: 2, columns: 2, createdAt: test.clock.now, updatedAt: test.clock.now)
            try plan.insert(db)
            let symbols = try Int64.fetchAll(db, sql: "SELECT id FROM symbol WHERE clinicianId = ? AND patientId IS NULL ORDER BY id LIMIT 2",
                                             arguments: [ana.userId])
            return (plan.id!, symbols)
        }
        let audit = Self.audit(test, actor: ana.userId)
        func cells() throws -> [Int: Int64?] {
            try test.read { db in
                Dictionary(uniqueKeysWithValues: try PlanCell.filter(Column("planId") == planId).fetchAll(db).map { ($0.position, $0.symbolId) })
            }
        }
        _ = try test.write { db in try Plans.setCell(planId: planId, position: 0, .symbol(symbols[0]), by: ana, audit: audit, db) }
        _ = try test.write { db in try Plans.setCell(planId: planId, position: 3, .symbol(symbols[1]), by: ana, audit: audit, db) }
        let moved = try test.write { db in try Plans.setCell(planId: planId, position: 0, .move(to: 3), by: ana, audit: audit, db) }
        #expect(moved.select == 3, "the editor selects where the cell went")
        #expect(try cells()[0] == symbols[1] && cells()[3] == symbols[0], "a move swaps, so nothing is lost")
        _ = try test.write { db in try Plans.setCell(planId: planId, position: 3, .clear, by: ana, audit: audit, db) }
        #expect(try cells()[3] == .some(nil))
        #expect(try Self.auditRows(test, entity: "plan", id: planId).map { $0["summary"] as String } == ["cell 0", "cell 3", "cell 0", "cell 3"])
    }

    @Test func aCellRefusesWhatIsNotTheClinicians() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test), carla = try test.id(of: "Carla Costa")
        let planId = try test.write { db -> Int64 in
            var plan = Plan(patientId: carla, clinicianId: ana.userId, name: "Teste", description: "", startsOn: "2026-11-01",
                            type: "board", rows: 1, columns: 2, createdAt: test.clock.now, updatedAt: test.clock.now)
            try plan.insert(db)
            return plan.id!
        }
        // Another clinician's symbol, a position outside the grid, a move onto itself, a form without a change.
        let nadia = try test.id(of: "nadia")
        let nadiaSymbol = try test.write { db -> Int64 in
            var symbol = Symbol(clinicianId: nadia, categoryId: try Int64.fetchOne(db, sql: "SELECT id FROM category LIMIT 1")!,
                                name: "alheio", spokenText: "alheio", pictogram: "1F600", audioKind: "generated",
                                createdAt: test.clock.now, updatedAt: test.clock.now)
            try symbol.insert(db)
            return symbol.id!
        }
        let audit = Self.audit(test, actor: ana.userId)
        let refusals: [(Int, Plans.CellChange?, AppError)] = [
            (0, .symbol(nadiaSymbol), .notFound), (2, .clear, .notFound), (1, .move(to: 1), .badRequest), (0, nil, .badRequest),
            (0, .link(planId), .notFound),
        ]
        for (position, change, expected) in refusals {
            #expect(throws: expected) {
                try test.write { db in try Plans.setCell(planId: planId, position: position, change, by: ana, audit: audit, db) }
            }
        }
        #expect(try test.read { db in try PlanCell.filter(Column("planId") == planId).fetchCount(db) } == 0)
        #expect(try Self.auditRows(test, entity: "plan", id: planId).isEmpty)
    }

    @Test func printingAPlanIsAuditedAsAnExport() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test), carla = try test.id(of: "Carla Costa")
        let planId = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? LIMIT 1", arguments: [carla]) })
        let plan = try test.write { db in try Plans.recordPrint(planId: planId, visibleTo: ana, audit: Self.audit(test, actor: ana.userId), db) }
        #expect(plan.id == planId)
        let rows = try Self.auditRows(test, entity: "patient", id: carla).filter { $0["action"] == "export" }
        #expect(rows.count == 1 && (rows.first?["summary"] as String?)?.hasPrefix("print plan \(planId)") == true)
        // A tutor who does not care for the patient: a 404, and no audit row.
        let beatrizId = try test.id(of: "beatriz")
        let beatriz = try test.read { db in Actor(user: try User.fetchOne(db, key: beatrizId)!) }
        #expect(throws: AppError.notFound) {
            try test.write { db in try Plans.recordPrint(planId: planId, visibleTo: beatriz, audit: Self.audit(test, actor: beatriz.userId), db) }
        }
        #expect(try Self.auditRows(test, entity: "patient", id: carla).filter { $0["action"] == "export" }.count == 1)
    }

    // MARK: - Sentence plans

    @Test func aWordIsAddedOnceAndLinksOnlyToTheNextRole() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test), carla = try test.id(of: "Carla Costa")
        let (planId, symbols) = try test.write { db -> (Int64, [Int64]) in
            var plan = Plan(patientId: carla, clinicianId: ana.userId, name: "Frases", description: "", startsOn: "2026-11-01",
                            type: "sentence", rows: 1, columns: 1, createdAt: test.clock.now, updatedAt: test.clock.now)
            try plan.insert(db)
            return (plan.id!, try Int64.fetchAll(db, sql: "SELECT id FROM symbol WHERE clinicianId = ? AND patientId IS NULL ORDER BY id LIMIT 3",
                                                 arguments: [ana.userId]))
        }
        let audit = Self.audit(test, actor: ana.userId)
        for _ in 0..<2 {
            _ = try test.write { db in try SentencePlans.addWord(planId: planId, symbolId: symbols[0], role: .subject, by: ana, audit: audit, db) }
        }
        _ = try test.write { db in try SentencePlans.addWord(planId: planId, symbolId: symbols[1], role: .verb, by: ana, audit: audit, db) }
        _ = try test.write { db in try SentencePlans.addWord(planId: planId, symbolId: symbols[2], role: .complement, by: ana, audit: audit, db) }
        let words = try test.read { db in try SentenceWord.filter(Column("planId") == planId).order(Column("id")).fetchAll(db) }
        #expect(words.map(\.role) == [.subject, .verb, .complement], "the same symbol twice in a role is one word")
        let (subject, verb, complement) = (words[0].id!, words[1].id!, words[2].id!)
        _ = try test.write { db in try SentencePlans.setLinks(planId: planId, wordId: subject, to: [verb], by: ana, audit: audit, db) }
        // A subject may not lead to a complement: refused, and the links stay as they were.
        #expect(throws: AppError.badRequest) {
            try test.write { db in try SentencePlans.setLinks(planId: planId, wordId: subject, to: [complement], by: ana, audit: audit, db) }
        }
        #expect(throws: AppError.badRequest) {
            try test.write { db in try SentencePlans.setShortcut(planId: planId, wordId: subject, true, by: ana, audit: audit, db) }
        }
        #expect(try test.read { db in try SentenceGrammar.fetch(planId: planId, db).next } == [subject: [verb]])
        let removed = try test.write { db in try SentencePlans.removeWord(planId: planId, wordId: verb, by: ana, audit: audit, db) }
        #expect(removed.role == .verb)
        #expect(try test.read { db in try SentenceGrammar.fetch(planId: planId, db).next }.isEmpty, "its links went with it")
        let summaries = try Self.auditRows(test, entity: "plan", id: planId).map { $0["summary"] as String }
        #expect(summaries.count == 6)
        #expect(summaries.last == "remove word \(verb)")
    }

    @Test func aBoardIsNoSentencePlan() async throws {
        let test = try await TestApp()
        let ana = try Self.ana(test)
        let board = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE type = 'board' LIMIT 1") })
        let symbol = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM symbol WHERE clinicianId = ?", arguments: [ana.userId]) })
        #expect(throws: AppError.notFound) {
            try test.write { db in
                try SentencePlans.addWord(planId: board, symbolId: symbol, role: .subject, by: ana, audit: Self.audit(test, actor: ana.userId), db)
            }
        }
    }

    // MARK: - Symbols and categories

    @Test func aSymbolIsSavedWithItsClipAndItsDefaultCategoryCreated() async throws {
        let test = try await TestApp(seedDemo: false)
        let ana = try test.write { db -> Actor in
            var user = User(username: "ana", displayName: "Ana", role: .clinician, specialties: User.specialtiesText([.speech]),
                            createdAt: test.clock.now, updatedAt: test.clock.now)
            try user.insert(db)
            return Actor(user: user)
        }
        let t = test.app.catalogues.translator(for: .ptBR)
        var form = FormState(values: ["name": "bola", "spokenText": "", "categoryId": "default-4", "pictogram": "1F3C0", "voice": "pt-BR"])
        let saved = try test.write { db -> Symbol in
            let input = try #require(try SymbolInput.read(&form, actor: ana, existing: nil, library: test.app.pictograms, t, db))
            return try Symbols.save(input, existing: nil, media: SymbolMedia(generatedClip: "clip.mp3"), useGeneratedVoice: false,
                                    audit: Self.audit(test, actor: ana.userId), t, db)
        }
        #expect(saved.spokenText == "bola" && saved.audioFile == "clip.mp3" && saved.audioKind == "generated")
        let categories = try test.read { db in try Category.forClinicianReadOnly(ana.userId, db) }
        #expect(categories.count == Category.defaults.count, "choosing a default creates the defaults")
        #expect(categories.first { $0.id == saved.categoryId }?.name == t[Category.defaults[4].key])
        #expect(try Self.auditRows(test, entity: "symbol", id: saved.id).map { $0["action"] as String } == ["create"])

        // A recording speaks for it from then on; a later edit keeps it unless the clinician gives it up.
        var recorded = saved
        let withRecording = try test.write { db -> Symbol in
            var form = FormState(values: ["name": "bola", "categoryId": "\(saved.categoryId)", "pictogram": "1F3C0", "voice": "pt-BR"])
            let input = try #require(try SymbolInput.read(&form, actor: ana, existing: saved, library: test.app.pictograms, t, db))
            recorded = try Symbols.save(input, existing: saved, media: SymbolMedia(recording: "rec-1.mp3", generatedClip: nil),
                                        useGeneratedVoice: false, audit: Self.audit(test, actor: ana.userId), t, db)
            return recorded
        }
        #expect(withRecording.audioKind == "uploaded" && withRecording.audioFile == "rec-1.mp3")
        let kept = try test.write { db -> Symbol in
            var form = FormState(values: ["name": "bola!", "categoryId": "\(saved.categoryId)", "pictogram": "1F3C0", "voice": "pt-BR"])
            let input = try #require(try SymbolInput.read(&form, actor: ana, existing: recorded, library: test.app.pictograms, t, db))
            return try Symbols.save(input, existing: recorded, media: SymbolMedia(generatedClip: "other.mp3"), useGeneratedVoice: false,
                                    audit: Self.audit(test, actor: ana.userId), t, db)
        }
        #expect(kept.audioFile == "rec-1.mp3", "an edit does not drop the recording")
        let unchanged = Symbols.unused(before: recorded, after: kept)
        #expect(unchanged.image == nil && unchanged.recording == nil)
        let given = Symbol(id: kept.id, clinicianId: kept.clinicianId, categoryId: kept.categoryId, name: "bola", spokenText: "bola",
                           pictogram: "1F3C0", audioFile: "new.mp3", audioKind: "generated", createdAt: kept.createdAt, updatedAt: kept.updatedAt)
        #expect(Symbols.unused(before: kept, after: given).recording == "rec-1.mp3", "a given-up recording is nobody's")
        #expect(try Self.auditRows(test, entity: "symbol", id: saved.id).count == 3)
    }

    @Test func aCategoryGoesAfterTheOthers() async throws {
        let test = try await TestApp()
        let ana = try test.id(of: "ana")
        let before = try test.read { db in try Category.forClinicianReadOnly(ana, db) }
        let category = try test.write { db in
            try Categories.create(clinicianId: ana, name: "Escola", colour: .teal, audit: Self.audit(test, actor: ana), db)
        }
        #expect(category.position == (before.map(\.position).max() ?? 0) + 1)
        #expect(try test.read { db in try Category.forClinicianReadOnly(ana, db) }.last?.name == "Escola")
        #expect(try Self.auditRows(test, entity: "category", id: category.id).map { $0["summary"] as String } == ["Escola"])
    }

    // MARK: - Over HTTP: uploads made before the write

    @Test func aRefusedSymbolKeepsNoPictureItBrought() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let images = test.app.configuration.mediaDirectory + "/images"
        func stored() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: images)) ?? []) }
        let before = stored()
        let picture = [(field: "image", filename: "foto.png", contentType: "image/png", content: PhotoTests.png)]
        let category = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM category") })
        // A careless clinician: no name. The form comes back with what was typed, and the picture is not kept.
        let refused = try ana.postMultipart("/symbols", fields: [("name", ""), ("spokenText", "bola azul"), ("categoryId", "\(category)"),
                                                                 ("scope", ""), ("voice", "pt-BR")], files: picture)
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"value="bola azul""#))
        #expect(stored() == before)
        // An old bookmark, or an attacker: a symbol that is not there. A 404, and nothing kept.
        let missing = try ana.postMultipart("/symbols/999999", fields: [("name", "bola"), ("categoryId", "\(category)"), ("scope", ""),
                                                                        ("voice", "pt-BR")], files: picture)
        #expect(missing.status == 404)
        #expect(stored() == before)
        // The same picture with a name is kept, and the symbol shows it through the image route.
        let saved = try ana.postMultipart("/symbols", fields: [("name", "bola azul"), ("categoryId", "\(category)"), ("scope", ""),
                                                               ("voice", "pt-BR")], files: picture)
        #expect(saved.status == 303)
        let added = stored().subtracting(before)
        #expect(added.count == 1)
        let symbol = try #require(try test.read { try Symbol.filter(Column("name") == "bola azul").fetchOne($0) })
        #expect(symbol.imageURL == PlanEndpoints.image.path(try #require(added.first)))
        #expect(try ana.get(symbol.imageURL).status == 200)
    }

    /// A chosen sound file of 0 bytes was silently replaced by the generated clip (issue 49): now the form
    /// says so, keeps what was typed, and no symbol is stored.
    @Test func anEmptySoundFileIsNamedNotReplacedSilently() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let category = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT min(id) FROM category") })
        let before = try test.read { try Symbol.fetchCount($0) }
        let refused = try ana.postMultipart("/symbols", fields: [("name", "bola azul"), ("spokenText", "bola azul"), ("categoryId", "\(category)"),
                                                                 ("scope", ""), ("voice", "pt-BR")],
                                            files: [(field: "audio", filename: "gravacao.webm", contentType: "audio/webm", content: [])])
        #expect(refused.status == 422)
        #expect(refused.text.contains("0 bytes") && refused.text.contains(#"value="bola azul""#))
        #expect(try test.read { try Symbol.fetchCount($0) } == before)
    }

    @Test func theEditorPrintsItsLinksFromTheEndpoints() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let board = try #require(try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'board' ORDER BY id LIMIT 1",
                                                                   arguments: [carla]) })
        let page = try ana.get(PlanEndpoints.editor.path(board, query: ["cell": "0"]))
        #expect(page.status == 200)
        for link in [PlanEndpoints.printView.path(board), OBFEndpoints.exportPackage.path(board), PlanEndpoints.list.path(carla),
                     PlanEndpoints.setCell.path(board, 0), OBFEndpoints.exportBoard.path(board)] {
            #expect(page.text.contains("\"\(link)\""), "\(link)")
        }
        // A second tab moved on: a cell past the grid is a 404 and changes nothing.
        #expect(try ana.post(PlanEndpoints.setCell.path(board, 999), [("clear", "1")]).status == 404)
    }

    // MARK: - Pure rules

    @Test func aCellsFormNamesOneChange() {
        #expect(Plans.CellChange.read(Parameters([("clear", "1"), ("symbol", "4")])) == .clear)
        #expect(Plans.CellChange.read(Parameters([("symbol", "4")])) == .symbol(4))
        #expect(Plans.CellChange.read(Parameters([("link", "9")])) == .link(9))
        #expect(Plans.CellChange.read(Parameters([("moveTo", "2")])) == .move(to: 2))
        #expect(Plans.CellChange.read(Parameters([("symbol", "x")])) == nil)
        #expect(Plans.CellChange.read(Parameters([])) == nil)
    }

    @Test func aTimerRunHasItsOwnAddress() {
        #expect(TimerRequest.runPath(symbolId: 7, seconds: 3900, at: 100) == "/timer?start=1&symbol=7&hours=1&minutes=5&at=100")
        #expect(TimerRequest.isRun(Parameters([("start", "1"), ("at", "100")])))
        #expect(!TimerRequest.isRun(Parameters([("start", "1")])), "the form's first step needs no clip made")
        #expect(!TimerRequest.isRun(Parameters([("start", "1"), ("at", "soon")])))
    }

    @Test func aSymbolSaysItsSpokenTextOrElseItsName() {
        #expect(SymbolInput.spokenText(FormState(values: ["name": " bola ", "voice": "es"]))! == ("bola", .es))
        #expect(SymbolInput.spokenText(FormState(values: ["name": "bola", "spokenText": "a bola", "voice": "xx"]))! == ("a bola", .ptBR))
        #expect(SymbolInput.spokenText(FormState(values: ["name": "  "])) == nil)
    }
}
