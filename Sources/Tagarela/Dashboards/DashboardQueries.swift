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

    static func clinician(_ actor: Actor, matching search: String, now: (date: String, time: String), nowInstant: Date,
                          timeZone: TimeZone, shown: Int, _ db: Database) throws -> Clinician {
        let scope = WorklistRules.Scope(speech: actor.specialties.contains(.speech), nutrition: actor.specialties.contains(.nutrition))
        let behind = try GoalQueries.behindCounts(visibleTo: actor, today: now.date, timeZone: timeZone, db)
        let notesSince = nowInstant.addingTimeInterval(-30 * 86_400)
        let signals = worklistSignals(actor, matching: search, now: now, notesSince: notesSince, goalsBehind: behind, scope: scope,
                                      forCards: false)
        // Every patient's weight (`WorklistRules.weightSQL`) and what the nutrition list sorts by. The signals
        // are materialized, and `answered` added after: flattened, each mention of a column in the weight or
        // in `answered` ran its subquery again (3× slower). The cards' other fields (tutors, pending meals…)
        // are read for the rows shown only: for 500 patients they were a fifth of this statement.
        struct Ranked {
            let id: Int64
            let name: String
            let nameKey: String
            let weight: Int
            let overdue: Int
            let rate: Double?
        }
        var ranked: [Ranked] = []
        let cursor = try Row.fetchCursor(db, SQLRequest(sql: """
            WITH s AS MATERIALIZED (\(signals.sql))
            SELECT id, displayName, \(WorklistRules.weightSQL(scope: scope)) AS weight, overdueMeals, fulfilled, answered
            FROM (SELECT *, fulfilled + notFulfilled AS answered FROM s)
            """, arguments: signals.arguments, cached: true))
        while let row = try cursor.next() {
            let answered: Int = row[5]
            ranked.append(Ranked(id: row[0], name: row[1], nameKey: nameKeys.key(row[1]), weight: row[2], overdue: row[3],
                                 rate: answered > 0 ? Double(row[4] as Int) / Double(answered) : nil))
        }
        // Names compare by `WorklistRules.nameKey` (Foundation's localized comparison, folded once per name):
        // comparing the names themselves in a SQLite collation or in the sort cost 8 µs a comparison.
        func byName(_ a: Ranked, _ b: Ranked) -> Bool { WorklistRules.precedes((a.nameKey, a.name), (b.nameKey, b.name)) }
        let attention = ranked.filter { $0.weight > 0 }.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : byName($0, $1) }.prefix(shown)
        let others = ranked.filter { $0.weight == 0 }.sorted(by: byName).prefix(shown)
        // As the nutrition list always sorted: overdue meals, then the lowest adherence (none answered last), then by name.
        let nutrition = scope.nutrition
            ? ranked.sorted { ($1.overdue, $0.rate ?? 2, $0.name) < ($0.overdue, $1.rate ?? 2, $1.name) }.prefix(shown) : []
        // Then the rows shown, with all their signals and what their cards say.
        let ids = Set(attention.map(\.id) + others.map(\.id) + nutrition.map(\.id))
        let cards = worklistSignals(actor, matching: search, now: now, notesSince: notesSince, goalsBehind: behind, scope: scope)
        var arguments = cards.arguments
        arguments += ["ids": "[" + ids.map(String.init).joined(separator: ",") + "]"]
        var entries: [Int64: Clinician.Entry] = [:]
        // Read from the cursor's rows, whose columns are found by name in the statement's table: a copied
        // row (`fetchAll`) compares the name with each of its 25 columns, and that was a tenth of the page.
        let rows = try Row.fetchCursor(db, SQLRequest(sql: "SELECT * FROM (\(cards.sql)) WHERE id IN (SELECT value FROM json_each(:ids))",
                                                      arguments: arguments, cached: true))
        while let row = try rows.next() {
            let entry = entry(row, goalsBehind: behind)
            entries[entry.patient.id] = entry
        }
        return Clinician(total: ranked.count, attention: attention.compactMap { entries[$0.id] }, others: others.compactMap { entries[$0.id] },
                         nutrition: nutrition.compactMap { entries[$0.id] })
    }

    /// One row per patient the clinician sees (and the search finds) with what the worklist decides from,
    /// each figure a lookup on an index: `tapDay`'s key for the last day of use, `evaluation_patient`,
    /// the patient's notes, `meal_queue` for the meals of the last two weeks. Tutor notes count from the
    /// clinician's last opening of the patient, or from `notesSince` when they never opened it. Goals
    /// behind come measured (`GoalQueries.behindCounts`): the column says whether there are any (the
    /// order needs no more), `entry` puts the count back. The weight also reads `answered`, which the
    /// caller adds as `fulfilled + notFulfilled` over the materialized rows. Without `forCards`, only
    /// what the order needs: the card's other columns (birth date, tutors…) are left out and pending
    /// meals count 0.
    static func worklistSignals(_ actor: Actor, matching search: String, now: (date: String, time: String), notesSince: Date,
                                goalsBehind: [Int64: Int], scope: WorklistRules.Scope,
                                forCards: Bool = true) -> (sql: String, arguments: StatementArguments) {
        let visible = PatientScope.condition(on: "p.userId", visibleTo: actor)
        let terms = search.trimmingCharacters(in: .whitespaces)
        var arguments: [String: DatabaseValueConvertible?] = [
            "today": now.date, "from": ISODate.adding(-13, to: now.date), "time": now.time, "clinician": actor.userId,
            "notesSince": notesSince, "behind": "[" + goalsBehind.keys.map(String.init).joined(separator: ",") + "]",
        ]
        arguments["scope"] = visible.arguments.isEmpty ? nil : actor.userId
        if !terms.isEmpty { arguments["search"] = "%\(terms)%" }
        let shape = SignalsShape(visible: visible.sql, nutrition: scope.nutrition, forCards: forCards, searching: !terms.isEmpty)
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
        let forCards: Bool
        let searching: Bool
    }

    private static let signalsStatements = Mutex<[SignalsShape: String]>([:])

    private static func signalsSQL(_ shape: SignalsShape) -> String {
        let forCards = shape.forCards
        let meals = shape.nutrition ? """
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'fulfilled' AND m.date BETWEEN :from AND :today) AS fulfilled,
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'not_fulfilled' AND m.date BETWEEN :from AND :today) AS notFulfilled,
            \(forCards ? """
                (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending' AND m.date BETWEEN :from AND :today)
                """ : "0") AS pending,
            -- Overdue: the earlier days' pending meals, then today's before now. Two plain ranges of `meal_queue`:
            -- one range tested with `date < :today OR time < :time` on every row took twice as long.
            (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending' AND m.date >= :from AND m.date < :today)
            + (SELECT count(*) FROM meal m WHERE m.patientId = p.userId AND m.status = 'pending' AND m.date = :today AND m.time < :time)
                AS overdueMeals
            """ : "0 AS fulfilled, 0 AS notFulfilled, 0 AS pending, 0 AS overdueMeals"
        return """
            SELECT u.id, u.displayName, \(forCards ? cardColumns : "")
                   :today AS today,
                   p.userId IN (SELECT value FROM json_each(:behind)) AS goalsBehind,
                   EXISTS (SELECT 1 FROM plan WHERE plan.patientId = p.userId) AS hasBoards,
                   -- The last row of the patient's key: one step, where max(day) read every day of the patient.
                   (SELECT day FROM tapDay WHERE tapDay.patientId = p.userId ORDER BY day DESC LIMIT 1) AS lastBoardUse,
                   (SELECT max(takenOn) FROM evaluation e WHERE e.patientId = p.userId) AS lastEvaluation,
                   (SELECT count(*) FROM observation o WHERE o.patientId = p.userId AND o.authorRole = 'tutor'
                    AND o.createdAt > coalesce((SELECT openedAt FROM patientOpened po
                                                WHERE po.clinicianId = :clinician AND po.patientId = p.userId), :notesSince))
                       AS newTutorNotes,
                   \(meals)
            FROM patient p JOIN user u ON u.id = p.userId
            WHERE \(shape.visible.replacingOccurrences(of: "?", with: ":scope"))
            \(shape.searching ? "AND (u.displayName LIKE :search OR p.diagnosis LIKE :search)" : "")
            """
    }

    /// What a card shows besides its signals.
    private static let cardColumns = """
        u.username, p.birthDate, p.sex, p.diagnosis, p.photoPath,
        (SELECT group_concat(t.displayName, ', ') FROM tutorPatient tp JOIN user t ON t.id = tp.tutorId
         WHERE tp.patientId = p.userId) AS tutorNames,
        """

    /// Patients' names folded for the order (`WorklistRules.nameKey`, 3 µs each), kept across requests:
    /// names rarely change, and a clinician of 5 000 patients folded them all on every load.
    private static let nameKeys = FoldedNames(capacity: 100_000)

    private static func entry(_ row: Row, goalsBehind: [Int64: Int]) -> Clinician.Entry {
        let patient = People.PatientSummary(row: row)
        let adherence = NutritionRules.Adherence(fulfilled: row["fulfilled"], notFulfilled: row["notFulfilled"],
                                                 pending: row["pending"], overdue: row["overdueMeals"])
        let signals = WorklistRules.Signals(hasBoards: row["hasBoards"], lastBoardUse: row["lastBoardUse"], goalsBehind: goalsBehind[patient.id] ?? 0,
                                            overdueMeals: adherence.overdue, adherence: adherence.rate,
                                            lastEvaluation: row["lastEvaluation"], newTutorNotes: row["newTutorNotes"])
        return Clinician.Entry(patient: patient, signals: signals, adherence: adherence)
    }

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
