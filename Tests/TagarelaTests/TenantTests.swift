import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Logging
@testable import Tagarela
import Testing

/// A real node serving several tenants on a free port, each with its own data folder in a temporary
/// node folder, each seeded with the demo clinic unless asked otherwise. `browser(_:loggedInAs:)` speaks
/// to one tenant by sending its host name, as nginx does.
final class TenantTestNode {
    let root: String
    let node: TenantNode
    let server: Server
    let clock: TestClock

    init(tenants: [String], seeded: Set<String>? = nil, now: Date = Date(timeIntervalSince1970: 1_795_000_000)) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tagarela-node-\(UUID().uuidString)").path
        var base = AppConfiguration(dataDirectory: root, resourcesDirectory: TestApp.repositoryRoot)
        base.port = 0
        base.threads = 2
        base.timeZone = TimeZone(identifier: "America/Sao_Paulo")!
        base.passwordHashing = TestApp.fastHashing
        base.pictogramsDirectory = TestApp.repositoryRoot + "/.build/test-data/pictograms"
        base.audioDirectory = TestApp.repositoryRoot + "/.build/test-data/audio"
        base.passwordsDirectory = TestApp.repositoryRoot + "/.build/test-data/passwords"
        var registry = TenantRegistry()
        for name in tenants { try registry.add(Tenant(name: name, hosts: [Self.host(name)], dataDirectory: "tenants/\(name)")) }
        try TenantFile(nodeDataDirectory: root).write(registry)
        let clock = TestClock(now)
        self.clock = clock
        node = try await TenantNode.make(base, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                         clock: { clock.now })
        server = node.makeServer()
        for name in tenants where seeded?.contains(name) ?? true {
            try seedDemo(name)
        }
        try server.start()
    }

    deinit {
        node.stopWatching()
        server.shutdown(gracePeriod: .seconds(1))
        try? FileManager.default.removeItem(atPath: root)
    }

    static func host(_ tenant: String) -> String { "\(tenant).test" }

    func app(_ tenant: String) throws -> App { try #require(node.apps[tenant], "tenant \(tenant) is not served") }

    func seedDemo(_ tenant: String) throws {
        let app = try app(tenant)
        _ = try DemoClinic.seed(app.poolForTests, hasher: app.passwords, now: clock.now,
                                resources: DemoClinic.DemoResources(app: app, generateAudio: true))
    }

    /// Synchronous database access (inside async tests GRDB would pick its async variants).
    func read<T>(_ tenant: String, _ block: (Database) throws -> T) throws -> T { try app(tenant).poolForTests.read(block) }
    func write<T>(_ tenant: String, _ block: (Database) throws -> T) throws -> T { try app(tenant).poolForTests.write(block) }

    func client(host: String) -> HTTPClient { HTTPClient(port: server.port, host: host) }

    func browser(_ tenant: String, loggedInAs username: String? = nil) throws -> Browser {
        let browser = Browser(client: client(host: Self.host(tenant)))
        if let username {
            let response = try browser.logIn(username, DemoClinic.password)
            try #require(response.status == 303, "login of \(username) at \(tenant) answered \(response.status)")
        }
        return browser
    }

    /// Waits until `tenant`'s host answers other than `status` (the node reads its registry each `interval`).
    /// Sleeps without holding a thread: the node's watcher and its new tenant's start run on the same pool.
    func waitUntil(_ tenant: String, answersOtherThan status: Int, seconds: Double = 30) async throws -> WireResponse {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let response = try client(host: Self.host(tenant)).get("/login")
            if response.status != status || Date() > deadline { return response }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

@Suite struct TenantRegistryTests {
    @Test func aRegistryReadsWhatItWritesAndRefusesAHostServedTwice() throws {
        var registry = TenantRegistry()
        try registry.add(Tenant(name: "clinica-a", hosts: ["Clinica-A.example:443", "a.localhost."], dataDirectory: "tenants/a"))
        try registry.add(Tenant(name: "b", hosts: ["b.example"], dataDirectory: "/srv/b"))
        #expect(try TenantRegistry.parse(registry.text) == registry)
        #expect(registry.tenant(forHost: "A.LOCALHOST:8080")?.name == "clinica-a")
        #expect(registry.tenant(forHost: "c.example") == nil)
        #expect(throws: TenantRegistry.Invalid.self) { try registry.add(Tenant(name: "c", hosts: ["b.example"], dataDirectory: "c")) }
        #expect(throws: TenantRegistry.Invalid.self) { try registry.add(Tenant(name: "b", hosts: ["x.example"], dataDirectory: "x")) }
        #expect(throws: TenantRegistry.Invalid.self) { try registry.add(Tenant(name: "Bad Name", hosts: ["y.example"], dataDirectory: "y")) }
        #expect(throws: TenantRegistry.Invalid.self) { try registry.add(Tenant(name: "d", hosts: ["d example"], dataDirectory: "d")) }
        #expect(throws: TenantRegistry.Invalid.self) { try TenantRegistry.parse("a a.example\n") }
        try registry.remove(named: "b")
        #expect(registry.tenants.map(\.name) == ["clinica-a"])
    }
}

@Suite struct ReadOnlyReplicaRulesTests {
    @Test func aReplicaLineKeepsItsPrimaryAndABadPrimaryIsRefused() throws {
        var registry = TenantRegistry()
        try registry.add(Tenant(name: "a-reports", hosts: ["reports.a.example"], dataDirectory: "replicas/a",
                                primary: "https://a.example/"))
        let read = try TenantRegistry.parse(registry.text)
        #expect(read == registry)
        #expect(read.tenants[0].primary == "https://a.example")
        #expect(read.tenants[0].isReplica)
        #expect(throws: TenantRegistry.Invalid.self) {
            try registry.add(Tenant(name: "b", hosts: ["b.example"], dataDirectory: "b", primary: "ftp://b.example"))
        }
        #expect(throws: TenantRegistry.Invalid.self) { try TenantRegistry.parse("a a.example a other=http://x\n") }
    }

    @Test func theRefusalLinksToTheFormsPageOnThePrimaryAndNeverElsewhere() {
        var headers = Headers()
        headers["Host"] = "a.example:8091"
        headers["Referer"] = "http://a.example:8091/patients/7/observations?x=1"
        let post = Request(method: .post, path: "/patients/7/observations", headers: headers)
        #expect(ReadOnlyReplica.primaryLink(for: post, primary: "http://a.example:8090") == "http://a.example:8090/patients/7/observations?x=1")
        headers["Referer"] = "https://elsewhere.example/phish"
        let foreign = Request(method: .post, path: "/login", headers: headers)
        #expect(ReadOnlyReplica.primaryLink(for: foreign, primary: "http://a.example:8090") == "http://a.example:8090/")
        let get = Request(method: .get, path: "/patients/7/report", headers: headers)
        #expect(ReadOnlyReplica.primaryLink(for: get, primary: "http://a.example:8090") == "http://a.example:8090/patients/7/report")
    }
}

@Suite(.serialized) struct TenantTests {
    /// Every GET route × the records of the other tenant's database × three roles, asked of tenant alpha
    /// by people signed in to alpha: the other tenant's people and boards carry a marker in their names,
    /// and no answer of alpha may show it. The same pages asked of beta show it (the marker is reachable).
    @Test func twoTenantsCannotReadEachOthersRecordsSessionsOrMedia() async throws {
        let test = try await TenantTestNode(tenants: ["alpha", "beta"])
        let marker = "Betamarker"
        try test.write("beta") { db in
            try db.execute(sql: "UPDATE user SET displayName = displayName || ' \(marker)'")
            try db.execute(sql: "UPDATE plan SET name = name || ' \(marker)'")
        }

        // Sessions: alpha's cookies name no session at beta, and its CSRF token opens no form there.
        let ana = try test.browser("alpha", loggedInAs: "ana")
        let stolen = Browser(client: test.client(host: TenantTestNode.host("beta")))
        stolen.cookies = ana.cookies
        stolen.csrf = ana.csrf
        let dashboard = try stolen.get("/clinician")
        #expect(dashboard.status == 303 && dashboard.header("Location")?.hasPrefix("/login") == true,
                "alpha's session opened beta's dashboard: \(dashboard.status)")
        #expect(try stolen.post("/logout").status == 403)
        #expect(try ana.get("/clinician").status == 200, "alpha's session stays valid at alpha")
        let anaAtBeta = try test.browser("beta", loggedInAs: "ana")
        #expect(try anaAtBeta.get("/clinician").text.contains(marker), "beta's own pages show beta's names")

        // Media: alpha's ana may fetch a picture her symbol names, but the file is in beta's media only.
        let symbol = try test.read("alpha") { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM symbol WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana') LIMIT 1")
        }
        let symbolId = try #require(symbol)
        for tenant in ["alpha", "beta"] {
            try test.write(tenant) { db in
                try db.execute(sql: "UPDATE symbol SET imagePath = 'images/tenant-probe.png' WHERE id = ?", arguments: [symbolId])
            }
        }
        let png = try Data(contentsOf: URL(fileURLWithPath: TestApp.repositoryRoot + "/Public/img/icon-192.png"))
        let betaImages = try test.app("beta").configuration.mediaDirectory + "/images"
        try FileManager.default.createDirectory(atPath: betaImages, withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: betaImages + "/tenant-probe.png"))
        #expect(try anaAtBeta.get("/media/images/tenant-probe.png").status == 200)
        #expect(try ana.get("/media/images/tenant-probe.png").status == 404)

        // Records: what alpha answers never carries beta's rows.
        let rows = try test.read("beta") { db in
            var rows: [[String: String]] = []
            for sql in ["SELECT id FROM user", "SELECT id AS plan, patientId AS id FROM plan",
                        "SELECT id AS meal, patientId AS id FROM meal", "SELECT id AS evaluation, patientId AS id FROM evaluation",
                        "SELECT id AS symbol FROM symbol"] {
                for row in Sweep.spread(try Row.fetchAll(db, sql: sql)) {
                    rows.append(Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, "\(row[$0] as Int64)") }))
                }
            }
            return rows
        }
        let alpha = try test.app("alpha")
        let routes = alpha.router.patterns.filter { $0.method == .get }
        var requests = 0, shown = 0
        var leaks: [String] = [], failures: [String] = []
        for person in ["admin", "ana", "bruno"] {
            let browser = person == "ana" ? ana : try test.browser("alpha", loggedInAs: person)
            for route in routes {
                let names = Sweep.parameters(of: route.pattern)
                var paths: Set<String> = []
                for row in rows where names.allSatisfy({ row[$0] != nil }) { paths.insert(Sweep.path(route.pattern, row)) }
                for path in paths.sorted() {
                    let response = try browser.get(path)
                    requests += 1
                    if response.status == 200 { shown += 1 }
                    if response.status >= 500 { failures.append("\(person) \(path): \(response.status)") }
                    if response.text.contains(marker) { leaks.append("\(person) \(path)") }
                }
            }
        }
        print("cross-tenant sweep: \(requests) requests to alpha, \(shown) pages shown, \(leaks.count) showing beta's rows")
        #expect(requests > 300 && shown > 100, "the sweep reached too little: \(requests) requests, \(shown) shown")
        #expect(leaks.isEmpty, "alpha showed beta's rows: \(leaks.prefix(10))")
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test func aHostNotServedGetsA404PageInTheBrowsersLanguage() async throws {
        let test = try await TenantTestNode(tenants: ["alpha"])
        let ana = try test.browser("alpha", loggedInAs: "ana")
        let nowhere = test.client(host: "nowhere.test:8080")
        for (language, title) in [("es", "Ninguna clínica en esta dirección"), ("pt-BR", "Nenhuma clínica neste endereço"),
                                  ("ca", "Cap clínica en aquesta adreça"), ("en", "No clinic at this address")] {
            for path in ["/", "/login", "/clinician", "/patients/1"] {
                let response = try nowhere.get(path, headers: [("Accept-Language", language)] + ana.cookieHeader)
                #expect(response.status == 404, "\(path): \(response.status)")
                #expect(response.text.contains(title) && response.text.contains("nowhere.test"), "\(language) \(path)")
            }
        }
        let post = try nowhere.postForm("/login", [("username", "ana"), ("password", DemoClinic.password)])
        #expect(post.status == 404 && post.header("Set-Cookie") == nil)
        // The stylesheet the page links to is served, and the node answers a probe that names no tenant.
        #expect(try nowhere.get(test.app("alpha").assets.stylesheet).status == 200)
        #expect(try nowhere.get("/healthz").text.contains("1 tenants"))
        #expect(try test.client(host: "127.0.0.1").get("/login").status == 404, "a bare address is no tenant either")
        #expect(try test.client(host: TenantTestNode.host("alpha")).get("/healthz").status == 200)
    }

    /// `tagarela tenant add` (the real command, another process) on a node that is serving; the node
    /// takes the new tenant within its watch interval and a login there works; `tenant remove` stops it.
    @Test func aTenantAddedWhileServingLogsInWithoutARestart() async throws {
        let test = try await TenantTestNode(tenants: ["alpha"])
        test.node.startWatching(every: .milliseconds(100))
        let binary = TestApp.binary
        #expect(try test.client(host: TenantTestNode.host("gamma")).get("/login").status == 404)

        let added = try Self.run(binary, ["tenant", "add", "gamma", "--host", TenantTestNode.host("gamma"), "--data", test.root])
        #expect(added.status == 0, "\(added.output)")
        let answered = try await test.waitUntil("gamma", answersOtherThan: 404)
        #expect(answered.status == 200, "gamma still answers \(answered.status)")
        try test.seedDemo("gamma")
        let nadia = try test.browser("gamma", loggedInAs: "nadia")
        #expect(try nadia.get("/clinician").status == 200)
        let listed = try Self.run(binary, ["tenant", "list", "--data", test.root])
        #expect(listed.output.contains("gamma\tgamma.test") && listed.output.contains("alpha\talpha.test"), "\(listed.output)")

        // A second tenant with the same host is refused, and the file is left as it was.
        let twice = try Self.run(binary, ["tenant", "add", "delta", "--host", "GAMMA.test", "--data", test.root])
        #expect(twice.status != 0 && twice.output.contains("already served by gamma"), "\(twice.output)")

        let removed = try Self.run(binary, ["tenant", "remove", "gamma", "--data", test.root])
        #expect(removed.status == 0, "\(removed.output)")
        #expect(try await test.waitUntil("gamma", answersOtherThan: 200).status == 404)
        #expect(try nadia.get("/clinician").status == 404)
        #expect(try test.browser("alpha", loggedInAs: "nadia").get("/clinician").status == 200, "alpha kept serving")
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
