import Foundation
import GRDB
import Synchronization

/// What each dashboard shows, read in the request's one transaction.
enum DashboardQueries {
    /// The clinician's worklist, weighed by the database: whatever the number of patients, the page reads
    /// every patient's weight and name, and the cards of at most `shown` patients needing attention (the
    /// heaviest reasons first, then by name), `shown` others (by name) and, for a nutritionist, `shown` meal rows.
    struct Clinician {
        struct Entry: Sendable {
            let patient: People.PatientSummary
            let signals: WorklistRules.Signals
            /// Meals over the last two weeks (zero unless the clinician is a nutritionist).
            let adherence: NutritionRules.Adherence
        }

        /// Every patient the search finds.
        let total: Int
        let attention: [Entry]
        let others: [Entry]
        /// Patients with overdue meals or low adherence first; empty unless the clinician is a nutritionist.
        let nutrition: [Entry]
    }

    /// `memory` keeps each patient's signals between loads of the worklist (`CaseloadSignals`); a
    /// search, rare and different each time, reads them all.
    static func clinician(_ actor: Actor, matching search: String, now: (date: String, time: String), nowInstant: Date,
                          timeZone: TimeZone, shown: Int, memory: CaseloadSignals? = nil, _ db: Database) throws -> Clinician {
        let scope = WorklistRules.Scope(speech: actor.specialties.contains(.speech), nutrition: actor.specialties.contains(.nutrition))
        let behind = try GoalQueries.behindCounts(visibleTo: actor, today: now.date, timeZone: timeZone, db)
        // From the start of the minute, as the rest of a kept reading.
        let notesSince = Date(timeIntervalSince1970: (nowInstant.timeIntervalSince1970 / 60).rounded(.down) * 60 - 30 * 86_400)
        func read(_ only: [Int64]?) throws -> [CaseloadSignals.Reading] {
            try readSignals(actor, matching: search, now: now, notesSince: notesSince, scope: scope, only: only, db)
        }
        let readings = if let memory, search.trimmingCharacters(in: .whitespaces).isEmpty {
            try memory.readings(clinician: actor.userId, at: .init(today: now.date, minute: now.time, scope: scope),
                                counts: PatientChanges.counts(visibleTo: actor, db), read: read)
        } else {
            try read(nil)
        }
        struct Ranked {
            let id: Int64
            let name: String
            let nameKey: String
            let weight: Int
            let signals: WorklistRules.Signals
            let fulfilled: Int
            let notFulfilled: Int
        }
        let ranked = readings.map { reading in
            var signals = reading.signals
            signals.goalsBehind = behind[reading.id] ?? 0
            let goalsWeight = signals.goalsBehind > 0 ? WorklistRules.Reason.goalsBehind(1).weight : 0
            return Ranked(id: reading.id, name: reading.name, nameKey: nameKeys.key(reading.name), weight: reading.weight + goalsWeight,
                          signals: signals, fulfilled: reading.fulfilled, notFulfilled: reading.notFulfilled)
        }
        // Names compare by `WorklistRules.nameKey` (Foundation's localized comparison, folded once per name):
        // comparing the names themselves in a SQLite collation or in the sort cost 8 µs a comparison.
        func byName(_ a: Ranked, _ b: Ranked) -> Bool { WorklistRules.precedes((a.nameKey, a.name), (b.nameKey, b.name)) }
        let attention = ranked.filter { $0.weight > 0 }.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : byName($0, $1) }.prefix(shown)
        let others = ranked.filter { $0.weight == 0 }.sorted(by: byName).prefix(shown)
        // As the nutrition list always sorted: overdue meals, then the lowest adherence (none answered last), then by name.
        let nutrition = scope.nutrition
            ? ranked.sorted {
                ($1.signals.overdueMeals, $0.signals.adherence ?? 2, $0.name) < ($0.signals.overdueMeals, $1.signals.adherence ?? 2, $1.name)
            }.prefix(shown) : []
        // Then what the cards of the rows shown say besides their signals.
        let shownRows = Dictionary((attention + others + nutrition).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var cardArguments: StatementArguments = ["ids": SQLiteJSON.list(shownRows.keys), "withTutors": SQLiteJSON.list(others.map(\.id))]
        if scope.nutrition {
            cardArguments += ["withMeals": SQLiteJSON.list(nutrition.map(\.id)), "from": ISODate.adding(-13, to: now.date), "today": now.date]
        }
        var entries: [Int64: Clinician.Entry] = [:]
        // Read from the cursor's rows, whose columns are found by name in the statement's table: a copied
        // row (`fetchAll`) compares the name with each of its columns.
        let cards = try Row.fetchCursor(db, SQLRequest(sql: cardsSQL(nutrition: scope.nutrition), arguments: cardArguments, cached: true))
        while let row = try cards.next() {
            let patient = People.PatientSummary(row: row)
            guard let shown = shownRows[patient.id] else { continue }
            let adherence = NutritionRules.Adherence(fulfilled: shown.fulfilled, notFulfilled: shown.notFulfilled, pending: row["pending"],
                                                     overdue: shown.signals.overdueMeals)
            entries[patient.id] = Clinician.Entry(patient: patient, signals: shown.signals, adherence: adherence)
        }
        return Clinician(total: ranked.count, attention: attention.compactMap { entries[$0.id] }, others: others.compactMap { entries[$0.id] },
                         nutrition: nutrition.compactMap { entries[$0.id] })
    }

    /// Every patient's signals and weight, goals aside (`WorklistRules.weightSQL`), or those of the
    /// patients `only`. The signals are materialized, and `answered` added after: flattened, each mention
    /// of a column in the weight or in `answered` ran its subquery again (3× slower). The cards' other
    /// fields (tutors, pending meals…) are read for the rows shown only: for 500 patients they were a
    /// fifth of this statement.
    private static func readSignals(_ actor: Actor, matching search: String, now: (date: String, time: String), notesSince: Date,
                                    scope: WorklistRules.Scope, only: [Int64]?, _ db: Database) throws -> [CaseloadSignals.Reading] {
        let signals = worklistSignals(actor, matching: search, now: now, notesSince: notesSince, scope: scope, only: only)
        var readings: [CaseloadSignals.Reading] = []
        let cursor = try Row.fetchCursor(db, SQLRequest(sql: """
            WITH s AS MATERIALIZED (\(signals.sql))
            SELECT id, displayName, \(WorklistRules.weightSQL(scope: scope)) AS weight,
                   fulfilled, notFulfilled, overdueMeals, hasBoards, lastBoardUse, lastEvaluation, newTutorNotes
            FROM (SELECT *, fulfilled + notFulfilled AS answered FROM s)
            """, arguments: signals.arguments, cached: true))
        while let row = try cursor.next() {
            let fulfilled: Int = row[3], notFulfilled: Int = row[4]
            let answered = fulfilled + notFulfilled
            let signals = WorklistRules.Signals(hasBoards: row[6], lastBoardUse: row[7], goalsBehind: 0, overdueMeals: row[5],
                                                adherence: answered > 0 ? Double(fulfilled) / Double(answered) : nil,
                                                lastEvaluation: row[8], newTutorNotes: row[9])
            readings.append(.init(id: row[0], name: row[1], weight: row[2], signals: signals, fulfilled: fulfilled, notFulfilled: notFulfilled))
        }
        return readings
    }

    /// One row per patient the clinician sees (and the search finds; of `only`, if given) with what the
    /// worklist decides from, each figure a lookup on an index: `tapDay`'s key for the last day of use,
    /// `evaluation_patient`, the patient's notes, `meal_queue` for the meals of the last two weeks. Tutor
    /// notes count from the clinician's last opening of the patient, or from `notesSince` when they never
    /// opened it. Goals behind are measured apart (`GoalQueries.behindCounts`): the column is 0 here.
    /// The weight also reads `answered`, which the caller adds as `fulfilled + notFulfilled` over the
    /// materialized rows. What only a card shows (birth date, tutors, pending meals…) is read for the
    /// cards shown (`cardsSQL`).
    static func worklistSignals(_ actor: Actor, matching search: String, now: (date: String, time: String), notesSince: Date,
                                scope: WorklistRules.Scope, only: [Int64]? = nil) -> (sql: String, arguments: StatementArguments) {
        let visible = PatientScope.condition(on: "p.userId", visibleTo: actor)
        let terms = search.trimmingCharacters(in: .whitespaces)
        var arguments: [String: DatabaseValueConvertible?] = [
            "today": now.date, "from": ISODate.adding(-13, to: now.date), "time": now.time, "clinician": actor.userId,
            "notesSince": notesSince,
        ]
        arguments["scope"] = visible.arguments.isEmpty ? nil : actor.userId
        if !terms.isEmpty { arguments["search"] = "%\(terms)%" }
        if let only { arguments["only"] = SQLiteJSON.list(only) }
        let shape = SignalsShape(visible: visible.sql, nutrition: scope.nutrition, searching: !terms.isEmpty, some: only != nil)
        // Built once per shape: the text was a few per cent of a small clinician's dashboard.
        let sql = signalsStatements.withLock { known in
            if let sql = known[shape] { return sql }
            let sql = signalsSQL(shape)
            known[shape] = sql
            return sql
        }
        return (sql, StatementArguments(arguments))
    }

    /// What the text of `worklistSignals`'s statement depends on.
    private struct SignalsShape: Hashable {
        let visible: String
        let nutrition: Bool
        let searching: Bool
        /// Of the patients in `:only`.
        let some: Bool
    }

    private static let signalsStatements = Mutex<[SignalsShape: String]>([:])

    private static func signalsSQL(_ shape: SignalsShape) -> String {
        let meals = shape.nutrition ? """
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'fulfilled' AND m.date BETWEEN :from AND :today) AS fulfilled,
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'not_fulfilled' AND m.date BETWEEN :from AND :today) AS notFulfilled,
            -- Overdue: the earlier days' pending meals, then today's before now. Two plain ranges of `meal_queue`:
            -- one range tested with `date < :today OR time < :time` on every row took twice as long.
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending' AND m.date >= :from AND m.date < :today)
            + (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending' AND m.date = :today AND m.time < :time)
                AS overdueMeals
            """ : "0 AS fulfilled, 0 AS notFulfilled, 0 AS overdueMeals"
        return """
            SELECT u.id, u.displayName, :today AS today, 0 AS goalsBehind,
                   EXISTS (SELECT 1 FROM plan WHERE plan.patientId = p.userId) AS hasBoards,
                   -- The last row of the patient's key: one step, where max(day) read every day of the patient.
                   (SELECT day FROM tapDay WHERE tapDay.patientId = p.userId ORDER BY day DESC LIMIT 1) AS lastBoardUse,
                   (SELECT max(takenOn) FROM evaluation e WHERE e.patientId = p.userId) AS lastEvaluation,
                   -- A tutor's note on a goal is a note to read as much as an observation.
                   (SELECT count(*) FROM observation o WHERE o.patientId = p.userId AND o.authorRole = 'tutor'
                    AND o.createdAt > coalesce((SELECT openedAt FROM patientOpened po
                                                WHERE po.clinicianId = :clinician AND po.patientId = p.userId), :notesSince))
                   + (SELECT count(*) FROM goal g JOIN goalNote n ON n.goalId = g.id
                      WHERE g.patientId = p.userId AND n.authorRole = 'tutor'
                      AND n.createdAt > coalesce((SELECT openedAt FROM patientOpened po
                                                  WHERE po.clinicianId = :clinician AND po.patientId = p.userId), :notesSince))
                       AS newTutorNotes,
                   \(meals)
            FROM patient p JOIN user u ON u.id = p.userId
            WHERE \(shape.visible.replacingOccurrences(of: "?", with: ":scope"))
            \(shape.searching ? "AND (u.displayName LIKE :search OR p.diagnosis LIKE :search)" : "")
            \(shape.some ? "AND p.userId IN (SELECT value FROM json_each(:only))" : "")
            """
    }

    /// What the cards of the patients `ids` (JSON arrays, as all below) show besides their signals: the
    /// person; the tutors' names of those in `withTutors`, the "everyone else" cards, the only ones that
    /// print them (nil for the others); the pending meals of the period (`from`…`today`) of those in
    /// `withMeals`, the nutrition rows (0 for the others). Each was read for up to 300 cards.
    private static func cardsSQL(nutrition: Bool) -> String {
        """
        SELECT u.id, u.displayName, u.username, p.birthDate, p.sex, p.diagnosis, p.photoPath,
               CASE WHEN p.userId IN (SELECT value FROM json_each(:withTutors)) THEN
                   (SELECT group_concat(t.displayName, ', ') FROM tutorPatient tp JOIN user t ON t.id = tp.tutorId
                    WHERE tp.patientId = p.userId) END AS tutorNames,
               \(nutrition ? """
                   CASE WHEN p.userId IN (SELECT value FROM json_each(:withMeals)) THEN
                       (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending'
                        AND m.date BETWEEN :from AND :today) ELSE 0 END
                   """ : "0") AS pending
        FROM patient p JOIN user u ON u.id = p.userId
        WHERE p.userId IN (SELECT value FROM json_each(:ids))
        """
    }

    /// Patients' names folded for the order (`WorklistRules.nameKey`, 3 µs each), kept across requests:
    /// names rarely change, and a clinician of 5 000 patients folded them all on every load.
    private static let nameKeys = FoldedNames(capacity: 100_000)

    struct Tutor {
        let patients: [People.PatientSummary]
        let linkRequests: [LinkRequests.Pending]
    }

    static func tutor(_ actor: Actor, _ db: Database) throws -> Tutor {
        Tutor(patients: try People.patients(visibleTo: actor, matching: "", db),
              linkRequests: try LinkRequests.pending(for: actor.userId, db))
    }

    struct Patient {
        let home: PatientHomeData
        let linkRequests: [LinkRequests.Pending]
    }

    static func patient(_ actor: Actor, today: String, _ t: Translator, _ db: Database) throws -> Patient {
        Patient(home: try PatientHomeData.fetch(patientId: actor.userId, today: today, t, db),
                // Consent is not the child's to give on a tablet in patient mode.
                linkRequests: try actor.isPatientMode ? [] : LinkRequests.pending(for: actor.userId, db))
    }

    struct Trainer {
        let clients: [People.PatientSummary]
        let reminders: [Evaluations.Reminder]
    }

    static func trainer(_ actor: Actor, matching search: String, today: String, _ db: Database) throws -> Trainer {
        Trainer(clients: try People.patients(visibleTo: actor, matching: search, db),
                reminders: try Evaluations.reminders(for: actor.userId, today: today, db))
    }
}
