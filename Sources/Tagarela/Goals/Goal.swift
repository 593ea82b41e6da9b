import Foundation
import GRDB

/// What a goal measures, each from data Tagarela already stores.
enum GoalKind: String, Codable, Sendable, CaseIterable {
    /// Taps of one symbol per week (`tapDay`).
    case symbolTaps
    /// Taps of any symbol of one category per week.
    case categoryTaps
    /// Sentences of at least `minWords` words per week.
    case sentences
    /// The share of the week's taps made alone (no adult in `assistedBy`), in %.
    case independentTaps
    /// eduCAT hits in one game (and mode), best or average over the period.
    case gameHits
    /// The share of eduCAT answers right in one game (and mode, and level) over the period, in %.
    case gameAccuracy
    /// Meals followed ÷ meals answered over the period, in %.
    case adherence
    /// A body-composition measure (% fat within one protocol, a perimeter, weight) reaching a value by the end date.
    case bodyMeasure

    var area: GoalArea {
        switch self {
        case .symbolTaps, .categoryTaps, .sentences, .independentTaps: .communication
        case .gameHits, .gameAccuracy: .learning
        case .adherence: .nutrition
        case .bodyMeasure: .bodyComposition
        }
    }

    /// How the record answers "how is it going" for this kind (see `GoalRules.status`).
    var style: GoalRules.Style {
        switch self {
        case .symbolTaps, .categoryTaps, .sentences, .independentTaps: .weekly
        case .adherence, .gameAccuracy: .average
        case .gameHits, .bodyMeasure: .reach  // a game goal's style follows its aggregate: see `Goal.style`
        }
    }
}

/// The four parts of a patient's record a goal may belong to; each is one specialty's.
enum GoalArea: String, Sendable, CaseIterable {
    case communication, learning, nutrition, bodyComposition

    /// Speech therapy sets communication and learning goals (boards and eduCAT are theirs); nutrition
    /// sets nutrition and body-composition goals (meal plans, weights and evaluations).
    var specialty: Specialty {
        switch self {
        case .communication, .learning: .speech
        case .nutrition, .bodyComposition: .nutrition
        }
    }
}

enum GoalDirection: String, Codable, Sendable, CaseIterable { case atLeast, atMost }
/// Why a clinician closed a goal: it was achieved, or it was discontinued (changed plans, another goal…).
enum GoalClosing: String, Codable, Sendable, CaseIterable { case achieved, discontinued }
enum GameAggregate: String, Codable, Sendable, CaseIterable { case best, average }
enum BodyMeasureKind: String, Codable, Sendable, CaseIterable { case percentFat, weight, perimeter }

/// A therapy goal of one patient. Its status is never stored: `GoalRules` computes it from the record.
struct Goal: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "goal"

    var id: Int64?
    var patientId: Int64
    var kind: String
    var title: String
    // Parameters, each used by some kinds only.
    var symbolId: Int64?
    var categoryId: Int64?
    var minWords: Int?
    var gameArea: String?
    var gameMode: String?
    var aggregate: String?
    /// The eduCAT level an accuracy goal counts (`EduCATLevel.number` of `gameArea`); nil: every level.
    var gameLevel: Int?
    var measure: String?
    var skinfoldProtocol: String?
    var perimeterSite: String?
    var direction: String
    var target: Double
    /// ISO dates, in the clinic's calendar.
    var startsOn: String
    var endsOn: String
    var reviewOn: String?
    var createdBy: Int64?
    var createdAt: Date
    var updatedAt: Date
    var closedAt: Date?
    /// Why the goal was closed (`GoalClosing`); nil while open, and for goals closed before reasons were asked.
    var closedReason: String?
    /// Raised by every change: an edit made on an older version (another tab) is refused, not lost.
    var version: Int

    enum Columns {
        static let patientId = Column(CodingKeys.patientId)
        static let closedAt = Column(CodingKeys.closedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var goalKind: GoalKind { GoalKind(rawValue: kind) ?? .symbolTaps }
    var goalDirection: GoalDirection { GoalDirection(rawValue: direction) ?? .atLeast }
    var gameAggregate: GameAggregate { GameAggregate(rawValue: aggregate ?? "") ?? .best }
    var bodyMeasure: BodyMeasureKind { BodyMeasureKind(rawValue: measure ?? "") ?? .weight }
    var isClosed: Bool { closedAt != nil }
    var period: GoalRules.Period { GoalRules.Period(startsOn: startsOn, endsOn: endsOn) }

    var style: GoalRules.Style {
        goalKind == .gameHits && gameAggregate == .average ? .average : goalKind.style
    }

    /// The catalogue key of the measured value's unit.
    var unitKey: String {
        switch goalKind {
        case .symbolTaps, .categoryTaps: "goal_unit_taps_per_week"
        case .sentences: "goal_unit_sentences_per_week"
        case .independentTaps: "goal_unit_percent_alone"
        case .gameHits: "goal_unit_hits"
        case .gameAccuracy: "goal_unit_percent_right"
        case .adherence: "goal_unit_percent"
        case .bodyMeasure:
            switch bodyMeasure {
            case .percentFat: "goal_unit_percent_fat"
            case .weight: "goal_unit_kg"
            case .perimeter: "goal_unit_cm"
            }
        }
    }
}

/// One change in a goal's life: created, edited (with what changed), closed or reopened.
struct GoalEvent: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "goalEvent"

    enum Action: String, Sendable { case create, edit, close, reopen }

    var id: Int64?
    var goalId: Int64
    var at: Date
    var actorId: Int64?
    var actorName: String
    var action: String
    /// What an edit changed, as JSON `[{"field": …, "from": …, "to": …}]`; empty for the other actions.
    var changes: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A note on a goal: a tutor's is shared with the clinicians; a clinician's is private to the clinicians.
struct GoalNote: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "goalNote"

    var id: Int64?
    var goalId: Int64
    var authorId: Int64?
    var authorName: String
    var authorRole: String
    var isPrivate: Bool
    var body: String
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

enum GoalSchema {
    /// Shipped 2026-11-29. Never edit; add a new migration instead. A closed goal says why: a goal met and
    /// closed in a report's period is reported as achieved, not dropped.
    static func v3ClosedReason(_ db: Database) throws {
        try db.alter(table: "goal") { t in
            t.add(column: "closedReason", .text).check(sql: "closedReason IN ('achieved','discontinued')")
        }
        try db.execute(sql: "CREATE INDEX goal_patient_closed ON goal(patientId, closedAt) WHERE closedAt IS NOT NULL")
    }

    /// A category goal counts the taps of its category's symbols: found by index, not by a scan of every
    /// clinician's symbols. Shipped 2026-11. Never edit; add a new migration instead.
    static func v2SymbolsByCategory(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX symbol_category ON symbol(categoryId)")
    }

    /// Goals, their history of changes, and notes on them.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        let kinds = GoalKind.allCases.filter { $0 != .gameAccuracy }.map { "'\($0.rawValue)'" }.joined(separator: ",")
        try db.create(table: "goal") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("kind", .text).notNull().check(sql: "kind IN (\(kinds))")
            t.column("title", .text).notNull().check(sql: "length(trim(title)) > 0")
            t.column("symbolId", .integer).references("symbol", onDelete: .setNull)
            t.column("categoryId", .integer).references("category", onDelete: .setNull)
            t.column("minWords", .integer).check(sql: "minWords BETWEEN 1 AND 100")
            t.column("gameArea", .text)
            t.column("gameMode", .text).check(sql: "gameMode IN ('normal','challenge')")
            t.column("aggregate", .text).check(sql: "aggregate IN ('best','average')")
            t.column("measure", .text).check(sql: "measure IN ('percentFat','weight','perimeter')")
            t.column("skinfoldProtocol", .text)
            t.column("perimeterSite", .text)
            t.column("direction", .text).notNull().check(sql: "direction IN ('atLeast','atMost')")
            t.column("target", .double).notNull()
            t.column("startsOn", .date).notNull()
            t.column("endsOn", .date).notNull()
            t.column("reviewOn", .date)
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
            t.column("closedAt", .datetime)
            t.column("version", .integer).notNull().defaults(to: 1)
            t.check(sql: "startsOn <= endsOn")
        }
        // The worklist asks for the open goals of 500 patients at once.
        try db.create(index: "goal_patient_open", on: "goal", columns: ["patientId", "closedAt"])
        try db.create(table: "goalEvent") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("goalId", .integer).notNull().indexed().references("goal", onDelete: .cascade)
            t.column("at", .datetime).notNull()
            t.column("actorId", .integer).references("user", onDelete: .setNull)
            t.column("actorName", .text).notNull()
            t.column("action", .text).notNull().check(sql: "action IN ('create','edit','close','reopen')")
            t.column("changes", .text).notNull().defaults(to: "")
        }
        try db.create(table: "goalNote") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("goalId", .integer).notNull().indexed().references("goal", onDelete: .cascade)
            t.column("authorId", .integer).references("user", onDelete: .setNull)
            t.column("authorName", .text).notNull()
            t.column("authorRole", .text).notNull().check(sql: "authorRole IN ('clinician','tutor')")
            t.column("isPrivate", .boolean).notNull()
            t.column("body", .text).notNull().check(sql: "length(trim(body)) > 0")
            t.column("createdAt", .datetime).notNull()
        }
        // Goals of educat results and sentences are counted per patient and time: their indexes exist
        // (educatResult_patient, sentence_patient_at); taps are read from tapDay's primary key.
    }

    /// Accuracy goals (the share of eduCAT answers right, by game, mode and level): the kind's check
    /// and the level column. SQLite cannot change a check, so the table is made again with its rows,
    /// ids and index (goalEvent and goalNote keep pointing at it by name).
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v2Accuracy(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE goal_v2 (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
              kind TEXT NOT NULL CHECK (kind IN ('symbolTaps','categoryTaps','sentences','independentTaps','gameHits',
                                                 'gameAccuracy','adherence','bodyMeasure')),
              title TEXT NOT NULL CHECK (length(trim(title)) > 0),
              symbolId INTEGER REFERENCES symbol(id) ON DELETE SET NULL,
              categoryId INTEGER REFERENCES category(id) ON DELETE SET NULL,
              minWords INTEGER CHECK (minWords BETWEEN 1 AND 100),
              gameArea TEXT,
              gameMode TEXT CHECK (gameMode IN ('normal','challenge')),
              aggregate TEXT CHECK (aggregate IN ('best','average')),
              gameLevel INTEGER CHECK (gameLevel >= 1),
              measure TEXT CHECK (measure IN ('percentFat','weight','perimeter')),
              skinfoldProtocol TEXT,
              perimeterSite TEXT,
              direction TEXT NOT NULL CHECK (direction IN ('atLeast','atMost')),
              target DOUBLE NOT NULL,
              startsOn DATE NOT NULL,
              endsOn DATE NOT NULL,
              reviewOn DATE,
              createdBy INTEGER REFERENCES user(id) ON DELETE SET NULL,
              createdAt DATETIME NOT NULL,
              updatedAt DATETIME NOT NULL,
              closedAt DATETIME,
              version INTEGER NOT NULL DEFAULT 1,
              CHECK (startsOn <= endsOn)
            );
            INSERT INTO goal_v2 (id, patientId, kind, title, symbolId, categoryId, minWords, gameArea, gameMode, aggregate, measure,
                                 skinfoldProtocol, perimeterSite, direction, target, startsOn, endsOn, reviewOn, createdBy, createdAt,
                                 updatedAt, closedAt, version)
            SELECT id, patientId, kind, title, symbolId, categoryId, minWords, gameArea, gameMode, aggregate, measure,
                   skinfoldProtocol, perimeterSite, direction, target, startsOn, endsOn, reviewOn, createdBy, createdAt,
                   updatedAt, closedAt, version FROM goal;
            DROP TABLE goal;
            ALTER TABLE goal_v2 RENAME TO goal;
            CREATE INDEX goal_patient_open ON goal(patientId, closedAt);
            """)
    }
}
