import Foundation
import GRDB

/// What the patient's record holds for a period, read in the request's one access: what the
/// overview (`/patients/:id`) and the progress report show. Every read is one aggregate statement
/// over an indexed range of this patient's rows; nothing is read per day or per symbol.
enum OverviewQueries {
    /// Which parts of the record the actor may read: boards, games and notes for tutors and speech
    /// therapists; meals, weights and evaluations for nutritionists.
    struct Sections: Sendable, Equatable {
        let speech: Bool
        let nutrition: Bool

        init(speech: Bool, nutrition: Bool) {
            self.speech = speech
            self.nutrition = nutrition
        }

        init(_ actor: Actor) {
            speech = actor.role == .tutor || (actor.role == .clinician && actor.specialties.contains(.speech))
            nutrition = actor.role == .clinician && actor.specialties.contains(.nutrition)
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
        var notes: [Observation] = []
        var goals: [GoalProgress] = []
    }

    /// The record of `patient` (already found in the actor's scope) for `from`…`to`. `noteLimit`:
    /// the latest notes whatever their date (overview); nil: the notes of the period (report).
    static func record(_ patient: Patient, for actor: Actor, from: String, to: String, recentFrom: String,
                       timeZone: TimeZone, now: Date, noteLimit: Int?, _ db: Database) throws -> Record {
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
            try readNotes(id, for: actor, limit: noteLimit, into: &record, db)
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
            record.weights = Array(try Weights.entries(of: id, forClinician: true, db).suffix(2).reversed())
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
            WHERE patientId = ? AND at >= ? AND at < ? GROUP BY day
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
            SELECT symbol.name,
                   (SELECT sum(n) FROM tapSymbolDay AS used WHERE used.patientId = first.patientId AND used.symbolId = first.symbolId
                    AND used.day BETWEEN ?2 AND ?3) AS n
            FROM tapSymbolFirst AS first JOIN symbol ON symbol.id = first.symbolId
            WHERE first.patientId = ?1 AND first.day BETWEEN ?2 AND ?3
            ORDER BY n DESC, symbol.name LIMIT 5
            """), arguments: [id, from, to]).map { Word(name: $0[0], count: $0[1]) }
    }

    /// The notes the actor may read (as `Observations.visible`): a tutor their own, a clinician all.
    private static func readNotes(_ id: Int64, for actor: Actor, limit: Int?, into record: inout Record, _ db: Database) throws {
        // Four texts at most, each prepared once per connection.
        var sql = "SELECT * FROM observation WHERE patientId = ?"
        var arguments: StatementArguments = [id]
        if actor.role == .tutor {
            sql += " AND authorId = ?"
            arguments += [actor.userId]
        }
        if let limit {
            sql += " ORDER BY observedOn DESC, id DESC LIMIT ?"
            arguments += [limit]
        } else {
            sql += " AND observedOn >= ? AND observedOn <= ? ORDER BY observedOn DESC, id DESC"
            arguments += [record.from, record.to]
        }
        record.notes = try Observation.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension OverviewQueries {
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
    static func report(_ id: Int64, visibleTo actor: Actor, from: String, to: String, timeZone: TimeZone, now: Date,
                       audit: AuditContext, _ db: Database) throws -> (person: PeopleQueries.Person, record: Record) {
        let person = try PeopleQueries.person(id, visibleTo: actor, db)
        let record = try record(person.patient, for: actor, from: from, to: to, recentFrom: ISODate.adding(-6, to: to),
                                timeZone: timeZone, now: now, noteLimit: nil, db)
        try audit.record(.export, "patient", person.patient.userId, "progress report \(from)…\(to)", db)
        return (person, record)
    }
}
