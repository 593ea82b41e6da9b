import Crypto
import Foundation
import GRDB

/// Staff's second factor: a TOTP secret per account (`twoFactor`, enabled once a code from the app
/// confirmed it), ten single-use recovery codes kept as hashes, the login waiting for its code
/// (`loginChallenge`), and which staff roles must use one (a setting the administrator changes).
/// Families' accounts and patient mode never ask for one.
enum TwoFactorStore {
    /// The roles that may (and, by the administrator's choice, must) use a second factor.
    static let staffRoles: [Role] = [.admin, .clinician, .trainer]
    static let recoveryCodeCount = 10
    /// How long a login that passed its password waits for its code.
    static let challengeLifetime: TimeInterval = 5 * 60
    static let requiredSetting = "twoFactor.required"

    /// Shipped 2026-11-29. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE twoFactor (
                userId INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
                secret BLOB NOT NULL,
                enabledAt DATETIME,
                lastStep INTEGER
            );
            CREATE TABLE recoveryCode (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                codeHash TEXT NOT NULL,
                usedAt DATETIME
            );
            CREATE INDEX recoveryCode_user ON recoveryCode(userId);
            CREATE TABLE loginChallenge (
                tokenHash TEXT PRIMARY KEY NOT NULL,
                userId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                next TEXT,
                expiresAt DATETIME NOT NULL
            ) WITHOUT ROWID;
            """)
        try db.alter(table: "session") { $0.add(column: "mustEnrolSecondFactor", .boolean).notNull().defaults(to: false) }
    }

    struct State: Sendable {
        let secret: [UInt8]
        let enabled: Bool
        let lastStep: Int64?
        let recoveryCodesLeft: Int
    }

    static func state(of userId: Int64, _ db: Database) throws -> State? {
        guard let row = try Row.fetchOne(db, sql: "SELECT secret, enabledAt, lastStep FROM twoFactor WHERE userId = ?",
                                         arguments: [userId]) else { return nil }
        let left = try Int.fetchOne(db, sql: "SELECT count(*) FROM recoveryCode WHERE userId = ? AND usedAt IS NULL",
                                    arguments: [userId]) ?? 0
        return State(secret: Array(row["secret"] as Data), enabled: (row["enabledAt"] as Date?) != nil, lastStep: row["lastStep"],
                     recoveryCodesLeft: left)
    }

    static func isEnabled(_ userId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT enabledAt IS NOT NULL FROM twoFactor WHERE userId = ?", arguments: [userId]) ?? false
    }

    /// A new secret waiting for its first code; setting up again replaces one never confirmed.
    static func begin(_ userId: Int64, audit: AuditContext, _ db: Database) throws {
        guard try !isEnabled(userId, db) else { return }
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<TOTP.secretBytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try db.execute(sql: """
            INSERT INTO twoFactor (userId, secret, enabledAt, lastStep) VALUES (?, ?, NULL, NULL)
            ON CONFLICT (userId) DO UPDATE SET secret = excluded.secret, enabledAt = NULL, lastStep = NULL
            """, arguments: [userId, secret])
    }

    /// The first code from the app turns the factor on and gives the recovery codes, shown once. Nil: the
    /// code is wrong (or there is nothing to confirm), and nothing changed.
    static func confirm(_ userId: Int64, code: String, audit: AuditContext, _ db: Database) throws -> [String]? {
        guard let state = try state(of: userId, db), !state.enabled,
              let step = TOTP.acceptedStep(code, secret: state.secret, at: audit.now, after: nil) else { return nil }
        try db.execute(sql: "UPDATE twoFactor SET enabledAt = ?, lastStep = ? WHERE userId = ?", arguments: [audit.now, step, userId])
        let codes = try newRecoveryCodes(userId, db)
        try db.execute(sql: "UPDATE session SET mustEnrolSecondFactor = 0 WHERE userId = ?", arguments: [userId])
        try audit.record(.update, "user", userId, "second factor on", db)
        return codes
    }

    /// Turns the factor off (a wrong code changes nothing). Refused by the caller when the role requires one.
    static func disable(_ userId: Int64, code: String, audit: AuditContext, _ db: Database) throws -> Bool {
        guard try verify(userId, code: code, at: audit.now, db) else { return false }
        try db.execute(sql: "DELETE FROM twoFactor WHERE userId = ?", arguments: [userId])
        try db.execute(sql: "DELETE FROM recoveryCode WHERE userId = ?", arguments: [userId])
        try audit.record(.update, "user", userId, "second factor off", db)
        return true
    }

    /// A code from the app (each step once) or an unused recovery code (then used up).
    static func verify(_ userId: Int64, code: String, at now: Date, _ db: Database) throws -> Bool {
        guard let state = try state(of: userId, db), state.enabled else { return false }
        if let step = TOTP.acceptedStep(code, secret: state.secret, at: now, after: state.lastStep) {
            try db.execute(sql: "UPDATE twoFactor SET lastStep = ? WHERE userId = ?", arguments: [step, userId])
            return true
        }
        let typed = code.filter { $0.isLetter || $0.isNumber }.lowercased()
        guard typed.count == 10 else { return false }
        try db.execute(sql: "UPDATE recoveryCode SET usedAt = ? WHERE userId = ? AND codeHash = ? AND usedAt IS NULL",
                       arguments: [now, userId, hash(typed)])
        return db.changesCount == 1
    }

    /// Ten codes of ten letters and digits (about 50 bits each), stored hashed: each logs in once.
    private static func newRecoveryCodes(_ userId: Int64, _ db: Database) throws -> [String] {
        try db.execute(sql: "DELETE FROM recoveryCode WHERE userId = ?", arguments: [userId])
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return try (0..<recoveryCodeCount).map { _ in
            let code = String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            try db.execute(sql: "INSERT INTO recoveryCode (userId, codeHash) VALUES (?, ?)", arguments: [userId, hash(code)])
            return String(code.prefix(5)) + "-" + String(code.suffix(5))
        }
    }

    private static func hash(_ code: String) -> String {
        SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - The login waiting for its code

    /// A login whose password was right and whose account has a second factor: a token for the browser
    /// to bring back with the code.
    static func challenge(for userId: Int64, next: String?, now: Date, _ db: Database) throws -> String {
        try db.execute(sql: "DELETE FROM loginChallenge WHERE expiresAt < ?", arguments: [now])
        let token = Token.make()
        try db.execute(sql: "INSERT INTO loginChallenge (tokenHash, userId, next, expiresAt) VALUES (?, ?, ?, ?)",
                       arguments: [Token.hash(token), userId, next, now.addingTimeInterval(challengeLifetime)])
        return token
    }

    /// The account (and the page it was going to) of a live challenge; nil when unknown or expired.
    static func pending(_ token: String, now: Date, _ db: Database) throws -> (user: User, next: String?)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT userId, next FROM loginChallenge WHERE tokenHash = ? AND expiresAt >= ?",
                                         arguments: [Token.hash(token), now]),
              let user = try User.fetchOne(db, key: row["userId"] as Int64), user.isActive else { return nil }
        return (user, row["next"])
    }

    static func endChallenge(_ token: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM loginChallenge WHERE tokenHash = ?", arguments: [Token.hash(token)])
    }

    // MARK: - Which roles must

    static func requiredRoles(_ db: Database) throws -> Set<Role> {
        let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [requiredSetting]) ?? ""
        return Set(text.split(separator: " ").compactMap { Role(rawValue: String($0)) }).intersection(staffRoles)
    }

    static func setRequired(_ roles: Set<Role>, audit: AuditContext, _ db: Database) throws {
        let text = staffRoles.filter(roles.contains).map(\.rawValue).joined(separator: " ")
        try db.execute(sql: """
            INSERT INTO setting (key, value, updatedAt) VALUES (?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt
            """, arguments: [requiredSetting, text, audit.now])
        try audit.record(.update, "setting", nil, "second factor required for: \(text.isEmpty ? "none" : text)", db)
    }

    /// A session that must set up its factor before anything else (its role requires one, it has none).
    static func mustEnrol(sessionToken token: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE session SET mustEnrolSecondFactor = 1 WHERE tokenHash = ?", arguments: [Token.hash(token)])
    }
}
