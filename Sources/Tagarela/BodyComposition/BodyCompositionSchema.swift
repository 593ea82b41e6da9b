import GRDB

enum BodyCompositionSchema {
    /// Evaluations with their skinfold readings and perimeters; the re-evaluation interval per client.
    /// Measures are stored as integers: grams, millimetres, tenths of a millimetre.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.alter(table: "trainerClient") { t in
            t.add(column: "reevaluationDays", .integer).notNull().defaults(to: 90)
                .check(sql: "reevaluationDays BETWEEN 7 AND 730")
        }
        try db.create(table: "evaluation") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("trainerId", .integer).notNull().references("user", onDelete: .restrict)
            t.column("takenOn", .date).notNull()
            t.column("skinfoldProtocol", .text).notNull().check(sql: "skinfoldProtocol IN ('jp7', 'jp3', 'jp3Alternate')")
            t.column("sex", .text).notNull().check(sql: "sex IN ('female', 'male')")
            t.column("ageYears", .double).notNull().check(sql: "ageYears BETWEEN 5 AND 120")
            t.column("weightGrams", .integer).notNull().check(sql: "weightGrams BETWEEN 20000 AND 300000")
            t.column("heightMm", .integer).notNull().check(sql: "heightMm BETWEEN 1000 AND 2300")
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(index: "evaluation_patient", on: "evaluation", columns: ["patientId", "takenOn"])
        try db.create(table: "skinfoldReading") { t in
            t.column("evaluationId", .integer).notNull().references("evaluation", onDelete: .cascade)
            t.column("site", .text).notNull()
            t.column("reading", .integer).notNull().check(sql: "reading BETWEEN 1 AND 3")
            t.column("tenthsMm", .integer).notNull().check(sql: "tenthsMm BETWEEN 10 AND 1000")
            t.primaryKey(["evaluationId", "site", "reading"])
        }
        try db.create(table: "perimeter") { t in
            t.column("evaluationId", .integer).notNull().references("evaluation", onDelete: .cascade)
            t.column("site", .text).notNull()
            t.column("mm", .integer).notNull().check(sql: "mm BETWEEN 50 AND 3000")
            t.primaryKey(["evaluationId", "site"])
        }
    }

    /// A correction names the version it was made on: an edit from a second tab, on an older version,
    /// is refused (409) instead of silently replacing the first. Shipped 2026-11. Never edit.
    static func v2EvaluationVersions(_ db: Database) throws {
        try db.alter(table: "evaluation") { t in
            t.add(column: "version", .integer).notNull().defaults(to: 1)
        }
    }
}
