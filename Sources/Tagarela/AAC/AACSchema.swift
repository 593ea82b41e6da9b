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

extension AACSchema {
    /// Sentence plans (seed 001): a plan of type `sentence` holds words in three roles and the links
    /// subject → verbs and verb → complements; a spoken sentence keeps its words, its NO and question
    /// forms and, once made, the clip of the whole sentence.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v2SentencePlans(_ db: Database) throws {
        // SQLite cannot change a CHECK in place: rebuild the plan table (foreign keys are checked
        // after the migration, and the tables that reference "plan" follow the renamed table).
        try db.create(table: "plan_v2") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().indexed().references("patient", column: "userId", onDelete: .cascade)
            t.column("clinicianId", .integer).notNull().references("user", onDelete: .restrict)
            t.column("tutorId", .integer).references("user", onDelete: .setNull)
            t.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
            t.column("description", .text).notNull().defaults(to: "")
            t.column("startsOn", .date).notNull()
            t.column("type", .text).notNull().check(sql: "type IN ('board', 'big_symbol', 'sentence')")
            t.column("rows", .integer).notNull().check(sql: "rows BETWEEN 1 AND 6")
            t.column("columns", .integer).notNull().check(sql: "columns BETWEEN 1 AND 8 AND rows * columns >= 1")
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.execute(sql: "INSERT INTO plan_v2 SELECT * FROM plan")
        try db.drop(table: "plan")
        try db.rename(table: "plan_v2", to: "plan")
        try db.execute(sql: "DROP INDEX IF EXISTS index_plan_v2_on_patientId")
        try db.create(index: "index_plan_on_patientId", on: "plan", columns: ["patientId"])

        try db.create(table: "sentenceWord") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("planId", .integer).notNull().indexed().references("plan", onDelete: .cascade)
            t.column("symbolId", .integer).notNull().references("symbol", onDelete: .cascade)
            t.column("role", .text).notNull().check(sql: "role IN ('subject', 'verb', 'complement')")
            // A verb that may also open a sentence, with no subject ("Quero…", "Estou…").
            t.column("isShortcut", .boolean).notNull().defaults(to: false)
            t.uniqueKey(["planId", "role", "symbolId"])
        }
        try db.create(table: "sentenceLink") { t in
            t.column("fromWordId", .integer).notNull().references("sentenceWord", onDelete: .cascade)
            t.column("toWordId", .integer).notNull().indexed().references("sentenceWord", onDelete: .cascade)
            t.primaryKey(["fromWordId", "toWordId"])
        }
        try db.alter(table: "sentence") { t in
            t.add(column: "wordIds", .text)  // a sentence plan's words, in order (board sentences: NULL)
            t.add(column: "negated", .boolean).notNull().defaults(to: false)
            t.add(column: "question", .boolean).notNull().defaults(to: false)
            t.add(column: "clip", .text)  // the whole sentence's clip under media/audio, once generated
        }
    }
}
