import Foundation
import GRDB

/// Taps counted per patient, clinic day, board, symbol and helper, kept by triggers on `tap`, so the
/// usage history of a patient with 100 000 taps sums a few hundred rows instead of counting every tap.
///
/// A day is the clinic's day at the offset from UTC the server had when it started (as the usage
/// page always counted days); `TapDays.prepare` recounts everything when that offset changes.
/// Missing board, symbol or helper are stored as 0, so that one day's row stays one row.
///
/// Since v4 they count the child's own taps only: a tap made while an adult was modeling (`tap.modeling`)
/// stays in the tap log and the usage page, and changes no goal, overview, report or worklist figure.
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
        try db.execute(sql: recountEveryTapV1)
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

    /// Shipped 2026-11. Never edit; add a new migration instead.
    /// Three summaries of `tapDay`, kept by triggers on it, for the patient's overview: the taps of each
    /// day (`tapDayTotal`), of each symbol each day (`tapSymbolDay`, whatever the board or the helper) and
    /// the first day each symbol was used (`tapSymbolFirst`). From `tapDay` itself, the overview read a
    /// heavy month's 1 200 rows to print 30 daily counts and five new words: a fifth of its time.
    /// `tapDay`'s key is never updated (the triggers on `tap` move counts through `n`, and insert and
    /// delete rows), and a trigger refuses it, so inserts, deletes and changes of `n` are all there is to follow.
    /// The new words' counts are not read from an index of `tapDay` holding `n`: keeping it took each tap's
    /// database time from about 100 to 155 µs; these three tables cost about 45 µs.
    static func v3DayTotalsAndFirstUse(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tapDayTotal (
                patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
                day TEXT NOT NULL,
                n INTEGER NOT NULL,
                PRIMARY KEY (patientId, day)
            ) WITHOUT ROWID;
            CREATE TABLE tapSymbolDay (
                patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
                symbolId INTEGER NOT NULL,
                day TEXT NOT NULL,
                n INTEGER NOT NULL,
                PRIMARY KEY (patientId, symbolId, day)
            ) WITHOUT ROWID;
            CREATE TABLE tapSymbolFirst (
                patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
                symbolId INTEGER NOT NULL,
                day TEXT NOT NULL,
                PRIMARY KEY (patientId, symbolId)
            ) WITHOUT ROWID;
            CREATE INDEX tapSymbolFirst_patient_day ON tapSymbolFirst(patientId, day);
            CREATE TRIGGER tapDay_keys_fixed BEFORE UPDATE OF patientId, day, planId, symbolId, assistedBy ON tapDay BEGIN
                SELECT RAISE(ABORT, 'tapDay keys are never updated: delete the row and insert another');
            END;
            """)
        try db.execute(sql: summariesFilled)
        try db.execute(sql: summaryTriggers)
    }

    /// The summaries of `tapDay` (v3) summed from it.
    private static let summariesFilled = """
        INSERT INTO tapDayTotal (patientId, day, n) SELECT patientId, day, sum(n) FROM tapDay GROUP BY patientId, day;
        INSERT INTO tapSymbolDay (patientId, symbolId, day, n)
        SELECT patientId, symbolId, day, sum(n) FROM tapDay GROUP BY patientId, symbolId, day;
        INSERT INTO tapSymbolFirst (patientId, symbolId, day) SELECT patientId, symbolId, min(day) FROM tapDay GROUP BY patientId, symbolId;
        """

    /// The triggers that keep the summaries of `tapDay` (v3); `prepare` drops them while it counts again.
    /// A change to them is a new migration, which must also change `prepare`.
    private static let summaryTriggers = """
        CREATE TRIGGER tapDaySummaries_insert AFTER INSERT ON tapDay BEGIN
            INSERT INTO tapDayTotal (patientId, day, n) VALUES (NEW.patientId, NEW.day, NEW.n)
            ON CONFLICT DO UPDATE SET n = n + excluded.n;
            INSERT INTO tapSymbolDay (patientId, symbolId, day, n) VALUES (NEW.patientId, NEW.symbolId, NEW.day, NEW.n)
            ON CONFLICT DO UPDATE SET n = n + excluded.n;
            INSERT INTO tapSymbolFirst (patientId, symbolId, day) VALUES (NEW.patientId, NEW.symbolId, NEW.day)
            ON CONFLICT DO UPDATE SET day = excluded.day WHERE excluded.day < day;
        END;
        CREATE TRIGGER tapDaySummaries_count AFTER UPDATE OF n ON tapDay BEGIN
            UPDATE tapDayTotal SET n = n + NEW.n - OLD.n WHERE patientId = NEW.patientId AND day = NEW.day;
            UPDATE tapSymbolDay SET n = n + NEW.n - OLD.n
            WHERE patientId = NEW.patientId AND symbolId = NEW.symbolId AND day = NEW.day;
        END;
        CREATE TRIGGER tapDaySummaries_delete AFTER DELETE ON tapDay BEGIN
            UPDATE tapDayTotal SET n = n - OLD.n WHERE patientId = OLD.patientId AND day = OLD.day;
            DELETE FROM tapDayTotal WHERE patientId = OLD.patientId AND day = OLD.day
                AND NOT EXISTS (SELECT 1 FROM tapDay WHERE patientId = OLD.patientId AND day = OLD.day);
            UPDATE tapSymbolDay SET n = n - OLD.n WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId AND day = OLD.day;
            DELETE FROM tapSymbolDay WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId AND day = OLD.day
                AND NOT EXISTS (SELECT 1 FROM tapDay WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId AND day = OLD.day);
            DELETE FROM tapSymbolFirst WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId
                AND NOT EXISTS (SELECT 1 FROM tapSymbolDay WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId);
            UPDATE tapSymbolFirst
            SET day = (SELECT min(day) FROM tapSymbolDay WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId)
            WHERE patientId = OLD.patientId AND symbolId = OLD.symbolId AND day = OLD.day;
        END;
        """

    /// Sets the clinic's offset from UTC; when it differs from the stored one, counts every tap again.
    static func prepare(_ db: Database, timeZone: TimeZone, now: Date) throws {
        let offset = timeZone.secondsFromGMT(for: now)
        guard try Int.fetchOne(db, sql: "SELECT offsetSeconds FROM tapDayZone") != offset else { return }
        try db.execute(sql: "UPDATE tapDayZone SET offsetSeconds = ?", arguments: [offset])
        try countAgain(db)
    }

    /// v1's count, of every tap (the modeling column did not exist yet). Never edit.
    private static let recountEveryTapV1 = """
        DELETE FROM tapDay;
        INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
        SELECT patientId, date(at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
               coalesce(planId, 0), coalesce(symbolId, 0), coalesce(assistedBy, 0), count(*)
        FROM tap GROUP BY 1, 2, 3, 4, 5;
        """

    /// Counts the child's own taps again (v4 on), the summaries' triggers in place.
    static func recount(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM tapDay;
            INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n)
            SELECT patientId, date(at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                   coalesce(planId, 0), coalesce(symbolId, 0), coalesce(assistedBy, 0), count(*)
            FROM tap WHERE modeling = 0 GROUP BY 1, 2, 3, 4, 5;
            """)
    }

    /// Shipped 2026-11-29. Never edit; add a new migration instead.
    /// An adult's modeling is not the child's progress: `tapDay`, and so its summaries, the goals, the
    /// overview, the report and the worklist, count only taps made while no adult was modeling. The
    /// usage page reads modeled taps from `tap` itself when it is asked for them.
    static func v4OwnTapsOnly(_ db: Database) throws {
        let oldRow = """
            patientId = OLD.patientId AND day = date(OLD.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds')
              AND planId = coalesce(OLD.planId, 0) AND symbolId = coalesce(OLD.symbolId, 0)
              AND assistedBy = coalesce(OLD.assistedBy, 0)
            """
        let newRow = """
            SELECT NEW.patientId, date(NEW.at, (SELECT offsetSeconds FROM tapDayZone) || ' seconds'),
                   coalesce(NEW.planId, 0), coalesce(NEW.symbolId, 0), coalesce(NEW.assistedBy, 0), 1
            """
        try db.execute(sql: """
            DROP TRIGGER tapDay_insert;
            DROP TRIGGER tapDay_delete;
            DROP TRIGGER tapDay_update;
            CREATE TRIGGER tapDay_insert AFTER INSERT ON tap WHEN NEW.modeling = 0 BEGIN
                INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n) \(newRow) WHERE true
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;
            CREATE TRIGGER tapDay_delete AFTER DELETE ON tap WHEN OLD.modeling = 0 BEGIN
                UPDATE tapDay SET n = n - 1 WHERE \(oldRow);
                DELETE FROM tapDay WHERE \(oldRow) AND n <= 0;
            END;
            CREATE TRIGGER tapDay_update AFTER UPDATE OF patientId, at, planId, symbolId, assistedBy, modeling ON tap BEGIN
                UPDATE tapDay SET n = n - 1 WHERE \(oldRow) AND OLD.modeling = 0;
                DELETE FROM tapDay WHERE \(oldRow) AND n <= 0 AND OLD.modeling = 0;
                INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n) \(newRow) WHERE NEW.modeling = 0
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;
            """)
        try countAgain(db)
    }

    /// Counts `tapDay` and its summaries again in bulk: kept row by row through their triggers, the
    /// recount of 600 000 rows took 9.8 s instead of 3.7.
    private static func countAgain(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER tapDaySummaries_insert;
            DROP TRIGGER tapDaySummaries_count;
            DROP TRIGGER tapDaySummaries_delete;
            DELETE FROM tapDayTotal;
            DELETE FROM tapSymbolDay;
            DELETE FROM tapSymbolFirst;
            """)
        try recount(db)
        try db.execute(sql: summariesFilled)
        try db.execute(sql: summaryTriggers)
    }
}
