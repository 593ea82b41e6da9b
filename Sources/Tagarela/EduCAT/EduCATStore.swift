import Foundation
import GRDB

/// Reading and writing eduCAT results, records and settings. Callers check access first.
enum EduCATStore {
    static func settings(patientId: Int64, _ db: Database) throws -> EduCATSettings {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM educatSettings WHERE patientId = ?", arguments: [patientId])
        else { return .standard }
        return EduCATSettings(secondsPerQuestion: row["secondsPerQuestion"], lives: row["lives"], language: row["language"])
    }

    static func save(_ settings: EduCATSettings, patientId: Int64, by userId: Int64, at now: Date, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO educatSettings (patientId, secondsPerQuestion, lives, language, updatedBy, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(patientId) DO UPDATE SET secondsPerQuestion = excluded.secondsPerQuestion,
              lives = excluded.lives, language = excluded.language, updatedBy = excluded.updatedBy, updatedAt = excluded.updatedAt
            """, arguments: [patientId, settings.secondsPerQuestion, settings.lives, settings.language, userId, now])
    }

    /// The four records, 0 for an area never played.
    static func records(patientId: Int64, _ db: Database) throws -> [EduCATArea: Int] {
        var records = Dictionary(uniqueKeysWithValues: EduCATArea.allCases.map { ($0, 0) })
        for row in try Row.fetchAll(db, sql: "SELECT area, best FROM educatRecord WHERE patientId = ?", arguments: [patientId]) {
            if let area = EduCATArea(rawValue: row["area"]) { records[area] = row["best"] }
        }
        return records
    }

    /// Stores a result and, for a challenge that beat the record, the new record; one transaction.
    /// Returns the record after it and whether this game set it.
    static func store(_ result: EduCATResult, patientId: Int64, language: String, assistedBy: Int64?, at now: Date,
                      _ db: Database) throws -> (record: Int, isNew: Bool) {
        try db.execute(sql: """
            INSERT INTO educatResult (patientId, area, mode, hits, errors, durationSeconds, livesAtStart, livesLeft,
              secondsPerQuestion, language, assistedBy, playedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [patientId, result.area.rawValue, result.mode.rawValue, result.hits, result.errors,
                             result.durationSeconds, result.livesAtStart, result.livesLeft, result.secondsPerQuestion,
                             language, assistedBy, now])
        let current = try records(patientId: patientId, db)[result.area] ?? 0
        guard result.mode == .challenge, EduCATRecords.beats(result.hits, current) else { return (current, false) }
        try db.execute(sql: """
            INSERT INTO educatRecord (patientId, area, best, updatedAt) VALUES (?, ?, ?, ?)
            ON CONFLICT(patientId, area) DO UPDATE SET best = excluded.best, updatedAt = excluded.updatedAt
            """, arguments: [patientId, result.area.rawValue, result.hits, now])
        return (result.hits, true)
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
}
