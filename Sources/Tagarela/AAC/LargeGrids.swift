import Foundation
import GRDB

/// Boards of the sizes core-vocabulary layouts use (6 × 10, 7 × 12, 8 × 14: docs/decisions/0079-boards-up-to-16-16.md,
/// "Boards up to 16 × 16"). v1 and v2 wrote `rows BETWEEN 1 AND 6`, `columns BETWEEN 1 AND 8` and
/// `position BETWEEN 0 AND 47` as CHECKs, which SQLite cannot alter: this rebuilds `plan` and `planCell`
/// the SQLite way (docs: "Making Other Kinds Of Table Schema Changes"), keeping every column a later
/// migration added, and recreating every index and trigger that reads them, word for word.
enum LargeGrids {
    static let rowRange = 1...16
    static let columnRange = 1...16
    static let maxPosition = rowRange.upperBound * columnRange.upperBound - 1

    struct SchemaDrift: Error, CustomStringConvertible {
        let table: String, expected: String
        var description: String { "\(table): the CREATE statement no longer holds \(expected)" }
    }

    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        // Triggers anywhere that name a plan or a cell (GridVersions, PatientChanges, TapDays…), and the
        // indexes of the two tables: dropped first, so no trigger names a table that is briefly gone.
        let triggers = try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master
            WHERE type = 'trigger' AND (tbl_name IN ('plan', 'planCell') OR sql LIKE '%plan%')
            ORDER BY rowid
            """).map { (name: $0["name"] as String, sql: $0["sql"] as String) }
        let indexes = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('plan', 'planCell') AND sql IS NOT NULL
            ORDER BY rowid
            """)
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }

        try rebuild("plan", db, [
            ("rows BETWEEN 1 AND 6", "rows BETWEEN 1 AND \(rowRange.upperBound)"),
            ("columns BETWEEN 1 AND 8", "columns BETWEEN 1 AND \(columnRange.upperBound)"),
        ])
        try rebuild("planCell", db, [("position BETWEEN 0 AND 47", "position BETWEEN 0 AND \(maxPosition)")])

        for sql in indexes { try db.execute(sql: sql) }
        for trigger in triggers { try db.execute(sql: trigger.sql) }
    }

    /// Create the new table from the old one's own statement with `changes` made, copy, drop, rename.
    private static func rebuild(_ table: String, _ db: Database, _ changes: [(String, String)]) throws {
        guard var sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                            arguments: [table])
        else { throw SchemaDrift(table: table, expected: "a table") }
        let header = try NSRegularExpression(pattern: #"^CREATE TABLE\s+("?\#(table)"?|`\#(table)`)"#, options: [.caseInsensitive])
        let whole = NSRange(sql.startIndex..., in: sql)
        guard header.firstMatch(in: sql, range: whole) != nil else { throw SchemaDrift(table: table, expected: "its name") }
        sql = header.stringByReplacingMatches(in: sql, range: whole, withTemplate: "CREATE TABLE \"\(table)_grid16\"")
        for (old, new) in changes {
            guard sql.contains(old) else { throw SchemaDrift(table: table, expected: old) }
            sql = sql.replacingOccurrences(of: old, with: new)
        }
        try db.execute(sql: sql)
        try db.execute(sql: "INSERT INTO \"\(table)_grid16\" SELECT * FROM \"\(table)\"")
        try db.execute(sql: "DROP TABLE \"\(table)\"")
        try db.execute(sql: "ALTER TABLE \"\(table)_grid16\" RENAME TO \"\(table)\"")
    }
}
