import Foundation
import GRDB
import Synchronization

/// When sessions were last seen, written to the database in batches.
///
/// A session's `lastSeenAt` moves at most once a `touchInterval`, but each move was its own write and its
/// own sync to disk (3.2 ms here), holding the one writer: after a restart, when every signed-in user's
/// first request touched at once, bench/mixed at 10× spent its whole first run waiting for touches. Now a
/// request notes the time, and the first request at least `flushInterval` after the last batch writes
/// every noted touch in one transaction. Until then the noted time counts (`latest`), so nobody is signed
/// out for a touch not yet written; a crash loses at most the touches noted since the last batch, which
/// brings a session's end forward by as much.
final class SessionTouches: Sendable {
    private struct State {
        var pending: [Int64: Date] = [:]
        var lastFlush: ContinuousClock.Instant
        var flushing = false
    }

    let flushInterval: Duration
    private let state: Mutex<State>

    init(flushInterval: Duration = .seconds(1)) {
        self.flushInterval = flushInterval
        state = Mutex(State(lastFlush: .now))
    }

    /// Notes that `sessionId` was seen at `date`; whether a batch is due (then call `flush`).
    func note(_ sessionId: Int64, at date: Date) -> Bool {
        state.withLock { state in
            state.pending[sessionId] = max(date, state.pending[sessionId] ?? date)
            return !state.flushing && ContinuousClock.now - state.lastFlush >= flushInterval
        }
    }

    /// The time noted for `sessionId` and not yet written, if any.
    func latest(_ sessionId: Int64) -> Date? {
        state.withLock { $0.pending[sessionId] }
    }

    /// Writes every noted touch in one transaction; one caller at a time, the others go on. A touch never
    /// moves `lastSeenAt` back, and one whose session has ended updates nothing. On failure (a full disk)
    /// the touches are noted again for the next batch.
    func flush(_ pool: DatabasePool) throws {
        let batch: [Int64: Date]? = state.withLock { state in
            guard !state.flushing, !state.pending.isEmpty else { return nil }
            state.flushing = true
            defer { state.pending = [:] }
            return state.pending
        }
        guard let batch else { return }
        defer { state.withLock { $0.flushing = false; $0.lastFlush = .now } }
        do {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: "UPDATE session SET lastSeenAt = max(lastSeenAt, ?) WHERE id = ?")
                for (id, date) in batch { try statement.execute(arguments: [date, id]) }
            }
        } catch {
            state.withLock { state in
                for (id, date) in batch { state.pending[id] = max(date, state.pending[id] ?? date) }
            }
            throw error
        }
    }
}
