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
}
