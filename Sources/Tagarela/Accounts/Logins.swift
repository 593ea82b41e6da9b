import Foundation
import GRDB

/// Sessions begun and ended: a login that passed its password check, one that did not, logging out
/// here or everywhere. Each writes its audit row in the same transaction.
enum Logins {
    /// A checked password: the session starts (the browser's old session id, if any, dies with it) and
    /// a hash made with weaker parameters is replaced by `rehash`. `audit` is the account's own.
    /// Returns the token for the session cookie.
    static func start(_ user: User, rehash: String?, replacing oldToken: String?, policy: SessionPolicy,
                      audit: AuditContext, _ db: Database) throws -> String {
        try Logins.rehash(user, to: rehash, db)
        let token = try SessionStore.start(for: user, replacing: oldToken, at: audit.now, policy: policy, db)
        try audit.record(.login, "user", user.id, user.username ?? "", db)
        return token
    }

    /// A hash made with weaker parameters replaced by one made now (nil: nothing to replace).
    static func rehash(_ user: User, to rehash: String?, _ db: Database) throws {
        guard let rehash else { return }
        var user = user
        user.passwordHash = rehash
        try user.update(db, columns: ["passwordHash"])
    }

    /// A wrong password (or an unknown name), and the lockout it starts if it is the failure that
    /// crosses a limit. The typed name is kept short: it is whatever a stranger sent.
    static func recordFailure(username: String, account: Int64?, admission: LoginThrottle.Admission,
                              audit: AuditContext, _ db: Database) throws {
        let typed = String(username.prefix(64))
        try audit.record(.loginFailed, "user", account, typed, db)
        if admission.locksAccount { try audit.record(.lockout, "user", account, "account: \(typed)", db) }
        if admission.locksAddress { try audit.record(.lockout, "address", nil, "address: \(audit.clientAddress)", db) }
    }

    /// Logging out on this device: the session of `token` ends.
    static func end(token: String, userId: Int64?, audit: AuditContext, _ db: Database) throws {
        try SessionStore.end(token: token, db)
        try audit.record(.logout, "user", userId, "", db)
    }

    /// Every session of the account ends, on every device.
    static func endEverywhere(userId: Int64, audit: AuditContext, _ db: Database) throws {
        try SessionStore.endAll(for: userId, db)
        try audit.record(.logout, "user", userId, "everywhere", db)
    }
}
