import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
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
        let (completed, journalMode, foreignKeys) = try pool.read { db in
            (try Migrations.migrator.hasCompletedMigrations(db),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(completed)
        #expect(journalMode == "wal")
        #expect(foreignKeys == 1)
    }

    @Test func backupTakenWhileAWriterRunsPassesIntegrityCheck() async throws {
        let test = try await TestApp()
        let pool = test.app.database
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
}
