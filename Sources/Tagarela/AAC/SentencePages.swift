import Foundation

/// The clinician's sentence-plan editor: subjects, verbs and complements side by side.
struct SentenceEditorPage: PageModel {
    struct Link: PageModel {
        let id: Int64
        let name: String
        let isChecked: Bool
    }

    struct Word: PageModel {
        let id: Int64
        let name: String
        let imageURL: String
        let removeURL: String
        let shortcutURL: String
        let linksURL: String
        /// The form that makes this word's picture the plan's on the child's tiles, unless it already is.
        let coverURL: String
        let isCover: Bool
        let colourClass: String
        let isVerb: Bool
        let isShortcut: Bool
        /// The words that may follow this one (empty for complements).
        let links: [Link]
        let hasLinkChoices: Bool
        /// "Verbs after “{word}”", in three parts: the word is the boards' language, the rest the page's.
        let linksLegend: QuotedWord
    }

    /// A sentence of the page's language quoting one word of the boards', split around the word.
    struct QuotedWord: PageModel {
        let before: String
        let word: String
        let after: String

        init(_ key: String, word: String, _ t: Translator) {
            let marker = "\u{1}"
            let parts = t(key, ["word": marker]).components(separatedBy: marker)
            before = parts.first ?? ""
            self.word = word
            after = parts.count > 1 ? parts[1...].joined(separator: word) : ""
        }
    }

    struct Column: PageModel {
        let role: String
        /// The editor with this role's chooser open.
        let addURL: String
        let title: String
        let hint: String
        let words: [Word]
        let isEmpty: Bool
    }

    struct Chooser: PageModel {
        struct Choice: PageModel {
            let id: Int64
            let name: String
            let imageURL: String
            let colourClass: String
        }

        let role: String
        let title: String
        let search: String
        let categories: [SelectOption]
        let symbols: [Choice]
        /// The search's form, and the way back to the columns.
        let editorURL: String
        /// Each choice's form.
        let addWordURL: String
        let newSymbolURL: String

        init(planId: Int64, patientId: Int64, role: SentenceWord.Role, search: String, category: String, categories: [Category], symbols: [Symbol],
             colours: [Category], _ t: Translator) {
            self.role = role.rawValue
            editorURL = PlanEndpoints.editor.path(planId)
            addWordURL = SentenceEndpoints.addWord.path(planId)
            newSymbolURL = SymbolEndpoints.newSymbol.path(query: ["patient": "\(patientId)"])
            title = t["sentence_add_\(role.rawValue)"]
            self.search = search
            self.categories = categories.map { SelectOption(value: "\($0.id!)", label: $0.name, isSelected: category == "\($0.id!)") }
            let colourOf = Dictionary(uniqueKeysWithValues: colours.map { ($0.id!, $0.categoryColour.cssClass) })
            self.symbols = symbols.map { Choice(id: $0.id!, name: $0.name, imageURL: $0.imageURL,
                                                colourClass: colourOf[$0.categoryId] ?? CategoryColour.white.cssClass) }
        }
    }

    let planId: Int64
    let patientId: Int64
    let name: String
    let patientName: String
    /// The language of the patient's words when the page's is another (`AppLocale.lang(of:)`).
    let wordsLang: String?
    let columns: [Column]
    let chooser: Chooser?
    let isComplete: Bool
    let plansURL: String

    /// The editor at one of its parts (a role's column, a word), where a change lands.
    static func anchor(planId: Int64, _ fragment: String) -> String { PlanEndpoints.editor.path(planId) + "#" + fragment }

    init(plan: Plan, patient: PlanQueries.Patient, grammar: SentenceGrammar, chooser: Chooser?, _ t: Translator) {
        planId = plan.id!
        patientId = plan.patientId
        name = plan.name
        patientName = patient.name
        wordsLang = t.locale.lang(of: patient.locale)
        self.chooser = chooser
        plansURL = PlanEndpoints.list.path(plan.patientId)
        let planId = plan.id!
        columns = SentenceWord.Role.allCases.map { role in
            let words = grammar.words(role).map { word in
                let followers = role.next.map(grammar.words) ?? []
                let linked = Set(grammar.next[word.id] ?? [])
                return Word(id: word.id, name: word.symbol.name, imageURL: word.symbol.imageURL,
                            removeURL: SentenceEndpoints.removeWord.path(planId, word.id),
                            shortcutURL: SentenceEndpoints.setShortcut.path(planId, word.id),
                            linksURL: SentenceEndpoints.setLinks.path(planId, word.id),
                            coverURL: SentenceEndpoints.setCover.path(planId, word.id), isCover: word.symbol.id == plan.coverSymbolId,
                            colourClass: word.colour.cssClass,
                            isVerb: role == .verb, isShortcut: word.isShortcut,
                            links: followers.map { Link(id: $0.id, name: $0.symbol.name, isChecked: linked.contains($0.id)) },
                            hasLinkChoices: !followers.isEmpty,
                            linksLegend: QuotedWord("sentence_links_legend_\(role.rawValue)", word: word.symbol.name, t))
            }
            return Column(role: role.rawValue, addURL: PlanEndpoints.editor.path(planId, query: ["add": role.rawValue]) + "#chooser-title",
                          title: t["sentence_role_\(role.rawValue)"], hint: t["sentence_role_hint_\(role.rawValue)"],
                          words: words, isEmpty: words.isEmpty)
        }
        isComplete = !SentenceRules.openers(grammar).isEmpty
    }
}

/// The patient's builder. Every word is rendered once; `next` lists the words that may follow it.
struct SentencePlayerPage: PageModel {
    struct Word: PageModel {
        let id: Int64
        let role: String
        let symbolId: Int64
        let label: String
        let imageURL: String
        let audioURL: String?
        let colourClass: String
        let isShortcut: Bool
        let isOpener: Bool
        /// Space-separated ids of the words allowed after this one.
        let next: String
        /// The language of the label (the symbol's voice).
        let lang: String
        /// JSON: the chosen subject's word id ("" when the sentence opens with a verb) → [label, clip URL]
        /// of the form that agrees with it; empty when the word never changes.
        let forms: String?
    }

    let planId: Int64
    /// The language the plan speaks, for `lang` on the strip and the NO word (`lang` is the page's).
    let speechLang: String
    /// One label size for the whole builder (`LabelFit`).
    let labelClass: String
    let name: String
    let words: [Word]
    let isEmpty: Bool
    /// JSON: "wordIds|negated|question" → URL of the whole sentence's clip.
    let knownClips: String
    let negationLabel: String
    let negationAudioURL: String?
    /// "¿" in Spanish, where a question opens with it.
    let questionOpen: String
    let offlineText: String
    let stepTexts: String
    /// The patient's access methods (cell size, labels, scanning…).
    let access: AccessView
    let tapURL = PlayerEndpoints.recordTap.path()
    let boardsURL = PlayerEndpoints.list.path()
    /// Where the builder asks for the clips of the sentence being built (`?words=1,2`).
    let clipsURL: String

    init(plan: Plan, grammar: SentenceGrammar, clips: SentenceClips, locale: AppLocale, access: AccessView, _ t: Translator) {
        clipsURL = SentenceEndpoints.clips.path(plan.id!)
        self.access = access
        planId = plan.id!
        name = plan.name
        let openers = Set(SentenceRules.openers(grammar))
        words = grammar.words.map { word in
            Word(id: word.id, role: word.role.rawValue, symbolId: word.symbol.id!, label: word.symbol.name,
                 imageURL: word.symbol.imageURL, audioURL: clips.words[word.symbol.id!] ?? word.symbol.audioURL, colourClass: word.colour.cssClass,
                 isShortcut: word.isShortcut, isOpener: openers.contains(word.id),
                 next: (grammar.next[word.id] ?? []).map(String.init).joined(separator: " "),
                 lang: word.symbol.voice ?? locale.rawValue, forms: Self.json(clips.forms[word.id]))
        }
        speechLang = locale.rawValue
        labelClass = LabelFit.cssClass(labels: words.map(\.label))
        isEmpty = openers.isEmpty
        let json = (try? JSONSerialization.data(withJSONObject: clips.known, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        knownClips = String(decoding: json, as: UTF8.self)
        negationLabel = SentenceRules.negation(locale).uppercased()
        negationAudioURL = clips.negationURL
        questionOpen = locale == .es ? "¿" : ""
        offlineText = t["player_offline"]
        let steps = ["start": t["sentence_step_start"], "verb": t["sentence_step_verb"],
                     "complement": t["sentence_step_complement"], "done": t["sentence_step_done"]]
        stepTexts = String(decoding: (try? JSONSerialization.data(withJSONObject: steps, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    private static func json(_ forms: [String: (label: String, audioURL: String?)]?) -> String? {
        guard let forms, !forms.isEmpty else { return nil }
        let object = forms.mapValues { [$0.label, $0.audioURL ?? ""] }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
