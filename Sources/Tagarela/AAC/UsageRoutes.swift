import Foundation
import GRDB
import HTTPServer

/// Usage history (taps) and observations, for the patient's clinicians and tutors.
enum UsageRoutes {
    static let templates = ["aac/usage", "aac/observations", "aac/observations-print"]

    static func add(to router: inout Router<Route>) {
        router.legacy(UsageEndpoints.usage, usage)
        router.legacy(UsageEndpoints.usageCSV, usageCSV)
        router.legacy(UsageEndpoints.observations, observations)
        router.legacy(UsageEndpoints.addObservation, addObservation)
        router.legacy(UsageEndpoints.printObservations, printObservations)
    }

    /// The filter of the usage pages, from the query string.
    struct Filter: Sendable {
        var from: String
        var to: String
        var planId: Int64?
        var symbolId: Int64?
        var assistedBy: Int64?
        /// The list shows the taps before this one (the last of the previous page); nil: the latest.
        var before: Int64?

        init(_ query: HTTPServer.Parameters, context: RequestContext) {
            let zone = context.app.configuration.timeZone
            let today = ISODate.string(context.now, timeZone: zone)
            from = query["from"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: zone) }
                ?? ISODate.adding(-29, to: today)
            to = query["to"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: zone) } ?? today
            planId = query["plan"].flatMap(Int64.init)
            symbolId = query["symbol"].flatMap(Int64.init)
            assistedBy = query["assisted"].flatMap(Int64.init)
            before = query["before"].flatMap(Int64.init)
        }

        /// The same filter on the per-day summary `tapDay`, whose days are already the clinic's.
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
            return (sql, arguments)
        }
    }

    struct TapRow: FetchableRecord, Sendable {
        let id: Int64
        let at: Date
        let planName: String?
        let symbolName: String?
        let assistedName: String?

        // Read by column position, not through `Decodable`: the usage page lists fifty of them.
        init(row: GRDB.Row) {
            id = row[0]
            at = row[1]
            planName = row[2]
            symbolName = row[3]
            assistedName = row[4]
        }
    }

    /// The period's taps, latest first; `before` (a tap of this patient) starts the list after it.
    static func rows(_ filter: Filter, patientId: Int64, limit: Int?, before: Int64? = nil, _ db: Database,
                     timeZone: TimeZone) throws -> [TapRow] {
        var (condition, arguments) = filter.condition(patientId: patientId, timeZone: timeZone)
        if let before {
            condition += " AND (tap.at, tap.id) < (SELECT at, id FROM tap WHERE id = ? AND patientId = ?)"
            _ = arguments.append(contentsOf: [before, patientId])
        }
        return try TapRow.fetchAll(db.cachedStatement(sql: """
            SELECT tap.id, tap.at, plan.name AS planName, symbol.name AS symbolName, user.displayName AS assistedName
            FROM tap LEFT JOIN plan ON plan.id = tap.planId LEFT JOIN symbol ON symbol.id = tap.symbolId
            LEFT JOIN user ON user.id = tap.assistedBy
            WHERE \(condition) ORDER BY tap.at DESC, tap.id DESC \(limit.map { "LIMIT \($0)" } ?? "")
            """), arguments: arguments)
    }

    @Sendable static func usage(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let filter = Filter(context.request.query, context: context)
        let zone = context.app.configuration.timeZone
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            // Counts come from the per-day summary (`TapDays`): a few hundred rows even for 100 000 taps.
            let (condition, arguments) = filter.dayCondition(patientId: patient.userId)
            // Statements are prepared once per connection: parsing them was a tenth of the page.
            let perDay = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT day, sum(n) AS n FROM tapDay WHERE \(condition) GROUP BY day
                """), arguments: arguments).map { (day: $0["day"] as String, count: $0["n"] as Int) }
            let total = perDay.reduce(0) { $0 + $1.count }
            let top = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT symbol.name AS name, counted.n AS n
                FROM (SELECT symbolId, sum(n) AS n FROM tapDay WHERE \(condition) GROUP BY symbolId) AS counted
                JOIN symbol ON symbol.id = counted.symbolId
                ORDER BY counted.n DESC, symbol.name LIMIT 10
                """), arguments: arguments).map { (name: $0["name"] as String, count: $0["n"] as Int) }
            let (sentenceCondition, sentenceArguments) = filter.condition(patientId: patient.userId, timeZone: zone, table: "sentence")
            let longest = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT sentence.text, sentence.wordCount, sentence.at, user.displayName AS assisted
                FROM sentence LEFT JOIN user ON user.id = sentence.assistedBy
                WHERE \(sentenceCondition) ORDER BY sentence.wordCount DESC, sentence.at DESC LIMIT 5
                """), arguments: sentenceArguments).map {
                (text: $0["text"] as String, words: $0["wordCount"] as Int, at: $0["at"] as Date, assisted: $0["assisted"] as String?)
            }
            return UsagePage(
                patientId: patient.userId,
                patientName: try String.fetchOne(db.cachedStatement(sql: "SELECT displayName FROM user WHERE id = ?"),
                                                 arguments: [patient.userId]) ?? "",
                filter: filter,
                total: total, perDay: perDay, top: top, longest: longest,
                // One more than listed, to know whether older taps remain.
                rows: try rows(filter, patientId: patient.userId, limit: UsagePage.listedTaps + 1, before: filter.before, db,
                               timeZone: zone),
                plans: try Plan.fetchAll(db, SQLRequest(sql: "SELECT * FROM plan WHERE patientId = ? ORDER BY id",
                                                        arguments: [patient.userId], cached: true)),
                people: try People.tutors(of: patient.userId, db), context: context)
        }
        return context.render("aac/usage", title: "usage_title", page)
    }

    @Sendable static func usageCSV(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let filter = Filter(context.request.query, context: context)
        let zone = context.app.configuration.timeZone
        let rows = try context.database.write { db -> [TapRow] in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            try context.audit.record(.export, "patient", patient.userId, "usage.csv \(filter.from)…\(filter.to)", db)
            return try Self.rows(filter, patientId: patient.userId, limit: nil, db, timeZone: zone)
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        let header = [context.t["usage_when"], context.t["usage_plan"], context.t["usage_symbol"], context.t["usage_assisted"]]
        let lines = [header] + rows.map { [formatter.string(from: $0.at), $0.planName ?? "", $0.symbolName ?? "", $0.assistedName ?? ""] }
        let csv = lines.map { $0.map(CSV.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        return .download(csv.utf8, type: "text/csv; charset=utf-8", name: "usage-\(filter.from)-\(filter.to).csv")
    }

    // MARK: - Observations

    @Sendable static func observations(_ context: RequestContext) throws -> Response {
        try observationsPage(context, form: FormState(values: ["observedOn": ISODate.string(context.now, timeZone: context.app.configuration.timeZone)]))
    }

    static func observationsPage(_ context: RequestContext, form: FormState, status: Status = .ok) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in try observationsModel(context, actor: actor, form: form, db) }
        return context.render("aac/observations", title: "observations_title", page, status: status)
    }

    static func observationsModel(_ context: RequestContext, actor: Actor, form: FormState, _ db: Database) throws -> ObservationsPage {
        let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
        var request = Observation.filter(Column("patientId") == patient.userId)
        // Tutors read their own notes; clinicians read theirs, each other's and the tutors'.
        if actor.role == .tutor { request = request.filter(Column("authorId") == actor.userId) }
        let notes = try request.order(Column("observedOn").desc, Column("id").desc).fetchAll(db)
        return ObservationsPage(patientId: patient.userId, patientName: try User.fetchOne(db, key: patient.userId)!.displayName,
                                notes: notes, form: form, isClinician: actor.role == .clinician, context: context)
    }

    /// The notes alone, for paper: an export of health data, so audited.
    @Sendable static func printObservations(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.write { db in
            let page = try observationsModel(context, actor: actor, form: FormState(), db)
            try context.audit.record(.export, "patient", page.patientId, "print observations (\(page.notes.count))", db)
            return page
        }
        return context.render("aac/observations-print", title: "observations_title", page)
    }

    @Sendable static func addObservation(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["body", "observedOn"])
        let body = form.required("body", context.t["error_observation_required"])
        let date = context.format.parseDate(form["observedOn"])
        if date == nil || date! > context.now { form.fail("observedOn", context.t["error_date_invalid"]) }
        guard let body, let date, !form.hasErrors else { return try observationsPage(context, form: form, status: .unprocessableContent) }
        let patientId = try context.database.write { db -> Int64 in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            var note = Observation(patientId: patient.userId, authorId: actor.userId, authorName: actor.displayName,
                                   authorRole: actor.role.rawValue, observedOn: ISODate.string(date, timeZone: context.format.timeZone),
                                   body: body, isPrivate: actor.role == .clinician, createdAt: context.now)
            try note.insert(db)
            try context.audit.record(.create, "observation", note.id, String(body.prefix(60)), db)
            return patient.userId
        }
        return context.redirect(to: "/patients/\(patientId)/observations", flash: "observation_saved")
    }
}

/// RFC 4180 fields; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula.
enum CSV {
    static func field(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
