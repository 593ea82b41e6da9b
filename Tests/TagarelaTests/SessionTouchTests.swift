import Foundation
import GRDB
import Synchronization
import Testing
@testable import Tagarela

/// Sessions' last-seen times are written in batches (`SessionTouches`), and a time noted but not yet
/// written counts all the same.
@Suite struct SessionTouchTests {
    private static func session(of test: TestApp, _ username: String) throws -> Session {
        let id = try test.id(of: username)
        return try test.read { db in try Session.filter(Session.Columns.userId == id).fetchOne(db)! }
    }

    @Test func aTouchIsWrittenWithTheNextBatchAndNeverMovesBack() async throws {
        let test = try await TestApp()
        _ = try test.browser(loggedInAs: "ana")
        let session = try Self.session(of: test, "ana")
        let id = try #require(session.id)
        let seen = session.lastSeenAt.addingTimeInterval(120)

        let notDue = SessionTouches(flushInterval: .seconds(3600))
        #expect(!notDue.note(id, at: seen), "no batch is due within the interval")
        #expect(notDue.latest(id) == seen)

        let due = SessionTouches(flushInterval: .zero)
        #expect(due.note(id, at: seen))
        try due.flush(test.app.poolForTests)
        #expect(due.latest(id) == nil, "written, so no longer pending")
        #expect(abs(try Self.session(of: test, "ana").lastSeenAt.timeIntervalSince(seen)) < 0.001)

        // A late request noting an older time, and a session that has ended meanwhile.
        _ = due.note(id, at: session.lastSeenAt)
        _ = due.note(999_999, at: seen)
        try due.flush(test.app.poolForTests)
        #expect(abs(try Self.session(of: test, "ana").lastSeenAt.timeIntervalSince(seen)) < 0.001, "never moved back")
    }

    /// Two tabs (or a double tap) noting and writing the same session at once: one batch at a time, the
    /// latest time wins, nothing fails.
    @Test func concurrentTouchesKeepTheLatestTime() async throws {
        let test = try await TestApp()
        _ = try test.browser(loggedInAs: "ana")
        let session = try Self.session(of: test, "ana")
        let id = try #require(session.id)
        let touches = SessionTouches(flushInterval: .zero)
        let pool = test.app.poolForTests
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 40) { n in
            if touches.note(id, at: session.lastSeenAt.addingTimeInterval(Double(n + 1))) {
                do { try touches.flush(pool) } catch { failures.withLock { $0 += 1 } }
            }
        }
        try touches.flush(pool)
        #expect(failures.withLock { $0 } == 0)
        #expect(touches.latest(id) == nil)
        #expect(abs(try Self.session(of: test, "ana").lastSeenAt.timeIntervalSince(session.lastSeenAt.addingTimeInterval(40))) < 0.001)
    }

    @Test func aSessionSeenButNotYetWrittenStaysSignedIn() async throws {
        let test = try await TestApp { $0.sessions.touchBatchInterval = .seconds(3600) }
        let ana = try test.browser(loggedInAs: "ana")
        let loggedIn = try Self.session(of: test, "ana").lastSeenAt
        test.clock.advance(by: 20 * 60)
        #expect(try ana.get("/clinician").status == 200)
        #expect(try Self.session(of: test, "ana").lastSeenAt == loggedIn, "the touch waits for its batch")

        // Forty minutes after login, twenty after the touch noted in memory: still signed in, even when
        // the session is read from the database again.
        test.app.caches.pages.invalidateAll()
        test.clock.advance(by: 20 * 60)
        #expect(try ana.get("/clinician").status == 200)

        test.app.saveBeforeExit()
        #expect(try Self.session(of: test, "ana").lastSeenAt == test.clock.now, "written when the server stops")
        // Thirty-one idle minutes later the session ends as before.
        test.clock.advance(by: 31 * 60)
        #expect(try ana.get("/clinician").status == 303)
    }
}
