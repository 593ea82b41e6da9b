import Foundation
import GRDB
import HTTPServer

/// The patient's side: their boards, the player, and the tap log.
enum PlayerRoutes: Feature {
    static let templates = ["aac/play-list", "aac/player", "aac/board-grid", "aac/board-cell"]

    static func add(to router: inout Router<Route>) {
        router.add(PlayerEndpoints.list) { $0.read(list) }
        // The page a child reloads all day: kept whole until a board, symbol or account changes.
        router.add(PlayerEndpoints.play) { $0.cached(as: playKey).read(screen).finish(play) }
        // A sentence plan's sentence is logged, then its whole clip made and kept: two writes.
        router.add(PlayerEndpoints.recordTap) { $0.write(recordTap).slow(.media, speakSentence).write(keepSentenceClip) }
    }

    /// The board, and the folder the child came from (its back button).
    @Sendable static func playKey(_ context: RequestContext, _ planId: Int64) -> String {
        "play \(PlayerEndpoints.play.path(planId)) \(context.request.query["from"] ?? "")"
    }

    @Sendable static func list(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        return .page("aac/play-list", title: "play_title", PlayListPage(try PlayerQueries.boards(patientId: actor.userId, db)))
    }

    @Sendable static func screen(_ context: RequestContext, _ db: Database, _ planId: Int64) throws -> PlayerQueries.Screen {
        // Opened from folder cells: the boards on the way here, root first (`BoardTrail`).
        try PlayerQueries.screen(planId: planId, visibleTo: context.requireActor(), trail: BoardTrail.parse(context.request.query["from"]),
                                 grids: context.caches.fragments, locale: context.locale, voices: context.speech.voices, db)
    }

    @Sendable static func play(_ context: RequestContext, _ screen: PlayerQueries.Screen, _: Int64) throws -> Finish {
        switch screen {
        case .board(let board):
            let plan = board.plan
            let page = { @Sendable (grid: String) -> Reply in
                .page("aac/player", title: "player_title", PlayerPage(
                    planId: plan.id!, patientId: plan.patientId, name: plan.name, isBigSymbol: plan.planType == .bigSymbol,
                    grid: board.trail.folderLinks(in: grid, from: plan.id!), offlineText: context.t["player_offline"],
                    backURL: board.trail.backURL, homeURL: board.trail.homeURL, access: board.access))
            }
            if let grid = board.grid { return .reply(page(grid)) }
            // The grid is rendered once per version of the board, with each word's agreeing forms and
            // their clips; clips not made yet are made first, on the media pool (once per form, ever).
            let screen = board.screen!
            let symbols = screen.cells.compactMap(\.symbol)
            let words = BoardWords.words(for: symbols, forms: board.forms, fallback: context.locale, speaking: board.voice.engine)
            // Generated clips in the patient's chosen voice (`PatientVoice`); a recording stays first.
            let voiced = board.voice.clips(for: symbols, fallback: context.locale)
            let render = { @Sendable () -> Reply in
                page(context.caches.fragments.value(for: board.gridKey) {
                    let spoken = PatientVoice.screen(screen, clips: voiced, context.speech)
                    let grid = PlayerGrid(BoardView(spoken, context.t), words: words.mapValues(\.word)).renderingCells { cell in
                        context.caches.boardCells.value(for: cell.key(in: context.locale)) {
                            context.renderFragmentHTML("aac/board-cell", PlayerGrid.CellFragment(cell: cell))
                        }
                    }
                    return context.renderFragmentHTML("aac/board-grid", grid)
                })
            }
            let missing = BoardWords.missing(words.values.flatMap(\.clips) + voiced.values, context.speech)
            if missing.isEmpty { return .reply(render()) }
            let speech = context.speech
            return .later(.media) {
                BoardWords.make(missing, speech)
                return render()
            }
        case .sentence(let sentence):
            let locale = SentenceRoutes.language(of: sentence.grammar, fallback: context.locale)
            let speech = context.speech
            let page = { @Sendable (clips: SentenceClips) -> Reply in
                .page("aac/sentence-player", title: "player_title", SentencePlayerPage(
                    plan: sentence.plan, grammar: sentence.grammar, clips: clips, locale: locale, access: sentence.access, context.t))
            }
            let voice = sentence.voice
            if let clips = SentenceClips.find(sentence.grammar, locale: locale, voice: voice, speech, make: false) { return .reply(page(clips)) }
            // The NO word's, the agreeing forms' and the voiced words' clips are made once, off the request threads.
            return .later(.media) { page(SentenceClips.find(sentence.grammar, locale: locale, voice: voice, speech, make: true)!) }
        }
    }

    /// Called by the player's script for every tap, possibly late (queued while offline). The browser's
    /// key makes it idempotent: a tap sent twice is stored once. Answers 204 either way; a sentence
    /// plan's sentence answers its whole clip, made after the sentence is logged.
    @Sendable static func recordTap(_ context: RequestContext, _ db: Database) throws -> Step<Taps.SpokenSentence> {
        let actor = try context.requireActor()
        let form = context.request.form
        guard let key = form["key"], (8...64).contains(key.count), key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
              let planId = form["plan"].flatMap(Int64.init)
        else { throw AppError.badRequest }
        let at = TapTime.accept(form["at"], now: context.now)
        let modeling = context.signedIn?.session.modeling == true
        let alone = context.signedIn?.session.alone == true
        if let words = form["words"] {
            return .next(try Taps.recordSentence(
                wordIds: words.split(separator: ",").compactMap { Int64($0) }, negated: form["negated"] == "1",
                question: form["question"] == "1", key: key, planId: planId, at: at, actor: actor, fallback: context.locale,
                voices: context.speech.voices, modeling: modeling, alone: alone, db))
        }
        if let symbols = form["symbols"] {
            try Taps.recordStrip(symbolIds: symbols.split(separator: ",").compactMap { Int64($0) }, key: key, planId: planId, at: at,
                                 actor: actor, modeling: modeling, alone: alone, db)
        } else {
            guard let symbolId = form["symbol"].flatMap(Int64.init) else { throw AppError.badRequest }
            try Taps.record(symbolId: symbolId, key: key, planId: planId, at: at, receivedAt: context.now, actor: actor,
                            modeling: modeling, alone: alone, db)
        }
        return .reply(.status(.noContent))
    }

    /// The whole sentence as one clip, made on the media pool; none when espeak-ng fails.
    @Sendable static func speakSentence(_ context: RequestContext, _ sentence: Taps.SpokenSentence)
        throws -> Step<(clip: String, sentence: Taps.SpokenSentence)> {
        guard let clip = try? context.speech.clip(text: sentence.text, voice: sentence.voice, question: sentence.question) else {
            return .reply(Reply(try .json(["clip": ""])))
        }
        return .next((clip, sentence))
    }

    @Sendable static func keepSentenceClip(_ context: RequestContext, _ db: Database,
                                           _ made: (clip: String, sentence: Taps.SpokenSentence)) throws -> Reply {
        // The builder's page lists the clips of sentences said before, and the sentence log is not
        // watched by the read cache (see `ReadCache.trackedTables`).
        if try Taps.keepClip(made.clip, for: made.sentence, db) { context.caches.pages.invalidateAll() }
        return Reply(try .json(["clip": PlanEndpoints.audio.path(made.clip)]))
    }
}


/// When a tap happened, as the browser says, within reason. Pure.
enum TapTime {
    /// Taps queued offline keep their real time, up to 30 days back; a clock in the future or
    /// an unreadable time counts as "now".
    static func accept(_ text: String?, now: Date) -> Date {
        guard let text else { return now }
        // What the browser's toISOString() writes, with or without the milliseconds. Format styles are
        // values: no formatter object is built per tap.
        guard let date = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
                ?? (try? Date.ISO8601FormatStyle().parse(text)),
              date <= now.addingTimeInterval(300), date >= now.addingTimeInterval(-30 * 86_400)
        else { return now }
        return min(date, now)
    }
}
