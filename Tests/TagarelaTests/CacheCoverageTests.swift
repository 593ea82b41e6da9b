import Foundation
import GRDB
import HTTPTestSupport
import Synchronization
@testable import Tagarela
import Testing

/// The SQL of the statements a connection ran, as SQLite traces it.
final class StatementLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ sql: String) { lines.withLock { $0.append(sql) } }
    /// What was run since the last `take`.
    func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
}

/// Which tables statements read, as SQLite's authorizer tells GRDB when it prepares them
/// (`Statement.databaseRegion`): a view counts as the tables under it.
enum TableReads {
    struct Unpreparable: Error, CustomStringConvertible {
        let sql: String
        let error: any Error
        var description: String { "\(error) in \(sql)" }
    }

    static func tables(read statements: [String], _ db: Database) throws -> Set<String> {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        var region = DatabaseRegion()
        // A trigger's statements are traced as comments; statements that write are not reads of a cache.
        for sql in Set(statements) where !sql.hasPrefix("--") {
            let statement: Statement
            do { statement = try db.makeStatement(sql: sql) } catch { throw Unpreparable(sql: sql, error: error) }
            if statement.isReadonly { region.formUnion(statement.databaseRegion) }
        }
        return Set(names.filter { region.isModified(byEventsOfKind: .insert(tableName: $0)) })
    }

    /// The tables `block` reads, traced on the connection it runs on.
    static func record(_ pool: DatabasePool, _ block: (Database) throws -> Void) throws -> Set<String> {
        try pool.read { db in
            let log = StatementLog()
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { log.append(statement.sql) }
            }
            do {
                try block(db)
                db.trace(options: .statement, nil)
            } catch {
                db.trace(options: .statement, nil)
                throw error
            }
            return try tables(read: log.take(), db)
        }
    }
}

/// Cache freshness a test proves (issue 50, item 7): what each cached read actually reads, from the
/// statements the server runs, is covered by what keeps its cache fresh — `ReadCache.trackedTables`
/// for the sessions and whole pages kept in memory, the `patientChange` triggers for the worklist's
/// kept readings (`CaseloadSignals`) — or named with the reason it needs no watching.
@Suite struct CacheCoverageTests {
    @Test func everyTableACachedSessionOrPageReadsIsWatched() async throws {
        let log = StatementLog()
        let test = try await TestApp { $0.statementTrace = { sql in log.append(sql) } }
        let watched = Set(ReadCache.trackedTables + ["session"] + ReadCache.readButNotWatched.keys)
        var read: [String: Set<String>] = [:]
        /// The tables one request read with the cache empty: the session's and, for a kept page, the page's.
        func cold(_ browser: Browser, _ path: String) throws -> Int {
            test.app.caches.pages.invalidateAll()
            _ = log.take()
            let status = try browser.get(path).status
            let tables = try test.read { db in try TableReads.tables(read: log.take(), db) }
            read[path, default: []].formUnion(tables)
            return status
        }
        // Every role's session: a route that reads nothing itself, so the statements are the session's.
        for username in ["admin", "ana", "nadia", "dani", "bruno", "beatriz", "elisa"] {
            let browser = try test.browser(loggedInAs: username)
            #expect(try cold(browser, FHIREndpoints.metadata.path()) == 200)
            #expect(read[FHIREndpoints.metadata.path()]?.contains("session") == true, "the session was read again (\(username))")
        }
        // The kept pages: every board of Carla's in patient mode, its sentence clips, the offline listing.
        let carla = try test.id(of: "Carla Costa")
        let plans = try test.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM plan WHERE patientId = ?", arguments: [carla]) }
        let bruno = try test.browser(loggedInAs: "bruno")
        #expect(try bruno.post(AccountsEndpoints.openPatientMode.path(carla), [("plan", "\(plans[0])")]).status == 303)
        var kept: [String: Int] = [:]
        for plan in plans {
            if try cold(bruno, PlayerEndpoints.play.path(plan)) == 200 { kept["play", default: 0] += 1 }
            // A sentence plan's clips for a sentence's first word (a subject).
            let subject = try test.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM sentenceWord WHERE planId = ? AND role = 'subject' ORDER BY id", arguments: [plan])
            }
            if let subject, try cold(bruno, SentenceEndpoints.clips.path(plan, query: ["words": "\(subject)"])) == 200 {
                kept["clips", default: 0] += 1
            }
        }
        if try cold(bruno, OfflineEndpoints.boards.path()) == 200 { kept["offline", default: 0] += 1 }
        #expect(kept["play", default: 0] > 0 && kept["clips", default: 0] > 0 && kept["offline", default: 0] > 0, "\(kept)")

        for (path, tables) in read.sorted(by: { $0.key < $1.key }) {
            #expect(tables.isSubset(of: watched),
                    "\(path) read \(tables.subtracting(watched).sorted()), which ReadCache does not watch: add them to trackedTables")
        }
    }

    @Test func everyTableAKeptWorklistReadingReadsCountsAsAChange() async throws {
        let test = try await TestApp()
        let counted = Set(try test.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'patientChange%'")
        })
        let allowed = counted.union(CaseloadSignals.readButNotCounted.keys)
        let timeZone = test.app.configuration.timeZone
        let now = test.clock.now
        for username in ["ana", "nadia"] {
            let actor = Actor(user: try #require(try test.read { db in try User.filter(Column("username") == username).fetchOne(db) }))
            let memory = CaseloadSignals()
            let log = StatementLog()
            func load() throws -> [String] {
                try test.app.poolForTests.read { db in
                    db.trace(options: .statement) { event in if case .statement(let statement) = event { log.append(statement.sql) } }
                    defer { db.trace(options: .statement, nil) }
                    _ = try DashboardQueries.clinician(actor, matching: "", now: (ISODate.string(now, timeZone: timeZone), "12:00"), nowInstant: now,
                                                       timeZone: timeZone, shown: 50, memory: memory, db)
                }
                return log.take()
            }
            // What a first load reads and a second, with every reading kept, does not: the kept readings' statements.
            let first = try load(), second = try load()
            let keptStatements = first.filter { !second.contains($0) }
            #expect(!keptStatements.isEmpty, "the second load read nothing again (\(username))")
            let tables = try test.read { db in try TableReads.tables(read: keptStatements, db) }
            #expect(tables.contains("evaluation") && tables.contains("tapDay"), "\(tables.sorted())")
            #expect(tables.isSubset(of: allowed),
                    "a kept reading of \(username) reads \(tables.subtracting(allowed).sorted()), whose changes no patientChange trigger counts")
        }
    }
}
