import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Logging
@testable import Tagarela
import Testing

@Suite struct PlatformTests {
    /// Every template escapes with `EscapedHTML` (put in front of each by `Templates.load`): the same five
    /// characters as the library's own escaping, and nothing else touched.
    @Test func templatesEscapeTheFiveCharactersAndNothingElse() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "<p title=\"{{value}}\">{{value}}</p>{{>sub/part}}".write(to: directory.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
        try "<i>{{value}}</i>{{{value}}}".write(to: directory.appendingPathComponent("sub/part.mustache"), atomically: true, encoding: .utf8)
        let templates = try await Templates.load(from: directory.path, required: ["page", "sub/part"])
        let html = templates.render("page", ["value": #"<b>"Olá" & 'já'</b> ✓"#])
        let escaped = "&lt;b&gt;&quot;Olá&quot; &amp; &#39;já&#39;&lt;/b&gt; ✓"
        #expect(html == #"<p title="\#(escaped)">\#(escaped)</p><i>\#(escaped)</i><b>"Olá" & 'já'</b> ✓"#)
    }

    /// The server limits malloc arenas to one per core at start (`FreedMemory.limitArenas`); glibc must
    /// take the option, or memory quietly grows back by the arenas' free pages.
    @Test func mallocTakesTheArenaLimit() {
        #expect(FreedMemory.limitArenas())
    }

    @Test func homePageSpeaksPortugueseByDefault() async throws {
        let test = try await TestApp()
        let page = try test.client.get("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains(#"<html lang="pt-BR">"#))
        #expect(page.text.contains("Profissionais de saúde"))
        #expect(!page.text.contains("⟦"), "every text key is in the catalogue")
    }

    @Test(arguments: [("es-ES,es;q=0.9", "es", "Profesionales de la salud"),
                      ("ca", "ca", "Professionals de la salut"),
                      ("en-GB,en;q=0.8", "en", "Clinicians"),
                      ("fr-FR,fr;q=0.9", "pt-BR", "Profissionais de saúde")])
    func homePageFollowsAcceptLanguage(_ header: String, _ lang: String, _ text: String) async throws {
        let test = try await TestApp()
        let page = try test.client.get("/", headers: [("Accept-Language", header)])
        #expect(page.text.contains(#"<html lang="\#(lang)">"#))
        #expect(page.text.contains(text))
    }

    @Test func homePageShowsTodayInTheLocalesOwnWords() async throws {
        let test = try await TestApp(now: Date(timeIntervalSince1970: 1_795_000_000)) // 2026-11-18 in São Paulo
        #expect(try test.client.get("/").text.contains("18 de novembro de 2026"))
        #expect(try test.client.get("/", headers: [("Accept-Language", "en")]).text.contains("November 18, 2026"))
    }

    @Test func pagesSendStrictSecurityHeaders() async throws {
        let test = try await TestApp()
        for path in ["/", "/about", "/missing", "/css/app.css"] {
            let response = try test.client.get(path)
            let policy = try #require(response.header("Content-Security-Policy"), "\(path)")
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") == "same-origin")
        }
        #expect(try test.client.get("/").header("Cache-Control") == "no-store")
    }

    @Test func healthCheckAnswersOk() async throws {
        let test = try await TestApp()
        let response = try test.client.get("/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok")
    }

    @Test func errorPagesAreLocalisedPages() async throws {
        let test = try await TestApp()
        let missing = try test.client.get("/no/such/page", headers: [("Accept-Language", "es")])
        #expect(missing.status == 404)
        #expect(missing.text.contains("Página no encontrada"))
        #expect(missing.text.contains(#"href="/""#))
        let wrongMethod = try test.client.postForm("/healthz", [])
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
        #expect(wrongMethod.text.contains("Ação não permitida"))
    }

    @Test func oversizedBodyGetsTheLocalised413Page() async throws {
        var limits = Limits()
        limits.maxBodyBytes = 1024
        let test = try await TestApp(limits: limits)
        let response = try test.client.postForm("/", [("text", String(repeating: "x", count: 4096))],
                                                headers: [("Accept-Language", "ca")])
        #expect(response.status == 413)
        #expect(response.text.contains("Fitxer massa gran"))
    }

    @Test func stylesheetIsServedWithAFingerprintedURL() async throws {
        let test = try await TestApp()
        let home = try test.client.get("/").text
        let href = try #require(home.firstMatch(of: /href="(\/css\/app\.css\?v=[0-9a-f]+)"/)?.1)
        let css = try test.client.get(String(href))
        #expect(css.status == 200)
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control") == "public, max-age=31536000, immutable")
    }

    @Test func migrationsBringAnEmptyDatabaseUpToDate() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pool = try AppDatabase.open(at: path)
        let (completed, journalMode, foreignKeys, readerCache) = try pool.read { db in
            (try Migrations.migrator.hasCompletedMigrations(db),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
             try Int.fetchOne(db, sql: "PRAGMA cache_size"))
        }
        #expect(completed)
        #expect(journalMode == "wal")
        #expect(foreignKeys == 1)
        // 5 MiB of pages per connection, readers and writer alike (a negative size is in KiB).
        #expect(readerCache == -5120)
        #expect(try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -5120)
    }

    @Test func backupTakenWhileAWriterRunsPassesIntegrityCheck() async throws {
        let test = try await TestApp()
        let pool = test.app.poolForTests
        let writer = Thread {
            for round in 0..<400 {
                try? pool.write { db in
                    for item in 0..<25 {
                        try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value, updatedAt) VALUES (?, ?, CURRENT_TIMESTAMP)",
                                       arguments: ["k\(round)-\(item)", String(repeating: "v", count: 200)])
                    }
                }
            }
        }
        writer.start()
        try await Task.sleep(for: .milliseconds(50))
        let backup = test.dataDirectory + "/backup.sqlite"
        try AppDatabase.backup(pool, to: backup)
        while !writer.isFinished { try await Task.sleep(for: .milliseconds(20)) }

        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        check.arguments = [backup, "PRAGMA integrity_check; SELECT count(*) > 0 FROM setting;"]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        check.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "ok\n1\n")
    }

    // MARK: Database scope

    /// A read or write inside another, on the same thread, throws instead of reaching GRDB (which stops
    /// the process); the outer access goes on, the next one works, and the scope counts both.
    @Test func aNestedDatabaseAccessThrowsAndTheProcessStaysUp() async throws {
        let test = try await TestApp(seedDemo: false)
        let scope = DatabaseScope(test.app.poolForTests, path: "/test")
        let outer = try scope.read { db -> Int in
            #expect(throws: NestedDatabaseAccess.self) { try scope.read { _ in 1 } }
            #expect(throws: NestedDatabaseAccess.self) { try scope.write { _ in 1 } }
            return try Int.fetchOne(db, sql: "SELECT 41 + 1")!
        }
        #expect(outer == 42)
        try scope.write { db in
            #expect(throws: NestedDatabaseAccess.self) { try scope.read { _ in 1 } }
            #expect(throws: NestedDatabaseAccess.self) { try scope.write { _ in 1 } }
            try db.execute(sql: "INSERT INTO setting (key, value, updatedAt) VALUES ('scope', 'kept', CURRENT_TIMESTAMP)")
        }
        #expect(try scope.read { try String.fetchOne($0, sql: "SELECT value FROM setting WHERE key = 'scope'") } == "kept",
                "the write whose nested access was refused still committed")
        #expect(scope.accessCount == 3)
        #expect(scope.nestedCount == 4)
        #expect(!DatabaseScope.isOpenOnThisThread)

        // Another scope on the same thread is refused too: the rule is per thread, not per object.
        let other = DatabaseScope(test.app.poolForTests)
        #expect(throws: NestedDatabaseAccess.self) { try scope.read { _ in try other.read { _ in 1 } } }

        // A thread of its own (deferred work on a WorkPool) opens its access while this one is open.
        let pool = WorkPool(name: "test", maxConcurrent: 1)
        let fromPool = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, Error>) in
            pool.submit { continuation.resume(with: Result { try scope.read { try Int.fetchOne($0, sql: "SELECT 7")! } }) }
        }
        #expect(fromPool == 7)
    }

    /// `App.run` answers a handler's nested access with a 500 page, and the server keeps answering.
    @Test func aHandlerThatNestsGetsA500AndTheServerKeepsServing() async throws {
        let test = try await TestApp(seedDemo: false, configure: { $0.reportsDatabaseAccesses = true })
        let context = RequestContext(request: Request(method: .get, path: "/nested"), app: test.app, signedIn: nil, actor: nil,
                                     locale: .en, csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
        // Handlers are handed a Database and cannot reach a scope; the platform's own scope still refuses.
        let scope = DatabaseScope(test.app.poolForTests, path: "/nested")
        let response = test.app.run({ _ in
            try scope.read { _ in
                try scope.read { _ in Response.text("unreachable") }
            }
        }, context)
        #expect(response.status == .internalServerError)
        #expect(scope.nestedCount == 1)
        #expect(try test.client.get(SiteEndpoints.health.pattern).status == 200)
        let page = try test.client.get("/")
        #expect(page.header("X-Tagarela-DB-Nested") == "0")
        #expect(page.header("X-Tagarela-DB-Accesses") != nil)
        let plain = try await TestApp(seedDemo: false)
        #expect(try plain.client.get("/").header("X-Tagarela-DB-Accesses") == nil, "the counts are a test configuration's only")
    }

    /// Feature code reaches the database through `context.database` only: the raw pool is for the
    /// composition root, the session lookup of the dispatcher and the command line.
    @Test func featureCodeNeverReachesTheRawPool() throws {
        let root = TestApp.repositoryRoot + "/Sources/Tagarela"
        let allowed: Set<String> = ["Platform/App.swift", "Platform/AppDatabase.swift", "Platform/DatabaseScope.swift",
                                    "Platform/ReadCache.swift", "Platform/RequestContext.swift", "Accounts/Session.swift",
                                    "Accounts/SessionTouches.swift", "Accounts/Accounts.swift", "Nutrition/Food.swift",
                                    "Demo/DemoClinic.swift"]
        var offenders: [String] = []
        for file in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
            guard !allowed.contains(file) else { continue }
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            if text.contains("DatabasePool") || text.contains("app.database") || text.contains("poolForTests") || text.contains("DatabaseQueue") {
                offenders.append(file)
            }
        }
        #expect(offenders.isEmpty, "these files reach the raw pool: \(offenders)")
    }

    // MARK: A read-only data folder

    /// `tagarela migrate` and `serve` on a data folder they cannot write exit non-zero with one line that
    /// names the folder and the fix, not a bare SQLite error. Run as root, the binary runs as `nobody`
    /// (root writes anywhere); otherwise the folder is made read-only and `App.make` is checked too.
    @Test(arguments: ["fresh", "existing database"])
    func aReadOnlyDataFolderIsNamedWithItsFix(_ state: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tagarela-readonly-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/db")
            try? FileManager.default.removeItem(atPath: folder)
        }
        if state == "existing database" {
            _ = try AppDatabase.migrate(AppConfiguration(dataDirectory: folder, resourcesDirectory: TestApp.repositoryRoot))
            for file in (try FileManager.default.contentsOfDirectory(atPath: folder + "/db")) {
                try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder + "/db/" + file)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder + "/db")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)

        let binary = TestApp.binary
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the binary first: swift build --build-tests")
        for command in [["migrate"], ["serve", "--port", "0"]] {
            let process = Process()
            let arguments = command + ["--data", folder, "--resources", TestApp.repositoryRoot]
            if geteuid() == 0 {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = arguments
            }
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0, "\(command[0]) exited 0: \(text)")
            let line = text.split(separator: "\n").first { $0.contains("not writable") }.map(String.init) ?? ""
            #expect(line.contains(folder), "\(command[0]) should name the folder: \(text)")
            #expect(line.contains("chown") && line.contains("--data"), "\(command[0]) should name the fix: \(text)")
            #expect(!text.contains("SQLite error"), "\(command[0]): \(text)")
        }
        if geteuid() != 0 {
            await #expect(throws: DataFolderNotWritable.self) {
                _ = try await App.make(AppConfiguration(dataDirectory: folder, resourcesDirectory: TestApp.repositoryRoot),
                                       logger: Logger(label: "test"))
            }
        }
    }
}
