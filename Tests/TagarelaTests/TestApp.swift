import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Logging
import Synchronization
@testable import Tagarela
import Testing

/// A clock the tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The real application on a free port, with its own data directory in a temporary folder,
/// and the demo clinic's people as personas (ana, nadia, dani, bruno, beatriz, elisa; carla, davi, …).
final class TestApp {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Real argon2id, with a cost small enough for a test suite; the production cost has its own test.
    static let fastHashing = Argon2Parameters(iterations: 1, memoryKiB: 1024, parallelism: 1)

    let app: App
    let server: Server
    let client: HTTPClient
    let dataDirectory: String
    let clock: TestClock

    init(now: Date = Date(timeIntervalSince1970: 1_795_000_000), limits: Limits = Limits(), seedDemo: Bool = true,
         hashing: Argon2Parameters = TestApp.fastHashing,
         configure: (inout AppConfiguration) -> Void = { _ in }) async throws {
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tagarela-test-\(UUID().uuidString)").path
        var configuration = AppConfiguration(dataDirectory: dataDirectory, resourcesDirectory: Self.repositoryRoot)
        configuration.port = 0
        configuration.threads = 2
        configuration.limits = limits
        configuration.timeZone = TimeZone(identifier: "America/Sao_Paulo")!
        configuration.passwordHashing = hashing
        // Installed once by `make test` (scripts/install-pictograms); clips shared between tests.
        configuration.pictogramsDirectory = Self.repositoryRoot + "/.build/test-data/pictograms"
        configuration.audioDirectory = Self.repositoryRoot + "/.build/test-data/audio"
        configuration.passwordsDirectory = Self.repositoryRoot + "/.build/test-data/passwords"
        configuration.comparesTemplates = true
        configure(&configuration)
        let clock = TestClock(now)
        self.clock = clock
        app = try await App.make(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                 clock: { clock.now })
        if seedDemo {
            _ = try DemoClinic.seed(app.database, hasher: app.passwords, now: now,
                                    resources: DemoClinic.DemoResources(app: app, generateAudio: true))
        }
        server = app.makeServer()
        try server.start()
        client = HTTPClient(port: server.port)
    }

    deinit {
        // Every page a test rendered, rendered again by swift-mustache: the compiled templates print the same.
        let differences = app.templates.differences
        for difference in differences.prefix(5) {
            Issue.record(Comment(rawValue: "\(differences.count) renders differ from swift-mustache's; one: \(difference)"))
        }
        server.shutdown(gracePeriod: .seconds(1))
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// Synchronous database access (inside async tests GRDB would pick its async variants).
    func read<T>(_ block: (Database) throws -> T) throws -> T { try app.database.read(block) }
    func write<T>(_ block: (Database) throws -> T) throws -> T { try app.database.write(block) }

    /// The id of a demo person, by username or display name.
    func id(of person: String) throws -> Int64 {
        try app.database.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = ? OR displayName = ?", arguments: [person, person])
        }!
    }

    /// A browser with its own cookies, logged in as `username` (demo password unless given).
    func browser(loggedInAs username: String? = nil, password: String = DemoClinic.password) throws -> Browser {
        let browser = Browser(client: client)
        if let username {
            let response = try browser.logIn(username, password)
            precondition(response.status == 303, "login of \(username) failed: \(response.status)")
        }
        return browser
    }

    /// Everything people-related, to prove a refused request changed nothing (but for the audit
    /// entry that records the refusal itself).
    func snapshot() throws -> String {
        try app.database.read { db in
            try ["user", "patient", "clinicianPatient", "tutorPatient", "trainerClient", "invitation", "auditEntry"].map { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)\(table == "auditEntry" ? " WHERE action <> 'refused'" : "")")
                    .map(\.description).joined(separator: "\n")
            }.joined(separator: "\n--\n")
        }
    }
}

/// Cookies and the CSRF token of one browser, over the plain test client.
final class Browser {
    let client: HTTPClient
    var cookies: [String: String] = [:]
    var csrf = ""

    init(client: HTTPClient) { self.client = client }

    var cookieHeader: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    @discardableResult
    func get(_ path: String, headers: [(String, String)] = []) throws -> WireResponse {
        let response = try client.get(path, headers: cookieHeader + headers)
        absorb(response)
        return response
    }

    /// POSTs a form with this browser's CSRF token (unless `csrf` is given explicitly).
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)] = [], csrf: String? = nil) throws -> WireResponse {
        let token = csrf ?? self.csrf
        let response = try client.postForm(path, (token.isEmpty ? [] : [("_csrf", token)]) + fields, headers: cookieHeader)
        absorb(response)
        return response
    }

    @discardableResult
    func postMultipart(_ path: String, fields: [(String, String)],
                       files: [(field: String, filename: String, contentType: String, content: [UInt8])]) throws -> WireResponse {
        let response = try client.postMultipart(path, fields: [("_csrf", csrf)] + fields, files: files, headers: cookieHeader)
        absorb(response)
        return response
    }

    func logIn(_ username: String, _ password: String) throws -> WireResponse {
        try get("/login")
        let response = try post("/login", [("username", username), ("password", password)])
        if response.status == 303 { try get(response.header("Location") ?? "/home") }
        return response
    }

    private func absorb(_ response: WireResponse) {
        for header in response.headers("Set-Cookie") {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if header.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
        }
        if let token = response.text.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1 { csrf = String(token) }
    }
}
