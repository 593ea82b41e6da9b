import Foundation
import GRDB

/// What a person changes on their own account page.
enum OwnAccount {
    /// The language pages are shown in; nil follows the browser. A preference, not audited.
    static func setLanguage(userId: Int64, _ locale: AppLocale?, at now: Date, _ db: Database) throws {
        try User.filter(key: userId).updateAll(db, Column("locale").set(to: locale?.rawValue), Column("updatedAt").set(to: now))
    }

    /// A new password, already checked against the current one and hashed. Other devices must log in
    /// again with it; the session `keeping` (this device) stays.
    static func changePassword(userId: Int64, to hash: String, keeping sessionId: Int64?, audit: AuditContext,
                               _ db: Database) throws {
        try User.filter(key: userId).updateAll(db, Column("passwordHash").set(to: hash), Column("updatedAt").set(to: audit.now),
                                               Column("passwordSetAt").set(to: audit.now))
        try Session.filter(Session.Columns.userId == userId && Column("id") != sessionId).deleteAll(db)
        try audit.record(.setPassword, "user", userId, "account", db)
    }
}
