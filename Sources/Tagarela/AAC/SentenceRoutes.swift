import Foundation
import GRDB
import HTTPServer

/// Sentence plans (seed 001): the clinician's vocabulary editor, the patient's step-by-step builder,
/// and the log of spoken sentences with their whole-sentence clips.
enum SentenceRoutes {
    static let templates = ["aac/sentence-editor", "aac/sentence-player"]

    static func add(to router: inout Router<Route>) {
        router.legacy(SentenceEndpoints.addWord, addWord)
        router.legacy(SentenceEndpoints.removeWord, removeWord)
        router.legacy(SentenceEndpoints.setShortcut, setShortcut)
        router.legacy(SentenceEndpoints.setLinks, setLinks)
    }

    // MARK: - Editor

    /// Reached from the plan editor's address: three columns of words, each word with the words it
    /// allows next, and a chooser for adding a symbol to a role.
    static func editor(_ context: RequestContext, plan: Plan, actor: Actor) throws -> Response {
        let query = context.request.query
        let page = try context.database.read { db in
            let grammar = try SentenceGrammar.fetch(planId: plan.id!, db)
            let patient = try User.fetchOne(db, key: plan.patientId)!
            var chooser: SentenceEditorPage.Chooser?
            if let role = query["add"].flatMap(SentenceWord.Role.init(rawValue:)) {
                let categories = try Category.forClinicianReadOnly(actor.userId, db)
                var symbols = SymbolScope.usable(by: actor.userId, for: plan.patientId).order(Column("name").collating(.nocase))
                if let category = query["category"].flatMap(Int64.init) { symbols = symbols.filter(Column("categoryId") == category) }
                if let search = query["q"], !search.isEmpty { symbols = symbols.filter(Column("name").like("%\(search)%")) }
                let taken = Set(grammar.words(role).map(\.symbol.id))
                chooser = SentenceEditorPage.Chooser(
                    role: role, search: query["q"] ?? "", category: query["category"] ?? "", categories: categories,
                    symbols: try symbols.limit(60).fetchAll(db).filter { !taken.contains($0.id) }, colours: categories, context.t)
            }
            return SentenceEditorPage(plan: plan, patientName: patient.displayName, grammar: grammar, chooser: chooser, context.t)
        }
        return context.render("aac/sentence-editor", title: "editor_title", page)
    }

    @Sendable static func addWord(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let form = context.request.form
        guard let role = form["role"].flatMap(SentenceWord.Role.init(rawValue:)), let symbolId = form["symbol"].flatMap(Int64.init)
        else { throw AppError.badRequest }
        return try context.database.write { db in
            let plan = try editablePlan(context, actor, db)
            guard try SymbolScope.usable(by: actor.userId, for: plan.patientId).filter(key: symbolId).fetchCount(db) == 1
            else { throw AppError.notFound }
            // The same symbol twice in one role would be two identical buttons: adding it again is a no-op.
            try db.execute(sql: "INSERT OR IGNORE INTO sentenceWord (planId, symbolId, role, isShortcut) VALUES (?, ?, ?, 0)",
                           arguments: [plan.id, symbolId, role.rawValue])
            try touch(plan, context, db, "word \(role.rawValue) \(symbolId)")
            return context.redirect(to: "/plans/\(plan.id!)/edit#\(role.rawValue)", flash: "sentence_word_added")
        }
    }

    @Sendable static func removeWord(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        return try context.database.write { db in
            let plan = try editablePlan(context, actor, db)
            let word = try wordOf(plan, context, db)
            try word.delete(db)  // its links go with it (ON DELETE CASCADE)
            try touch(plan, context, db, "remove word \(word.id!)")
            return context.redirect(to: "/plans/\(plan.id!)/edit#\(word.role.rawValue)", flash: "sentence_word_removed")
        }
    }

    @Sendable static func setShortcut(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        return try context.database.write { db in
            let plan = try editablePlan(context, actor, db)
            var word = try wordOf(plan, context, db)
            guard word.role == .verb else { throw AppError.badRequest }
            word.isShortcut = context.request.form["shortcut"] == "1"
            try word.update(db)
            try touch(plan, context, db, "shortcut \(word.id!) \(word.isShortcut)")
            return context.redirect(to: "/plans/\(plan.id!)/edit#word-\(word.id!)", flash: "sentence_links_saved")
        }
    }

    /// Replaces the words that may follow one word: a subject's verbs, or a verb's complements.
    @Sendable static func setLinks(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let chosen = Set(context.request.form.values("to").compactMap(Int64.init))
        return try context.database.write { db in
            let plan = try editablePlan(context, actor, db)
            let word = try wordOf(plan, context, db)
            guard let nextRole = word.role.next else { throw AppError.badRequest }
            let allowed = Set(try Int64.fetchAll(db, sql: "SELECT id FROM sentenceWord WHERE planId = ? AND role = ?",
                                                 arguments: [plan.id, nextRole.rawValue]))
            guard chosen.isSubset(of: allowed) else { throw AppError.badRequest }
            try SentenceLink.filter(Column("fromWordId") == word.id).deleteAll(db)
            for target in chosen.sorted() { try SentenceLink(fromWordId: word.id!, toWordId: target).insert(db) }
            try touch(plan, context, db, "links \(word.id!): \(chosen.count)")
            return context.redirect(to: "/plans/\(plan.id!)/edit#word-\(word.id!)", flash: "sentence_links_saved")
        }
    }

    private static func editablePlan(_ context: RequestContext, _ actor: Actor, _ db: Database) throws -> Plan {
        let plan = try PlanScope.editable(context.id("plan"), by: actor, db)
        guard plan.planType == .sentence else { throw AppError.notFound }
        return plan
    }

    private static func wordOf(_ plan: Plan, _ context: RequestContext, _ db: Database) throws -> SentenceWord {
        guard let word = try SentenceWord.filter(key: context.id("word")).filter(Column("planId") == plan.id).fetchOne(db)
        else { throw AppError.notFound }
        return word
    }

    private static func touch(_ plan: Plan, _ context: RequestContext, _ db: Database, _ detail: String) throws {
        try db.execute(sql: "UPDATE plan SET updatedAt = ? WHERE id = ?", arguments: [context.now, plan.id])
        try context.audit.record(.update, "plan", plan.id, detail, db)
    }

    // MARK: - Player

    /// The builder, one step at a time. Every word is on the page (its clip preloaded); the script shows
    /// only the words the last choice allows.
    static func player(_ context: RequestContext, plan: Plan) throws -> Response {
        let (grammar, known, access) = try context.database.read { db in
            (try SentenceGrammar.fetch(planId: plan.id!, db), try knownClips(planId: plan.id!, db),
             try AccessView.forPatient(plan.patientId, db))
        }
        let locale = language(of: grammar, fallback: context.locale)
        let negation = SentenceRules.negation(locale), voice = SpeechAudio.voice(for: locale)
        let render = { @Sendable (context: RequestContext, negationClip: String?) -> Response in
            context.render("aac/sentence-player", title: "player_title", SentencePlayerPage(
                plan: plan, grammar: grammar, knownClips: known, locale: locale, access: access,
                negationAudioURL: negationClip.map { "/media/audio/\($0)" }, context.t))
        }
        if let clip = context.app.speech.existing(text: negation, voice: voice) { return render(context, clip) }
        // The NO word's clip is made once per voice, off the request threads.
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in render(context, try? context.app.speech.clip(text: negation, voice: voice)) }, context)
        }
    }

    /// The sentences said before whose whole clip is ready: "wordIds|negated|question" → clip URL.
    static func knownClips(planId: Int64, _ db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT wordIds, negated, question, clip FROM sentence
            WHERE planId = ? AND wordIds IS NOT NULL AND clip IS NOT NULL
            GROUP BY wordIds, negated, question ORDER BY max(at) DESC LIMIT 500
            """, arguments: [planId])
        return Dictionary(rows.map { row -> (String, String) in
            let key = SentenceKey.make(wordIds: row["wordIds"], negated: row["negated"], question: row["question"])
            return (key, "/media/audio/\(row["clip"] as String)")
        }, uniquingKeysWith: { first, _ in first })
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
            try db.execute(sql: """
                INSERT OR IGNORE INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at, wordIds, negated, question)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [key, plan.patientId, plan.id, words.map { "\($0.symbol.id!)" }.joined(separator: ","), text,
                                 words.count, actor.supervisorId, at, wordIds, negated, question])
        }
        let voice = SpeechAudio.voice(for: locale)
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in
                let clip = try? context.app.speech.clip(text: text, voice: voice, question: question)
                if let clip {
                    let madeKnown = try context.database.write { db in
                        try db.execute(sql: "UPDATE sentence SET clip = ? WHERE planId = ? AND wordIds = ? AND negated = ? AND question = ? AND clip IS NULL",
                                       arguments: [clip, plan.id, wordIds, negated, question])
                        return db.changesCount > 0
                    }
                    // The builder's page lists the clips of sentences said before (see ReadCache).
                    if madeKnown { context.app.cache.invalidateAll() }
                }
                return try .json(["clip": clip.map { "/media/audio/\($0)" } ?? ""])
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
