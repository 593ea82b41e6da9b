import GRDB

enum AACSchema {
    /// Categories, symbols, plans with their cells, taps and observations.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.create(table: "category") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("clinicianId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
            t.column("colour", .text).notNull()
                .check(sql: "colour IN ('yellow','green','blue','pink','orange','white','purple','brown','red','grey','black','teal','navy','lime','gold','magenta')")
            t.column("position", .integer).notNull().defaults(to: 0)
        }
        try db.create(table: "symbol") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("clinicianId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            // NULL: a general symbol, for all of the clinician's patients; else one patient's own.
            t.column("patientId", .integer).references("patient", column: "userId", onDelete: .cascade)
            t.column("categoryId", .integer).notNull().references("category", onDelete: .restrict)
            t.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
            t.column("spokenText", .text).notNull().check(sql: "length(trim(spokenText)) > 0")
            t.column("pictogram", .text)   // an OpenMoji hexcode
            t.column("imagePath", .text)   // or an uploaded image under media/
            t.column("audioFile", .text)   // a clip under media/audio/
            t.column("audioKind", .text).notNull().defaults(to: "generated")
                .check(sql: "audioKind IN ('generated', 'recorded', 'uploaded')")
            t.column("voice", .text)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
            t.check(sql: "pictogram IS NOT NULL OR imagePath IS NOT NULL")
        }
        try db.create(table: "plan") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().indexed().references("patient", column: "userId", onDelete: .cascade)
            t.column("clinicianId", .integer).notNull().references("user", onDelete: .restrict)
            t.column("tutorId", .integer).references("user", onDelete: .setNull)
            t.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
            t.column("description", .text).notNull().defaults(to: "")
            t.column("startsOn", .date).notNull()
            t.column("type", .text).notNull().check(sql: "type IN ('board', 'big_symbol')")
            t.column("rows", .integer).notNull().check(sql: "rows BETWEEN 1 AND 6")
            t.column("columns", .integer).notNull().check(sql: "columns BETWEEN 1 AND 8 AND rows * columns >= 1")
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(table: "planCell") { t in
            t.column("planId", .integer).notNull().references("plan", onDelete: .cascade)
            t.column("position", .integer).notNull().check(sql: "position BETWEEN 0 AND 47")
            t.column("symbolId", .integer).references("symbol", onDelete: .setNull)
            t.column("linkPlanId", .integer).references("plan", onDelete: .setNull)
            t.primaryKey(["planId", "position"])
        }
        try db.create(table: "tap") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("key", .text).notNull().unique()  // the browser's idempotency key: a tap counts once
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("planId", .integer).references("plan", onDelete: .setNull)
            t.column("symbolId", .integer).references("symbol", onDelete: .setNull)
            t.column("assistedBy", .integer).references("user", onDelete: .setNull)
            t.column("at", .datetime).notNull()
            t.column("receivedAt", .datetime).notNull()
        }
        try db.create(index: "tap_patient_at", on: "tap", columns: ["patientId", "at"])
        try db.create(table: "sentence") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("key", .text).notNull().unique()  // the browser's idempotency key, as for taps
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("planId", .integer).references("plan", onDelete: .setNull)
            t.column("symbolIds", .text).notNull()
            t.column("text", .text).notNull()
            t.column("wordCount", .integer).notNull().check(sql: "wordCount BETWEEN 1 AND 100")
            t.column("assistedBy", .integer).references("user", onDelete: .setNull)
            t.column("at", .datetime).notNull()
        }
        try db.create(index: "sentence_patient_at", on: "sentence", columns: ["patientId", "at"])
        try db.create(table: "observation") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().indexed().references("patient", column: "userId", onDelete: .cascade)
            t.column("authorId", .integer).references("user", onDelete: .setNull)
            t.column("authorName", .text).notNull()
            t.column("authorRole", .text).notNull().check(sql: "authorRole IN ('clinician', 'tutor')")
            t.column("observedOn", .date).notNull()
            t.column("body", .text).notNull().check(sql: "length(trim(body)) > 0")
            // A clinician's notes are private; a tutor's are shared with the clinicians.
            t.column("isPrivate", .boolean).notNull()
            t.column("createdAt", .datetime).notNull()
        }
    }
}
