import Foundation
import GRDB
import HTTPServer

/// Sentence plans (seed 001): the clinician's vocabulary editor, the patient's step-by-step builder,
/// and the log of spoken sentences with their whole-sentence clips.
enum SentenceRoutes: Feature {
    static let templates = ["aac/sentence-editor", "aac/sentence-player"]

    static func add(to router: inout Router<Route>) {
        router.add(SentenceEndpoints.addWord) { $0.write(addWord) }
        router.add(SentenceEndpoints.removeWord) { $0.write(removeWord) }
        router.add(SentenceEndpoints.setShortcut) { $0.write(setShortcut) }
        router.add(SentenceEndpoints.setLinks) { $0.write(setLinks) }
        router.add(SentenceEndpoints.setCover) { $0.write(setCover) }
        // The builder asks as each word is chosen; made clips are files, so a repeated ask is a lookup.
        router.add(SentenceEndpoints.clips) { $0.cached(as: clipsKey).read(sentenceBeingBuilt).finish(sentenceClips) }
    }

    // MARK: - Clips of the sentence being built

    @Sendable static func clipsKey(_ context: RequestContext, _ planId: Int64) -> String {
        "sentence-clips \(planId) \(context.request.query["words"] ?? "")"
    }

    /// The ways the sentence `?words=` of a plan the patient may play can be said, as their clips say them.
    @Sendable static func sentenceBeingBuilt(_ context: RequestContext, _ db: Database, planId: Int64) throws -> [SentenceClips.Sentence] {
        let actor = try context.requireActor()
        let ids = (context.request.query["words"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map { Int64($0) }
        guard (1...3).contains(ids.count), !ids.contains(nil) else { throw AppError.badRequest }
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        guard plan.planType == .sentence else { throw AppError.notFound }
        let grammar = try SentenceGrammar.fetch(planId: plan.id!, db)
        guard SentenceRules.step(after: ids.compactMap { $0 }, in: grammar) != nil else { throw AppError.badRequest }
        let voice = PatientVoice(chosen: try AccessSettings.load(patientId: plan.patientId, db).voice, installed: context.speech.voices)
        return SentenceClips.Sentence.variants(ids.compactMap { $0 }, grammar, locale: language(of: grammar, fallback: context.locale),
                                               voice: voice)
    }

    /// JSON "wordIds|negated|question" → clip URL; missing clips are made on the media pool first.
    @Sendable static func sentenceClips(_ context: RequestContext, _ sentences: [SentenceClips.Sentence], _: Int64) throws -> Finish {
        let speech = context.speech
        if sentences.allSatisfy({ speech.existing(text: $0.text, voice: $0.voice) != nil }) {
            return .reply(Reply(try .json(SentenceClips.make(sentences, speech))))
        }
        return .later(.media) { Reply(try .json(SentenceClips.make(sentences, speech))) }
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
                     SentenceEditorPage(plan: data.plan, patient: data.patient, grammar: data.grammar, chooser: chooser, context.t))
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

    @Sendable static func setCover(_ context: RequestContext, _ db: Database, planId: Int64, wordId: Int64) throws -> Reply {
        let word = try SentencePlans.chooseCover(planId: planId, wordId: wordId, by: try context.requireActor(), audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: planId, "word-\(word.id!)"), flash: "sentence_cover_chosen")
    }

    /// Replaces the words that may follow one word: a subject's verbs, or a verb's complements.
    @Sendable static func setLinks(_ context: RequestContext, _ db: Database, planId: Int64, wordId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let chosen = Set(context.request.form.values("to").compactMap(Int64.init))
        let word = try SentencePlans.setLinks(planId: planId, wordId: wordId, to: chosen, by: actor, audit: context.audit, db)
        return .redirect(to: SentenceEditorPage.anchor(planId: planId, "word-\(word.id!)"), flash: "sentence_links_saved")
    }

    /// A sentence plan speaks the language of its words' voices (the first word's), else the page's.
    static func language(of grammar: SentenceGrammar, fallback: AppLocale) -> AppLocale {
        grammar.words.lazy.compactMap { $0.symbol.voice.flatMap(AppLocale.init(rawValue:)) }.first ?? fallback
    }
}

/// How the page and the server name one sentence of a plan: its words, its NO and its question forms.
enum SentenceKey {
    static func make(wordIds: String, negated: Bool, question: Bool) -> String {
        "\(wordIds)|\(negated ? 1 : 0)|\(question ? 1 : 0)"
    }
}
