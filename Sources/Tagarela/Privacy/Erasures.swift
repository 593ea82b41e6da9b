import Foundation
import GRDB

/// The right to erasure (LGPD art. 18 VI, GDPR art. 17) with the clinic's decision in the loop: the
/// patient, or a tutor of a child, asks; an administrator either declines with the reason the law gives
/// (a clinic must keep health records for a time) or carries the erasure out. Carrying it out removes
/// the patient and everything that hangs on them, overwrites the freed pages (`secure_delete`) so later
/// copies and replicas of the database no longer hold them, lists the media files to delete here and on
/// the media replica, and keeps the audit log with the person's name replaced by a pseudonym.
enum Erasures {
    enum Status: String, Sendable { case open, declined, withdrawn, erased }

    /// Shipped 2026-11-29. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE erasureRequest (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                patientId INTEGER REFERENCES patient(userId) ON DELETE SET NULL,
                patientName TEXT NOT NULL,
                requestedBy INTEGER REFERENCES user(id) ON DELETE SET NULL,
                requestedByName TEXT NOT NULL,
                requestedAt DATETIME NOT NULL,
                reason TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL CHECK (status IN ('open', 'declined', 'withdrawn', 'erased')) DEFAULT 'open',
                decidedBy INTEGER REFERENCES user(id) ON DELETE SET NULL,
                decidedByName TEXT,
                decidedAt DATETIME,
                decisionNote TEXT,
                erasedRows INTEGER,
                erasedFiles INTEGER,
                CHECK (status = 'open' OR decidedAt IS NOT NULL)
            );
            CREATE UNIQUE INDEX erasureRequest_open ON erasureRequest(patientId) WHERE status = 'open';
            """)
    }

    struct Request: Sendable, FetchableRecord, Decodable {
        let id: Int64
        let patientId: Int64?
        let patientName: String
        let requestedByName: String
        let requestedAt: Date
        let reason: String
        let status: String
        let decidedByName: String?
        let decidedAt: Date?
        let decisionNote: String?
        let erasedRows: Int?
        let erasedFiles: Int?

        var state: Status { Status(rawValue: status) ?? .open }
    }

    static func latest(patientId: Int64, _ db: Database) throws -> Request? {
        try Request.fetchOne(db, sql: "SELECT * FROM erasureRequest WHERE patientId = ? ORDER BY id DESC LIMIT 1", arguments: [patientId])
    }

    static func all(_ db: Database) throws -> [Request] {
        try Request.fetchAll(db, sql: "SELECT * FROM erasureRequest ORDER BY status <> 'open', requestedAt DESC, id DESC")
    }

    static func find(_ id: Int64, _ db: Database) throws -> Request {
        guard let request = try Request.fetchOne(db, sql: "SELECT * FROM erasureRequest WHERE id = ?", arguments: [id])
        else { throw AppError.notFound }
        return request
    }

    /// Opens a request, once: a second one while the first is open (a double tap, a second tutor) is the same request.
    static func request(patientId: Int64, patientName: String, by actor: Actor, reason: String, audit: AuditContext,
                        _ db: Database) throws {
        guard try latest(patientId: patientId, db)?.state != .open else { return }
        try db.execute(sql: """
            INSERT INTO erasureRequest (patientId, patientName, requestedBy, requestedByName, requestedAt, reason)
            VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [patientId, patientName, actor.userId, actor.displayName, audit.now, reason])
        try audit.record(.erasureRequest, "patient", patientId, "erasure requested (#\(db.lastInsertedRowID))", db)
    }

    /// The requester changed their mind; only an open request can be withdrawn.
    static func withdraw(patientId: Int64, audit: AuditContext, _ db: Database) throws {
        guard let open = try latest(patientId: patientId, db), open.state == .open else { return }
        try decide(open.id, .withdrawn, note: nil, audit: audit, db)
        try audit.record(.erasureDecision, "patient", patientId, "erasure request #\(open.id) withdrawn", db)
    }

    static func decline(_ id: Int64, note: String, audit: AuditContext, _ db: Database) throws {
        let request = try find(id, db)
        guard request.state == .open else { throw AppError.conflict }
        try decide(id, .declined, note: note, audit: audit, db)
        try audit.record(.erasureDecision, "patient", request.patientId, "erasure request #\(id) declined", db)
    }

    /// What an erasure removed: rows of the database, and the files to delete once it committed.
    struct Outcome: Sendable {
        let rows: Int
        let files: [PatientArchive.MediaFile]
    }

    /// Carries the request out in one transaction. The pseudonym replaces the person's name and username
    /// wherever the audit log wrote them; rows the patient made keep no address. Sessions in patient mode
    /// for them end (left alone, they would fall back to the adult's full session on a child's tablet).
    static func erase(_ id: Int64, note: String, audit: AuditContext, _ db: Database) throws -> Outcome {
        let request = try find(id, db)
        guard request.state == .open, let patientId = request.patientId else { throw AppError.conflict }
        guard let person = try Row.fetchOne(db, sql: "SELECT displayName, username FROM user WHERE id = ?", arguments: [patientId])
        else { throw AppError.conflict }
        let files = try PatientArchive.mediaFiles(patientId: patientId, db)
        let rows = try PatientArchive.counts(patientId: patientId, db).reduce(0) { $0 + $1.count }
        let pseudonym = Self.pseudonym(id)

        try db.execute(sql: "PRAGMA secure_delete = ON")
        defer { try? db.execute(sql: "PRAGMA secure_delete = OFF") }
        try db.execute(sql: "UPDATE auditEntry SET actorName = ?, clientAddress = '' WHERE actorId = ?", arguments: [pseudonym, patientId])
        for name in [person["displayName"] as String, person["username"] as String?].compactMap({ $0 }) where name.count >= 2 {
            try db.execute(sql: """
                UPDATE auditEntry SET summary = replace(summary, ?1, ?2), actorName = replace(actorName, ?1, ?2)
                WHERE instr(summary, ?1) > 0 OR instr(actorName, ?1) > 0
                """, arguments: [name, pseudonym])
            try db.execute(sql: """
                UPDATE erasureRequest SET reason = replace(reason, ?1, ?2), decisionNote = replace(decisionNote, ?1, ?2),
                                          requestedByName = replace(requestedByName, ?1, ?2)
                """, arguments: [name, pseudonym])
        }
        if let username = person["username"] as String? {
            let keys = LoginThrottle.keys(username: username, address: "")
            try db.execute(sql: "DELETE FROM loginFailure WHERE key = ?1 OR substr(key, 1, length(?2)) = ?2", arguments: [keys.account, keys.pair])
        }
        try db.execute(sql: "DELETE FROM session WHERE patientModeFor = ?", arguments: [patientId])
        try db.execute(sql: "DELETE FROM gridVersion WHERE planId IN (SELECT id FROM plan WHERE patientId = ?)", arguments: [patientId])
        try db.execute(sql: "UPDATE erasureRequest SET patientName = ?, erasedRows = ?, erasedFiles = ? WHERE id = ?",
                       arguments: [pseudonym, rows, files.count, id])
        try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [patientId])
        try db.execute(sql: "DELETE FROM patientChange WHERE patientId = ?", arguments: [patientId])
        try decide(id, .erased, note: note, audit: audit, db)
        try audit.record(.erasureDecision, "patient", patientId, "erasure request #\(id) carried out: \(rows) rows, \(files.count) files", db)
        return Outcome(rows: rows, files: files)
    }

    /// How the audit log names an erased person from then on. Pure.
    static func pseudonym(_ requestId: Int64) -> String { "erased person #\(requestId)" }

    private static func decide(_ id: Int64, _ status: Status, note: String?, audit: AuditContext, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE erasureRequest SET status = ?, decidedBy = ?, decidedByName = ?, decidedAt = ?, decisionNote = ? WHERE id = ?
            """, arguments: [status.rawValue, audit.actorId, audit.actorName, audit.now, note, id])
    }

    /// Deletes the erased files here and lists them for the media replica (`deploy/sync-media` deletes
    /// what `.erased/` lists on its next run). Runs after the transaction committed.
    static func removeFiles(_ files: [PatientArchive.MediaFile], requestId: Int64, mediaDirectory: String, audioFolder: String) {
        var listed: [String] = []
        for file in files where !file.relativePath.contains("..") {
            let folder = file.location == .audio ? audioFolder : mediaDirectory
            try? FileManager.default.removeItem(atPath: folder + "/" + file.relativePath)
            if folder.hasPrefix(mediaDirectory + "/") || folder == mediaDirectory {
                let inside = String(folder.dropFirst(mediaDirectory.count)).drop { $0 == "/" }
                listed.append((inside.isEmpty ? "" : inside + "/") + file.relativePath)
            }
        }
        guard !listed.isEmpty else { return }
        let listFolder = mediaDirectory + "/.erased"
        try? FileManager.default.createDirectory(atPath: listFolder, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: listFolder + "/erasure-\(requestId).txt",
                                       contents: Data((listed.joined(separator: "\n") + "\n").utf8))
    }
}
