import Foundation
import GRDB
@testable import Tagarela
import Testing

/// Boards up to 16 × 16 (issue 54, item 1): the migration that rebuilds `plan` and `planCell` keeps their
/// rows, indexes and triggers, and the new bounds hold in the schema, the form's rules and the importer.
@Suite struct LargeGridTests {
    static let rebuild = "2026-11 AAC: boards up to 16 × 16"
    /// The migration just before the rebuild, whichever was appended last before it.
    static var before: String {
        let names = Migrations.migrator.migrations
        return names[names.firstIndex(of: rebuild)! - 1]
    }

    /// Every index and trigger of the database but the tables' own automatic ones, by name.
    static func schema(_ db: Database) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'view') AND sql IS NOT NULL
            """).map { ($0["name"] as String, $0["sql"] as String) })
    }

    @Test func theRebuildKeepsRowsIndexesAndTriggersAndAcceptsBigGrids() throws {
        let queue = try DatabaseQueue()
        let migrator = Migrations.migrator
        try migrator.migrate(queue, upTo: Self.before)
        let now = "2026-11-29 04:00:00.000"
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO user (id, displayName, role, createdAt, updatedAt) VALUES (1, 'Ana', 'clinician', ?, ?), (2, 'Carla', 'patient', ?, ?);
                INSERT INTO patient (userId) VALUES (2);
                INSERT INTO plan (id, patientId, clinicianId, name, startsOn, type, rows, columns, createdAt, updatedAt)
                    VALUES (5, 2, 1, 'Início', '2026-11-01', 'board', 6, 8, ?, ?), (6, 2, 1, 'Comida', '2026-11-01', 'board', 2, 2, ?, ?);
                INSERT INTO planCell (planId, position, linkPlanId, backgroundColour) VALUES (5, 47, 6, '#ffa'), (5, 0, NULL, NULL);
                """, arguments: [now, now, now, now, now, now, now, now])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE plan SET columns = 10 WHERE id = 6")
            }
        }
        let old = try queue.read(Self.schema)
        let version = try queue.read { try Int.fetchOne($0, sql: "SELECT version FROM gridVersion WHERE planId = 5") }

        try migrator.migrate(queue, upTo: Self.rebuild)

        try queue.read { db in
            #expect(try Self.schema(db) == old, "every index and trigger recreated word for word")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM plan") == 2)
            let cell = try Row.fetchOne(db, sql: "SELECT * FROM planCell WHERE planId = 5 AND position = 47")
            #expect(cell?["linkPlanId"] == 6 && cell?["backgroundColour"] == "#ffa", "later columns kept")
            #expect(try db.foreignKeyViolations().next() == nil)
            let tableSQL = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'planCell'") ?? ""
            #expect(tableSQL.contains("REFERENCES \"plan\"") && !tableSQL.contains("grid16"))
        }
        try queue.write { db in
            try db.execute(sql: "UPDATE plan SET rows = 8, columns = 14 WHERE id = 6")
            try db.execute(sql: "INSERT INTO planCell (planId, position) VALUES (6, 111), (6, 255)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO planCell (planId, position) VALUES (6, 256)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE plan SET rows = 17 WHERE id = 6") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE plan SET columns = 0 WHERE id = 6") }
            // The grid's version trigger still follows the cells.
            try db.execute(sql: "DELETE FROM planCell WHERE planId = 5 AND position = 0")
            #expect(try Int.fetchOne(db, sql: "SELECT version FROM gridVersion WHERE planId = 5") != version)
            // Deleting a plan still cascades to its cells.
            try db.execute(sql: "DELETE FROM plan WHERE id = 6")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM planCell WHERE planId = 6") == 0)
        }
    }

    @Test func theRulesAcceptTheCommonCoreSizes() {
        for (rows, columns) in [(6, 10), (7, 12), (8, 14), (16, 16), (1, 2)] {
            #expect(BoardRules.isValidSize(rows: rows, columns: columns, type: .board))
        }
        for (rows, columns) in [(17, 2), (2, 17), (0, 4), (1, 1)] {
            #expect(!BoardRules.isValidSize(rows: rows, columns: columns, type: .board))
        }
        #expect(OBFReader.columnRange == 1...16 && OBFReader.rowRange == 1...16)
    }

    @Test func theEditorsModelNamesWhereA14ColumnGridFallsUnder64Px() {
        let names = BoardFit.devices.filter { !BoardFit.cells(rows: 8, columns: 14, width: $0.width, height: $0.height).fits }.map(\.key)
        #expect(names.contains("phone") && names.contains("phone_landscape") && names.contains("tablet"))
        #expect(!names.contains("laptop") && !names.contains("desktop"))
        let tablet = BoardFit.cells(rows: 6, columns: 10, width: 1024, height: 768)
        #expect(tablet.fits, "\(tablet)")
    }
}
