import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Synchronization
import Testing
@testable import Tagarela

/// While SQLite's one writer is held up (a slow disk sync, a backup, a checkpoint of Litestream's), the
/// requests that write wait for it on workers of their own, and pages keep answering.
@Suite struct WriterWorkersTests {
    /// What the scenario saw.
    struct Seen: Sendable {
        var pageStatuses: [Int] = []
        /// Whether the lock was still held, and no note answered, once the pages had answered.
        var lockHeldThroughPages = false
        var notesPendingThroughPages = false
        var noteStatuses: [Int?] = []
    }

    final class Status: Sendable {
        let code = Mutex<Int?>(nil)
    }

    @Test func pagesAnswerWhileWritesWaitForTheDatabase() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        // Signed in before the lock is taken: a login writes its session.
        let writers = try (0..<3).map { _ in try test.browser(loggedInAs: "bruno") }
        let reader = try test.browser(loggedInAs: "bruno")
        let notes = writers.map { ($0.cookieHeader, $0.csrf) }
        let pages = ["/tutor", "/patients/\(carla)/usage"]
        let readerCookies = reader.cookieHeader
        let (port, path, server) = (test.server.port, test.dataDirectory + "/db/tagarela.sqlite", test.server)

        // On threads of its own: the test's task shares a small pool with the other tests.
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Seen, Never>) in
            Thread {
                continuation.resume(returning: Self.scenario(port: port, databasePath: path, server: server, carla: carla,
                                                             notes: notes, pages: pages, readerCookies: readerCookies))
            }.start()
        }

        #expect(seen.pageStatuses == [200, 200, 200, 200, 200, 200])
        #expect(seen.lockHeldThroughPages, "a page waited for the writer")
        #expect(seen.notesPendingThroughPages, "the notes waited for the lock")
        // When the lock goes, every note is saved.
        #expect(seen.noteStatuses == [303, 303, 303])
        let saved = try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM observation WHERE body LIKE '% durante a espera'")
        }
        #expect(saved == 3)
    }

    /// Another connection takes SQLite's write lock; three notes (more than the writer workers) are
    /// posted and wait for it; three times two pages are loaded; then the lock is released (after 4 s at
    /// the latest: the app's writer gives up after 5) and the notes are awaited.
    static func scenario(port: Int, databasePath: String, server: Server, carla: Int64,
                         notes: [([(String, String)], String)], pages: [String], readerCookies: [(String, String)]) -> Seen {
        var seen = Seen()
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let released = Mutex(false)
        Thread {
            let outside = try? DatabaseQueue(path: databasePath)
            try? outside?.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                _ = release.wait(timeout: .now() + 4)
                released.withLock { $0 = true }
                try db.execute(sql: "COMMIT")
            }
            finished.signal()
        }.start()
        guard locked.wait(timeout: .now() + 5) == .success else { return seen }

        let statuses = notes.enumerated().map { index, note in
            let status = Status()
            Thread {
                let fields = [("_csrf", note.1), ("observedOn", "2026-11-17"), ("body", "Nota \(index) durante a espera")]
                let response = try? HTTPClient(port: port).postForm("/patients/\(carla)/observations", fields, headers: note.0)
                status.code.withLock { $0 = response?.status ?? -1 }
            }.start()
            return status
        }
        let deadline = Date().addingTimeInterval(3)
        while server.requestsInFlight < notes.count && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }

        for _ in 0..<3 {
            for page in pages {
                seen.pageStatuses.append((try? HTTPClient(port: port).get(page, headers: readerCookies).status) ?? -1)
            }
        }
        seen.lockHeldThroughPages = !released.withLock { $0 }
        seen.notesPendingThroughPages = statuses.allSatisfy { $0.code.withLock { $0 } == nil }
        release.signal()
        finished.wait()

        let waited = Date().addingTimeInterval(10)
        while statuses.contains(where: { $0.code.withLock { $0 } == nil }) && Date() < waited { Thread.sleep(forTimeInterval: 0.01) }
        seen.noteStatuses = statuses.map { $0.code.withLock { $0 } }
        return seen
    }
}
