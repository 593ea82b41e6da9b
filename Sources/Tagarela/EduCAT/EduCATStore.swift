import Foundation
import GRDB

/// Reading and writing eduCAT results, records and settings. Callers check access first.
enum EduCATStore {
    static func settings(patientId: Int64, _ db: Database) throws -> EduCATSettings {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM educatSettings WHERE patientId = ?", arguments: [patientId])
        else { return .standard }
        return EduCATSettings(secondsPerQuestion: row["secondsPerQuestion"], lives: row["lives"], language: row["language"],
                              untimed: row["untimed"], itemsOnScreen: row["itemsOnScreen"],
                              speed: EduCATSpeed(rawValue: row["speed"]) ?? .normal,
                              promotion: EduCATPromotion(kind: row["promotion"], value: row["promotionValue"]) ?? .never)
    }

    /// The clinician's settings and the level of each area given, with its audit row.
    static func save(_ settings: EduCATSettings, levels: [EduCATArea: Int] = [:], patientId: Int64, by userId: Int64, at now: Date,
                     audit: AuditContext? = nil, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO educatSettings (patientId, secondsPerQuestion, lives, language, untimed, itemsOnScreen, speed, promotion,
              promotionValue, updatedBy, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(patientId) DO UPDATE SET secondsPerQuestion = excluded.secondsPerQuestion,
              lives = excluded.lives, language = excluded.language, untimed = excluded.untimed,
              itemsOnScreen = excluded.itemsOnScreen, speed = excluded.speed, promotion = excluded.promotion,
              promotionValue = excluded.promotionValue, updatedBy = excluded.updatedBy, updatedAt = excluded.updatedAt
            """, arguments: [patientId, settings.secondsPerQuestion, settings.lives, settings.language, settings.untimed,
                             settings.itemsOnScreen, settings.speed.rawValue, settings.promotion.kind, settings.promotion.value,
                             userId, now])
        let current = try self.levels(patientId: patientId, db)
        for (area, level) in levels where current[area] != level {
            try setLevel(level, area: area, patientId: patientId, by: userId, at: now, db)
        }
        try audit?.record(.update, "educatSettings", patientId, "eduCAT settings and levels", db)
    }

    /// The level of each area (`EduCATLevel.standard` when never set).
    static func levels(patientId: Int64, _ db: Database) throws -> [EduCATArea: Int] {
        var levels = Dictionary(uniqueKeysWithValues: EduCATArea.allCases.map { ($0, EduCATLevel.standard($0)) })
        for row in try Row.fetchAll(db, sql: "SELECT area, level FROM educatLevel WHERE patientId = ?", arguments: [patientId]) {
            if let area = EduCATArea(rawValue: row["area"]) { levels[area] = EduCATLevel.of(area, number: row["level"]).number }
        }
        return levels
    }

    /// `by` is nil when the child passed the level on their own.
    static func setLevel(_ level: Int, area: EduCATArea, patientId: Int64, by userId: Int64?, at now: Date, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO educatLevel (patientId, area, level, updatedBy, updatedAt) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(patientId, area) DO UPDATE SET level = excluded.level, updatedBy = excluded.updatedBy, updatedAt = excluded.updatedAt
            """, arguments: [patientId, area.rawValue, EduCATLevel.of(area, number: level).number, userId, now])
    }

    /// Stores a batch of answers (an answer already stored, by game key and sequence, is skipped) and,
    /// when the patient's rule says the level is passed, moves the area to the next level.
    /// `expected` gives the right answer of an item asked (nil: not an item of this area; refused).
    /// Returns the area's level after the batch, or nil when an item is unknown and nothing was stored.
    static func store(_ batch: EduCATAnswer.Batch, expected: (String) -> String?, patientId: Int64, language: String,
                      promotion: EduCATPromotion, at now: Date, _ db: Database) throws -> EduCATLevel? {
        let rightAnswers = batch.answers.map { expected($0.asked) }
        guard !rightAnswers.contains(where: { $0 == nil }) else { return nil }
        for (answer, right) in zip(batch.answers, rightAnswers) {
            try db.execute(sql: """
                INSERT INTO educatAnswer (patientId, gameKey, area, mode, level, asked, expected, tapped, correct, milliseconds,
                  sequence, language, answeredAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(patientId, gameKey, sequence) DO NOTHING
                """, arguments: [patientId, batch.gameKey, batch.area.rawValue, batch.mode.rawValue, batch.level, answer.asked, right,
                                 answer.tapped, answer.tapped == right, answer.milliseconds, answer.sequence, language, now])
        }
        let current = EduCATLevel.of(batch.area, number: try levels(patientId: patientId, db)[batch.area] ?? 1)
        guard batch.level == current.number, let next = current.next else { return current }
        // The answers given at this level since it was set, the most recent that the rule can need.
        let since = try Date.fetchOne(db, sql: "SELECT updatedAt FROM educatLevel WHERE patientId = ? AND area = ?",
                                      arguments: [patientId, batch.area.rawValue]) ?? .distantPast
        let recent = try Bool.fetchAll(db, sql: """
            SELECT correct FROM (SELECT correct, id FROM educatAnswer WHERE patientId = ? AND area = ? AND level = ? AND answeredAt >= ?
            ORDER BY id DESC LIMIT ?) ORDER BY id
            """, arguments: [patientId, batch.area.rawValue, current.number, since,
                             max(EduCATPromotion.window, EduCATPromotion.streakRange.upperBound)])
        guard promotion.passes(recent) else { return current }
        try setLevel(next.number, area: batch.area, patientId: patientId, by: nil, at: now, db)
        return next
    }

    /// The records kept, per game and level (a level never played has none: its record is 0).
    static func records(patientId: Int64, _ db: Database) throws -> [EduCATRecordKey: Int] {
        var records: [EduCATRecordKey: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT area, level, best FROM educatLevelRecord WHERE patientId = ?",
                                    arguments: [patientId]) {
            if let area = EduCATArea(rawValue: row["area"]) { records[EduCATRecordKey(area: area, level: row["level"])] = row["best"] }
        }
        return records
    }

    /// Whether the patient has a game's result stored: their first one brings the games into their offline
    /// listing, which the read cache keeps (`EduCATRoutes.postResult` empties it then).
    static func hasPlayed(patientId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM educatResult WHERE patientId = ?)", arguments: [patientId]) ?? false
    }

    /// Stores a result and, for a challenge played to its end that beat the record of its game and
    /// level, the new record; one transaction. `level` is the level the game was played at (nil from
    /// a page that did not say: the area's level now). A game key already stored is not stored again
    /// (a replayed POST). Returns the record of that game and level after it and whether this game set it.
    static func store(_ result: EduCATResult, gameKey: String? = nil, level: Int? = nil, patientId: Int64, language: String,
                      assistedBy: Int64?, at now: Date, _ db: Database) throws -> (record: Int, isNew: Bool) {
        let playedAt = EduCATLevel.of(result.area, number: try level ?? levels(patientId: patientId, db)[result.area] ?? 1).number
        let key = EduCATRecordKey(area: result.area, level: playedAt)
        let current = try records(patientId: patientId, db)[key] ?? 0
        if let gameKey, try Bool.fetchOne(db, sql: "SELECT 1 FROM educatResult WHERE patientId = ? AND gameKey = ?",
                                          arguments: [patientId, gameKey]) == true {
            return (current, false)
        }
        try db.execute(sql: """
            INSERT INTO educatResult (patientId, area, mode, hits, errors, durationSeconds, livesAtStart, livesLeft,
              secondsPerQuestion, language, assistedBy, playedAt, gameKey, level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [patientId, result.area.rawValue, result.mode.rawValue, result.hits, result.errors,
                             result.durationSeconds, result.livesAtStart, result.livesLeft, result.secondsPerQuestion,
                             language, assistedBy, now, gameKey, playedAt])
        guard EduCATPlausibility.maySetRecord(result), EduCATRecords.beats(result.hits, current) else { return (current, false) }
        try db.execute(sql: """
            INSERT INTO educatLevelRecord (patientId, area, level, best, updatedAt) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(patientId, area, level) DO UPDATE SET best = excluded.best, updatedAt = excluded.updatedAt
            """, arguments: [patientId, result.area.rawValue, playedAt, result.hits, now])
        return (result.hits, true)
    }

    /// The answers stored for a game, and how many were right.
    static func answerCounts(patientId: Int64, gameKey: String, _ db: Database) throws -> (answered: Int, right: Int) {
        let row = try Row.fetchOne(db, sql: """
            SELECT count(*), coalesce(sum(correct), 0) FROM educatAnswer WHERE patientId = ? AND gameKey = ?
            """, arguments: [patientId, gameKey])
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    struct ResultRow: Sendable, FetchableRecord, Decodable {
        let area: String
        let mode: String
        let hits: Int
        let errors: Int
        let durationSeconds: Int
        let livesLeft: Int?
        let playedAt: Date
    }

    /// A patient's results, oldest first (the most recent `limit`).
    static func results(patientId: Int64, limit: Int = 200, _ db: Database) throws -> [ResultRow] {
        try ResultRow.fetchAll(db, sql: """
            SELECT * FROM (SELECT area, mode, hits, errors, durationSeconds, livesLeft, playedAt, id FROM educatResult
            WHERE patientId = ? ORDER BY playedAt DESC, id DESC LIMIT ?) ORDER BY playedAt, id
            """, arguments: [patientId, limit])
    }

    struct AnswerRow: Sendable, FetchableRecord, Decodable {
        let area: String
        let level: Int
        let asked: String
        let expected: String
        let tapped: String?
        let correct: Bool
        let milliseconds: Int
        let language: String
        let answeredAt: Date
    }

    /// A patient's answers, most recent first (the last `limit`).
    static func answers(patientId: Int64, limit: Int = 1000, _ db: Database) throws -> [AnswerRow] {
        try AnswerRow.fetchAll(db, sql: """
            SELECT area, level, asked, expected, tapped, correct, milliseconds, language, answeredAt FROM educatAnswer
            WHERE patientId = ? ORDER BY answeredAt DESC, id DESC LIMIT ?
            """, arguments: [patientId, limit])
    }

    /// A word or letter a clinician added to a patient's conta-cops or alphabet set.
    struct AddedItem: Sendable, FetchableRecord, Decodable, Equatable {
        let id: Int64
        let area: String
        let text: String
        let spoken: String
        let syllables: String?
        let pictogram: String?
        let clip: String
        let language: String
        /// The teacher's own picture, a path under the media directory (`MediaStore.storeEduCATPicture`).
        var picture: String? = nil
    }

    static func addedItems(patientId: Int64, _ db: Database) throws -> [AddedItem] {
        try AddedItem.fetchAll(db, sql: """
            SELECT id, area, text, spoken, syllables, pictogram, clip, language, picture FROM educatItem WHERE patientId = ?
            ORDER BY area, text
            """, arguments: [patientId])
    }

    /// The patient's item of `area` written `text`, if any.
    static func addedItem(area: String, text: String, patientId: Int64, _ db: Database) throws -> AddedItem? {
        try AddedItem.fetchOne(db, sql: """
            SELECT id, area, text, spoken, syllables, pictogram, clip, language, picture FROM educatItem
            WHERE patientId = ? AND area = ? AND text = ?
            """, arguments: [patientId, area, text])
    }

    /// The stored name of an item's own picture, if the patient has that item and it has one.
    static func picture(ofItem id: Int64, patientId: Int64, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT picture FROM educatItem WHERE id = ? AND patientId = ?", arguments: [id, patientId])
    }

    /// False when the patient's set already has it.
    static func add(_ item: AddedItem, patientId: Int64, by userId: Int64, at now: Date, audit: AuditContext, _ db: Database) throws -> Bool {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM educatItem WHERE patientId = ? AND area = ? AND text = ?",
                                arguments: [patientId, item.area, item.text]) != true else { return false }
        try db.execute(sql: """
            INSERT INTO educatItem (patientId, area, text, spoken, syllables, pictogram, clip, language, createdBy, createdAt, picture)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [patientId, item.area, item.text, item.spoken, item.syllables, item.pictogram, item.clip, item.language, userId, now,
                             item.picture])
        try audit.record(.create, "educatItem", db.lastInsertedRowID, "\(item.area): \(item.text)", db)
        return true
    }

    /// False when the patient has no such item (another patient's id, or already removed).
    static func removeItem(_ id: Int64, patientId: Int64, audit: AuditContext, _ db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM educatItem WHERE id = ? AND patientId = ?", arguments: [id, patientId])
        guard db.changesCount > 0 else { return false }
        try audit.record(.delete, "educatItem", id, "removed from patient \(patientId)", db)
        return true
    }
}
