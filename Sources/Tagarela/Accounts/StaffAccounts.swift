import Foundation
import GRDB

/// What an administrator changes in accounts: staff created, activated or deactivated, and passwords
/// reset. Each change writes its audit row in the same transaction.
enum StaffAccounts {
    enum Creation {
        case created(User, invitationToken: String)
        case usernameTaken
    }

    /// A new staff account without a password, with an invitation to choose one. The caller has checked
    /// the fields; the username is checked here, in the transaction that takes it.
    static func create(name: String, username: String, role: Role, specialties: Set<Specialty>, by actor: Actor,
                       audit: AuditContext, _ db: Database) throws -> Creation {
        guard try People.isUsernameFree(username, db) else { return .usernameTaken }
        let created = try Accounts.insertStaff(name: name, username: username, role: role, specialties: specialties,
                                               passwordHash: nil, createdBy: actor.userId, audit: audit, db)
        guard let token = created.invitationToken else { return .usernameTaken }  // never: no password was given
        return .created(created.user, invitationToken: token)
    }

    /// Deactivating ends the person's sessions at once; their records stay. Only staff accounts
    /// (`AppError.notFound` otherwise), and never one's own (`AppError.forbidden`: no locking oneself out).
    static func setActive(_ userId: Int64, _ active: Bool, by actor: Actor, audit: AuditContext, _ db: Database) throws {
        guard var user = try User.fetchOne(db, key: userId), user.role.isStaff else { throw AppError.notFound }
        guard user.id != actor.userId else { throw AppError.forbidden }
        user.isActive = active
        user.updatedAt = audit.now
        try user.update(db, columns: ["isActive", "updatedAt"])
        if !active { try SessionStore.endAll(for: userId, db) }
        try audit.record(active ? .activate : .deactivate, "user", user.id, user.displayName, db)
    }

    /// A forgotten password: a new one-time link for an active account with a login, never one's own
    /// (that is the account page). The old password and every session of the account stop at once; the
    /// link lasts `Invitation.resetLifetime`. Returns the account and the link's token.
    static func resetPassword(_ userId: Int64, by actor: Actor, audit: AuditContext, _ db: Database) throws -> (User, String) {
        guard var user = try User.fetchOne(db, key: userId), user.username != nil, user.isActive else {
            throw AppError.notFound
        }
        guard user.id != actor.userId else { throw AppError.forbidden }
        if user.passwordHash != nil {
            // Had a password: it never becomes an account a clinician may invite.
            user.passwordSetAt = user.passwordSetAt ?? audit.now
            user.passwordHash = nil
            user.updatedAt = audit.now
            try user.update(db, columns: ["passwordHash", "passwordSetAt", "updatedAt"])
        }
        try SessionStore.endAll(for: userId, db)
        let token = try Invitation.issue(for: userId, by: actor.userId, at: audit.now, lifetime: Invitation.resetLifetime, db)
        try audit.record(.passwordReset, "user", user.id, "\(user.displayName) (\(user.username ?? ""))", db)
        return (user, token)
    }
}
