import Foundation
import GRDB

/// Taps counted per patient, clinic day, board, symbol and helper, kept by triggers on `tap`, so the
/// usage history of a patient with 100 000 taps sums a few hundred rows instead of counting every tap.
///
/// A day is the clinic's day at the offset from UTC the server had when it started (as the usage
/// page always counted days); `TapDays.prepare` recounts everything when that offset changes.
/// Missing board, symbol or helper are stored as 0, so that one day's row stays one row.
enum TapDays {
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tapDayZone (id INTEGER PRIMARY KEY CHECK (id = 1), offsetSeconds INTEGER NOT NULL);
            INSERT INTO tapDayZone (id, offsetSeconds) VALUES (1, 0);
            CREATE TABLE tapDay (
                patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
                day TEXT NOT NULL,
                planId INTEGER NOT NULL,
                symbolId INTEGER NOT NULL,
                assistedBy INTEGER NOT NULL,
                n INTEGER NOT NULL,
                PRIMARY KEY (patientId, day, planId, symbolId, assistedBy)
            ) WITHOUT ROWID;
            CREATE TRIGGER tapDay_insert AFTER INSERT ON tap BEGIN
                INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
                VALUES (NEW.patientId, date(NEW.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                        coalesce(NEW.planId, 0), coalesce(NEW.symbolId, 0), coalesce(NEW.assistedBy, 0), 1)
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;
            CREATE TRIGGER tapDay_delete AFTER DELETE ON tap BEGIN
                UPDATE tapDay SET n = n - 1
                WHERE patientId = OLD.patientId AND day = date(OLD.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds')
                  AND planId = coalesce(OLD.planId, 0) AND symbolId = coalesce(OLD.symbolId, 0)
                  AND assistedBy = coalesce(OLD.assistedBy, 0);
                DELETE FROM tapDay WHERE n <= 0;
            END;
            CREATE TRIGGER tapDay_update AFTER UPDATE OF patientId, at, planId, symbolId, assistedBy ON tap BEGIN
                UPDATE tapDay SET n = n - 1
                WHERE patientId = OLD.patientId AND day = date(OLD.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds')
                  AND planId = coalesce(OLD.planId, 0) AND symbolId = coalesce(OLD.symbolId, 0)
                  AND assistedBy = coalesce(OLD.assistedBy, 0);
                DELETE FROM tapDay WHERE n <= 0;
                INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
                VALUES (NEW.patientId, date(NEW.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                        coalesce(NEW.planId, 0), coalesce(NEW.symbolId, 0), coalesce(NEW.assistedBy, 0), 1)
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;
            """)
        try recount(db)
    }

    /// Shipped 2026-11. Never edit; add a new migration instead.
    /// v1's triggers removed emptied rows with `DELETE FROM tapDay WHERE n <= 0`, a scan of the whole
    /// table for every deleted tap: removing a patient with 100 000 taps held the write lock for
    /// minutes (2 000 taps took 25 s). Now only the row just decremented is looked at.
    static func v2TargetedDeletes(_ db: Database) throws {
        let oldRow = """
            patientId = OLD.patientId AND day = date(OLD.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds')
              AND planId = coalesce(OLD.planId, 0) AND symbolId = coalesce(OLD.symbolId, 0)
              AND assistedBy = coalesce(OLD.assistedBy, 0)
            """
        try db.execute(sql: """
            DROP TRIGGER tapDay_delete;
            DROP TRIGGER tapDay_update;
            CREATE TRIGGER tapDay_delete AFTER DELETE ON tap BEGIN
                UPDATE tapDay SET n = n - 1 WHERE \(oldRow);
                DELETE FROM tapDay WHERE \(oldRow) AND n <= 0;
            END;
            CREATE TRIGGER tapDay_update AFTER UPDATE OF patientId, at, planId, symbolId, assistedBy ON tap BEGIN
                UPDATE tapDay SET n = n - 1 WHERE \(oldRow);
                DELETE FROM tapDay WHERE \(oldRow) AND n <= 0;
                INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
                VALUES (NEW.patientId, date(NEW.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                        coalesce(NEW.planId, 0), coalesce(NEW.symbolId, 0), coalesce(NEW.assistedBy, 0), 1)
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;
            """)
    }

    /// Sets the clinic's offset from UTC; when it differs from the stored one, counts every tap again.
    static func prepare(_ db: Database, timeZone: TimeZone, now: Date) throws {
        let offset = timeZone.secondsFromGMT(for: now)
        guard try Int.fetchOne(db, sql: "SELECT offsetSeconds FROM tapDayZone") != offset else { return }
        try db.execute(sql: "UPDATE tapDayZone SET offsetSeconds = ?", arguments: [offset])
        try recount(db)
    }

    static func recount(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM tapDay;
            INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
            SELECT patientId, date(at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                   coalesce(planId, 0), coalesce(symbolId, 0), coalesce(assistedBy, 0), count(*)
            FROM tap GROUP BY 1, 2, 3, 4, 5;
            """)
    }
}
