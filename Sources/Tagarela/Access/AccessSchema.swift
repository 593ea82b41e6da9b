import GRDB

enum AccessSchema {
    /// How one patient selects things on their pages: one row per patient, none until someone saves.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.create(table: "accessSetting") { t in
            t.primaryKey("patientId", .integer).references("patient", column: "userId", onDelete: .cascade)
            t.column("cellSize", .text).notNull().check(sql: "cellSize IN ('small', 'medium', 'large', 'xlarge')")
            t.column("labelPosition", .text).notNull().check(sql: "labelPosition IN ('below', 'above', 'hidden')")
            t.column("selectOn", .text).notNull().check(sql: "selectOn IN ('press', 'release')")
            t.column("holdMs", .integer).notNull().check(sql: "holdMs BETWEEN 0 AND 3000")
            t.column("scanning", .text).notNull().check(sql: "scanning IN ('off', 'row-column', 'linear')")
            t.column("scanMs", .integer).notNull().check(sql: "scanMs BETWEEN 500 AND 10000")
            t.column("switches", .text).notNull().check(sql: "switches IN ('one', 'two')")
            t.column("dwellMs", .integer).notNull().check(sql: "dwellMs = 0 OR dwellMs BETWEEN 500 AND 5000")
            t.column("updatedAt", .datetime).notNull()
            t.column("updatedBy", .integer).references("user", onDelete: .setNull)
        }
    }

    /// The look of the patient's pages: a theme and a text size. Shipped 2026-11. Never edit.
    static func v2Display(_ db: Database) throws {
        try db.alter(table: "accessSetting") { t in
            t.add(column: "theme", .text).notNull().defaults(to: "auto")
                .check(sql: "theme IN ('auto', 'light', 'dark', 'contrast')")
            t.add(column: "textSize", .text).notNull().defaults(to: "standard")
                .check(sql: "textSize IN ('standard', 'large', 'xlarge')")
        }
    }
}
