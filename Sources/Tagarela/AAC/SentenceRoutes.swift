import Foundation
import GRDB
import HTTPServer

/// Sentence plans (seed 001): the clinician's vocabulary editor, the patient's step-by-step builder,
/// and the log of spoken sentences with their whole-sentence clips.
enum SentenceRoutes {
    static let templates = ["aac/sentence-editor", "aac/sentence-player"]

    static func add(to router: inout Router<Route>) {
        router.write(SentenceEndpoints.addWord, addWord)
        router.write(SentenceEndpoints.removeWord, removeWord)
        router.write(SentenceEndpoints.setShortcut, setShortcut)
        router.write(SentenceEndpoints.setLinks, setLinks)
    }

    // MARK: - Editor

    /// Reached from the plan editor's address (`PlanRoutes.editor`): three columns of words, each word
    /// with the words it allows next, and a chooser for adding a symbol to a role.
    static func editor(_ context: RequestContext, _ data: SentenceQueries.Editor, search: String, category: String) -> Reply {
        let chooser = data.chooser.map {
            SentenceEditorPage.Chooser(planId: data.plan.id!, patientId: data.plan.patientId, role: $0.role, search: search,
                                       category: category, categories: $0.categories, symbols: $0.symbols, colours: $0.categories,
                                       context.t)
        }
        return .page("aac/sentence-editor", title: "editor_title",
                     SentenceEditorPage(plan: data.plan, patientName: data.patientName, grammar: data.grammar, chooser: chooser, context.t))
    }

    @Sendable static func addWord(_ context: RequestContext, _ db: Database, planId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let form = context.request.form
        guard let role = form["role"].flatMap(SentenceWord.Role.init(rawValue:)), let symbolId = form["symbol"].flatMap(Int64.init)
        else { throw AppError.badRequest }
        let plan = try SentencePlans.addWord(planId: planId, symbolId: symbolId, role: role, by: actor, audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: plan.id!, role.rawValue), flash: "sentence_word_added")
    }

    @Sendable static func removeWord(_ context: RequestContext, _ db: Database, planId: Int64, wordId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let word = try SentencePlans.removeWord(planId: planId, wordId: wordId, by: actor, audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: planId, word.role.rawValue), flash: "sentence_word_removed")
    }

    @Sendable static func setShortcut(_ context: RequestContext, _ db: Database, planId: Int64, wordId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let word = try SentencePlans.setShortcut(planId: planId, wordId: wordId, context.request.form["shortcut"] == "1",
                                                 by: actor, audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: planId, "word-\(word.id!)"), flash: "sentence_links_saved")
    }

    /// Replaces the words that may follow one word: a subject's verbs, or a verb's complements.
    @Sendable static func setLinks(_ context: RequestContext, _ db: Database, planId: Int64, wordId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let chosen = Set(context.request.form.values("to").compactMap(Int64.init))
        let word = try SentencePlans.setLinks(planId: planId, wordId: wordId, to: chosen, by: actor, audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: planId, "word-\(word.id!)"), flash: "sentence_links_saved")
    }

    // MARK: - Player

    /// The builder, one step at a time. Every word is on the page (its clip preloaded); the script shows
    /// only the words the last choice allows.
    static func player(_ context: RequestContext, plan: Plan) throws -> Response {
        let data = try context.database.read { db in try SentenceQueries.player(plan, db) }
        let locale = language(of: data.grammar, fallback: context.locale)
        let negation = SentenceRules.negation(locale), voice = SpeechAudio.voice(for: locale)
        let render = { @Sendable (context: RequestContext, negationClip: String?) -> Response in
            context.render("aac/sentence-player", title: "player_title", playerPage(plan, data, locale: locale, negationClip: negationClip, context.t))
        }
        if let clip = context.app.speech.existing(text: negation, voice: voice) { return render(context, clip) }
        // The NO word's clip is made once per voice, off the request threads.
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in render(context, try? context.app.speech.clip(text: negation, voice: voice)) }, context)
        }
    }

    /// The builder's page, once its data is read and the NO word's clip is looked for (or made).
    static func playerPage(_ plan: Plan, _ data: SentenceQueries.Player, locale: AppLocale, negationClip: String?,
                           _ t: Translator) -> SentencePlayerPage {
        SentencePlayerPage(plan: plan, grammar: data.grammar, knownClips: data.knownClips, locale: locale, access: data.access,
                           negationAudioURL: negationClip.map { PlanEndpoints.audio.path($0) }, t)
    }

    /// A sentence plan speaks the language of its words' voices (the first word's), else the page's.
    static func language(of grammar: SentenceGrammar, fallback: AppLocale) -> AppLocale {
        grammar.words.lazy.compactMap { $0.symbol.voice.flatMap(AppLocale.init(rawValue:)) }.first ?? fallback
    }

    // MARK: - Log

    /// A sentence spoken on a sentence plan, sent by the builder's queue (possibly late, from an offline
    /// tablet; the key makes it count once). It is checked against the plan's links, logged with its
    /// text and words, and its whole clip is made if it is new, so the next time it plays as one sentence.
    /// Answers `{"clip": url}`.
    static func recordSentence(_ context: RequestContext, actor: Actor, key: String, planId: Int64, at: Date) throws -> Response {
        let form = context.request.form
        let ids = (form["words"] ?? "").split(separator: ",").compactMap { Int64($0) }
        let negated = form["negated"] == "1", question = form["question"] == "1"
        guard (1...3).contains(ids.count) else { throw AppError.badRequest }
        let (plan, grammar) = try context.database.read { db in
            let plan = try PlanScope.find(planId, visibleTo: actor, db)
            guard plan.planType == .sentence else { throw AppError.notFound }
            return (plan, try SentenceGrammar.fetch(planId: plan.id!, db))
        }
        guard SentenceRules.step(after: ids, in: grammar) != nil else { throw AppError.badRequest }
        let words = ids.compactMap(grammar.word)
        let locale = language(of: grammar, fallback: context.locale)
        let text = SentenceRules.text(words.map { ($0.role, $0.symbol.spokenText) }, negated: negated, question: question, locale: locale)
        let wordIds = ids.map(String.init).joined(separator: ",")
        try context.database.write { db in
            try SentencePlans.logSentence(key: key, plan: plan, words: words, text: text, assistedBy: actor.supervisorId, at: at,
                                          wordIds: wordIds, negated: negated, question: question, db)
        }
        let voice = SpeechAudio.voice(for: locale)
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in
                let clip = try? context.app.speech.clip(text: text, voice: voice, question: question)
                if let clip {
                    let madeKnown = try context.database.write { db in
                        try SentencePlans.setClip(clip, planId: plan.id!, wordIds: wordIds, negated: negated, question: question, db)
                    }
                    // The builder's page lists the clips of sentences said before (see ReadCache).
                    if madeKnown { context.app.cache.invalidateAll() }
                }
                return try .json(["clip": clip.map { PlanEndpoints.audio.path($0) } ?? ""])
            }, context)
        }
    }
}

/// How the page and the server name one sentence of a plan: its words, its NO and its question forms.
enum SentenceKey {
    static func make(wordIds: String, negated: Bool, question: Bool) -> String {
        "\(wordIds)|\(negated ? 1 : 0)|\(question ? 1 : 0)"
    }
}
