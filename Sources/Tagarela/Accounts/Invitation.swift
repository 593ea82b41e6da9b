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

    static func path(for token: String) -> String { "/invitations/\(token)" }
}
