import Foundation
import GRDB
import HTTPServer
import Synchronization

/// Signed-in sessions and whole pages kept in memory between requests, so the busiest pages (a child's
/// board, loaded on every tap of a folder) need no database read at all.
///
/// Correctness rests on one counter, the generation: it goes up after every commit that changes a table
/// a cached answer was read from (accounts, care links, boards, symbols), inside the commit itself, so
/// the request that made the change (a logout, a board edit) returns only after every older entry is
/// dead. An answer is stored with the generation read *before* the database was, so an answer computed
/// while a change committed is never served. A commit by another process (the CLI, an operator's
/// `sqlite3`) empties the cache within `otherWritersCheck` (`watchOtherWriters`); entries also live at
/// most `lifetime`.
final class ReadCache: Sendable {
    /// Tables whose changes invalidate everything. `session.lastSeenAt` is left out: it is written on
    /// page views (at most once a minute per session) and only the idle check reads it, which the
    /// cached session keeps up to date itself.
    /// The player pages also show a patient's access settings, the symbols' word forms and, for a sentence
    /// plan, its words and links; the offline listing the games' settings. The sentence log is not tracked (every spoken sentence would empty the cache): the one
    /// write a page shows, a new whole-sentence clip, invalidates explicitly (`SentenceRoutes`).
    static let trackedTables = ["user", "patient", "clinicianPatient", "tutorPatient", "trainerClient",
                                "plan", "planCell", "symbol", "category", "accessSetting",
                                "sentenceWord", "sentenceLink", "symbolWordForms", "educatSettings"]
    /// Tables a cached session or page reads without their changes emptying the cache, each with why it
    /// stays fresh. `CacheCoverageTests` records what every cached read touches and allows these and
    /// `trackedTables` only.
    static let readButNotWatched: [String: String] = [
        "gridVersion": "written only by triggers on tracked tables (planCell, symbol, plan, category) and by an erasure with its plans",
        "sentence": "the offline listing reads its whole-sentence clips only; keeping a new one empties the cache (PlayerRoutes.keepSentenceClip)",
        "educatResult": "the offline listing asks only whether the child has played; the first result empties the cache (EduCATRoutes.postResult)",
    ]
    static let trackedSessionColumns = ["id", "tokenHash", "userId", "csrfToken", "patientModeFor", "modeling", "alone", "mustEnrolSecondFactor", "createdAt",
                                        "expiresAt"]

    struct CachedSession {
        var signedIn: SignedIn
        var actor: Actor
        let generation: UInt64
        let storedAt: ContinuousClock.Instant
    }

    private struct CachedPage {
        let response: Response
        let generation: UInt64
        let storedAt: ContinuousClock.Instant
    }

    private struct State {
        var generation: UInt64 = 0
        var sessions: TwoGenerations<String, CachedSession>
        var pages: TwoGenerations<String, CachedPage>
    }

    private let state: Mutex<State>
    private let observation = Mutex<AnyDatabaseCancellable?>(nil)
    private let otherWriters = Mutex<Watch?>(nil)
    let lifetime: Duration
    let otherWritersCheck: Duration

    /// Room for `sessions` signed-in sessions and `pageBytes` of pages per generation (`TwoGenerations`).
    /// At ten times the clinic 8 100 people are signed in, and a session must still be there when its
    /// owner comes back: with room for 5 000 and a life of 10 s, 45 % of the requests of `bench/mixed
    /// --scale 10` read their session from the database again. A board page is about 8 KB: 4 MB holds
    /// the boards of 500 children at play, and more would not help a clinic of 5 000 whose boards come
    /// back less often than the pages' generations turn over, only cost it memory.
    init(sessions: Int = 10_000, pageBytes: Int = 4 << 20, lifetime: Duration = .seconds(300),
         otherWritersCheck: Duration = .seconds(1)) {
        state = Mutex(State(sessions: TwoGenerations(limit: sessions), pages: TwoGenerations(limit: pageBytes)))
        self.lifetime = lifetime
        self.otherWritersCheck = otherWritersCheck
    }

    /// A repeating check, stopped with its cache. Dispatch sources may be used from any thread.
    private final class Watch: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
        deinit { timer.cancel() }
    }

    /// Starts watching `database`'s commits, the server's own and other processes'.
    func observe(_ database: DatabasePool) {
        let regions: [any DatabaseRegionConvertible] = Self.trackedTables.map { Table($0) }
            + [Table("session").select(Self.trackedSessionColumns.map { Column($0) })]
        let cancellable = DatabaseRegionObservation(tracking: regions).start(
            in: database, onError: { _ in self.invalidateAll() }, onChange: { _ in self.invalidateAll() })
        observation.withLock { $0 = cancellable }
        watchOtherWriters(database)
    }

    /// Empties the cache when another process has committed, checked every `otherWritersCheck`.
    /// SQLite's `data_version` changes on a connection when any *other* connection commits; the server
    /// writes through the pool's one writer only, so asked on the writer it names exactly the commits
    /// the observation above cannot see. The check waits its turn like any write and holds the writer a
    /// few microseconds.
    private func watchOtherWriters(_ database: DatabasePool) {
        let version: @Sendable (DatabasePool) -> Int? = { database in
            try? database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        }
        let seen = Mutex(version(database))
        let nanoseconds = Int(otherWritersCheck / .nanoseconds(1))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tagarela.read-cache.other-writers"))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self, weak database] in
            guard let self, let database else { return }
            let now = version(database)
            // A version that cannot be read counts as a change.
            if now == nil || seen.withLock({ $0 }) != now { self.invalidateAll() }
            seen.withLock { $0 = now }
        }
        let watch = Watch(timer)
        otherWriters.withLock { $0 = watch }
        timer.resume()
    }

    /// The generation to store answers under; read it before reading the database.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Empties the cache, for a change to a table it does not watch.
    func invalidateAll() {
        state.withLock { state in
            state.generation &+= 1
            state.sessions.removeAll()
            state.pages.removeAll()
        }
    }

    func session(for token: String) -> CachedSession? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.sessions.value(for: token), entry.generation == state.generation,
                  now - entry.storedAt < lifetime else { return nil }
            return entry
        }
    }

    func store(session: SignedIn, actor: Actor, for token: String, generation: UInt64) {
        let entry = CachedSession(signedIn: session, actor: actor, generation: generation, storedAt: .now)
        state.withLock { state in
            guard generation == state.generation else { return }
            state.sessions.insert(entry, for: token, cost: 1)
        }
    }

    /// Records a write of `lastSeenAt` made for a cached session.
    func touch(token: String, at date: Date) {
        state.withLock { state in
            state.sessions.update(token) { entry in
                var session = entry.signedIn.session
                session.lastSeenAt = date
                entry.signedIn = SignedIn(session: session, user: entry.signedIn.user)
            }
        }
    }

    func page(for key: String) -> Response? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.pages.value(for: key), entry.generation == state.generation,
                  now - entry.storedAt < lifetime else { return nil }
            return entry.response
        }
    }

    private static func cost(_ page: CachedPage) -> Int { page.response.body.count }

    func store(page: Response, for key: String, generation: UInt64) {
        let entry = CachedPage(response: page, generation: generation, storedAt: .now)
        state.withLock { state in
            guard generation == state.generation else { return }
            state.pages.insert(entry, for: key, cost: Self.cost(entry))
        }
    }
}
