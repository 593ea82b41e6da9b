import GRDB

enum EduCATSchema {
    /// Game results, records per patient and area, and per-patient challenge settings.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        let areas = EduCATArea.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")
        try db.create(table: "educatResult") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("area", .text).notNull().check(sql: "area IN (\(areas))")
            t.column("mode", .text).notNull().check(sql: "mode IN ('normal','challenge')")
            t.column("hits", .integer).notNull().check(sql: "hits >= 0")
            t.column("errors", .integer).notNull().check(sql: "errors >= 0")
            t.column("durationSeconds", .integer).notNull().check(sql: "durationSeconds >= 0")
            t.column("livesAtStart", .integer)
            t.column("livesLeft", .integer)
            t.column("secondsPerQuestion", .integer)
            t.column("language", .text).notNull()
            // The adult who opened patient mode, if any.
            t.column("assistedBy", .integer).references("user", onDelete: .setNull)
            t.column("playedAt", .datetime).notNull()
        }
        try db.create(index: "educatResult_patient", on: "educatResult", columns: ["patientId", "playedAt"])
        try db.create(table: "educatRecord") { t in
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("area", .text).notNull().check(sql: "area IN (\(areas))")
            t.column("best", .integer).notNull().check(sql: "best >= 0")
            t.column("updatedAt", .datetime).notNull()
            t.primaryKey(["patientId", "area"])
        }
        try db.create(table: "educatSettings") { t in
            t.primaryKey("patientId", .integer).references("patient", column: "userId", onDelete: .cascade)
            t.column("secondsPerQuestion", .integer).notNull().check(sql: "secondsPerQuestion BETWEEN 3 AND 60")
            t.column("lives", .integer).notNull().check(sql: "lives BETWEEN 1 AND 9")
            t.column("language", .text)
            t.column("updatedBy", .integer).references("user", onDelete: .setNull)
            t.column("updatedAt", .datetime).notNull()
        }
    }
}
