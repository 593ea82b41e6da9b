import Foundation
import GRDB

/// A one-time, expiring link that lets a tutor, an adult patient or a staff member set a password.
struct Invitation: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "invitation"
    static let lifetime: TimeInterval = 7 * 24 * 60 * 60
    /// An admin's reset link opens a live account: it lasts a day.
    static let resetLifetime: TimeInterval = 24 * 60 * 60

    var id: Int64?
    var tokenHash: String
    var userId: Int64
    var createdBy: Int64?
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash)
        static let userId = Column(CodingKeys.userId)
        static let usedAt = Column(CodingKeys.usedAt)
        static let expiresAt = Column(CodingKeys.expiresAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Creates an invitation for `userId`; earlier unused ones for the same person stop working.
    /// Returns the token, which only the link carries.
    static func issue(for userId: Int64, by creator: Int64?, at now: Date, lifetime: TimeInterval = lifetime,
                      _ db: Database) throws -> String {
        try Invitation.filter(Columns.userId == userId && Columns.usedAt == nil).updateAll(db, Columns.usedAt.set(to: now))
        let token = Token.make()
        var invitation = Invitation(tokenHash: Token.hash(token), userId: userId, createdBy: creator,
                                    createdAt: now, expiresAt: now.addingTimeInterval(lifetime), usedAt: nil)
        try invitation.insert(db)
        return token
    }

    enum Lookup { case valid(Invitation, User), used, expired, unknown }

    static func find(token: String, at now: Date, _ db: Database) throws -> Lookup {
        guard let invitation = try Invitation.filter(Columns.tokenHash == Token.hash(token)).fetchOne(db),
              let user = try User.fetchOne(db, key: invitation.userId), user.isActive
        else { return .unknown }
        // A password chosen since the link was made (another link, the account page) ends it too.
        if invitation.usedAt != nil || user.passwordSetAt.map({ $0 > invitation.createdAt }) == true { return .used }
        if now >= invitation.expiresAt { return .expired }
        return .valid(invitation, user)
    }

    /// Sets the password chosen through the link `token`, if the link still works in this transaction
    /// (of two tabs racing, one wins): the link is used up, every session of the account ends, the change
    /// is audited as the account's own, and a new session starts. Returns the account and the new
    /// session's token, or nil when the link no longer works.
    static func accept(token: String, passwordHash: String, username: String? = nil, at now: Date, clientAddress: String,
                       policy: SessionPolicy, _ db: Database) throws -> (user: User, sessionToken: String)? {
        guard case .valid(var invitation, var user) = try find(token: token, at: now, db) else { return nil }
        invitation.usedAt = now
        try invitation.update(db, columns: ["usedAt"])
        user.passwordHash = passwordHash
        user.updatedAt = now
        user.passwordSetAt = now
        if let username { user.username = username }
        try user.update(db, columns: ["passwordHash", "updatedAt", "passwordSetAt", "username"])
        try SessionStore.endAll(for: user.id!, db)
        try AuditContext(actorId: user.id, actorName: user.displayName, clientAddress: clientAddress, now: now)
            .record(.setPassword, "user", user.id, "invitation", db)
        return (user, try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db))
    }

    static func path(for token: String) -> String { AccountsEndpoints.showInvitation.path(token) }
}
