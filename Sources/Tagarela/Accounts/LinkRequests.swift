import Foundation
import GRDB

/// A clinician's request to link an account that already exists: a tutor to one of the clinician's
/// patients, or a patient who has a login to the clinician. Nothing is linked, and the clinician sees
/// nothing, until the account's owner accepts it from their own home page.
struct LinkRequest: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "linkRequest"

    enum Kind: String, Codable, Sendable {
        /// `accountId`, a tutor, would become a tutor of `patientId`.
        case tutor
        /// The requester would become a clinician of `patientId`, whose own account is `accountId`.
        case clinician
    }

    enum Decision: String, Codable, Sendable { case accepted, declined }

    var id: Int64?
    var kind: Kind
    var patientId: Int64
    var accountId: Int64
    var requestedBy: Int64
    var createdAt: Date
    var decidedAt: Date?
    var decision: Decision?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

enum LinkRequests {
    /// What asking did. The clinician is told the same whatever it is; only the audit log keeps it.
    enum AskOutcome: String, Sendable {
        case asked
        case noSuchAccount = "no such account"
        case alreadyLinked = "already linked"
        case alreadyAsked = "already asked"
        case recentlyDeclined = "declined recently"
    }

    /// After a decline the same clinician may not ask the same person again for this long.
    static let quietAfterDecline: TimeInterval = 30 * 24 * 60 * 60

    /// Pure: what asking `account` would do, given what the database says about it.
    static func outcome(accountExists: Bool, alreadyLinked: Bool, openRequest: Bool, lastDeclinedAt: Date?,
                        now: Date) -> AskOutcome {
        guard accountExists else { return .noSuchAccount }
        if alreadyLinked { return .alreadyLinked }
        if openRequest { return .alreadyAsked }
        if let lastDeclinedAt, now.timeIntervalSince(lastDeclinedAt) < quietAfterDecline { return .recentlyDeclined }
        return .asked
    }

    /// Asks the owner of `username` to link their account: for `.tutor`, as a tutor of `patientId`
    /// (which the caller has checked the clinician may see); for `.clinician`, the patient account
    /// itself, to the clinician. Audited whatever happens.
    @discardableResult
    static func ask(_ kind: LinkRequest.Kind, username: String, patientId: Int64?, by clinician: Actor, audit: AuditContext,
                    _ db: Database) throws -> AskOutcome {
        let account = try User.named(username, db).flatMap { user -> User? in
            guard user.isActive else { return nil }
            switch kind {
            case .tutor: return user.role == .tutor ? user : nil
            case .clinician: return user.role == .patient && !user.neverSetPassword ? user : nil
            }
        }
        let patient = kind == .tutor ? patientId : account?.id
        var outcome = AskOutcome.noSuchAccount
        if let account, let patient {
            let linked = try kind == .tutor ? CareLink.tutor.exists(account.id!, patient, db)
                                            : CareLink.clinician.exists(clinician.userId, patient, db)
            let mine = "kind = ? AND patientId = ? AND accountId = ? AND requestedBy = ?"
            let arguments: StatementArguments = [kind.rawValue, patient, account.id, clinician.userId]
            let open = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM linkRequest WHERE \(mine) AND decidedAt IS NULL)",
                                         arguments: arguments) ?? false
            let declined = try Date.fetchOne(db, sql: "SELECT max(decidedAt) FROM linkRequest WHERE \(mine) AND decision = 'declined'",
                                             arguments: arguments)
            outcome = Self.outcome(accountExists: true, alreadyLinked: linked, openRequest: open, lastDeclinedAt: declined,
                                   now: audit.now)
            if outcome == .asked {
                var request = LinkRequest(kind: kind, patientId: patient, accountId: account.id!, requestedBy: clinician.userId,
                                          createdAt: audit.now)
                try request.insert(db)
            }
        }
        let about = patient.map { " → #\($0)" } ?? ""
        try audit.record(.linkRequest, "linkRequest", patientId ?? account?.id,
                         "\(kind.rawValue): \(username)\(about) (\(outcome.rawValue))", db)
        return outcome
    }

    /// An open request as its owner sees it.
    struct Pending: Sendable, FetchableRecord, Decodable {
        let id: Int64
        let kind: LinkRequest.Kind
        let requesterName: String
        let patientName: String
    }

    /// The open requests waiting for `accountId`'s answer, oldest first.
    static func pending(for accountId: Int64, _ db: Database) throws -> [Pending] {
        try Pending.fetchAll(db, sql: """
            SELECT r.id, r.kind, asker.displayName AS requesterName, patient.displayName AS patientName
            FROM linkRequest r JOIN user asker ON asker.id = r.requestedBy JOIN user patient ON patient.id = r.patientId
            WHERE r.accountId = ? AND r.decidedAt IS NULL AND asker.isActive
            ORDER BY r.createdAt, r.id
            """, arguments: [accountId])
    }

    enum DecideOutcome: Sendable { case accepted, declined, alreadyDecided }

    /// The owner's answer. A request that is not the actor's is answered as missing; one already
    /// answered (a second tab, a double tap) changes nothing.
    static func decide(_ id: Int64?, accept: Bool, by owner: Actor, audit: AuditContext, _ db: Database) throws -> DecideOutcome {
        guard let id, var request = try LinkRequest.fetchOne(db, key: id), request.accountId == owner.userId else {
            throw AppError.notFound
        }
        guard request.decidedAt == nil else { return .alreadyDecided }
        request.decidedAt = audit.now
        request.decision = accept ? .accepted : .declined
        try request.update(db)
        if accept {
            switch request.kind {
            case .tutor: try CareLink.tutor.link(request.accountId, request.patientId, at: audit.now, db)
            case .clinician: try CareLink.clinician.link(request.requestedBy, request.patientId, at: audit.now, db)
            }
        }
        try audit.record(accept ? .linkAccept : .linkDecline, "linkRequest", request.patientId,
                         "\(request.kind.rawValue): #\(request.requestedBy) → #\(request.patientId)", db)
        return accept ? .accepted : .declined
    }
}

/// The open requests on a tutor's or a patient's home page (`accounts/link-requests`); nil when there
/// are none, so the page shows nothing.
struct LinkRequestsSection: PageModel {
    struct Row: PageModel {
        let id: Int64
        let text: String
        let acceptURL: String
        let declineURL: String
    }

    let rows: [Row]

    init?(_ pending: [LinkRequests.Pending], _ t: Translator) {
        guard !pending.isEmpty else { return nil }
        rows = pending.map { request in
            Row(id: request.id, text: t("consent_request_\(request.kind.rawValue)",
                                        ["clinician": request.requesterName, "patient": request.patientName]),
                acceptURL: PeopleEndpoints.acceptLink.path(request.id), declineURL: PeopleEndpoints.declineLink.path(request.id))
        }
    }
}
