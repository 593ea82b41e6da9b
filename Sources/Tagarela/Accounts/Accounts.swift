import Foundation
import GRDB

/// Account operations for the command line.
public enum Accounts {
    public enum AddResult: Sendable {
        /// With the invitation token when no password was given.
        case created(invitationToken: String?)
        case refused(String)
    }

    public static func addStaff(_ pool: DatabasePool, role roleName: String, username: String, name: String,
                                specialties: [String], password: String?, hasher: PasswordHasher,
                                breached: BreachedPasswords = .builtIn, now: Date = Date()) throws -> AddResult {
        guard let role = Role(rawValue: roleName), role.isStaff else {
            return .refused("The role must be admin, clinician or trainer.")
        }
        guard Usernames.isValid(username) else { return .refused("The username must be 3 to 64 letters, digits or . - _ @.") }
        let chosen = Set(specialties.compactMap(Specialty.init(rawValue:)))
        if role == .clinician, chosen.isEmpty { return .refused("A clinician needs a specialty: speech, nutrition or both.") }
        if let password, let problem = PasswordPolicy.problem(with: password, username: username, breached: breached) {
            return .refused("The password is not acceptable (\(problem.rawValue.replacingOccurrences(of: "_", with: " "))).")
        }
        let hash = password.map(hasher.hash)
        return try pool.write { db in
            guard try People.isUsernameFree(username, db) else { return .refused("The username \(username) is taken.") }
            let audit = AuditContext(actorId: nil, actorName: "tagarela user add", clientAddress: "command line", now: now)
            let created = try insertStaff(name: name, username: username, role: role, specialties: chosen, passwordHash: hash,
                                          createdBy: nil, audit: audit, db)
            return .created(invitationToken: created.invitationToken)
        }
    }

    /// Stores a new staff account, audited; without a password it gets an invitation to choose one.
    /// The caller has checked the fields and that the username is free.
    static func insertStaff(name: String, username: String, role: Role, specialties: Set<Specialty>, passwordHash: String?,
                            createdBy: Int64?, audit: AuditContext, _ db: Database) throws -> (user: User, invitationToken: String?) {
        var user = User(username: username, displayName: name, role: role,
                        specialties: role == .clinician ? User.specialtiesText(specialties) : "",
                        passwordHash: passwordHash, createdBy: createdBy, createdAt: audit.now, updatedAt: audit.now,
                        passwordSetAt: passwordHash == nil ? nil : audit.now)
        try user.insert(db)
        try audit.record(.create, "user", user.id, "\(name) (\(role.rawValue))", db)
        guard passwordHash == nil else { return (user, nil) }
        let token = try Invitation.issue(for: user.id!, by: createdBy, at: audit.now, db)
        try audit.record(.invite, "user", user.id, name, db)
        return (user, token)
    }
}
