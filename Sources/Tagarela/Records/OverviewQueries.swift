import Foundation
import GRDB

/// What the patient's record holds for a period, read in the request's one access: what the
/// overview (`/patients/:id`) and the progress report show. Every read is one aggregate statement
/// over an indexed range of this patient's rows; nothing is read per day or per symbol.
enum OverviewQueries {
    /// Which parts of the record the actor may read: boards, games and notes for tutors and speech
    /// therapists; meals, weights and evaluations for nutritionists; evaluations for trainers; all of
    /// their own record (private notes aside) for an adult patient.
    struct Sections: Sendable, Equatable {
        let speech: Bool
        /// Meals.
        let nutrition: Bool
        /// Evaluations, and with `weighings` the weights the patient or the clinic entered.
        let body: Bool
        let weighings: Bool

        init(speech: Bool, nutrition: Bool) {
            self.speech = speech
            self.nutrition = nutrition
            body = nutrition
            weighings = nutrition
        }

        init(_ actor: Actor) {
            let nutritionist = actor.role == .clinician && actor.specialties.contains(.nutrition)
            let own = actor.role == .patient
            speech = actor.role == .tutor || (actor.role == .clinician && actor.specialties.contains(.speech)) || own
            nutrition = nutritionist || own
            body = nutritionist || own || actor.role == .trainer
            weighings = nutritionist || own
        }
    }

    struct Game: Sendable, Equatable {
        let area: String
        let played: Int
        let playedRecently: Int
        let bestHits: Int
    }

    struct Evaluation: Sendable, Equatable {
        let takenOn: String
        let weightGrams: Int
    }

    struct Word: Sendable, Equatable {
        let name: String
        let count: Int
        /// The language its symbol speaks (`Symbol.voice`).
        var voice: String? = nil
    }

    /// A note of the record: an observation, or a note on one of the goals (`goal` names it).
    struct Note: Sendable, Equatable {
        /// The clinic's day it was written for (an observation's date; a goal note's day of writing).
        let day: String
        let authorName: String
        let body: String
        let isPrivate: Bool
        let goal: String?
        let createdAt: Date
    }

    /// Who a report is for, which decides the notes it prints: a family or a school reads no note a
    /// clinician marked private; the clinical team reads every note the reader may read.
    enum Audience: String, Sendable, CaseIterable {
        case family, clinical
    }

    /// The period `from`…`to` (ISO days, inclusive) of one patient; "recently" is from `recentFrom`.
    struct Record: Sendable {
        let from: String
        let to: String
        /// The clinic's date and time ("HH:MM") now: a pending meal before them is overdue.
        var today = ""
        var nowTime = "00:00"
        var hasBoards = false
        /// Taps and sentences per clinic day of the period (days without any are absent).
        var taps: [String: Int] = [:]
        var sentences: [String: Int] = [:]
        var longestSentence: Int?
        /// Symbols first used in the period, the most used first.
        var newWords: [Word] = []
        var hasGames = false
        var games: [Game] = []
        var hasMeals = false
        var meals: [NutritionRules.ScheduledMeal] = []
        /// The latest two weights the nutritionist may see, latest first.
        var weights: [WeightEntry] = []
        /// The latest two evaluations, latest first.
        var evaluations: [Evaluation] = []
        var notes: [Note] = []
        var goals: [GoalProgress] = []
    }

    /// The record of `patient` (already found in the actor's scope) for `from`…`to`. `noteLimit`:
    /// the latest notes whatever their date (overview); nil: the notes of the period (report).
    static func record(_ patient: Patient, for actor: Actor, from: String, to: String, recentFrom: String,
                       timeZone: TimeZone, now: Date, noteLimit: Int?, audience: Audience = .clinical, _ db: Database) throws -> Record {
        let id = patient.userId
        let sections = Sections(actor)
        var record = Record(from: from, to: to)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        record.today = ISODate.string(now, timeZone: timeZone)
        record.nowTime = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        record.goals = try GoalQueries.progress(ofPatients: [id], today: to, timeZone: timeZone, db)[id] ?? []
        if sections.speech {
            try readBoards(id, into: &record, recentFrom: recentFrom, timeZone: timeZone, now: now, db)
            try readNotes(id, for: actor, limit: noteLimit, audience: audience, timeZone: timeZone, into: &record, db)
        }
        if sections.nutrition {
            record.hasMeals = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM meal WHERE patientId = ?)"),
                                                arguments: [id]) ?? false
            if record.hasMeals {
                let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT status, date, time FROM meal WHERE patientId = ? AND date BETWEEN ? AND ?
                    """), arguments: [id, from, to])
                while let row = try rows.next() {
                    record.meals.append(.init(status: MealStatus(rawValue: row[0]) ?? .pending, date: row[1], time: row[2]))
                }
            }
        }
        if sections.weighings {
            record.weights = Array(try Weights.entries(of: id, forClinician: actor.role != .patient, db).suffix(2).reversed())
        }
        if sections.body {
            record.evaluations = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT takenOn, weightGrams FROM evaluation WHERE patientId = ? AND takenOn <= ?
                ORDER BY takenOn DESC, id DESC LIMIT 2
                """), arguments: [id, to]).map { Evaluation(takenOn: $0[0], weightGrams: $0[1]) }
        }
        return record
    }

    private static func readBoards(_ id: Int64, into record: inout Record, recentFrom: String, timeZone: TimeZone, now: Date,
                                   _ db: Database) throws {
        let (from, to) = (record.from, record.to)
        record.hasBoards = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM plan WHERE patientId = ?)"),
                                             arguments: [id]) ?? false
        // From the summaries of the tap summary (`TapDays.v3DayTotalsAndFirstUse`): 30 rows of daily counts, and
        // the symbols first used in the period with their counts of each day, where `tapDay` held 1 200 rows a heavy month.
        let days = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT day, n FROM tapDayTotal WHERE patientId = ? AND day BETWEEN ? AND ?
            """), arguments: [id, from, to])
        while let row = try days.next() { record.taps[row[0]] = row[1] }
        record.newWords = try newWords(id, from: from, to: to, db)
        let start = ISODate.date(from, timeZone: timeZone) ?? .distantPast
        let end = (ISODate.date(to, timeZone: timeZone) ?? .distantFuture).addingTimeInterval(86_400)
        let offset = timeZone.secondsFromGMT(for: now)
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT date(at, ? || ' seconds') AS day, count(*), max(wordCount) FROM sentence
            WHERE patientId = ? AND at >= ? AND at < ? AND modeling = 0 GROUP BY day
            """), arguments: [offset, id, start, end]) {
            record.sentences[row[0]] = row[1]
            record.longestSentence = max(record.longestSentence ?? 0, row[2] as Int)
        }
        record.hasGames = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM educatResult WHERE patientId = ?)"),
                                            arguments: [id]) ?? false
        if record.hasGames {
            let recentStart = ISODate.date(recentFrom, timeZone: timeZone) ?? start
            record.games = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT area, count(*), sum(playedAt >= ?), max(hits) FROM educatResult
                WHERE patientId = ? AND playedAt >= ? AND playedAt < ? GROUP BY area ORDER BY area
                """), arguments: [recentStart, id, start, end]).map {
                Game(area: $0[0], played: $0[1], playedRecently: $0[2], bestHits: $0[3])
            }
        }
    }

    /// The symbols first used in `from`…`to` with their taps in it: the most used five, ties by name as
    /// SQLite's BINARY collation orders them. A deleted symbol (0 in the summary) has no name and is left out.
    private static func newWords(_ id: Int64, from: String, to: String, _ db: Database) throws -> [Word] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT symbol.name, symbol.voice,
                   (SELECT sum(n) FROM tapSymbolDay AS used WHERE used.patientId = first.patientId AND used.symbolId = first.symbolId
                    AND used.day BETWEEN ?2 AND ?3) AS n
            FROM tapSymbolFirst AS first JOIN symbol ON symbol.id = first.symbolId
            WHERE first.patientId = ?1 AND first.day BETWEEN ?2 AND ?3
            ORDER BY n DESC, symbol.name LIMIT 5
            """), arguments: [id, from, to]).map { Word(name: $0[0], count: $0[2], voice: $0[1]) }
    }

    /// The notes the actor may read, latest first: observations as `Observations.visible` (a tutor their
    /// own, a clinician all) and notes on goals as the goal's page shows them (a tutor every note not
    /// private, a clinician all). A family's report leaves out every private note whoever reads it.
    private static func readNotes(_ id: Int64, for actor: Actor, limit: Int?, audience: Audience, timeZone: TimeZone,
                                  into record: inout Record, _ db: Database) throws {
        // A handful of texts, each prepared once per connection.
        var observations = "SELECT * FROM observation WHERE patientId = ?"
        var arguments: StatementArguments = [id]
        if actor.role == .tutor {
            observations += " AND authorId = ?"
            arguments += [actor.userId]
        }
        if audience == .family { observations += " AND NOT isPrivate" }
        if let limit {
            observations += " ORDER BY observedOn DESC, id DESC LIMIT ?"
            arguments += [limit]
        } else {
            observations += " AND observedOn >= ? AND observedOn <= ? ORDER BY observedOn DESC, id DESC"
            arguments += [record.from, record.to]
        }
        var notes = try Observation.fetchAll(db.cachedStatement(sql: observations), arguments: arguments).map {
            Note(day: $0.observedOn, authorName: $0.authorName, body: $0.body, isPrivate: $0.isPrivate, goal: nil, createdAt: $0.createdAt)
        }
        var onGoals = """
            SELECT n.*, g.title FROM goalNote n JOIN goal g ON g.id = n.goalId WHERE g.patientId = ?
            \(actor.role == .clinician && audience == .clinical ? "" : "AND NOT n.isPrivate")
            """
        var goalArguments: StatementArguments = [id]
        if limit == nil {
            let instants = GoalRules.instants(of: record.from...record.to, timeZone: timeZone)
            onGoals += " AND n.createdAt >= ? AND n.createdAt < ?"
            goalArguments += [instants.from, instants.until]
        }
        onGoals += " ORDER BY n.createdAt DESC, n.id DESC"
        if let limit {
            onGoals += " LIMIT ?"
            goalArguments += [limit]
        }
        for row in try Row.fetchAll(db.cachedStatement(sql: onGoals), arguments: goalArguments) {
            let note = try GoalNote(row: row)
            notes.append(Note(day: ISODate.string(note.createdAt, timeZone: timeZone), authorName: note.authorName, body: note.body,
                              isPrivate: note.isPrivate, goal: row["title"], createdAt: note.createdAt))
        }
        notes.sort { ($0.day, $0.createdAt) > ($1.day, $1.createdAt) }
        record.notes = limit.map { Array(notes.prefix($0)) } ?? notes
    }
}

extension OverviewQueries {
    /// One goal of a report: open, or closed in the report's period (measured as of its closing), with its
    /// measure week by week.
    struct ReportGoal: Sendable {
        let goal: Goal
        let progress: GoalProgress
        let history: [(day: String, measured: Double?)]
    }

    /// What a report adds to the record: its goals with their history, and every weight of the period
    /// (weighings and evaluations, oldest first) with the last one before it.
    struct Report: Sendable {
        let person: PeopleQueries.Person
        let record: Record
        let goals: [ReportGoal]
        let weights: [(day: String, grams: Int)]
        let weightBefore: (day: String, grams: Int)?
    }

    /// The patient page: the person, their tutors and the overview of the last 30 days, and whether a
    /// clinician's opening must be remembered (`RecordVisits`) so the worklist knows which tutor notes are new.
    static func patientPage(_ id: Int64, visibleTo actor: Actor, today: String, timeZone: TimeZone, now: Date,
                            _ db: Database) throws -> (PeopleQueries.Person, tutors: [User], record: Record, news: Bool) {
        let (person, tutors) = try PeopleQueries.patientPage(id, visibleTo: actor, db)
        let period = PatientOverview.period(today: today)
        let record = try record(person.patient, for: actor, from: period.from, to: today, recentFrom: period.recentFrom,
                                timeZone: timeZone, now: now, noteLimit: 4, db)
        let news = try actor.role == .clinician
            && RecordVisits.hasNews(clinicianId: actor.userId, patientId: person.patient.userId, db)
        return (person, tutors, record, news)
    }

    /// The progress report of `from`…`to`: the record of the period and the person. Opening it is an
    /// export of health data, so it is audited here, in the same access.
    static func report(_ id: Int64, visibleTo actor: Actor, from: String, to: String, audience: Audience, timeZone: TimeZone,
                       now: Date, audit: AuditContext, _ db: Database) throws -> Report {
        let person = try PeopleQueries.person(id, visibleTo: actor, db)
        let patientId = person.patient.userId
        let record = try record(person.patient, for: actor, from: from, to: to, recentFrom: ISODate.adding(-6, to: to),
                                timeZone: timeZone, now: now, noteLimit: nil, audience: audience, db)
        // The goals open now, and those closed in the period: a goal met and closed is the period's news.
        let period = GoalRules.instants(of: from...to, timeZone: timeZone)
        let goals = try Goal.fetchAll(db, sql: """
            SELECT * FROM goal WHERE patientId = ? AND (closedAt IS NULL OR (closedAt >= ? AND closedAt < ?))
            ORDER BY closedAt IS NOT NULL, endsOn, id
            """, arguments: [patientId, period.from, period.until]).filter { GoalAccess.mayRead($0.goalKind, actor) }
        var progress = try GoalQueries.measure(goals.filter { !$0.isClosed }, today: to, timeZone: timeZone, db)
        for goal in goals where goal.isClosed {
            let closedOn = min(to, ISODate.string(goal.closedAt!, timeZone: timeZone))
            progress.merge(try GoalQueries.measure([goal], today: closedOn, timeZone: timeZone, db)) { $1 }
        }
        var days = Set<String>()
        var daysOf: [Int64: [String]] = [:]
        for goal in goals {
            daysOf[goal.id!] = GoalChart.days(of: goal, today: to, timeZone: timeZone)
            days.formUnion(daysOf[goal.id!]!)
        }
        let measured = try GoalQueries.history(of: goals, days: days.sorted(), timeZone: timeZone, db)
        let reportGoals = goals.compactMap { goal -> ReportGoal? in
            guard let progress = progress[goal.id!] else { return nil }
            let wanted = Set(daysOf[goal.id!] ?? [])
            return ReportGoal(goal: goal, progress: progress, history: (measured[goal.id!] ?? []).filter { wanted.contains($0.day) })
        }
        var weights: [(day: String, grams: Int)] = []
        var before: (day: String, grams: Int)?
        let sections = OverviewQueries.Sections(actor)
        if sections.body {
            let weighings = sections.weighings ? try Weights.entries(of: patientId, forClinician: actor.role != .patient, db) : []
            let evaluations = try Row.fetchAll(db, sql: "SELECT takenOn, weightGrams FROM evaluation WHERE patientId = ? AND takenOn <= ?",
                                               arguments: [patientId, to])
            let readings = weighings.map { (day: $0.measuredOn, grams: $0.grams) }
                + evaluations.map { (day: $0[0] as String, grams: $0[1] as Int) }
            let sorted = readings.sorted { $0.day < $1.day }
            weights = sorted.filter { $0.day >= from && $0.day <= to }
            before = sorted.last { $0.day < from }
        }
        try audit.record(.export, "patient", patientId, "progress report \(from)…\(to) for \(audience.rawValue)", db)
        return Report(person: person, record: record, goals: reportGoals, weights: weights, weightBefore: before)
    }
}
