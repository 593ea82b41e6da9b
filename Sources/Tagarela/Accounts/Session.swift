import Crypto
import Foundation
import GRDB

/// Random tokens for sessions, CSRF and invitations, and the hashes stored in their place.
enum Token {
    /// 256 random bits from the system CSPRNG, URL-safe base64 without padding.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var words = (0..<4).map { _ in generator.next() }
        return base64URL(Data(bytes: &words, count: 32))
    }

    /// URL-safe base64 without padding (RFC 4648, section 5), in one pass: Foundation's
    /// `replacingOccurrences` three times cost more than the random bits, and a page with two forms
    /// makes two tokens.
    static func base64URL(_ bytes: Data) -> String {
        var url: [UInt8] = []
        url.reserveCapacity((bytes.count * 4 + 2) / 3)
        for character in bytes.base64EncodedString().utf8 {
            switch character {
            case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: url.append(character)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    /// Only this is stored: a stolen database does not hand out live sessions or invitations.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexadecimal
    }

    /// Compares without an early exit, so timing does not reveal how much of a token matched.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

struct Session: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "session"

    var id: Int64?
    var tokenHash: String
    var userId: Int64
    var csrfToken: String
    /// Set while a tablet is in patient mode: only that patient's pages answer.
    var patientModeFor: Int64?
    /// In patient mode: an adult is modeling, so taps are the adult's (`PatientMode.setModeling`).
    var modeling = false
    /// In patient mode: the adult said the child is tapping alone, so taps name no helper (`PatientMode.setAlone`).
    var alone = false
    /// The role must use a second factor and the account has none: only its setup answers (`TwoFactorRoutes`).
    var mustEnrolSecondFactor = false
    var createdAt: Date
    var lastSeenAt: Date
    var expiresAt: Date

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash)
        static let userId = Column(CodingKeys.userId)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Session {
    /// Read by column, not through `Decodable` (see `User.init(row:)`).
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        tokenHash = try row.decode(forColumn: "tokenHash")
        userId = try row.decode(forColumn: "userId")
        csrfToken = try row.decode(forColumn: "csrfToken")
        patientModeFor = try row.decode(forColumn: "patientModeFor")
        modeling = try row.decode(forColumn: "modeling")
        alone = try row.decode(forColumn: "alone")
        mustEnrolSecondFactor = try row.decode(forColumn: "mustEnrolSecondFactor")
        createdAt = try row.decode(forColumn: "createdAt")
        lastSeenAt = try row.decode(forColumn: "lastSeenAt")
        expiresAt = try row.decode(forColumn: "expiresAt")
    }
}

/// How long sessions live.
public struct SessionPolicy: Sendable {
    /// Staff (admin, clinician, trainer) are logged out after this long without a request.
    public var staffIdleTimeout: TimeInterval = 30 * 60
    /// Tutors and patients, whose tablet stays with the family.
    public var familyIdleTimeout: TimeInterval = 12 * 60 * 60
    /// However active, a session ends this long after login.
    public var absoluteLifetime: TimeInterval = 7 * 24 * 60 * 60
    /// `lastSeenAt` is written at most this often, to keep page views from writing on every request.
    public var touchInterval: TimeInterval = 60
    /// Touches are written together, one transaction at most this often (`SessionTouches`).
    public var touchBatchInterval: Duration = .seconds(1)

    public init() {}

    func idleTimeout(for role: Role) -> TimeInterval {
        role.isStaff ? staffIdleTimeout : familyIdleTimeout
    }
}

/// The signed-in user behind a request, as resolved from the session cookie.
struct SignedIn: Sendable {
    let session: Session
    let user: User

    /// The same, last seen at `date`.
    func seen(at date: Date) -> SignedIn {
        var session = session
        session.lastSeenAt = date
        return SignedIn(session: session, user: user)
    }
}

enum SessionStore {
    static let cookieName = "tagarela_session"

    /// Starts a session for `user`; returns the token for the cookie.
    static func start(for user: User, replacing oldToken: String?, at now: Date, policy: SessionPolicy, _ db: Database) throws -> String {
        if let oldToken {  // rotate: whatever id the browser had before login is dead
            try Session.filter(Session.Columns.tokenHash == Token.hash(oldToken)).deleteAll(db)
        }
        let token = Token.make()
        var session = Session(tokenHash: Token.hash(token), userId: user.id!, csrfToken: Token.make(),
                              patientModeFor: nil, createdAt: now, lastSeenAt: now,
                              expiresAt: now.addingTimeInterval(policy.absoluteLifetime))
        try session.insert(db)
        return token
    }

    /// The live session for a cookie token, or nil when it is unknown, idle too long, past its
    /// lifetime, or its user was deactivated. Expired sessions are deleted on sight. A touch noted in
    /// `touches` and not yet written counts as written. `alsoReading` reads what the caller needs with
    /// the session (who acts in it) in the same read, so that a session not kept in memory costs one
    /// read before the request's own, not two.
    static func resolve<Extra>(token: String, at now: Date, policy: SessionPolicy, touches: SessionTouches, _ pool: DatabasePool,
                               alsoReading extra: (SignedIn, Database) throws -> Extra) throws -> (signedIn: SignedIn, extra: Extra)? {
        let hash = Token.hash(token)
        let read = try pool.read { db -> (SignedIn, Extra)? in
            // The session and its user in one statement: after a restart every person's first request reads
            // them, and the user's own lookup was a quarter of that read.
            let width = try db.columns(in: Session.databaseTableName).count
            let adapter = ScopeAdapter(["session": RangeRowAdapter(0..<width), "user": SuffixRowAdapter(fromIndex: width)])
            guard let row = try Row.fetchOne(db, SQLRequest<Row>(
                      sql: "SELECT session.*, user.* FROM session JOIN user ON user.id = session.userId WHERE session.tokenHash = ?",
                      arguments: [hash], adapter: adapter, cached: true)),
                  let sessionRow = row.scopes["session"], let userRow = row.scopes["user"]
            else { return nil }
            let signedIn = SignedIn(session: try Session(row: sessionRow), user: try User(row: userRow))
            return (signedIn, try extra(signedIn, db))
        }
        guard let (signedIn, extra) = read else { return nil }
        var found = signedIn
        if let noted = touches.latest(found.session.id!), noted > found.session.lastSeenAt {
            found = found.seen(at: noted)
        }
        guard isLive(found, at: now, policy: policy) else {
            do {
                _ = try pool.write { db in try Session.deleteOne(db, key: found.session.id) }
            } catch where StorageFull.matches(error) || ReadOnlyReplica.refusedWrite(error) {}  // refused all the same; deleted on a later sight
            return nil
        }
        guard needsTouch(found, at: now, policy: policy) else { return (found, extra) }
        try touch(found, at: now, touches, pool)
        // What the session now says, so a cached copy does not note the same touch again.
        return (found.seen(at: now), extra)
    }

    /// Whether a session found earlier still counts at `now`. Pure.
    static func isLive(_ signedIn: SignedIn, at now: Date, policy: SessionPolicy) -> Bool {
        let idleLimit = signedIn.session.lastSeenAt.addingTimeInterval(policy.idleTimeout(for: signedIn.user.role))
        return signedIn.user.isActive && now < signedIn.session.expiresAt && now < idleLimit
    }

    /// `lastSeenAt` is written at most once per `touchInterval`. Pure.
    static func needsTouch(_ signedIn: SignedIn, at now: Date, policy: SessionPolicy) -> Bool {
        now.timeIntervalSince(signedIn.session.lastSeenAt) >= policy.touchInterval
    }

    /// Notes that the session was seen at `now`, and writes the batch of touches when one is due
    /// (`SessionTouches`). Best effort: on a full disk the session still works for reading, and the
    /// touches wait for the next batch.
    static func touch(_ signedIn: SignedIn, at now: Date, _ touches: SessionTouches, _ pool: DatabasePool) throws {
        guard touches.note(signedIn.session.id!, at: now) else { return }
        do {
            try touches.flush(pool)
        } catch where StorageFull.matches(error) || ReadOnlyReplica.refusedWrite(error) {}  // a replica keeps touches in memory
    }

    static func end(token: String, _ db: Database) throws {
        try Session.filter(Session.Columns.tokenHash == Token.hash(token)).deleteAll(db)
    }

    static func endAll(for userId: Int64, _ db: Database) throws {
        try Session.filter(Session.Columns.userId == userId).deleteAll(db)
    }
}
