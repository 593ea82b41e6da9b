import Foundation
import GRDB

/// A goal's state, computed from the record each time it is shown and never stored.
enum GoalStatus: String, Codable, Sendable, CaseIterable {
    /// `early`: in the goal's first week (`GoalRules.graceDays`), something measured, the target not reached yet.
    case notStarted, early, onTrack, behind, met, missed
}

/// One goal as the patient's overview, the clinician's worklist and the progress report see it:
/// what was aimed at, what the record measures today, and the status that follows.
struct GoalProgress: Sendable, Equatable {
    let goalId: Int64
    let patientId: Int64
    /// The goal in the clinician's words ("Asks for help with a 3-word sentence").
    let title: String
    let status: GoalStatus
    /// What the record measures for the current period, in the goal's unit; nil when nothing was measured.
    let measured: Double?
    let target: Double
    /// The catalogue key of the unit ("goal_unit_taps_per_week"), so each reader sees it in their language.
    let unitKey: String
    /// The ISO date the clinician set to review the goal.
    let reviewDate: String?
    /// The goal's kind, and its last day (ISO).
    var kind: GoalKind = .symbolTaps
    var endsOn: String = ""
    /// Where a `reach` goal started from (the measure before the period), when known.
    var baseline: Double? = nil
    /// How far along, 0…1, for a progress bar.
    var fraction: Double = 0
}

enum GoalQueries {
    /// The open goals of these patients with their measure and status on `today` (an ISO date in the
    /// clinic's time zone), keyed by patient. Patients without goals are absent.
    ///
    /// One query for the goals, then one aggregate query per kind present (never one per goal), so the
    /// worklist of 500 patients costs a handful of queries.
    ///
    /// `timeZone` is the clinic's (`AppConfiguration.timeZone`), which decides where a day of sentences
    /// and games begins; nil reads the offset the tap days are counted at (`tapDayZone`).
    static func progress(ofPatients patientIds: [Int64], today: String, timeZone: TimeZone? = nil,
                         _ db: Database) throws -> [Int64: [GoalProgress]] {
        guard !patientIds.isEmpty else { return [:] }
        let goals = try Goal.fetchAll(db, SQLRequest(sql: """
            SELECT * FROM goal WHERE closedAt IS NULL AND patientId IN (SELECT value FROM json_each(?)) ORDER BY endsOn, id
            """, arguments: [SQLiteJSON.list(patientIds)], cached: true))
        let measured = try measure(goals, today: today, timeZone: timeZone, db)
        var result: [Int64: [GoalProgress]] = [:]
        for goal in goals {
            result[goal.patientId, default: []].append(measured[goal.id!] ?? progress(of: goal, measured: nil, baseline: nil, today: today))
        }
        return result
    }

    /// How many goals are behind, by patient, among the patients `actor` may see; patients with none are
    /// absent. Only open goals whose period runs today are measured: before its first day a goal is not
    /// started, after its last it is met or missed, never behind. Only the kinds of goal the actor's
    /// specialties set count (`GoalAccess.mayManage`): a nutritionist is not told of speech goals.
    static func behindCounts(visibleTo actor: Actor, today: String, timeZone: TimeZone, _ db: Database) throws -> [Int64: Int] {
        let visible = PatientScope.condition(on: "patientId", visibleTo: actor)
        // The kinds are the enum's own names, written into the text: one statement per set of specialties.
        let kinds = GoalKind.allCases.filter { GoalAccess.mayManage($0, actor) }.map { "'\($0.rawValue)'" }.joined(separator: ",")
        guard !kinds.isEmpty else { return [:] }
        let goals = try Goal.fetchAll(db, SQLRequest(sql: """
            SELECT * FROM goal WHERE closedAt IS NULL AND startsOn <= ? AND endsOn >= ? AND kind IN (\(kinds)) AND \(visible.sql)
            """, arguments: [today, today] + visible.arguments, cached: true))
        var counts: [Int64: Int] = [:]
        for progress in try measure(goals, today: today, timeZone: timeZone, db).values where progress.status == .behind {
            counts[progress.patientId, default: 0] += 1
        }
        return counts
    }

    /// The progress of each goal (open or closed), keyed by goal id; `timeZone` as in `progress(ofPatients:)`.
    static func measure(_ goals: [Goal], today: String, timeZone: TimeZone? = nil, _ db: Database) throws -> [Int64: GoalProgress] {
        guard !goals.isEmpty else { return [:] }
        let zone = try timeZone ?? TimeZone(secondsFromGMT: Int.fetchOne(db, sql: "SELECT offsetSeconds FROM tapDayZone") ?? 0) ?? TimeZone(identifier: "UTC")!
        var values: [Int64: (measured: Double?, baseline: Double?)] = [:]
        let byKind = Dictionary(grouping: goals, by: \.goalKind)
        for (kind, goals) in byKind {
            switch kind {
            case .symbolTaps, .categoryTaps, .sentences, .independentTaps:
                try weekly(kind, goals, today: today, zone: zone, db).forEach { values[$0.key] = ($0.value, nil) }
            case .gameHits:
                try games(goals, today: today, zone: zone, db).forEach { values[$0.key] = ($0.value, nil) }
            case .gameAccuracy:
                try accuracy(goals, today: today, zone: zone, db).forEach { values[$0.key] = ($0.value, nil) }
            case .adherence:
                try adherence(goals, today: today, db).forEach { values[$0.key] = ($0.value, nil) }
            case .bodyMeasure:
                try body(goals, today: today, db).forEach { values[$0.key] = $0.value }
            }
        }
        var result: [Int64: GoalProgress] = [:]
        for goal in goals {
            let value = values[goal.id!]
            result[goal.id!] = progress(of: goal, measured: value?.measured ?? nil, baseline: value?.baseline ?? nil, today: today)
        }
        return result
    }

    /// Each goal's measure on each of `days` from its first day on: what the record measured as of that day
    /// (a weekly goal's 7 days ending there, a period goal's days up to it, a body measure's latest reading
    /// by then). One `measure` per day for all the goals at once.
    static func history(of goals: [Goal], days: [String], timeZone: TimeZone? = nil,
                        _ db: Database) throws -> [Int64: [(day: String, measured: Double?)]] {
        var result: [Int64: [(day: String, measured: Double?)]] = [:]
        for day in days {
            let running = goals.filter { $0.startsOn <= day }
            guard !running.isEmpty else { continue }
            for (id, progress) in try measure(running, today: day, timeZone: timeZone, db) {
                result[id, default: []].append((day, progress.measured))
            }
        }
        return result
    }

    static func progress(of goal: Goal, measured: Double?, baseline: Double?, today: String) -> GoalProgress {
        let status = GoalRules.status(goal.style, period: goal.period, today: today, measured: measured, target: goal.target,
                                      direction: goal.goalDirection, baseline: baseline)
        return GoalProgress(goalId: goal.id!, patientId: goal.patientId, title: goal.title, status: status, measured: measured,
                            target: goal.target, unitKey: goal.unitKey, reviewDate: goal.reviewOn, kind: goal.goalKind,
                            endsOn: goal.endsOn, baseline: baseline,
                            fraction: GoalRules.fraction(goal.style, measured: measured, target: goal.target,
                                                         direction: goal.goalDirection, baseline: baseline))
    }

    // MARK: - One aggregate query per kind

    /// A table of goals with their window, as a `WITH w(...) AS (VALUES …)` prefix and its arguments.
    private struct Window {
        let goal: Goal
        let days: ClosedRange<String>
        let from: Date
        let until: Date
    }

    private static func windows(_ goals: [Goal], today: String, zone: TimeZone, weekly: Bool) -> [Window] {
        goals.compactMap { goal in
            guard let days = weekly ? GoalRules.weekWindow(goal.period, today: today) : GoalRules.periodWindow(goal.period, today: today)
            else { return nil }
            let instants = GoalRules.instants(of: days, timeZone: zone)
            return Window(goal: goal, days: days, from: instants.from, until: instants.until)
        }
    }

    /// Runs `select` (which reads the CTE `w(goalId, patientId, param, mode, level, fromDay, toDay, fromAt, untilAt)`)
    /// over `windows`, returning its rows. The windows travel as one JSON argument, so the statement's text
    /// is the same for any number of goals and is prepared once per connection: preparing it again on every
    /// load, with one `VALUES` row per goal, was a quarter of the clinician's dashboard.
    private static func rows(_ windows: [Window], param: (Goal) -> DatabaseValueConvertible?, mode: (Goal) -> String? = { _ in nil },
                             level: (Goal) -> Int? = { _ in nil }, _ select: String, _ db: Database) throws -> [Row] {
        guard !windows.isEmpty else { return [] }
        let table: [[DatabaseValueConvertible?]] = windows.map { window in
            [window.goal.id, window.goal.patientId, param(window.goal), mode(window.goal), level(window.goal),
             window.days.lowerBound, window.days.upperBound, window.from, window.until]
        }
        return try Row.fetchAll(db, SQLRequest(sql: """
            WITH w(goalId, patientId, param, mode, level, fromDay, toDay, fromAt, untilAt) AS MATERIALIZED (
                SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8
                FROM json_each(?))
            \(select)
            """, arguments: [SQLiteJSON.array(of: table)], cached: true))
    }

    private static func weekly(_ kind: GoalKind, _ goals: [Goal], today: String, zone: TimeZone, _ db: Database) throws -> [Int64: Double?] {
        let windows = windows(goals, today: today, zone: zone, weekly: true)
        let select: String
        let param: (Goal) -> DatabaseValueConvertible?
        switch kind {
        case .symbolTaps:
            param = { $0.symbolId }
            select = """
                SELECT w.goalId, coalesce(sum(t.n), 0), 0 FROM w
                LEFT JOIN tapDay t ON t.patientId = w.patientId AND t.day BETWEEN w.fromDay AND w.toDay AND t.symbolId = w.param
                GROUP BY w.goalId
                """
        case .categoryTaps:
            param = { $0.categoryId }
            // The patient's taps of the week, each kept if its symbol is in the category: joined the other
            // way round (the category's symbols, then each one's taps), SQLite read the week once per symbol.
            select = """
                SELECT w.goalId, coalesce((SELECT sum(t.n) FROM tapDay t JOIN symbol sy ON sy.id = t.symbolId
                                           WHERE t.patientId = w.patientId AND t.day BETWEEN w.fromDay AND w.toDay
                                             AND sy.categoryId = w.param), 0), 0
                FROM w
                """
        case .independentTaps:
            param = { _ in nil }
            select = """
                SELECT w.goalId, coalesce(sum(CASE WHEN t.assistedBy = 0 THEN t.n END), 0), coalesce(sum(t.n), 0) FROM w
                LEFT JOIN tapDay t ON t.patientId = w.patientId AND t.day BETWEEN w.fromDay AND w.toDay
                GROUP BY w.goalId
                """
        default:
            param = { $0.minWords ?? 1 }
            select = """
                SELECT w.goalId, count(s.id), 0 FROM w
                LEFT JOIN sentence s ON s.patientId = w.patientId AND s.at >= w.fromAt AND s.at < w.untilAt AND s.wordCount >= w.param
                     AND s.modeling = 0
                GROUP BY w.goalId
                """
        }
        var result: [Int64: Double?] = [:]
        for row in try rows(windows, param: param, select, db) {
            let id: Int64 = row[0], count: Int = row[1], total: Int = row[2]
            result[id] = kind == .independentTaps ? GoalRules.percent(count, of: total) : Double(count)
        }
        return result
    }

    private static func games(_ goals: [Goal], today: String, zone: TimeZone, _ db: Database) throws -> [Int64: Double?] {
        let windows = windows(goals, today: today, zone: zone, weekly: false)
        let aggregates = Dictionary(uniqueKeysWithValues: goals.map { ($0.id!, $0.gameAggregate) })
        var result: [Int64: Double?] = [:]
        for row in try rows(windows, param: { $0.gameArea }, mode: { $0.gameMode }, """
            SELECT w.goalId, max(r.hits), avg(r.hits), count(r.id) FROM w
            LEFT JOIN educatResult r ON r.patientId = w.patientId AND r.area = w.param AND (w.mode IS NULL OR r.mode = w.mode)
                 AND r.playedAt >= w.fromAt AND r.playedAt < w.untilAt
            GROUP BY w.goalId
            """, db) {
            let id: Int64 = row[0], played: Int = row[3]
            guard played > 0 else { result[id] = .some(nil); continue }
            result[id] = aggregates[id] == .average ? (row[2] as Double) : Double(row[1] as Int)
        }
        return result
    }

    /// The share of answers right (`educatAnswer`, one row per answer) in the goal's game, mode and level
    /// over the period so far; nil when nothing was answered (`GoalRules.shareRight`).
    private static func accuracy(_ goals: [Goal], today: String, zone: TimeZone, _ db: Database) throws -> [Int64: Double?] {
        let windows = windows(goals, today: today, zone: zone, weekly: false)
        var result: [Int64: Double?] = [:]
        for row in try rows(windows, param: { $0.gameArea }, mode: { $0.gameMode }, level: { $0.gameLevel }, """
            SELECT w.goalId, coalesce(sum(a.correct), 0), count(a.id) FROM w
            LEFT JOIN educatAnswer a ON a.patientId = w.patientId AND a.area = w.param AND (w.mode IS NULL OR a.mode = w.mode)
                 AND (w.level IS NULL OR a.level = w.level) AND a.answeredAt >= w.fromAt AND a.answeredAt < w.untilAt
            GROUP BY w.goalId
            """, db) {
            result[row[0]] = GoalRules.shareRight(right: row[1], answered: row[2])
        }
        return result
    }

    private static func adherence(_ goals: [Goal], today: String, _ db: Database) throws -> [Int64: Double?] {
        let windows = windows(goals, today: today, zone: TimeZone(identifier: "UTC")!, weekly: false)  // meals carry their day: no instants
        var result: [Int64: Double?] = [:]
        for row in try rows(windows, param: { _ in nil }, """
            SELECT w.goalId, coalesce(sum(m.status = 'fulfilled'), 0), count(m.id) FROM w
            LEFT JOIN meal m ON m.patientId = w.patientId AND m.status IN ('fulfilled', 'not_fulfilled')
                 AND m.date BETWEEN w.fromDay AND w.toDay  -- the answered, by `meal_queue`: `<> 'pending'` read every meal
            GROUP BY w.goalId
            """, db) {
            result[row[0]] = GoalRules.percent(row[1], of: row[2])
        }
        return result
    }

    /// Body measures: every evaluation (and, for weight, every weighing) of the patients concerned, read
    /// in four queries; % fat is computed by the body-composition rules, within the goal's protocol.
    private static func body(_ goals: [Goal], today: String, _ db: Database) throws -> [Int64: (measured: Double?, baseline: Double?)] {
        let patients = Array(Set(goals.map(\.patientId)))
        var readings: [Int64: [BodyMeasureKey: [GoalRules.BodyReading]]] = [:]
        for chunk in patients.chunked(500) {
            let marks = placeholders(chunk.count)
            let evaluations = try Evaluation.fetchAll(db, sql: "SELECT * FROM evaluation WHERE patientId IN (\(marks)) AND takenOn <= ?",
                                                      arguments: StatementArguments(chunk) + [today])
            let ids = evaluations.compactMap(\.id)
            var folds: [Int64: [SkinfoldSite: [Double]]] = [:]
            var perimeters: [Int64: [PerimeterSite: Double]] = [:]
            for idChunk in ids.chunked(500) where !idChunk.isEmpty {
                for reading in try SkinfoldReading.fetchAll(db, sql: """
                    SELECT * FROM skinfoldReading WHERE evaluationId IN (\(placeholders(idChunk.count))) ORDER BY reading
                    """, arguments: StatementArguments(idChunk)) {
                    if let site = SkinfoldSite(rawValue: reading.site) {
                        folds[reading.evaluationId, default: [:]][site, default: []].append(Double(reading.tenthsMm) / 10)
                    }
                }
                for perimeter in try PerimeterMeasure.fetchAll(db, sql: """
                    SELECT * FROM perimeter WHERE evaluationId IN (\(placeholders(idChunk.count)))
                    """, arguments: StatementArguments(idChunk)) {
                    if let site = PerimeterSite(rawValue: perimeter.site) { perimeters[perimeter.evaluationId, default: [:]][site] = Double(perimeter.mm) / 10 }
                }
            }
            for evaluation in evaluations {
                let details = EvaluationDetails(evaluation: evaluation, skinfolds: folds[evaluation.id!] ?? [:],
                                                perimeters: perimeters[evaluation.id!] ?? [:])
                var byKey = readings[evaluation.patientId] ?? [:]
                byKey[.weight, default: []].append(.init(takenOn: evaluation.takenOn, skinfoldProtocol: nil, value: details.weightKg))
                if let fat = details.result?.percentFat {
                    byKey[.percentFat, default: []].append(.init(takenOn: evaluation.takenOn, skinfoldProtocol: evaluation.skinfoldProtocol,
                                                                 value: fat))
                }
                for (site, cm) in details.perimeters {
                    byKey[.perimeter(site.rawValue), default: []].append(.init(takenOn: evaluation.takenOn, skinfoldProtocol: nil, value: cm))
                }
                readings[evaluation.patientId] = byKey
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT patientId, measuredOn, grams FROM weightEntry WHERE patientId IN (\(marks)) AND measuredOn <= ?
                """, arguments: StatementArguments(chunk) + [today]) {
                readings[row[0], default: [:]][.weight, default: []]
                    .append(.init(takenOn: row[1], skinfoldProtocol: nil, value: Double(row[2] as Int) / 1000))
            }
        }
        var result: [Int64: (measured: Double?, baseline: Double?)] = [:]
        for goal in goals {
            let key: BodyMeasureKey = switch goal.bodyMeasure {
            case .weight: .weight
            case .percentFat: .percentFat
            case .perimeter: .perimeter(goal.perimeterSite ?? "")
            }
            let values = GoalRules.bodyValues(readings[goal.patientId]?[key] ?? [],
                                              protocol: goal.bodyMeasure == .percentFat ? goal.skinfoldProtocol ?? "" : nil,
                                              period: goal.period, today: today)
            result[goal.id!] = (values.latest, values.baseline)
        }
        return result
    }

    private enum BodyMeasureKey: Hashable { case weight, percentFat, perimeter(String) }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}

extension Array {
    /// The array cut into pieces of at most `size` (SQLite binds a bounded number of arguments).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
