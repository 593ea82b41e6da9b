import Foundation
import GRDB

/// The login throttle's counts kept in the database, so that a restart does not hand an attacker a
/// fresh set of tries. Each request that changes a count writes it in its own transaction; the server
/// takes them back at start (`App.init`).
enum LoginFailures {
    /// Shipped 2026-11-29. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE loginFailure (
                key TEXT PRIMARY KEY NOT NULL,
                failures INTEGER NOT NULL,
                lastFailure DATETIME NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX loginFailure_last ON loginFailure(lastFailure);
            """)
    }

    /// Writes what the throttle holds for `keys` (a forgotten record is deleted), and drops the records a
    /// quiet spell has made forgotten.
    static func keep(_ throttle: LoginThrottle, keys: [String], now: Date, _ db: Database) throws {
        for (key, record) in throttle.records(keys, now: now) {
            if let record {
                try db.cachedStatement(sql: """
                    INSERT INTO loginFailure (key, failures, lastFailure) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, lastFailure = excluded.lastFailure
                    """).execute(arguments: [key, record.failures, record.lastFailure])
            } else {
                try db.cachedStatement(sql: "DELETE FROM loginFailure WHERE key = ?").execute(arguments: [key])
            }
        }
        try db.cachedStatement(sql: "DELETE FROM loginFailure WHERE lastFailure < ?")
            .execute(arguments: [now.addingTimeInterval(-LoginThrottle.forgetAfter)])
    }

    /// The records not yet forgotten, for the throttle at start.
    static func live(now: Date, _ db: Database) throws -> [(key: String, record: LoginThrottle.Record)] {
        try Row.fetchAll(db, sql: "SELECT key, failures, lastFailure FROM loginFailure WHERE lastFailure >= ?",
                         arguments: [now.addingTimeInterval(-LoginThrottle.forgetAfter)])
            .map { ($0["key"], LoginThrottle.Record(failures: $0["failures"], lastFailure: $0["lastFailure"])) }
    }
}
