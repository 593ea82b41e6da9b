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
    /// The `tagarela` executable built beside these tests: `.build/debug`, or the build folder `make test` uses.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("tagarela").path
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
        // The database starts as a copy of one migrated (and seeded) once for this process: what
        // App.make and the demo's seed would write, without redoing it for every test.
        // The templates, texts and static files are read and parsed once per process too (each app
        // still compares its own renders with swift-mustache's).
        // TAGARELA_TEST_FRESH_APPS=1 does all of it in every test as before, to time the difference.
        let fresh = ProcessInfo.processInfo.environment["TAGARELA_TEST_FRESH_APPS"] != nil
        if !fresh { try await TemplateDatabases.copy(for: configuration, now: now, seedDemo: seedDemo) }
        app = try await App.make(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                 clock: { clock.now }, resources: fresh ? nil : try await Self.resources(for: configuration))
        if fresh && seedDemo {
            _ = try DemoClinic.seed(app.poolForTests, hasher: app.passwords, now: now,
                                    resources: DemoClinic.DemoResources(app: app, generateAudio: true))
        }
        server = app.makeServer()
        try server.start()
        client = HTTPClient(port: server.port)
    }

    /// The resources of each resources folder (and comparison setting), loaded once and shared.
    private static let loaded = Mutex<[String: Task<App.Resources, any Error>]>([:])

    static func resources(for configuration: AppConfiguration) async throws -> App.Resources {
        let key = "\(configuration.resourcesDirectory)|\(configuration.comparesTemplates)"
        let task = loaded.withLock { loaded in
            if let task = loaded[key] { return task }
            let task = Task { try await App.Resources.load(configuration) }
            loaded[key] = task
            return task
        }
        return try await task.value
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
    func read<T>(_ block: (Database) throws -> T) throws -> T { try app.poolForTests.read(block) }
    func write<T>(_ block: (Database) throws -> T) throws -> T { try app.poolForTests.write(block) }

    /// The id of a demo person, by username or display name.
    func id(of person: String) throws -> Int64 {
        try app.poolForTests.read { db in
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
        try app.poolForTests.read { db in
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


/// Databases migrated, and seeded with the demo clinic, once per test process and per set of inputs
/// that change their content; every `TestApp` and `TestDatabase` starts from a copy of one (as the
/// Swift Package Index restores a snapshot). Seeding with generated clips was most of a TestApp's start.
enum TemplateDatabases {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("tagarela-templates-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
    /// The making of each template, by key: started once, awaited by every test that needs it, so
    /// that a test waiting for one holds no thread (tests that need none run meanwhile).
    private static let made = Mutex<[String: Task<String, any Error>]>([:])

    /// Copies the template for these inputs to `configuration.databasePath` (making it first if needed).
    static func copy(for configuration: AppConfiguration, now: Date, seedDemo: Bool) async throws {
        let template = try await path(for: configuration, now: now, seedDemo: seedDemo)
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory + "/db", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: template, toPath: configuration.databasePath)
    }

    static func path(for configuration: AppConfiguration, now: Date, seedDemo: Bool) async throws -> String {
        let hashing = configuration.passwordHashing
        let key = [seedDemo ? "demo" : "empty", "\(now.timeIntervalSince1970)", configuration.timeZone.identifier,
                   "\(hashing.iterations)-\(hashing.memoryKiB)-\(hashing.parallelism)",
                   configuration.audioFolder, configuration.resourcesDirectory].joined(separator: "|")
        let task = made.withLock { made in
            if let task = made[key] { return task }
            let path = folder + "/\(UUID().uuidString).sqlite"
            let task = Task {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try make(at: path, configuration: configuration, now: now, seedDemo: seedDemo)
                return path
            }
            made[key] = task
            return task
        }
        return try await task.value
    }

    /// What `App.make` writes before serving, then the demo clinic as `TestApp` always seeded it.
    private static func make(at path: String, configuration: AppConfiguration, now: Date, seedDemo: Bool) throws {
        let pool = try AppDatabase.open(at: path)
        try pool.write { try TapDays.prepare($0, timeZone: configuration.timeZone, now: now) }
        try FoodCatalogue.load(from: configuration.resourcesDirectory + "/Data/foods.json", into: pool)
        if seedDemo {
            let resources = try DemoClinic.DemoResources(resourcesDirectory: configuration.resourcesDirectory,
                                                         audioDirectory: configuration.audioFolder)
            _ = try DemoClinic.seed(pool, hasher: PasswordHasher(parameters: configuration.passwordHashing), now: now,
                                    resources: resources)
        }
        // Closing the last connection checkpoints the WAL into the file: the copy is the whole database.
        try pool.close()
    }
}

/// A migrated database (with the demo clinic unless told otherwise) in its own folder, without an app
/// or a server: for tests of stores, queries and rules that speak SQL, not HTTP (as GRDB's demo tests).
final class TestDatabase {
    let pool: DatabasePool
    let folder: String
    /// What a TestApp on this database would be configured with (its time zone, the clinic's).
    let configuration: AppConfiguration

    init(now: Date = Date(timeIntervalSince1970: 1_795_000_000), seedDemo: Bool = true,
         configure: (inout AppConfiguration) -> Void = { _ in }) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tagarela-db-\(UUID().uuidString)").path
        var configuration = AppConfiguration(dataDirectory: folder, resourcesDirectory: TestApp.repositoryRoot)
        configuration.timeZone = TimeZone(identifier: "America/Sao_Paulo")!
        configuration.passwordHashing = TestApp.fastHashing
        configuration.audioDirectory = TestApp.repositoryRoot + "/.build/test-data/audio"
        configure(&configuration)
        self.configuration = configuration
        try await TemplateDatabases.copy(for: configuration, now: now, seedDemo: seedDemo)
        pool = try AppDatabase.open(at: configuration.databasePath)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func read<T>(_ block: (Database) throws -> T) throws -> T { try pool.read(block) }
    func write<T>(_ block: (Database) throws -> T) throws -> T { try pool.write(block) }

    /// The id of a demo person, by username or display name.
    func id(of person: String) throws -> Int64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = ? OR displayName = ?", arguments: [person, person])
        }!
    }
}
