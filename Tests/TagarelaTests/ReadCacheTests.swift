import Foundation
import GRDB
import HTTPServer
import Testing
@testable import Tagarela

/// Sessions and the board page are kept in memory (`ReadCache`); nobody may notice: a board edit shows
/// at the next load, a logout or a deactivation ends the session at once, and a page computed while a
/// change committed is never kept.
@Suite struct ReadCacheTests {
    static func boardOfCarla(_ test: TestApp) throws -> (patient: Int64, plan: Int64) {
        let carla = try test.id(of: "Carla Costa")
        let plan = try test.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND name = 'Meu dia'", arguments: [carla])
        }!
        return (carla, plan)
    }

    @Test func aBoardEditShowsAtTheNextLoad() async throws {
        let test = try await TestApp()
        let (carla, plan) = try Self.boardOfCarla(test)
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.post("/patients/\(carla)/patient-mode", [("plan", "\(plan)")]).status == 303)
        let before = try bruno.get("/play/\(plan)")
        #expect(try bruno.get("/play/\(plan)").text == before.text, "the same page, from the cache")
        let cells = before.text.matches(of: /data-symbol="(\d+)"/).count
        let ana = try test.browser(loggedInAs: "ana")
        let firstSymbolCell = try #require(try test.read { db in
            try Int.fetchOne(db, sql: "SELECT position FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position",
                             arguments: [plan])
        })
        #expect(try ana.post("/plans/\(plan)/cells/\(firstSymbolCell)", [("clear", "1")]).status == 303)
        let after = try bruno.get("/play/\(plan)")
        #expect(after.status == 200)
        #expect(after.text.matches(of: /data-symbol="(\d+)"/).count == cells - 1, "the cleared cell is gone at once")
    }

    @Test func logoutAndDeactivationEndSessionsAtOnce() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.get("/tutor").status == 200)
        #expect(try bruno.get("/tutor").status == 200)
        let stolen = bruno.cookieHeader
        #expect(try bruno.post("/logout").status == 303)
        #expect(try test.client.get("/tutor", headers: stolen).status == 303, "the old cookie is dead at once")

        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/clinician").status == 200)
        let admin = try test.browser(loggedInAs: "admin")
        #expect(try admin.post("/admin/staff/\(try test.id(of: "ana"))/activation", [("active", "0")]).status == 303)
        #expect(try ana.get("/clinician").status == 303)
    }

    @Test func aLanguageChangeShowsOnTheCachedBoard() async throws {
        let test = try await TestApp()
        let (carla, plan) = try Self.boardOfCarla(test)
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.post("/patients/\(carla)/patient-mode", [("plan", "\(plan)")]).status == 303)
        #expect(try bruno.get("/play/\(plan)").text.contains(#"lang="pt-BR""#))
        let bruno2 = try test.browser(loggedInAs: "bruno")
        #expect(try bruno2.post("/account/language", [("locale", "es")]).status == 303)
        #expect(try bruno.get("/play/\(plan)").text.contains(#"lang="es""#))
    }

    @Test func anAnswerComputedWhileAChangeCommitsIsNotKept() {
        let cache = ReadCache()
        let generation = cache.generation
        cache.invalidateAll()   // a commit lands while the page is being built
        cache.store(page: .text("stale"), for: "key", generation: generation)
        #expect(cache.page(for: "key") == nil)
        cache.store(page: .text("fresh"), for: "key", generation: cache.generation)
        #expect(cache.page(for: "key")?.body == Array("fresh".utf8))
    }

    @Test func entriesExpireForWritesTheServerDoesNotSee() async throws {
        let cache = ReadCache(lifetime: .milliseconds(50))
        cache.store(page: .text("page"), for: "key", generation: cache.generation)
        #expect(cache.page(for: "key") != nil)
        try await Task.sleep(for: .milliseconds(80))
        #expect(cache.page(for: "key") == nil)
    }

    @Test func aDeactivationMadeByAnotherProcessEndsTheSessionWithinSeconds() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.get("/tutor").status == 200)
        #expect(try bruno.get("/tutor").status == 200, "the session is now kept")
        // An operator's sqlite3, or the CLI: a connection the server's observation does not see.
        let operatorConnection = try DatabaseQueue(path: test.app.configuration.databasePath)
        try await operatorConnection.write { try $0.execute(sql: "UPDATE user SET isActive = 0 WHERE username = 'bruno'") }
        let deadline = ContinuousClock.now + .seconds(30)  // the watch looks every second; the suite can be slow
        var status = 200
        while status == 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            status = try bruno.get("/tutor").status
        }
        #expect(status == 303, "the deactivated tutor is signed out")
    }

    @Test func onlyAnotherProcessesCommitEmptiesTheCacheOnTheWatch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readcache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let pool = try DatabasePool(path: path)
        try await pool.write { try $0.execute(sql: "CREATE TABLE note (body TEXT)") }
        // A lifetime longer than the whole suite: with every test running at once on two cores, this one
        // once waited minutes between its store and its check, and the page had simply expired.
        let cache = ReadCache(lifetime: .seconds(3_600), otherWritersCheck: .milliseconds(20))
        cache.observe(pool)
        cache.store(page: .text("page"), for: "key", generation: cache.generation)
        for _ in 0..<5 {  // the server's own writes to a table no page reads
            try await pool.write { try $0.execute(sql: "INSERT INTO note VALUES ('tap')") }
            try await Task.sleep(for: .milliseconds(40))
        }
        #expect(cache.page(for: "key") != nil, "the server's own commits are the observation's, not the watch's")
        let other = try DatabaseQueue(path: path)
        try await other.write { try $0.execute(sql: "INSERT INTO note VALUES ('cli')") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(cache.page(for: "key") == nil, "another connection's commit is seen")
    }

    @Test func theBoardsInUseStayWhileThousandsOfOthersPass() {
        // Room for about ten 100-byte pages per generation; a clinic of 5 000 children cycles boards
        // through a cache sized for fewer, and the one a child is using must stay.
        let cache = ReadCache(pageBytes: 1_000)
        let page = Response.text(String(repeating: "x", count: 100))
        cache.store(page: page, for: "child's board", generation: cache.generation)
        for n in 0..<500 {
            cache.store(page: page, for: "board \(n)", generation: cache.generation)
            #expect(cache.page(for: "child's board") != nil, "lost after \(n) other boards")
        }
        #expect(cache.page(for: "board 0") == nil, "the first of the others has gone")
    }
}
