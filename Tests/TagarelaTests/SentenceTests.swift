import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Sentence plans: the pure rules, then the editor, the builder page and the sentence log over HTTP.
@Suite struct SentenceTests {
    // MARK: - Rules

    /// eu, você → quero (shortcut), estou (shortcut), terminei; quero → brincar, comer; estou → feliz.
    static let grammar: SentenceGrammar = {
        let words: [(Int64, SentenceWord.Role, Bool, String)] = [
            (1, .subject, false, "eu"), (2, .subject, false, "você"), (3, .verb, true, "quero"), (4, .verb, true, "estou"),
            (5, .verb, false, "terminei"), (6, .complement, false, "brincar"), (7, .complement, false, "comer"),
            (8, .complement, false, "feliz"),
        ]
        let now = Date(timeIntervalSince1970: 0)
        return SentenceGrammar(
            words: words.map { id, role, shortcut, text in
                SentenceGrammar.Word(id: id, role: role, isShortcut: shortcut, symbol: Symbol(
                    id: id * 10, clinicianId: 1, categoryId: 1, name: text, spokenText: text, pictogram: "1F600",
                    audioKind: "generated", createdAt: now, updatedAt: now), colour: .white)
            },
            next: [1: [3, 4, 5], 2: [3], 3: [6, 7], 4: [8]])
    }()

    @Test func aSentenceOpensWithASubjectOrAShortcutVerb() {
        #expect(SentenceRules.openers(Self.grammar) == [1, 2, 3, 4])
        #expect(SentenceRules.step(after: [], in: Self.grammar) == .choose([1, 2, 3, 4]))
        #expect(SentenceRules.step(after: [5], in: Self.grammar) == nil, "terminei is no shortcut")
        #expect(SentenceRules.step(after: [6], in: Self.grammar) == nil, "a complement cannot open")
    }

    @Test func eachStepOffersOnlyWhatTheWordBeforeAllows() {
        #expect(SentenceRules.step(after: [1], in: Self.grammar) == .choose([3, 4, 5]))
        #expect(SentenceRules.step(after: [2], in: Self.grammar) == .choose([3]))
        #expect(SentenceRules.step(after: [2, 4], in: Self.grammar) == nil, "você does not allow estou")
        #expect(SentenceRules.step(after: [1, 3], in: Self.grammar) == .choose([6, 7]))
        #expect(SentenceRules.step(after: [1, 4, 6], in: Self.grammar) == nil, "estou does not allow brincar")
        #expect(SentenceRules.step(after: [1, 3, 6], in: Self.grammar) == .done)
        #expect(SentenceRules.step(after: [1, 3, 6, 7], in: Self.grammar) == nil)
        #expect(SentenceRules.step(after: [3], in: Self.grammar) == .choose([6, 7]), "Quero… goes straight to what is wanted")
        #expect(SentenceRules.step(after: [99], in: Self.grammar) == nil)
    }

    @Test func theComplementStepIsSkippedWhenTheVerbHasNone() {
        #expect(SentenceRules.step(after: [1, 5], in: Self.grammar) == .done)
    }

    @Test(arguments: [
        ([("eu", SentenceWord.Role.subject), ("quero", .verb), ("brincar", .complement)], false, false, AppLocale.ptBR, "Eu quero brincar"),
        ([("eu", .subject), ("quero", .verb), ("brincar", .complement)], true, false, .ptBR, "Eu não quero brincar"),
        ([("eu", .subject), ("quero", .verb), ("brincar", .complement)], false, true, .ptBR, "Eu quero brincar?"),
        ([("quero", .verb), ("água", .complement)], true, false, .ptBR, "Não quero água"),
        ([("yo", .subject), ("quiero", .verb), ("comer", .complement)], true, true, .es, "¿Yo no quiero comer?"),
        ([("yo", .subject), ("quiero", .verb), ("comer", .complement)], false, true, .es, "¿Yo quiero comer?"),
        ([("estoy", .verb), ("contento", .complement)], true, false, .es, "No estoy contento"),
        ([("jo", .subject), ("vull", .verb), ("jugar", .complement)], true, false, .ca, "Jo no vull jugar"),
        ([("eu", .subject)], true, false, .ptBR, "Eu"),
    ])
    func theNoAndQuestionForms(_ words: [(String, SentenceWord.Role)], _ negated: Bool, _ question: Bool, _ locale: AppLocale,
                               _ expected: String) {
        #expect(SentenceRules.text(words.map { ($0.1, $0.0) }, negated: negated, question: question, locale: locale) == expected)
    }

    // MARK: - Over HTTP

    func carlasSentencePlan(_ test: TestApp) throws -> Int64 {
        let carla = try test.id(of: "Carla Costa")
        return try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [carla])! }
    }

    func word(_ text: String, plan: Int64, _ test: TestApp) throws -> Int64 {
        try test.read {
            try Int64.fetchOne($0, sql: """
                SELECT sentenceWord.id FROM sentenceWord JOIN symbol ON symbol.id = sentenceWord.symbolId
                WHERE sentenceWord.planId = ? AND symbol.name = ?
                """, arguments: [plan, text])!
        }
    }


    @Test func theBuilderShowsTheOpenersFirstWithEveryWordReady() async throws {
        let test = try await TestApp()
        let plan = try carlasSentencePlan(test)
        let page = try test.patientMode(of: "Carla Costa", openedBy: "bruno").get("/play/\(plan)")
        #expect(page.status == 200)
        let eu = try word("eu", plan: plan, test), quero = try word("quero", plan: plan, test)
        let brincar = try word("brincar", plan: plan, test)
        #expect(page.text.contains(#"data-word="\#(eu)" data-role="subject""#))
        #expect(page.text.firstMatch(of: try Regex(#"data-word="\#(brincar)"[^>]* hidden>"#)) != nil, "complements wait their turn")
        #expect(page.text.firstMatch(of: try Regex(#"data-word="\#(quero)"[^>]*data-next="[0-9 ]+"(?: data-forms="[^"]*")?>"#)) != nil, "a shortcut opens")
        #expect(page.text.contains(#"data-negation-audio="/media/audio/"#), "the NO word has its clip")
        #expect(page.text.contains("sentence-player.js"))
    }

    @Test func aSpokenSentenceIsLoggedOnceAndItsWholeClipIsMade() async throws {
        let test = try await TestApp()
        let plan = try carlasSentencePlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let words = try ["eu", "quero", "brincar"].map { try word($0, plan: plan, test) }.map(String.init).joined(separator: ",")

        let fields = [("key", "sentence-key-0001"), ("plan", "\(plan)"), ("words", words), ("negated", "0"), ("question", "1")]
        let said = try carla.post("/taps", fields)
        #expect(said.status == 200)
        #expect(said.header("Content-Type") == "application/json")
        let clip = try #require(said.text.firstMatch(of: /"clip":"(\/media\/audio\/[0-9a-f]{32}\.mp3)"/)?.1)
        #expect(try carla.get(String(clip)).status == 200)
        #expect(try carla.post("/taps", fields).status == 200, "a resent sentence is accepted…")

        let logged = try test.read { try Row.fetchAll($0, sql: "SELECT * FROM sentence WHERE key = 'sentence-key-0001'") }
        #expect(logged.count == 1, "…and stored once")
        #expect(logged.first?["text"] == "Eu quero brincar?")
        #expect(logged.first?["wordIds"] == words)
        #expect(logged.first?["assistedBy"] == (try test.id(of: "Bruno Costa")))

        let after = try carla.get("/play/\(plan)")
        #expect(after.text.contains("&quot;\(words)|0|1&quot;:&quot;\(clip)&quot;"), "made: the page knows its clip")
    }

    @Test func aSentenceTheLinksDoNotAllowIsRefusedAndNotStored() async throws {
        let test = try await TestApp()
        let plan = try carlasSentencePlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let wrong = try ["eu", "brincar"].map { try word($0, plan: plan, test) }.map(String.init).joined(separator: ",")
        #expect(try carla.post("/taps", [("key", "sentence-key-0002"), ("plan", "\(plan)"), ("words", wrong)]).status == 400)
        #expect(try carla.post("/taps", [("key", "sentence-key-0003"), ("plan", "\(plan)"), ("words", "1,2,3,4")]).status == 400)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentence WHERE key LIKE 'sentence-key-%'") } == 0)
    }

    @Test func choosingAWordLogsATap() async throws {
        let test = try await TestApp()
        let plan = try carlasSentencePlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let quero = try word("quero", plan: plan, test)
        let symbol = try test.read { try Int64.fetchOne($0, sql: "SELECT symbolId FROM sentenceWord WHERE id = ?", arguments: [quero])! }
        #expect(try carla.post("/taps", [("key", "tap-key-00001"), ("plan", "\(plan)"), ("symbol", "\(symbol)")]).status == 204)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tap WHERE key = 'tap-key-00001' AND planId = ?",
                                                  arguments: [plan]) } == 1)
    }

    @Test func theClinicianBuildsAVocabularyAndItsLinks() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let created = try ana.post("/patients/\(carla)/plans", [("name", "Frases da escola"), ("type", "sentence"), ("rows", ""),
                                                                ("columns", ""), ("startsOn", ""), ("tutorId", "")])
        #expect(created.status == 303)
        let plan = try #require(created.header("Location")?.firstMatch(of: /\/plans\/(\d+)\/edit/)?.1).description
        let empty = try ana.get("/plans/\(plan)/edit")
        #expect(empty.status == 200)
        #expect(empty.text.contains("O paciente ainda não tem como começar"))

        let chooser = try ana.get("/plans/\(plan)/edit?add=subject&q=eu")
        let eu = try #require(chooser.text.firstMatch(of: /name="symbol" value="(\d+)">\s*<button[^>]*><img[^>]*><span>eu<\/span>/)?.1)
        #expect(try ana.post("/plans/\(plan)/words", [("role", "subject"), ("symbol", String(eu))]).status == 303)
        let verbs = try ana.get("/plans/\(plan)/edit?add=verb&q=quero")
        let quero = try #require(verbs.text.firstMatch(of: /name="symbol" value="(\d+)">\s*<button[^>]*><img[^>]*><span>quero<\/span>/)?.1)
        #expect(try ana.post("/plans/\(plan)/words", [("role", "verb"), ("symbol", String(quero))]).status == 303)
        #expect(try ana.post("/plans/\(plan)/words", [("role", "verb"), ("symbol", String(quero))]).status == 303, "twice is once")

        let words = try test.read { try SentenceWord.filter(Column("planId") == Int64(plan)!).order(Column("id")).fetchAll($0) }
        #expect(words.map(\.role) == [.subject, .verb])
        let (subject, verb) = (words[0].id!, words[1].id!)
        #expect(try ana.post("/plans/\(plan)/words/\(subject)/links", [("to", "\(verb)")]).status == 303)
        #expect(try ana.post("/plans/\(plan)/words/\(subject)/links", [("to", "\(subject)")]).status == 400, "a subject links to verbs")
        #expect(try ana.post("/plans/\(plan)/words/\(verb)/shortcut", [("shortcut", "1")]).status == 303)
        let page = try ana.get("/plans/\(plan)/edit")
        #expect(!page.text.contains("O paciente ainda não tem como começar"))
        #expect(page.text.contains(#"<input type="checkbox" name="to" value="\#(verb)" checked> <span>quero</span>"#))
        #expect(try test.read { try Bool.fetchOne($0, sql: "SELECT isShortcut FROM sentenceWord WHERE id = ?", arguments: [verb]) } == true)

        #expect(try ana.post("/plans/\(plan)/words/\(verb)/remove").status == 303)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentenceLink WHERE fromWordId = ?", arguments: [subject]) } == 0,
                "a removed word takes its links along")
    }

    @Test func onlyTheLinkedClinicianChangesASentencePlan() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let plan = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [davi])! }
        let eu = try word("yo", plan: plan, test)
        // Nadia is a clinician, but not Davi's; Bruno is a tutor, and Carla's.
        let nadia = try test.browser(loggedInAs: "nadia"), bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let before = try test.snapshot()
        #expect(try nadia.post("/plans/\(plan)/words/\(eu)/remove").status == 403, "a nutritionist")
        #expect(try bruno.post("/plans/\(plan)/words/\(eu)/remove").status == 403)
        #expect(try nadia.get("/plans/\(plan)/edit").status == 403)
        #expect(try carla.get("/play/\(plan)").status == 404, "another child's builder")
        #expect(try test.snapshot() == before)
        let ignored = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentenceWord WHERE id = ?", arguments: [eu]) }
        #expect(ignored == 1)
    }
}
