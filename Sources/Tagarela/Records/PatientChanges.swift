import GRDB

/// A number per patient that grows whenever something the worklist decides from changes: a day of
/// board use appearing or going, a meal, an evaluation, a note, a board, a clinician's opening, the
/// patient's own row or name. Kept by triggers, so every writer keeps it (the server, the demo, the
/// benchmark's generator, an import), and read by the worklist to know which patients it must read
/// again (`CaseloadSignals`).
///
/// Rows are never deleted (no foreign key): a patient deleted and an id used again keep counting up
/// from the old number, so a number once seen never comes back with another meaning. A patient without
/// a row has the number 0.
enum PatientChanges {
    /// What a change to each table says about a patient, and the column that names the patient.
    /// `tapDay` counts its inserts and deletes only: its count `n` moves with every tap, and the last
    /// day of use (all the worklist reads from it) changes only when a day's row appears or goes.
    private static let watched: [(table: String, patient: String, updates: Bool)] = [
        ("tapDay", "patientId", false),
        ("meal", "patientId", true),
        ("evaluation", "patientId", true),
        ("observation", "patientId", true),
        ("plan", "patientId", true),
        ("patientOpened", "patientId", true),
        ("patient", "userId", true),
    ]

    private static func count(_ patient: String) -> String {
        "INSERT INTO patientChange (patientId, seq) VALUES (\(patient), 1) ON CONFLICT (patientId) DO UPDATE SET seq = seq + 1;"
    }

    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        var sql = "CREATE TABLE patientChange (patientId INTEGER PRIMARY KEY, seq INTEGER NOT NULL);\n"
        for (table, patient, updates) in watched {
            sql += """
                CREATE TRIGGER patientChange_\(table)_insert AFTER INSERT ON \(table) BEGIN \(count("NEW.\(patient)")) END;
                CREATE TRIGGER patientChange_\(table)_delete AFTER DELETE ON \(table) BEGIN \(count("OLD.\(patient)")) END;

                """
            if updates {
                sql += """
                    CREATE TRIGGER patientChange_\(table)_update AFTER UPDATE ON \(table)
                    BEGIN \(count("OLD.\(patient)")) \(count("NEW.\(patient)")) END;

                    """
            }
        }
        sql += """
            CREATE TRIGGER patientChange_user_name AFTER UPDATE OF displayName ON user
            WHEN EXISTS (SELECT 1 FROM patient WHERE userId = NEW.id) BEGIN \(count("NEW.id")) END;
            """
        try db.execute(sql: sql)
    }

    /// Shipped 2026-11-29. Never edit; add a new migration instead. A tutor's note on a goal is news for
    /// the worklist as an observation is: a note added or removed counts for the goal's patient.
    static func v2GoalNotes(_ db: Database) throws {
        let count = { (goal: String) in
            """
            INSERT INTO patientChange (patientId, seq) SELECT patientId, 1 FROM goal WHERE id = \(goal)
            ON CONFLICT (patientId) DO UPDATE SET seq = seq + 1;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER patientChange_goalNote_insert AFTER INSERT ON goalNote BEGIN \(count("NEW.goalId")) END;
            CREATE TRIGGER patientChange_goalNote_delete AFTER DELETE ON goalNote BEGIN \(count("OLD.goalId")) END;
            """)
    }

    /// Each patient `actor` may see, with their number of changes.
    static func counts(visibleTo actor: Actor, _ db: Database) throws -> [(patientId: Int64, seq: Int64)] {
        let visible = PatientScope.condition(on: "p.userId", visibleTo: actor)
        var counts: [(patientId: Int64, seq: Int64)] = []
        let rows = try Row.fetchCursor(db, SQLRequest(sql: """
            SELECT p.userId, coalesce(c.seq, 0) FROM patient p LEFT JOIN patientChange c ON c.patientId = p.userId
            WHERE \(visible.sql)
            """, arguments: visible.arguments, cached: true))
        while let row = try rows.next() { counts.append((row[0], row[1])) }
        return counts
    }
}
