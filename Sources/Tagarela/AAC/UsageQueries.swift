import Foundation
import GRDB
import HTTPServer

extension UsageRoutes {
    /// The filter of the usage pages, from the query string.
    struct Filter: Sendable {
        var from: String
        var to: String
        var planId: Int64?
        var symbolId: Int64?
        var assistedBy: Int64?
        /// The list shows the taps before this one (the last of the previous page); nil: the latest.
        var before: Int64?
        /// The child's own words (the default, as the record counts them), an adult's modeling, or both.
        var kind: Kind = .own

        enum Kind: String, Sendable, CaseIterable {
            case both, own, modeling

            /// The SQL condition on `table.modeling`, none for both.
            func condition(table: String) -> String? {
                switch self {
                case .both: nil
                case .own: "\(table).modeling = 0"
                case .modeling: "\(table).modeling = 1"
                }
            }
        }

        /// `unnamed` is the kind when the query names none: the page shows the child's own words, and an
        /// export (CSV, `.obl`), which marks each modeled tap, holds both.
        init(_ query: HTTPServer.Parameters, context: RequestContext, unnamed: Kind = .own) {
            let zone = context.configuration.timeZone
            let today = ISODate.string(context.now, timeZone: zone)
            from = query["from"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: zone) }
                ?? ISODate.adding(-29, to: today)
            to = query["to"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: zone) } ?? today
            planId = query["plan"].flatMap(Int64.init)
            symbolId = query["symbol"].flatMap(Int64.init)
            assistedBy = query["assisted"].flatMap(Int64.init)
            before = query["before"].flatMap(Int64.init)
            kind = query["kind"].flatMap(Kind.init(rawValue:)) ?? unnamed
        }

        /// The filter's own query, for the page's links (`before` aside: each link sets its own).
        func link(_ endpoint: Endpoint<Int64>, patientId: Int64, before: Int64? = nil) -> String {
            endpoint.path(patientId, query: ["from": from, "to": to, "plan": planId.map(String.init) ?? "",
                                             "assisted": assistedBy.map(String.init) ?? "", "kind": kind.rawValue,
                                             "before": before.map(String.init) ?? ""])
        }

        /// The same filter on the per-day summary `tapDay` (the child's own taps), whose days are already the clinic's.
        func dayCondition(patientId: Int64) -> (String, StatementArguments) {
            var sql = "patientId = ? AND day BETWEEN ? AND ?"
            var arguments: StatementArguments = [patientId, from, to]
            if let planId { sql += " AND planId = ?"; _ = arguments.append(contentsOf: [planId]) }
            if let symbolId { sql += " AND symbolId = ?"; _ = arguments.append(contentsOf: [symbolId]) }
            if let assistedBy { sql += " AND assistedBy = ?"; _ = arguments.append(contentsOf: [assistedBy]) }
            return (sql, arguments)
        }

        /// An SQL condition on the `tap` (or `sentence`) table and its arguments. Days are the clinic's days.
        func condition(patientId: Int64, timeZone: TimeZone, table: String = "tap") -> (String, StatementArguments) {
            let start = ISODate.date(from, timeZone: timeZone) ?? Date.distantPast
            let end = (ISODate.date(to, timeZone: timeZone) ?? Date.distantFuture).addingTimeInterval(86_400)
            var sql = "\(table).patientId = ? AND \(table).at >= ? AND \(table).at < ?"
            var arguments: StatementArguments = [patientId, start, end]
            if let planId { sql += " AND \(table).planId = ?"; _ = arguments.append(contentsOf: [planId]) }
            if let symbolId, table == "tap" { sql += " AND tap.symbolId = ?"; _ = arguments.append(contentsOf: [symbolId]) }
            if let assistedBy { sql += " AND \(table).assistedBy = ?"; _ = arguments.append(contentsOf: [assistedBy]) }
            if let modeling = kind.condition(table: table) { sql += " AND " + modeling }
            return (sql, arguments)
        }
    }

    struct TapRow: FetchableRecord, Sendable {
        let id: Int64
        let at: Date
        let planName: String?
        let symbolName: String?
        let assistedName: String?
        let modeling: Bool

        // Read by column position, not through `Decodable`: the usage page lists fifty of them.
        init(row: GRDB.Row) {
            id = row[0]
            at = row[1]
            planName = row[2]
            symbolName = row[3]
            assistedName = row[4]
            modeling = row[5]
        }
    }
}

/// What the usage history shows and exports, read in the request's one access.
enum UsageQueries {
    /// The usage page of a patient the actor may see.
    struct History: Sendable {
        let patientId: Int64
        let patientName: String
        /// The language of the patient's boards and words.
        let patientLocale: AppLocale?
        let total: Int
        let perDay: [(day: String, count: Int)]
        let top: [(name: String, count: Int)]
        let longest: [(text: String, words: Int, at: Date, assisted: String?)]
        /// One more than listed, to know whether older taps remain.
        let rows: [UsageRoutes.TapRow]
        let plans: [Plan]
        let people: [User]
    }

    static func history(patientId: Int64, visibleTo actor: Actor, _ filter: UsageRoutes.Filter, timeZone: TimeZone,
                        _ db: Database) throws -> History {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        let (perDay, perSymbol) = try counts(patientId: patient.userId, filter, timeZone: timeZone, db)
        let top = try topSymbols(perSymbol, limit: 10, db)
        let (sentenceCondition, sentenceArguments) = filter.condition(patientId: patient.userId, timeZone: timeZone, table: "sentence")
        let longest = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT sentence.text, sentence.wordCount, sentence.at, user.displayName AS assisted
            FROM sentence LEFT JOIN user ON user.id = sentence.assistedBy
            WHERE \(sentenceCondition) ORDER BY sentence.wordCount DESC, sentence.at DESC LIMIT 5
            """), arguments: sentenceArguments).map {
            (text: $0["text"] as String, words: $0["wordCount"] as Int, at: $0["at"] as Date, assisted: $0["assisted"] as String?)
        }
        let person = try PlanQueries.person(patient.userId, db)
        return History(
            patientId: patient.userId, patientName: person.name, patientLocale: person.locale,
            total: perDay.reduce(0) { $0 + $1.count }, perDay: perDay, top: top, longest: longest,
            rows: try taps(filter, patientId: patient.userId, limit: UsagePage.listedTaps + 1, before: filter.before,
                           timeZone: timeZone, db),
            plans: try Plan.fetchAll(db, SQLRequest(sql: "SELECT * FROM plan WHERE patientId = ? ORDER BY id",
                                                    arguments: [patient.userId], cached: true)),
            people: try People.tutors(of: patient.userId, db))
    }

    /// Taps per day (in the order of days) and per symbol id of the filter's period. The child's own taps
    /// without a filter on the board or the adult come from the summaries of `tapDay`
    /// (`TapDays.v3DayTotalsAndFirstUse`): the daily totals and one short range of days per symbol the
    /// patient ever used; with such a filter from `tapDay` in one pass in the order of days (a heavy
    /// month's 1 200 rows). Modeled taps, alone or with the child's, are counted from the taps themselves:
    /// `tapDay` holds only the child's own (`TapDays.v4OwnTapsOnly`).
    static func counts(patientId: Int64, _ filter: UsageRoutes.Filter, timeZone: TimeZone,
                       _ db: Database) throws -> (perDay: [(day: String, count: Int)], perSymbol: [Int64: Int]) {
        var perDay: [(day: String, count: Int)] = [], perSymbol: [Int64: Int] = [:]
        if filter.kind == .own, filter.planId == nil, filter.assistedBy == nil {
            let period: StatementArguments = [patientId, filter.from, filter.to]
            if let symbolId = filter.symbolId {
                let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT day, n FROM tapSymbolDay WHERE patientId = ? AND day BETWEEN ? AND ? AND symbolId = ? ORDER BY day
                    """), arguments: period + [symbolId])
                while let row = try rows.next() { perDay.append((day: row[0], count: row[1])) }
                let total = perDay.reduce(0) { $0 + $1.count }
                if total > 0 { perSymbol[symbolId] = total }
            } else {
                let days = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT day, n FROM tapDayTotal WHERE patientId = ? AND day BETWEEN ? AND ? ORDER BY day
                    """), arguments: period)
                while let row = try days.next() { perDay.append((day: row[0], count: row[1])) }
                let symbols = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT first.symbolId,
                           (SELECT sum(n) FROM tapSymbolDay AS used WHERE used.patientId = first.patientId
                            AND used.symbolId = first.symbolId AND used.day BETWEEN ?2 AND ?3)
                    FROM tapSymbolFirst AS first WHERE first.patientId = ?1 AND first.day <= ?3
                    """), arguments: period)
                while let row = try symbols.next() {
                    if let n: Int = row[1] { perSymbol[row[0]] = n }
                }
            }
            return (perDay, perSymbol)
        }
        let (condition, arguments) = filter.kind == .own ? filter.dayCondition(patientId: patientId)
            : filter.condition(patientId: patientId, timeZone: timeZone)
        let counted = filter.kind == .own ? "SELECT day, symbolId, n FROM tapDay WHERE \(condition) ORDER BY day" : """
            SELECT date(tap.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds') AS day, tap.symbolId, count(*)
            FROM tap WHERE \(condition) GROUP BY day, tap.symbolId ORDER BY day
            """
        let rows = try Row.fetchCursor(db.cachedStatement(sql: counted), arguments: arguments)
        while let row = try rows.next() {
            let day: String = row[0], n: Int = row[2]
            if day == perDay.last?.day { perDay[perDay.count - 1].count += n } else { perDay.append((day: day, count: n)) }
            if let symbolId: Int64 = row[1] { perSymbol[symbolId, default: 0] += n }
        }
        return (perDay, perSymbol)
    }

    /// The `limit` most tapped symbols of `counts` (taps per symbol id) that still exist, with their names;
    /// ties by name as SQLite's BINARY collation orders them (bytes of UTF-8), as the page always listed them.
    static func topSymbols(_ counts: [Int64: Int], limit: Int, _ db: Database) throws -> [(name: String, count: Int)] {
        let ranked = counts.sorted { $0.value > $1.value }
        // The names of every symbol as frequent as the last one listed, for the ties; of all of them when
        // deleted symbols leave fewer than `limit`.
        func named(_ ids: some Sequence<Int64>) throws -> [(name: String, count: Int)] {
            var found: [(name: String, count: Int)] = []
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, name FROM symbol WHERE id IN (SELECT value FROM json_each(?))"),
                                           arguments: [SQLiteJSON.list(ids)])
            while let row = try rows.next() { found.append((name: row[1], count: counts[row[0]] ?? 0)) }
            return found
        }
        let least = ranked.count > limit ? ranked[limit - 1].value : 0
        var found = try named(ranked.prefix { $0.value >= least }.map(\.key))
        if found.count < min(limit, ranked.count) { found = try named(ranked.map(\.key)) }
        found.sort { $0.count != $1.count ? $0.count > $1.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return Array(found.prefix(limit))
    }

    /// The period's taps, latest first; `before` (a tap of this patient) starts the list after it.
    static func taps(_ filter: UsageRoutes.Filter, patientId: Int64, limit: Int?, before: Int64? = nil, timeZone: TimeZone,
                     _ db: Database) throws -> [UsageRoutes.TapRow] {
        var (condition, arguments) = filter.condition(patientId: patientId, timeZone: timeZone)
        if let before {
            condition += " AND (tap.at, tap.id) < (SELECT at, id FROM tap WHERE id = ? AND patientId = ?)"
            _ = arguments.append(contentsOf: [before, patientId])
        }
        return try UsageRoutes.TapRow.fetchAll(db.cachedStatement(sql: """
            SELECT tap.id, tap.at, plan.name AS planName, symbol.name AS symbolName, user.displayName AS assistedName, tap.modeling
            FROM tap LEFT JOIN plan ON plan.id = tap.planId LEFT JOIN symbol ON symbol.id = tap.symbolId
            LEFT JOIN user ON user.id = tap.assistedBy
            WHERE \(condition) ORDER BY tap.at DESC, tap.id DESC \(limit.map { "LIMIT \($0)" } ?? "")
            """), arguments: arguments)
    }

    /// Every tap of the period, for the CSV: an export of health data, so audited here.
    static func exportTaps(patientId: Int64, visibleTo actor: Actor, _ filter: UsageRoutes.Filter, timeZone: TimeZone,
                           audit: AuditContext, _ db: Database) throws -> [UsageRoutes.TapRow] {
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        try audit.record(.export, "patient", patient.userId, "usage.csv \(filter.from)…\(filter.to)", db)
        return try taps(filter, patientId: patient.userId, limit: nil, timeZone: timeZone, db)
    }
}
