import GRDB

/// A number per board that grows whenever what its grid shows may change: one of its cells written or
/// removed, a symbol of one of its cells changed (its name, picture, voice or forms: `WordFormStore`
/// touches the symbol), the board renamed (the grid's label), a board one of its folders opens renamed
/// (a folder without a picture shows that name), a category's colour. Kept by triggers, so every writer
/// keeps it (the server, the demo, an import, the benchmark's generator, an operator's `sqlite3`), and
/// read by the player to name the grid it rendered before (`FragmentCache`): one lookup by key, where
/// reading every cell with its symbol to name the grid was 8 % of a board not rendered yet at ten times
/// the clinic, and left out the two names.
///
/// Rows are never deleted (no foreign key), as in `PatientChanges`: a board deleted and its id used
/// again counts on from the old number, so a number once seen never names another grid. A board
/// without a row has the number 0.
enum GridVersions {
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE gridVersion (planId INTEGER PRIMARY KEY, version INTEGER NOT NULL);
            -- A symbol's or a board's change finds the cells that show it (and a symbol's deletion, which
            -- empties its cells, no longer reads every cell).
            CREATE INDEX planCell_symbol ON planCell(symbolId, planId);
            CREATE INDEX planCell_link ON planCell(linkPlanId);
            CREATE TRIGGER gridVersion_cell_insert AFTER INSERT ON planCell BEGIN \(bump("NEW.planId")) END;
            CREATE TRIGGER gridVersion_cell_delete AFTER DELETE ON planCell BEGIN \(bump("OLD.planId")) END;
            CREATE TRIGGER gridVersion_cell_update AFTER UPDATE ON planCell BEGIN \(bump("OLD.planId")) \(bump("NEW.planId")) END;
            CREATE TRIGGER gridVersion_symbol AFTER UPDATE ON symbol BEGIN \(bumpBoards(showing: "symbolId = NEW.id")) END;
            CREATE TRIGGER gridVersion_plan_name AFTER UPDATE OF name ON plan
            BEGIN \(bump("NEW.id")) \(bumpBoards(showing: "linkPlanId = NEW.id")) END;
            CREATE TRIGGER gridVersion_category AFTER UPDATE OF colour ON category
            BEGIN \(bumpBoards(showing: "symbolId IN (SELECT id FROM symbol WHERE categoryId = NEW.id)")) END;
            """)
    }

    private static func bump(_ planId: String) -> String {
        "INSERT INTO gridVersion (planId, version) VALUES (\(planId), 1) ON CONFLICT (planId) DO UPDATE SET version = version + 1;"
    }

    /// Every board with a cell matching `cells`. (The `WHERE` also keeps SQLite from reading `ON CONFLICT`
    /// as a join's `ON`.)
    private static func bumpBoards(showing cells: String) -> String {
        """
        INSERT INTO gridVersion (planId, version) SELECT DISTINCT planId, 1 FROM planCell WHERE \(cells)
        ON CONFLICT (planId) DO UPDATE SET version = version + 1;
        """
    }

    /// The number of the board's grid now.
    static func version(planId: Int64, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT version FROM gridVersion WHERE planId = ?"), arguments: [planId]) ?? 0
    }
}
