import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Word forms and agreement (issue 19): the pure rules over the demo vocabulary in each language,
/// the clips a plan needs, then the clinician's correction, the builder and the pictogram search over HTTP.
@Suite struct WordFormsTests {
    // MARK: - Agreement over the demo vocabulary

    /// The demo sentence plan (`DemoBoards.sentenceWords`) in one language, plus "ele/ela" subjects:
    /// subjects → the three verbs (two of them shortcuts); the wanting verb → four activities; the being
    /// verb → three feelings; the finishing verb ends the sentence.
    struct Vocabulary: Sendable, CustomTestStringConvertible {
        let language: AppLocale
        let subjects: [String]
        let verbs: [String]  // want, be, finish
        let activities: [String]
        let feelings: [String]
        var testDescription: String { language.rawValue }

        var grammar: SentenceGrammar {
            var words: [SentenceGrammar.Word] = []
            let now = Date(timeIntervalSince1970: 0)
            func add(_ text: String, _ role: SentenceWord.Role, shortcut: Bool = false) -> Int64 {
                let id = Int64(words.count + 1)
                let symbol = Symbol(id: id * 10, clinicianId: 1, categoryId: 1, name: text, spokenText: text, pictogram: "1F600",
                                    audioKind: "generated", voice: language.rawValue, createdAt: now, updatedAt: now)
                words.append(SentenceGrammar.Word(id: id, role: role, isShortcut: shortcut, symbol: symbol, colour: .white,
                                                  forms: WordLexicon.lookup(text, language: language.rawValue)))
                return id
            }
            let subjectIds = subjects.map { add($0, .subject) }
            let verbIds = verbs.enumerated().map { add($1, .verb, shortcut: $0 < 2) }
            let activityIds = activities.map { add($0, .complement) }
            let feelingIds = feelings.map { add($0, .complement) }
            var next: [Int64: [Int64]] = [verbIds[0]: activityIds, verbIds[1]: feelingIds]
            for subject in subjectIds { next[subject] = verbIds }
            return SentenceGrammar(words: words, next: next)
        }
    }

    static let vocabularies = [
        Vocabulary(language: .ptBR, subjects: ["eu", "você", "ele", "ela"], verbs: ["quero", "estou", "terminei"],
                   activities: ["brincar", "comer", "beber", "dormir"], feelings: ["feliz", "triste", "cansado"]),
        Vocabulary(language: .es, subjects: ["yo", "tú", "él", "ella"], verbs: ["quiero", "estoy", "terminé"],
                   activities: ["jugar", "comer", "beber", "dormir"], feelings: ["contento", "triste", "cansado"]),
        Vocabulary(language: .ca, subjects: ["jo", "tu", "ell", "ella"], verbs: ["vull", "estic", "he acabat"],
                   activities: ["jugar", "menjar", "beure", "dormir"], feelings: ["content", "trist", "cansat"]),
    ]

    /// Every word of the demo vocabulary is in the lexicon, with the class its role needs.
    @Test(arguments: vocabularies)
    func theLexiconKnowsTheDemoVocabulary(_ vocabulary: Vocabulary) throws {
        let language = vocabulary.language.rawValue
        for word in vocabulary.subjects { #expect(WordLexicon.lookup(word, language: language)?.wordClass == .pronoun, "\(word)") }
        for word in vocabulary.verbs + vocabulary.activities {
            let forms = try #require(WordLexicon.lookup(word, language: language), "\(word)")
            #expect(forms.wordClass == .verb)
            #expect(Set(forms.forms.keys) == Set(WordForms.verbKeys), "\(word) has every person and the infinitive")
        }
        for word in vocabulary.feelings {
            #expect(Set(WordLexicon.lookup(word, language: language)?.forms.keys ?? [:].keys) == Set(WordForms.nominalKeys), "\(word)")
        }
    }

    /// Every subject × verb the builder offers speaks the verb in the subject's person, every complement
    /// of the wanting verb is an infinitive, and every feeling agrees with the subject's gender.
    @Test(arguments: vocabularies)
    func everySentenceTheBuilderOffersAgrees(_ vocabulary: Vocabulary) throws {
        let grammar = vocabulary.grammar
        let language = vocabulary.language.rawValue
        var checked = 0
        for path in SentenceRules.paths(grammar) where path.count >= 2 {
            let words = path.compactMap(grammar.word)
            let spoken = SentenceRules.agreeingWords(path, in: grammar).map(\.text)
            guard words[0].role == .subject else { continue }
            let subject = try #require(Agreement.subject(WordLexicon.lookup(words[0].symbol.spokenText, language: language)))
            let verb = try #require(WordLexicon.lookup(words[1].symbol.spokenText, language: language))
            #expect(spoken[1] == verb.forms[subject.verbKey], "\(spoken)")
            if words.count == 3 {
                let complement = try #require(WordLexicon.lookup(words[2].symbol.spokenText, language: language))
                let key = complement.wordClass == .verb ? "inf" : subject.nominalKey
                #expect(spoken[2] == complement.forms[key], "\(spoken)")
            }
            checked += 1
        }
        // 4 subjects × (1 + 4 activities + 1 + 3 feelings + 1)
        #expect(checked == 4 * 10)
    }

    @Test(arguments: [
        (AppLocale.ptBR, ["você", "quero", "brincar"], "Você quer brincar"),
        (.ptBR, ["eu", "quero", "brincar"], "Eu quero brincar"),
        (.ptBR, ["ele", "quero", "comer"], "Ele quer comer"),
        (.ptBR, ["você", "terminei"], "Você terminou"),
        (.ptBR, ["ela", "estou", "cansado"], "Ela está cansada"),
        (.ptBR, ["quero", "dormir"], "Quero dormir"),
        (.es, ["tú", "quiero", "jugar"], "Tú quieres jugar"),
        (.es, ["ella", "estoy", "contento"], "Ella está contenta"),
        (.es, ["él", "terminé"], "Él terminó"),
        (.ca, ["tu", "vull", "jugar"], "Tu vols jugar"),
        (.ca, ["ell", "vull", "menjar"], "Ell vol menjar"),
        (.ca, ["jo", "vull", "beure"], "Jo vull beure"),
        (.ca, ["ella", "estic", "cansat"], "Ella està cansada"),
        (.ca, ["tu", "he acabat"], "Tu has acabat"),
    ])
    func theSentenceSaysTheAgreeingForms(_ language: AppLocale, _ texts: [String], _ expected: String) throws {
        let grammar = try #require(Self.vocabularies.first { $0.language == language }).grammar
        let ids = try texts.map { text in try #require(grammar.words.first { $0.symbol.spokenText == text }?.id) }
        #expect(SentenceRules.step(after: ids, in: grammar) != nil, "the builder offers it")
        #expect(SentenceRules.text(ids, in: grammar, negated: false, question: false, locale: language) == expected)
    }

    @Test func noAndQuestionKeepTheAgreement() throws {
        let grammar = Self.vocabularies[0].grammar
        let ids = try ["você", "quero", "comer"].map { text in try #require(grammar.words.first { $0.symbol.spokenText == text }?.id) }
        #expect(SentenceRules.text(ids, in: grammar, negated: true, question: true, locale: .ptBR) == "Você não quer comer?")
    }

    @Test func aWordWithoutFormsIsSaidAsItsSymbolSaysIt() {
        #expect(Agreement.sentence([("você", WordLexicon.lookup("você", language: "pt-BR")), ("pula", nil)]) == ["você", "pula"])
        #expect(Agreement.sentence([("Quero", WordLexicon.lookup("quero", language: "pt-BR"))]) == ["Quero"], "no subject: the child")
        let corrected = WordForms(wordClass: .verb, forms: ["3s": "quer"])
        #expect(Agreement.sentence([("ele", WordLexicon.lookup("ele", language: "pt-BR")), ("Quero", corrected)]) == ["ele", "Quer"],
                "the form keeps the symbol's capital")
        #expect(Agreement.sentence([("ele", WordLexicon.lookup("ele", language: "pt-BR")), ("quero", WordForms(wordClass: .verb))])
                == ["ele", "quero"], "a form left empty says the symbol's text")
    }

    @Test func theBuilderShowsEachWordInTheFormItsSubjectNeeds() throws {
        let grammar = Self.vocabularies[0].grammar
        let id = { (text: String) in grammar.words.first { $0.symbol.spokenText == text }!.id }
        let forms = SentenceRules.agreeingForms(grammar)
        #expect(forms[id("quero")]?[id("você")] == "quer")
        #expect(forms[id("quero")]?[id("eu")] == nil, "unchanged forms are not listed")
        #expect(forms[id("cansado")]?[id("ela")] == "cansada")
        #expect(forms[id("brincar")] == nil, "an infinitive after quero is what the symbol says")
    }

    // MARK: - Clips of every sentence a plan allows

    /// The demo plan allows 31 sentences (11 from each subject, 5 from "quero", 4 from "estou"), and
    /// 120 ways to say them: plain and question, and with NO when there is a verb.
    @Test func thePathsOfTheDemoPlanAreFinite() throws {
        var vocabulary = Self.vocabularies[0]
        vocabulary = Vocabulary(language: .ptBR, subjects: ["eu", "você"], verbs: vocabulary.verbs, activities: vocabulary.activities,
                                feelings: vocabulary.feelings)
        let grammar = vocabulary.grammar
        #expect(SentenceRules.paths(grammar).count == 31)
        let sentences = SentenceClips.Sentence.all(grammar, locale: .ptBR)
        #expect(sentences.count == 120)
        #expect(Set(sentences.map(\.key)).count == 120)
        #expect(sentences.contains { $0.text == "Você não quer brincar?" })
        #expect(!sentences.contains { $0.text.hasPrefix("Você quero") })
        #expect(!sentences.contains { $0.key.hasSuffix("|1|0") && !$0.text.lowercased().contains("não") }, "NO is said")
    }

    // MARK: - Input

    @Test func theFormsFormRefusesWhatIsNotAWord() {
        let t = Translator(locale: .ptBR, texts: [:])
        var form = FormState(values: ["wordClass": "verb", "form_3s": "quer<script>", "form_1s": "quero"])
        #expect(WordFormsInput.read(&form, t) == nil)
        #expect(form.errors["form_3s"] != nil)
        var pronoun = FormState(values: ["wordClass": "pronoun"])
        #expect(WordFormsInput.read(&pronoun, t) == nil, "a pronoun needs its person")
        var good = FormState(values: ["wordClass": "verb", "form_3s": " quer ", "form_inf": "querer", "form_ms": "ignored"])
        #expect(WordFormsInput.read(&good, t) == WordForms(wordClass: .verb, forms: ["3s": "quer", "inf": "querer"]))
        var catalan = FormState(values: ["wordClass": "verb", "form_1s": "he acabat", "form_3s": "l'ha vist"])
        #expect(WordFormsInput.read(&catalan, t)?.forms["1s"] == "he acabat")
    }

    // MARK: - Pictogram search

    @Test func theSearchLooksInEveryLanguageGiven() {
        let library = PictogramLibrary(entries: [
            .init(hexcode: "1F34E", category: "food", names: ["pt-BR": "maçã", "es": "manzana", "ca": "poma", "en": "apple"]),
            .init(hexcode: "1F4A7", category: "drink", names: ["pt-BR": "água", "es": "agua", "ca": "aigua", "en": "water"]),
        ])
        #expect(library.search("manzana", in: [.ptBR]).isEmpty, "only the interface's language: not found")
        let found = library.search("manzana", in: [.ptBR, .es])
        #expect(found.map(\.entry.hexcode) == ["1F34E"])
        #expect(found.first?.name == "manzana", "named in the language that matched")
        #expect(library.search("agua", in: [.ptBR, .es]).first?.locale == .ptBR, "água matches first in the first language")
        #expect(library.search("", in: [.ca]).first?.name == "poma")
    }

    // MARK: - Over HTTP

    func carlasPlan(_ test: TestApp) throws -> Int64 {
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

    func symbol(_ name: String, _ test: TestApp) throws -> Int64 {
        try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM symbol WHERE name = ? AND patientId IS NULL", arguments: [name])! }
    }

    @Test func theBuilderSaysQuerAfterVoceAndLogsIt() async throws {
        let test = try await TestApp()
        let plan = try carlasPlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let voce = try word("você", plan: plan, test), quero = try word("quero", plan: plan, test)
        let page = try carla.get("/play/\(plan)")
        #expect(page.status == 200)
        let forms = try #require(page.text.firstMatch(of: try Regex(#"data-word="\#(quero)"[^>]*data-forms="([^"]+)""#))?.output[1]
            .substring.map(String.init))
        #expect(forms.contains("&quot;\(voce)&quot;:[&quot;quer&quot;,&quot;/media/audio/"), "quero reads quer after você: \(forms)")
        let clip = try #require(forms.firstMatch(of: /(\/media\/audio\/[0-9a-f]{32}\.mp3)/)?.1)
        #expect(try carla.get(String(clip)).status == 200, "the form's clip is made before the page is shown")

        let words = try ["você", "quero", "brincar"].map { try word($0, plan: plan, test) }.map(String.init).joined(separator: ",")
        let said = try carla.post("/taps", [("key", "agree-key-0001"), ("plan", "\(plan)"), ("words", words), ("negated", "1"), ("question", "1")])
        #expect(said.status == 200)
        #expect(try test.read { try String.fetchOne($0, sql: "SELECT text FROM sentence WHERE key = 'agree-key-0001'") }
                == "Você não quer brincar?")
    }

    @Test func theClipsOfTheSentenceBeingBuiltAreMadeWhenAsked() async throws {
        let test = try await TestApp()
        let plan = try carlasPlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let words = try ["você", "quero", "comer"].map { try word($0, plan: plan, test) }.map(String.init).joined(separator: ",")
        let clips = try carla.get("/play/\(plan)/sentence-clips?words=\(words)")
        #expect(clips.status == 200)
        #expect(clips.header("Content-Type") == "application/json")
        let made = try #require(try JSONSerialization.jsonObject(with: Data(clips.text.utf8)) as? [String: String])
        #expect(Set(made.keys) == ["\(words)|0|0", "\(words)|0|1", "\(words)|1|0", "\(words)|1|1"])
        let question = try #require(made["\(words)|0|1"])
        #expect(question.hasSuffix(SpeechAudio.fileName(text: "Você quer comer?", voice: "pt-br")), "the question's own clip")
        for url in made.values { #expect(try carla.get(url).status == 200) }
        let page = try carla.get("/play/\(plan)")
        #expect(page.text.contains("&quot;\(words)|0|1&quot;:&quot;\(question)&quot;"), "the builder knows it from then on")

        let subjectOnly = try word("eu", plan: plan, test)
        let alone = try carla.get("/play/\(plan)/sentence-clips?words=\(subjectOnly)")
        #expect(alone.status == 200)
        #expect(!alone.text.contains("|1|"), "no NO without a verb")
    }

    @Test func askingForClipsOfASentenceThatCannotBeIsRefused() async throws {
        let test = try await TestApp()
        let plan = try carlasPlan(test)
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let eu = try word("eu", plan: plan, test), brincar = try word("brincar", plan: plan, test)
        #expect(try carla.get("/play/\(plan)/sentence-clips?words=\(eu),\(brincar)").status == 400, "not linked")
        #expect(try carla.get("/play/\(plan)/sentence-clips?words=x").status == 400)
        #expect(try carla.get("/play/\(plan)/sentence-clips").status == 400)
        #expect(try carla.get("/play/\(plan)/sentence-clips?words=1,2,3,4").status == 400)
        let davi = try test.id(of: "Davi Alves")
        let other = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [davi])! }
        #expect(try carla.get("/play/\(other)/sentence-clips?words=\(eu)").status == 404, "another child's plan")
        #expect(try test.browser(loggedInAs: "ana").get("/play/\(plan)/sentence-clips?words=\(eu)").status == 403)
    }

    @Test func theClinicianCorrectsAFormAndTheBuilderSaysIt() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let quero = try symbol("quero", test)
        let edit = try ana.get("/symbols/\(quero)/edit")
        #expect(edit.status == 200)
        #expect(edit.text.contains(#"id="form_3s" name="form_3s" value="quer""#), "the lexicon's forms are offered")
        #expect(edit.text.contains("Formas sugeridas pelo léxico"))

        let fields: [(String, String)] = [("wordClass", "verb"), ("form_inf", "querer"), ("form_1s", "quero"), ("form_2s", "queres"),
                                          ("form_3s", "quer mesmo"), ("form_1p", "queremos"), ("form_2p", ""), ("form_3p", "querem")]
        let saved = try ana.post("/symbols/\(quero)/forms", fields)
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/symbols/\(quero)/edit#word-forms")
        let stored = try test.read { try SymbolWordForms.fetchOne($0, key: quero) }
        #expect(stored?.wordForms.forms["3s"] == "quer mesmo")
        #expect(stored?.wordForms.forms["2p"] == nil, "an empty form is not kept")
        #expect(FileManager.default.fileExists(atPath: test.app.speech.directory + "/" + SpeechAudio.fileName(text: "quer mesmo", voice: "pt-br")),
                "the corrected form's clip is made")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE entity = 'symbol' AND entityId = ? AND summary LIKE 'word forms%'", arguments: [quero]) } == 1)

        let plan = try carlasPlan(test)
        let words = try ["você", "quero", "comer"].map { try word($0, plan: plan, test) }.map(String.init).joined(separator: ",")
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try carla.post("/taps", [("key", "agree-key-0002"), ("plan", "\(plan)"), ("words", words)]).status == 200)
        #expect(try test.read { try String.fetchOne($0, sql: "SELECT text FROM sentence WHERE key = 'agree-key-0002'") }
                == "Você quer mesmo comer")
        #expect(try ana.get("/symbols/\(quero)/edit").text.contains(#"value="quer mesmo""#))
    }

    @Test func aBadFormIsRefusedWithWhatWasTyped() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let quero = try symbol("quero", test)
        let before = try test.snapshot()
        let refused = try ana.post("/symbols/\(quero)/forms", [("wordClass", "verb"), ("form_3s", "quer<b>"), ("form_1s", "quero")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Use só letras, espaços, apóstrofos e hífens"))
        #expect(refused.text.contains(#"value="quer&lt;b&gt;""#), "what was typed is kept")
        #expect(try ana.post("/symbols/\(quero)/forms", [("wordClass", "adverb")]).status == 422)
        #expect(try ana.post("/symbols/\(quero)/forms", [("wordClass", "pronoun"), ("person", "7")]).status == 422)
        #expect(try test.snapshot() == before, "nothing changes")
    }

    @Test func anotherClinicianSymbolIsNotThereToCorrect() async throws {
        let test = try await TestApp()
        let nadia = try test.id(of: "Nádia Lima")
        let foreign = try test.write { db -> Int64 in
            let category = try Int64.fetchOne(db, sql: "SELECT categoryId FROM symbol LIMIT 1")!
            var symbol = Symbol(clinicianId: nadia, categoryId: category, name: "quero", spokenText: "quero", pictogram: "1F450",
                                audioKind: "generated", voice: "pt-BR", createdAt: Date(), updatedAt: Date())
            try symbol.insert(db)
            return symbol.id!
        }
        let ana = try test.browser(loggedInAs: "ana"), bruno = try test.browser(loggedInAs: "bruno")
        let before = try test.snapshot()
        #expect(try ana.post("/symbols/\(foreign)/forms", [("wordClass", "verb"), ("form_3s", "quer")]).status == 404)
        #expect(try ana.post("/symbols/999999/forms", [("wordClass", "verb")]).status == 404)
        #expect(try bruno.post("/symbols/\(foreign)/forms", [("wordClass", "verb")]).status == 403)
        #expect(try test.snapshot() == before)
    }

    @Test func pictogramSearchLooksInThePatientsLanguagesAndSaysWhenNothingIsFound() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        // Ana's pages are in Portuguese; Davi's own symbols speak Spanish.
        let spanish = try ana.get("/symbols/new?q=manzana")
        #expect(spanish.status == 200)
        #expect(spanish.text.contains(#"<span lang="es">manzana</span>"#))
        #expect(spanish.text.contains("lang=es"), "choosing it names the symbol in Spanish")
        let chosen = try ana.get("/symbols/new?pictogram=1F34E&lang=es")
        #expect(chosen.text.contains(#"id="name" name="name" value="manzana""#))
        #expect(chosen.text.contains(#"<option value="es" selected>"#), "and gives it the Spanish voice")

        let nothing = try ana.get("/symbols/new?q=zzqqxx")
        #expect(nothing.text.contains("Nenhum pictograma encontrado para &quot;zzqqxx&quot;"))
        #expect(!(try ana.get("/symbols/new?q=maçã").text.contains("Nenhum pictograma encontrado")))
        #expect(!(try ana.get("/symbols/new").text.contains("Nenhum pictograma encontrado")), "no search, no message")
    }
}
