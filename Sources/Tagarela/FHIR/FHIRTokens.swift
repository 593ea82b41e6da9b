import Foundation
import GRDB

/// A bearer token for the read-only FHIR API: issued by an administrator for one clinician, reaching
/// what that clinician may see and nothing more. Only its hash is stored, as for sessions.
struct FHIRToken: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "fhirToken"
    var id: Int64?
    var tokenHash: String
    var clinicianId: Int64
    var label: String
    var createdBy: Int64?
    var createdAt: Date
    var revokedAt: Date?
    var lastUsedAt: Date?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FHIRSchema {
    /// API tokens. Shipped 2026-11. Never edit; add a new migration instead.
    static func v2Tokens(_ db: Database) throws {
        try db.create(table: "fhirToken") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("tokenHash", .text).notNull().unique()
            t.column("clinicianId", .integer).notNull().indexed().references("user", onDelete: .cascade)
            t.column("label", .text).notNull().check(sql: "length(trim(label)) BETWEEN 1 AND 100")
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("revokedAt", .datetime)
            t.column("lastUsedAt", .datetime)
        }
    }
}

enum FHIRTokens {
    struct Listed: Sendable {
        let token: FHIRToken
        let clinicianName: String
    }

    /// Issues a token for an active clinician; returns the token itself, shown once and never stored.
    static func issue(for clinicianId: Int64, label: String, audit: AuditContext, _ db: Database) throws -> String? {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM user WHERE id = ? AND role = 'clinician' AND isActive)",
                                arguments: [clinicianId]) == true else { return nil }
        let secret = Token.make()
        var token = FHIRToken(tokenHash: Token.hash(secret), clinicianId: clinicianId, label: label, createdBy: audit.actorId,
                              createdAt: audit.now)
        try token.insert(db)
        try audit.record(.create, "fhirToken", token.id, "FHIR API token \"\(label)\" for clinician #\(clinicianId)", db)
        return secret
    }

    static func revoke(_ id: Int64, audit: AuditContext, _ db: Database) throws {
        try db.execute(sql: "UPDATE fhirToken SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [audit.now, id])
        if db.changesCount > 0 { try audit.record(.update, "fhirToken", id, "FHIR API token revoked", db) }
    }

    static func all(_ db: Database) throws -> [Listed] {
        try Row.fetchAll(db, sql: """
            SELECT fhirToken.*, user.displayName AS clinicianName FROM fhirToken JOIN user ON user.id = fhirToken.clinicianId
            ORDER BY fhirToken.revokedAt IS NOT NULL, fhirToken.createdAt DESC, fhirToken.id DESC
            """).map { Listed(token: try FHIRToken(row: $0), clinicianName: $0["clinicianName"]) }
    }

    static func clinicians(_ db: Database) throws -> [User] {
        try User.fetchAll(db, sql: "SELECT * FROM user WHERE role = 'clinician' AND isActive ORDER BY displayName")
    }

    /// The clinician a live token acts for, its use remembered; nil for an unknown or revoked token or an
    /// inactive clinician.
    static func actor(bearer secret: String, now: Date, _ db: Database) throws -> (Actor, FHIRToken)? {
        guard !secret.isEmpty, secret.count <= 100,
              var token = try FHIRToken.fetchOne(db, sql: "SELECT * FROM fhirToken WHERE tokenHash = ? AND revokedAt IS NULL",
                                                 arguments: [Token.hash(secret)]),
              let user = try User.fetchOne(db, sql: "SELECT * FROM user WHERE id = ? AND role = 'clinician' AND isActive",
                                           arguments: [token.clinicianId])
        else { return nil }
        token.lastUsedAt = now
        try db.execute(sql: "UPDATE fhirToken SET lastUsedAt = ? WHERE id = ?", arguments: [now, token.id])
        return (Actor(user: user), token)
    }
}
