import Foundation
import GRDB

/// What the patient's player reads, each in the request's one access.
enum PlayerQueries {
    /// A board of the list: its first picture stands for it.
    struct Tile: Sendable {
        let planId: Int64
        let name: String
        let imageURL: String?
    }

    /// The patient's plans, latest start first; an imported set is one entry, its root board.
    static func boards(patientId: Int64, _ db: Database) throws -> [Tile] {
        let plans = try Plan.fetchAll(db, SQLRequest(sql: """
            SELECT * FROM plan WHERE patientId = ? AND \(OBFSets.listedToChild) ORDER BY startsOn DESC, id
            """, arguments: [patientId], cached: true))
        // Each plan's tile picture in one statement, not each board read whole (its cells, symbols,
        // categories and links: 4 statements a board, half of this page's time): its cover (`BoardCovers`).
        var firstSymbols: [Int64: Symbol] = [:]
        for row in try Row.fetchAll(db, SQLRequest(sql: """
            SELECT plan.id, symbol.* FROM plan JOIN symbol ON symbol.id = \(BoardCovers.symbolOfPlan)
            WHERE plan.patientId = ?
            """, arguments: [patientId], adapter: ScopeAdapter(["symbol": SuffixRowAdapter(fromIndex: 1)]), cached: true)) {
            firstSymbols[row[0]] = try Symbol(row: row.scopes["symbol"]!)
        }
        return plans.map { Tile(planId: $0.id!, name: $0.name, imageURL: firstSymbols[$0.id!]?.imageURL) }
    }

    /// What `/play/:plan` shows: a board (or big symbol), or a sentence plan's builder.
    enum Screen: Sendable {
        case board(Board)
        case sentence(Sentence)
    }

    struct Board: Sendable {
        let plan: Plan
        let trail: BoardTrail
        /// Names the grid's rendering: the board, its size, its grid's version (`GridVersions`) and the
        /// language (see `FragmentCache`).
        let gridKey: String
        /// The grid as rendered before, if it was.
        let grid: String?
        /// The cells, read only when the grid is not already rendered under `gridKey`.
        let screen: BoardScreen?
        let access: AccessView
        /// The voice the patient's generated clips speak with (their clinician's choice, if installed).
        let voice: PatientVoice
        /// The grammar of the cells' symbols (`WordFormStore`), read with `screen`.
        var forms: [Int64: WordForms] = [:]
    }

    struct Sentence: Sendable {
        let plan: Plan
        let grammar: SentenceGrammar
        let access: AccessView
        /// The voice the builder's generated clips speak with, as on the boards.
        let voice: PatientVoice
    }

    /// The plan `actor` may play, with what its page shows. `trail` is the `from` of the link, the
    /// boards opened on the way here; only this patient's boards are kept from it. A grid already in
    /// `grids` (rendered in `locale`) needs no cells read.
    static func screen(planId: Int64, visibleTo actor: Actor, trail asked: [Int64], grids: FragmentCache, locale: AppLocale,
                       voices: Set<SpeechVoice>, _ db: Database) throws -> Screen {
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        let access = try AccessView.forPatient(plan.patientId, db)
        if plan.planType == .sentence {
            return .sentence(Sentence(plan: plan, grammar: try SentenceGrammar.fetch(planId: plan.id!, db), access: access,
                                      voice: PatientVoice(chosen: access.settings.voice, installed: voices)))
        }
        let known = asked.isEmpty ? [] : Set(try Int64.fetchAll(db, Plan.select(Column("id"))
            .filter(keys: asked).filter(Column("patientId") == plan.patientId)))
        // The grid is the same for every request until its version moves (`GridVersions`), so a stale grid
        // is never asked for.
        let voice = PatientVoice(chosen: access.settings.voice, installed: voices)
        let key = "board \(plan.id!) \(plan.rows)x\(plan.columns) v\(try GridVersions.version(planId: plan.id!, db)) \(locale.rawValue) \(voice.key)"
        let grid = grids.cached(key)
        let screen = grid == nil ? try BoardScreen.fetch(plan, db) : nil
        return .board(Board(plan: plan, trail: BoardTrail(boards: asked.filter(known.contains)), gridKey: key,
                            grid: grid, screen: screen, access: access, voice: voice,
                            forms: try screen.map { try WordFormStore.forms(for: $0.cells.compactMap(\.symbol), db) } ?? [:]))
    }
}
