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

    /// Levels, per-item answers, one result per game key, the clinician's play settings and the
    /// words and letters a clinician adds to a patient's sets. Shipped 2026-11. Never edit.
    static func v2Levels(_ db: Database) throws {
        let areas = EduCATArea.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")
        try db.alter(table: "educatSettings") { t in
            t.add(column: "untimed", .boolean).notNull().defaults(to: false)
            t.add(column: "itemsOnScreen", .integer).check(sql: "itemsOnScreen BETWEEN 2 AND 40")
            t.add(column: "speed", .text).notNull().defaults(to: "normal").check(sql: "speed IN ('slow','normal','fast')")
            t.add(column: "promotion", .text).notNull().defaults(to: "never").check(sql: "promotion IN ('never','streak','accuracy')")
            t.add(column: "promotionValue", .integer)
        }
        try db.create(table: "educatLevel") { t in
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("area", .text).notNull().check(sql: "area IN (\(areas))")
            t.column("level", .integer).notNull().check(sql: "level >= 1")
            // The clinician who set it, or null when the child passed the level on their own.
            t.column("updatedBy", .integer).references("user", onDelete: .setNull)
            t.column("updatedAt", .datetime).notNull()
            t.primaryKey(["patientId", "area"])
        }
        try db.create(table: "educatAnswer") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("gameKey", .text).notNull()
            t.column("area", .text).notNull().check(sql: "area IN (\(areas))")
            t.column("mode", .text).notNull().check(sql: "mode IN ('normal','challenge')")
            t.column("level", .integer).notNull()
            t.column("asked", .text).notNull()
            // The right answer: the symbol itself, or a conta-cops word's syllable count.
            t.column("expected", .text).notNull()
            // Null when the time ran out.
            t.column("tapped", .text)
            t.column("correct", .boolean).notNull()
            t.column("milliseconds", .integer).notNull().check(sql: "milliseconds >= 0")
            t.column("sequence", .integer).notNull()
            t.column("language", .text).notNull()
            t.column("answeredAt", .datetime).notNull()
            t.uniqueKey(["patientId", "gameKey", "sequence"])
        }
        try db.create(index: "educatAnswer_patient", on: "educatAnswer", columns: ["patientId", "area", "answeredAt"])
        try db.alter(table: "educatResult") { t in
            t.add(column: "gameKey", .text)
            t.add(column: "level", .integer)
        }
        try db.create(index: "educatResult_gameKey", on: "educatResult", columns: ["patientId", "gameKey"], unique: true,
                      condition: Column("gameKey") != nil)
        try db.create(table: "educatItem") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("area", .text).notNull().check(sql: "area IN ('alphabet','conta-cops')")
            t.column("text", .text).notNull()
            // What the voice says (a letter by its name; a word as written).
            t.column("spoken", .text).notNull()
            // Conta-cops: the syllables joined by "-".
            t.column("syllables", .text)
            t.column("pictogram", .text)
            t.column("clip", .text).notNull()
            t.column("language", .text).notNull()
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.uniqueKey(["patientId", "area", "text"])
        }
    }

    /// Records per game and level (issue 46, 6): the record set on digits 0–9 is no longer the one to
    /// beat on dots. A record kept per area moves to the level of the result that set it (its latest
    /// challenge with that many hits), else to the area's level today, else to its standard level.
    /// Shipped 2026-11. Never edit.
    static func v3RecordsPerLevel(_ db: Database) throws {
        let areas = EduCATArea.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")
        try db.create(table: "educatLevelRecord") { t in
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("area", .text).notNull().check(sql: "area IN (\(areas))")
            t.column("level", .integer).notNull().check(sql: "level >= 1")
            t.column("best", .integer).notNull().check(sql: "best >= 0")
            t.column("updatedAt", .datetime).notNull()
            t.primaryKey(["patientId", "area", "level"])
        }
        let standard = EduCATArea.allCases.map { "WHEN '\($0.rawValue)' THEN \(EduCATLevel.standard($0))" }.joined(separator: " ")
        try db.execute(sql: """
            INSERT INTO educatLevelRecord (patientId, area, level, best, updatedAt)
            SELECT r.patientId, r.area, coalesce(
                (SELECT level FROM educatResult s WHERE s.patientId = r.patientId AND s.area = r.area AND s.mode = 'challenge'
                 AND s.hits = r.best AND s.level IS NOT NULL ORDER BY s.id DESC LIMIT 1),
                (SELECT level FROM educatLevel l WHERE l.patientId = r.patientId AND l.area = r.area),
                CASE r.area \(standard) END), r.best, r.updatedAt
            FROM educatRecord r
            """)
        try db.drop(table: "educatRecord")
    }

    /// The teacher's own picture for a word she adds (issue 46, 8): a file under the media directory's
    /// `educat/`, served only to the patient and the adults linked to them. Shipped 2026-11. Never edit.
    static func v4OwnPictures(_ db: Database) throws {
        try db.alter(table: "educatItem") { t in t.add(column: "picture", .text) }
    }
}
