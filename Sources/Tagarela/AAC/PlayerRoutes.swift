import Foundation
import GRDB
import HTTPServer
import Mustache

/// The patient's side: their boards, the player, and the tap log.
enum PlayerRoutes {
    static let templates = ["aac/play-list", "aac/player", "aac/board-grid"]

    static func add(to router: inout Router<Route>) {
        router.legacy(PlayerEndpoints.list, list)
        router.legacy(PlayerEndpoints.play, play)
        router.legacy(PlayerEndpoints.recordTap, recordTap)
    }

    @Sendable static func list(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let plans = try Plan.filter(Column("patientId") == actor.userId).order(Column("startsOn").desc, Column("id")).fetchAll(db)
            return PlayListPage(plans: try plans.map { plan in
                let first = plan.planType == .sentence
                    ? try SentenceGrammar.fetch(planId: plan.id!, db).words.first?.symbol
                    : try BoardScreen.fetch(plan, db).cells.first { $0.symbol != nil }?.symbol
                return PlayListPage.Tile(id: plan.id!, name: plan.name, imageURL: first?.imageURL)
            })
        }
        return context.render("aac/play-list", title: "play_title", page)
    }

    @Sendable static func play(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        // The page a child reloads all day: kept whole until a board, symbol or account changes.
        return try context.cachedPage("play \(context.request.path) \(context.request.query["from"] ?? "")") {
            try renderPlay(actor, context)
        }
    }

    static func renderPlay(_ actor: Actor, _ context: RequestContext) throws -> Response {
        let screen = try context.database.read { db -> PlayerScreen in
            let plan = try PlanScope.find(context.id("plan"), visibleTo: actor, db)
            if plan.planType == .sentence { return .sentence(plan) }
            // Opened from folder cells: the boards on the way here, root first (`BoardTrail`). Only this
            // patient's boards count; anything else in the link is dropped.
            let asked = BoardTrail.parse(context.request.query["from"])
            let known = asked.isEmpty ? [] : Set(try Int64.fetchAll(db, Plan.select(Column("id"))
                .filter(keys: asked).filter(Column("patientId") == plan.patientId)))
            let trail = BoardTrail(boards: asked.filter(known.contains))
            // The grid is the same for every request until its cells or one of its symbols change: the key
            // holds the cells themselves and the symbols' latest change, so a stale grid is never asked for.
            let version = try String.fetchOne(db, SQLRequest<String>(sql: """
                SELECT group_concat(c.position || ':' || coalesce(c.symbolId, '') || ':' || coalesce(c.linkPlanId, ''), ',')
                       || '|' || coalesce(max(s.updatedAt), '')
                FROM planCell c LEFT JOIN symbol s ON s.id = c.symbolId WHERE c.planId = ?
                """, arguments: [plan.id], cached: true)) ?? ""
            let key = "board \(plan.id!) \(plan.rows)x\(plan.columns) \(version) \(context.locale.rawValue)"
            let grid = try context.app.fragments.value(for: key) {
                context.app.renderFragmentHTML("aac/board-grid", BoardView(try BoardScreen.fetch(plan, db), context.t),
                                               locale: context.locale)
            }
            return .board(PlayerPage(planId: plan.id!, patientId: plan.patientId, name: plan.name,
                                     isBigSymbol: plan.planType == .bigSymbol, grid: trail.folderLinks(in: grid, from: plan.id!),
                                     offlineText: context.t["player_offline"], backURL: trail.backURL, homeURL: trail.homeURL,
                                     access: try AccessView.forPatient(plan.patientId, db)))
        }
        switch screen {
        case .board(let page): return context.render("aac/player", title: "player_title", page)
        case .sentence(let plan): return try SentenceRoutes.player(context, plan: plan)
        }
    }

    /// Called by the player's script for every tap, possibly late (queued while offline). The browser's
    /// key makes it idempotent: a tap sent twice is stored once. Answers 204 either way.
    @Sendable static func recordTap(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let form = context.request.form
        guard let key = form["key"], (8...64).contains(key.count), key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
              let planId = form["plan"].flatMap(Int64.init)
        else { throw AppError.badRequest }
        let at = TapTime.accept(form["at"], now: context.now)
        if form["words"] != nil {
            return try SentenceRoutes.recordSentence(context, actor: actor, key: key, planId: planId, at: at)
        }
        if let symbols = form["symbols"] {
            try recordSentence(symbols, key: key, planId: planId, at: at, actor: actor, context)
            return Response(status: .noContent)
        }
        guard let symbolId = form["symbol"].flatMap(Int64.init) else { throw AppError.badRequest }
        try context.database.write { db in
            let plan = try PlanScope.find(planId, visibleTo: actor, db)
            // The most frequent write: its statements are prepared once per connection (the insert's
            // triggers made preparing it a quarter of the request).
            let onPlan = try Bool.fetchOne(db.cachedStatement(sql: plan.planType == .sentence
                ? "SELECT EXISTS (SELECT 1 FROM sentenceWord WHERE planId = ? AND symbolId = ?)"
                : "SELECT EXISTS (SELECT 1 FROM planCell WHERE planId = ? AND symbolId = ?)"), arguments: [plan.id, symbolId])
            guard onPlan == true else { throw AppError.notFound }
            try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO tap (key, patientId, planId, symbolId, assistedBy, at, receivedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [key, actor.userId, plan.id, symbolId, actor.supervisorId, at, context.now])
        }
        return Response(status: .noContent)
    }
}

extension PlayerRoutes {
    /// A sentence spoken from the strip: its symbols in order, each of them usable on this patient's boards.
    static func recordSentence(_ list: String, key: String, planId: Int64, at: Date, actor: Actor, _ context: RequestContext) throws {
        let ids = list.split(separator: ",").compactMap { Int64($0) }
        guard (1...100).contains(ids.count) else { throw AppError.badRequest }
        try context.database.write { db in
            let plan = try PlanScope.find(planId, visibleTo: actor, db)
            let symbols = Dictionary(uniqueKeysWithValues: try Symbol.fetchAll(db, keys: Set(ids)).map { ($0.id!, $0) })
            let onBoards = Set(try Int64.fetchAll(db, sql: """
                SELECT DISTINCT symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
                WHERE plan.patientId = ? AND symbolId IS NOT NULL
                """, arguments: [plan.patientId]))
            guard ids.allSatisfy({ symbols[$0] != nil && onBoards.contains($0) }) else { throw AppError.notFound }
            try db.execute(sql: """
                INSERT OR IGNORE INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [key, plan.patientId, plan.id, ids.map(String.init).joined(separator: ","),
                                 ids.compactMap { symbols[$0]?.name }.joined(separator: " "), ids.count, actor.supervisorId, at])
        }
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

/// What `/play/:plan` shows: a board (or big symbol) ready to render, or a sentence plan's builder.
enum PlayerScreen {
    case board(PlayerPage)
    case sentence(Plan)
}

struct PlayListPage: Sendable {
    struct Tile: Sendable {
        let id: Int64
        let name: String
        let imageURL: String?
    }
    let plans: [Tile]
}

/// The boards a child went through by folder cells to reach this one, root first: carried in the
/// links as `?from=3,8` so Back and Home need no state on the tablet (and work from a kept offline copy).
/// Pure.
struct BoardTrail: Equatable {
    static let longest = 8
    var boards: [Int64]

    /// `from=3,8` → [3, 8]; junk, repeats and anything past the eighth board are dropped.
    static func parse(_ text: String?) -> [Int64] {
        var seen = Set<Int64>()
        return (text ?? "").split(separator: ",").prefix(longest).compactMap { Int64($0) }.filter { $0 > 0 && seen.insert($0).inserted }
    }

    static func query(_ boards: [Int64]) -> String {
        boards.isEmpty ? "" : "?from=" + boards.map(String.init).joined(separator: ",")
    }

    /// The board one step back, with the trail that led to it.
    var backURL: String? { boards.last.map { "/play/\($0)" + BoardTrail.query(boards.dropLast()) } }
    /// The root of the board set: where the child entered it.
    var homeURL: String? { boards.first.map { "/play/\($0)" } }

    /// The grid is cached with folder links one step deep (`?from=<this board>`); here they get the whole trail.
    func folderLinks(in grid: String, from board: Int64) -> String {
        guard !boards.isEmpty else { return grid }
        let trail = (boards + [board]).suffix(BoardTrail.longest)
        return grid.replacingOccurrences(of: "?from=\(board)\"", with: BoardTrail.query(Array(trail)) + "\"")
    }
}

struct PlayerPage: Sendable, MustacheParent {
    let planId: Int64
    let patientId: Int64
    let name: String
    let isBigSymbol: Bool
    /// The board's cells, rendered once per version of the board (see `FragmentCache`).
    let grid: String
    let offlineText: String
    let backURL: String?
    let homeURL: String?
    let access: AccessView

    func child(named name: String) -> Any? {
        switch name {
        case "planId": planId
        case "patientId": patientId
        case "name": self.name
        case "isBigSymbol": isBigSymbol
        case "grid": grid
        case "offlineText": offlineText
        case "backURL": backURL
        case "homeURL": homeURL
        case "access": access
        default: nil
        }
    }
}
