import Foundation
import HTTPServer
import HTTPTestSupport
import Logging
import Testing

/// A responder that echoes what the server parsed, so tests can see it over real HTTP.
struct EchoResponder: Responder {
    typealias Handler = @Sendable (Request) -> Response
    let router: Router<Handler>
    let staticFiles: StaticFiles

    init(publicDirectory: String) throws {
        var router = Router<Handler>()
        router.get("/patients/:id/boards/:board") { request in
            .text("patient=\(request.pathParameters["id"]!) board=\(request.pathParameters["board"]!)")
        }
        router.get("/patients/new") { _ in .text("new patient form") }
        router.get("/query") { request in
            .text(request.query.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        }
        router.get("/cookies") { request in
            var response = Response.text(request.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";"))
            response.setCookie(SetCookie(name: "fresh", value: "1", secure: true))
            return response
        }
        router.post("/form") { request in
            .text(request.form.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        }
        router.post("/upload") { request in
            let lines = request.files.map { file -> String in
                let data = FileManager.default.contents(atPath: file.temporaryPath) ?? Data()
                let sum = data.reduce(0) { ($0 &+ Int($1)) & 0xffff }
                return "\(file.field):\(file.filename):\(file.contentType):\(file.size):\(data.count):\(sum):\(file.temporaryPath)"
            }
            let fields = request.form.pairs.map { "\($0.name)=\($0.value)" }
            return .text((fields + lines).joined(separator: "\n"))
        }
        router.post("/slow") { _ in
            Thread.sleep(forTimeInterval: 1)
            return .text("finished")
        }
        router.get("/redirect") { _ in .redirect(to: "/patients/new") }
        self.router = router
        self.staticFiles = try StaticFiles(root: publicDirectory)
    }

    func respond(to request: Request) -> Response {
        if let file = staticFiles.response(for: request) { return file }
        switch router.match(request.method, request.path) {
        case .found(let handler, let parameters):
            var request = request
            request.pathParameters = parameters
            return handler(request)
        case .methodNotAllowed(let allowed):
            var response = Response.text("custom 405", status: .methodNotAllowed)
            response.headers["Allow"] = allowed.map(\.description).joined(separator: ", ")
            return response
        case .notFound:
            return .text("custom 404", status: .notFound)
        }
    }

    func errorResponse(_ status: Status, for request: Request) -> Response {
        .text("custom \(status.code)", status: status)
    }
}

/// A real server on a free port, serving a temporary `Public/` folder.
final class TestServer {
    let server: Server
    let client: HTTPClient
    let publicDirectory: String
    let uploadDirectory: String

    init(limits: Limits = TestServer.smallLimits,
         logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("httpserver-\(UUID().uuidString)")
        publicDirectory = base.appendingPathComponent("public").path
        uploadDirectory = base.appendingPathComponent("uploads").path
        try FileManager.default.createDirectory(atPath: publicDirectory + "/css", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: uploadDirectory, withIntermediateDirectories: true)
        try "body { color: black; }\n".write(toFile: publicDirectory + "/css/app.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: base.appendingPathComponent("secret.txt").path, atomically: true, encoding: .utf8)

        var configuration = ServerConfiguration(port: 0)
        configuration.threads = 2
        configuration.limits = limits
        configuration.uploadDirectory = uploadDirectory
        server = Server(configuration: configuration, responder: try EchoResponder(publicDirectory: publicDirectory), logger: logger)
        try server.start()
        client = HTTPClient(port: server.port)
    }

    deinit { server.shutdown(gracePeriod: .seconds(1)) }

    static var smallLimits: Limits {
        var limits = Limits()
        limits.maxBodyBytes = 64 * 1024
        limits.maxFilePartBytes = 3 << 20
        limits.maxMultipartBytes = 8 << 20
        return limits
    }
}

/// Keeps every message logged through it, for tests that read the log.
final class CollectedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var messages: [String] { lock.withLock { lines } }

    func logger() -> Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    private struct Handler: LogHandler {
        let log: CollectedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            log.lock.withLock { log.lines.append(message.description) }
        }
    }
}

@Suite struct ServerTests {
    /// Operators grep the log for `status=500` and the like: one line per request with its method, path,
    /// status, body size and time.
    @Test func everyRequestIsLoggedAsOneLineOfKeyValueWords() throws {
        let log = CollectedLog()
        let server = try TestServer(logger: log.logger())
        #expect(try server.client.get("/patients/7/boards/3").status == 200)
        #expect(try server.client.get("/nowhere").status == 404)
        // Written when libmicrohttpd reports the response sent, which may be just after the client read it.
        let deadline = Date().addingTimeInterval(5)
        while log.messages.filter({ $0.hasPrefix("request ") }).count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let requests = log.messages.filter { $0.hasPrefix("request ") }
        #expect(requests.contains { $0.wholeMatch(of: /request method=GET path=\/patients\/7\/boards\/3 status=200 bytes=17 ms=\d+\.\d\d/) != nil },
                "\(requests)")
        #expect(requests.contains { $0.wholeMatch(of: /request method=GET path=\/nowhere status=404 bytes=10 ms=\d+\.\d\d/) != nil },
                "\(requests)")
    }

    @Test func routesWithParameters() throws {
        let server = try TestServer()
        let response = try server.client.get("/patients/7/boards/3")
        #expect(response.status == 200)
        #expect(response.text == "patient=7 board=3")
        #expect(try server.client.get("/patients/new").text == "new patient form")
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        let server = try TestServer()
        let missing = try server.client.get("/nowhere")
        #expect(missing.status == 404)
        #expect(missing.text == "custom 404")
        let wrongMethod = try server.client.postForm("/patients/new", [])
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
    }

    @Test func queryStringIsDecoded() throws {
        let server = try TestServer()
        let response = try server.client.get("/query?name=Jo%C3%A3o+Silva&tag=a&tag=b")
        #expect(response.text == "name=João Silva&tag=a&tag=b")
    }

    @Test func cookiesAreReadAndSet() throws {
        let server = try TestServer()
        let response = try server.client.get("/cookies", headers: [("Cookie", "a=1; session=xyz")])
        #expect(response.text == "a=1;session=xyz")
        #expect(response.header("Set-Cookie") == "fresh=1; Path=/; HttpOnly; Secure; SameSite=Lax")
    }

    @Test func redirectCarriesLocation() throws {
        let server = try TestServer()
        let response = try server.client.get("/redirect")
        #expect(response.status == 303)
        #expect(response.header("Location") == "/patients/new")
    }

    @Test func urlEncodedFormIsParsed() throws {
        let server = try TestServer()
        let response = try server.client.postForm("/form", [("name", "Ana Lúcia"), ("note", "a&b=c"), ("tag", "1"), ("tag", "2")])
        #expect(response.status == 200)
        #expect(response.text == "name=Ana Lúcia&note=a&b=c&tag=1&tag=2")
    }

    @Test func multipartFilePartOf2MBIsStreamedToATemporaryFileAndRemovedAfterwards() throws {
        let server = try TestServer()
        let content = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let expectedSum = content.reduce(0) { ($0 &+ Int($1)) & 0xffff }
        let response = try server.client.postMultipart(
            "/upload", fields: [("caption", "Maçã")],
            files: [(field: "photo", filename: "maçã.png", contentType: "image/png", content: content)])
        #expect(response.status == 200)
        let lines = response.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "caption=Maçã")
        let parts = lines.last!.split(separator: ":").map(String.init)
        #expect(Array(parts.prefix(6)) == ["photo", "maçã.png", "image/png", "\(2 << 20)", "\(2 << 20)", "\(expectedSum)"])
        #expect(parts[6].hasPrefix(server.uploadDirectory))
        #expect(!FileManager.default.fileExists(atPath: parts[6]), "upload files are removed once answered")
    }

    @Test func filePartOverTheLimitIs413() throws {
        let server = try TestServer()
        let content = [UInt8](repeating: 7, count: 4 << 20)
        let response = try server.client.postMultipart(
            "/upload", files: [(field: "photo", filename: "big.png", contentType: "image/png", content: content)])
        #expect(response.status == 413)
        #expect(response.text == "custom 413")
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.uploadDirectory).isEmpty)
        #expect(try server.client.get("/patients/new").status == 200)
    }

    @Test func malformedMultipartIs400() throws {
        let server = try TestServer()
        let noBoundary = try server.client.send(
            method: "POST", target: "/upload", headers: [("Content-Type", "multipart/form-data")],
            body: Array("garbage".utf8))
        #expect(noBoundary.status == 400)
        let truncated = try server.client.send(
            method: "POST", target: "/upload", headers: [("Content-Type", "multipart/form-data; boundary=xyz")],
            body: Array("--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue-without-end".utf8))
        #expect(truncated.status == 400)
        #expect(try server.client.get("/patients/new").status == 200)
    }

    @Test func tenMegabyteUrlEncodedBodyIsRefusedAndTheServerLivesOn() throws {
        let server = try TestServer(limits: Limits())
        let body = [UInt8]("field=".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
        let response = try server.client.send(
            method: "POST", target: "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
        #expect(response.status == 413)
        #expect(try server.client.get("/patients/new").status == 200)
    }

    @Test func bodyWithoutContentLengthOverTheLimitIsRefused() throws {
        let server = try TestServer()
        var chunked = Array("POST /form HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        chunked += Array("6\r\nfield=\r\n".utf8)
        for _ in 0..<40 {
            chunked += Array("1000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "b"), count: 0x1000) + Array("\r\n".utf8)
        }
        chunked += Array("0\r\n\r\n".utf8)
        let response = try server.client.sendRaw(chunked)
        #expect(response.status == 413)
        #expect(try server.client.get("/patients/new").status == 200)
    }

    @Test func tenThousandHeadersAreRefusedAndTheServerLivesOn() throws {
        let server = try TestServer()
        let headers = (0..<10_000).map { ("X-Header-\($0)", "value-\($0)") }
        let response = try server.client.get("/patients/new", headers: headers)
        #expect(response.status >= 400 && response.status < 500)
        #expect(try server.client.get("/patients/new").status == 200)
    }

    @Test func staticFileHasTypeETagAndRevalidates() throws {
        let server = try TestServer()
        let response = try server.client.get("/css/app.css")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/css; charset=utf-8")
        #expect(response.header("Cache-Control") == "no-cache")
        let etag = try #require(response.header("ETag"))
        let revalidated = try server.client.get("/css/app.css", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        let changed = try server.client.get("/css/app.css", headers: [("If-None-Match", "\"other\"")])
        #expect(changed.status == 200)
    }

    @Test func fingerprintedStaticFileIsCachedForAYear() throws {
        let server = try TestServer()
        let files = try StaticFiles(root: server.publicDirectory)
        let url = files.url(for: "/css/app.css")
        #expect(url.hasPrefix("/css/app.css?v="))
        let response = try server.client.get(url)
        #expect(response.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try server.client.get("/css/app.css?v=stale").header("Cache-Control") == "no-cache")
    }

    @Test(arguments: ["/../secret.txt", "/css/../../secret.txt", "/%2e%2e/secret.txt", "/css/%2E%2E/%2e%2e/secret.txt", "/css/..%2f..%2fsecret.txt"])
    func pathTraversalIs404(_ path: String) throws {
        let server = try TestServer()
        let response = try server.client.get(path)
        #expect(response.status == 404)
        #expect(!response.text.contains("secret"))
    }

    @Test func headHasHeadersButNoBody() throws {
        let server = try TestServer()
        let get = try server.client.get("/css/app.css")
        let head = try server.client.head("/css/app.css")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(try server.client.head("/patients/new").body.isEmpty)
    }

    @Test func shutdownLetsARequestInFlightFinish() throws {
        let server = try TestServer()
        let client = server.client
        let result = Result<WireResponse, Error>.Box()
        let thread = Thread { result.value = Result { try client.postForm("/slow", []) } }
        thread.start()
        let deadline = Date().addingTimeInterval(5)
        while server.server.requestsInFlight == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.server.requestsInFlight == 1)
        server.server.shutdown(gracePeriod: .seconds(10))
        while result.value == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let response = try #require(try result.value?.get())
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(throws: HTTPClientError.self) { try client.get("/patients/new") }
    }
}

extension Result {
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result?
        var value: Result? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}

@Suite struct DeferredTests {
    struct SlowResponder: Responder {
        let pool = WorkPool(name: "slow", maxConcurrent: 1)
        func respond(to request: Request) -> Response {
            switch request.path {
            case "/slow":
                return .deferred(on: pool) {
                    Thread.sleep(forTimeInterval: 0.5)
                    return .text("slow done", status: .created)
                }
            default:
                return .text("fast")
            }
        }
    }

    @Test func deferredWorkDoesNotHoldUpOtherRequests() throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.threads = 1
        let server = Server(configuration: configuration, responder: SlowResponder(),
                            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(2)) }
        let client = HTTPClient(port: server.port)

        let slow = Result<WireResponse, Error>.Box()
        let thread = Thread { slow.value = Result { try client.get("/slow") } }
        thread.start()
        let deadline = Date().addingTimeInterval(5)
        while server.requestsInFlight == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }

        // One worker thread only: a fast request answers while the slow one is being computed.
        let started = Date()
        let fast = try client.get("/fast")
        #expect(fast.text == "fast")
        #expect(Date().timeIntervalSince(started) < 0.4)
        #expect(slow.value == nil)

        while slow.value == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let answer = try #require(try slow.value?.get())
        #expect(answer.status == 201)
        #expect(answer.text == "slow done")
    }

    @Test func workThatOutlivesTheGracePeriodFinishesAfterTheStopWithoutTouchingTheClosedConnection() throws {
        let responder = SlowResponder()
        let server = Server(configuration: ServerConfiguration(port: 0), responder: responder,
                            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        let client = HTTPClient(port: server.port)
        let slow = Result<WireResponse, Error>.Box()
        Thread { slow.value = Result { try client.get("/slow") } }.start()
        let deadline = Date().addingTimeInterval(5)
        while server.requestsInFlight == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }

        server.shutdown(gracePeriod: .milliseconds(50))  // the work still has ~0.45 s to go
        while slow.value == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(throws: HTTPClientError.self) { try slow.value?.get() }
        // The work ends after the stop; before the fix it resumed a freed connection here.
        let drained = DispatchSemaphore(value: 0)
        responder.pool.submit { drained.signal() }  // one at a time: runs once the slow work is over
        #expect(drained.wait(timeout: .now() + 5) == .success)
    }
}

@Suite struct RequestWorkerTests {
    /// `/slow` holds a request worker for 0.6 s; `/now` is answered immediately; anything else at once by a worker.
    struct BusyResponder: Responder {
        func respond(to request: Request) -> Response {
            if request.path == "/slow" { Thread.sleep(forTimeInterval: 0.6) }
            return .text(request.path)
        }

        func immediateResponse(to request: Request) -> Response? {
            request.path == "/now" ? .text("now") : nil
        }
    }

    static func start(threads: Int, responder: any Responder = BusyResponder()) throws -> Server {
        var configuration = ServerConfiguration(port: 0)
        configuration.threads = threads
        let server = Server(configuration: configuration, responder: responder,
                            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        return server
    }

    static func startSlowRequest(on server: Server) -> Result<WireResponse, Error>.Box {
        let slow = Result<WireResponse, Error>.Box()
        Thread { slow.value = Result { try HTTPClient(port: server.port).get("/slow") } }.start()
        let deadline = Date().addingTimeInterval(5)
        while server.requestsInFlight == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return slow
    }

    @Test func aBusyWorkerHoldsUpNoRequestWhileAnotherIsFree() throws {
        let server = try Self.start(threads: 2)
        defer { server.shutdown(gracePeriod: .seconds(2)) }
        let slow = Self.startSlowRequest(on: server)

        // Whatever connection thread each of these lands on, the free worker answers them.
        let started = Date()
        for index in 0..<8 {
            #expect(try HTTPClient(port: server.port).get("/fast-\(index)").text == "/fast-\(index)")
        }
        #expect(Date().timeIntervalSince(started) < 0.4)
        #expect(slow.value == nil)
    }

    /// Requests to `/write…` wait for a writer: each holds its worker for 0.6 s.
    struct WritingResponder: Responder {
        func respond(to request: Request) -> Response {
            if request.path.hasPrefix("/write") { Thread.sleep(forTimeInterval: 0.6) }
            return .text(request.path)
        }

        func waitsForWriter(_ request: Request) -> Bool { request.path.hasPrefix("/write") }
    }

    /// Starts `count` writes, each from its own client, and returns once they are all in flight.
    static func startWrites(_ count: Int, on server: Server) -> [Result<WireResponse, Error>.Box] {
        let writes = (0..<count).map { index in
            let box = Result<WireResponse, Error>.Box()
            Thread { box.value = Result { try HTTPClient(port: server.port).get("/write-\(index)") } }.start()
            return box
        }
        let deadline = Date().addingTimeInterval(5)
        while server.requestsInFlight < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return writes
    }

    @Test func requestsWaitingForTheWriterLeaveAWorkerFree() throws {
        let server = try Self.start(threads: 2, responder: WritingResponder())
        defer { server.shutdown(gracePeriod: .seconds(3)) }
        // Three writes for two workers: one runs, the others wait aside, and the second worker is free.
        let began = Date()
        let writes = Self.startWrites(3, on: server)
        let deadline = Date().addingTimeInterval(5)

        let started = Date()
        for index in 0..<4 {
            #expect(try HTTPClient(port: server.port).get("/page-\(index)").text == "/page-\(index)")
        }
        #expect(Date().timeIntervalSince(started) < 0.4)
        #expect(writes.allSatisfy { $0.value == nil })
        // Every write is answered, one after the other: 3 × 0.6 s.
        while writes.contains(where: { $0.value == nil }) && Date() < deadline.addingTimeInterval(5) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        for (index, write) in writes.enumerated() {
            #expect(try write.value?.get().text == "/write-\(index)")
        }
        #expect(Date().timeIntervalSince(began) >= 1.7)
    }

    @Test func writesSetAsideAreAnsweredWhenTheServerStops() throws {
        let server = try Self.start(threads: 2, responder: WritingResponder())
        let writes = Self.startWrites(3, on: server)
        #expect(server.requestsInFlight == 3)
        // One runs, two wait aside: the stop lets all three finish within its grace period.
        server.shutdown(gracePeriod: .seconds(5))
        for (index, write) in writes.enumerated() {
            let deadline = Date().addingTimeInterval(5)
            while write.value == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(try write.value?.get().text == "/write-\(index)")
        }
    }

    @Test func immediateResponsesDoNotWaitForAWorker() throws {
        let server = try Self.start(threads: 1)
        defer { server.shutdown(gracePeriod: .seconds(2)) }
        let slow = Self.startSlowRequest(on: server)

        let started = Date()
        #expect(try HTTPClient(port: server.port).get("/now").text == "now")
        #expect(Date().timeIntervalSince(started) < 0.4)
        #expect(slow.value == nil)
        // The one worker is busy: a page waits for it, then is answered.
        #expect(try HTTPClient(port: server.port).get("/page").text == "/page")
        #expect(Date().timeIntervalSince(started) >= 0.3)
    }
}
