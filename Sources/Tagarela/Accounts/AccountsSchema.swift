import GRDB

enum AccountsSchema {
    /// People, care relationships, sessions, invitations and the audit log.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.create(table: "user") { t in
            t.autoIncrementedPrimaryKey("id")
            // NULL for patients who never log in; unique whatever the case ("Ana" = "ana").
            t.column("username", .text).unique().collate(.nocase)
            t.column("displayName", .text).notNull().check(sql: "length(trim(displayName)) > 0")
            t.column("role", .text).notNull()
                .check(sql: "role IN ('admin', 'clinician', 'trainer', 'tutor', 'patient')")
            t.column("specialties", .text).notNull().defaults(to: "")
            t.column("locale", .text).check(sql: "locale IN ('pt-BR', 'es', 'ca', 'en')")
            t.column("isActive", .boolean).notNull().defaults(to: true)
            t.column("passwordHash", .text)
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(table: "patient") { t in
            t.primaryKey("userId", .integer).references("user", onDelete: .cascade)
            t.column("birthDate", .date)
            t.column("sex", .text).check(sql: "sex IN ('female', 'male')")
            t.column("diagnosis", .text).notNull().defaults(to: "")
            t.column("photoPath", .text)
            t.column("startedOn", .date)
            t.column("contact", .text).notNull().defaults(to: "")
            t.column("notes", .text).notNull().defaults(to: "")
        }
        for (table, staff) in [("clinicianPatient", "clinicianId"), ("tutorPatient", "tutorId"), ("trainerClient", "trainerId")] {
            try db.create(table: table) { t in
                t.column(staff, .integer).notNull().references("user", onDelete: .cascade)
                t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey([staff, "patientId"])
            }
            try db.create(index: "\(table)_patient", on: table, columns: ["patientId"])
        }
        try db.create(table: "session") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("tokenHash", .text).notNull().unique()
            t.column("userId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("csrfToken", .text).notNull()
            t.column("patientModeFor", .integer).references("patient", column: "userId", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("lastSeenAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
        }
        try db.create(table: "invitation") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("tokenHash", .text).notNull().unique()
            t.column("userId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
            t.column("usedAt", .datetime)
        }
        try db.create(table: "auditEntry") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("at", .datetime).notNull().indexed()
            t.column("actorId", .integer).indexed().references("user", onDelete: .setNull)
            t.column("actorName", .text).notNull()
            t.column("action", .text).notNull()
            t.column("entity", .text).notNull()
            t.column("entityId", .integer)
            t.column("summary", .text).notNull()
            t.column("clientAddress", .text).notNull()
        }
        try db.create(index: "auditEntry_entity", on: "auditEntry", columns: ["entity", "entityId"])
    }
}

extension AccountsSchema {
    /// Consent for links to existing accounts, and when a password was last set (an account whose
    /// password was ever set is never invited again: only an admin's reset gives it a new link).
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v2Consent(_ db: Database) throws {
        try db.create(table: "linkRequest") { t in
            t.autoIncrementedPrimaryKey("id")
            // tutor: `accountId` (a tutor) becomes a tutor of the patient;
            // clinician: the requester becomes a clinician of the patient, whose own account is `accountId`.
            t.column("kind", .text).notNull().check(sql: "kind IN ('tutor', 'clinician')")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("accountId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("requestedBy", .integer).notNull().references("user", onDelete: .cascade)
            t.column("createdAt", .datetime).notNull()
            t.column("decidedAt", .datetime)
            t.column("decision", .text).check(sql: "decision IN ('accepted', 'declined')")
            t.check(sql: "(decidedAt IS NULL) = (decision IS NULL)")
        }
        // One open request per person asked, patient and asker: asking twice asks once.
        try db.create(index: "linkRequest_open", on: "linkRequest", columns: ["kind", "patientId", "accountId", "requestedBy"],
                      unique: true, condition: Column("decidedAt") == nil)
        try db.alter(table: "user") { t in t.add(column: "passwordSetAt", .datetime) }
        try db.execute(sql: "UPDATE user SET passwordSetAt = updatedAt WHERE passwordHash IS NOT NULL")
    }
}
