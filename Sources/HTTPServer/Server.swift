import CMicroHTTPD
import Foundation
import Logging
import Synchronization

/// Turns a complete request into a response. Called synchronously on the server's own threads
/// (a request worker, or for an immediate response the connection's thread), so it must not rely
/// on any actor, the main one included.
public protocol Responder: Sendable {
    func respond(to request: Request) -> Response
    /// The page for a request the server refused before `respond(to:)`: a body over the
    /// limits (413) or a malformed form body (400).
    func errorResponse(_ status: Status, for request: Request) -> Response
    /// A response that costs next to nothing (a static file, a health check), given at once on the
    /// connection's thread instead of waiting its turn for a request worker; nil for every other request.
    func immediateResponse(to request: Request) -> Response?
    /// Whether answering will wait for something that serves one request at a time (a database's one
    /// writer). All but one request worker at most answer such requests at once (`RequestWorkers`):
    /// however long the writer takes, a worker stays free for the other requests.
    func waitsForWriter(_ request: Request) -> Bool
}

extension Responder {
    public func errorResponse(_ status: Status, for request: Request) -> Response {
        .text("\(status.code)\n", status: status)
    }

    public func immediateResponse(to request: Request) -> Response? { nil }

    public func waitsForWriter(_ request: Request) -> Bool { false }
}

/// Body size limits, checked while the body arrives so an oversized one is never held whole.
public struct Limits: Sendable {
    /// A URL-encoded or raw body.
    public var maxBodyBytes = 1 << 20
    /// A whole `multipart/form-data` body.
    public var maxMultipartBytes = 64 << 20
    /// One file part of a multipart body.
    public var maxFilePartBytes = 16 << 20

    public init() {}
}

public struct ServerConfiguration: Sendable {
    /// 0 picks a free port; `Server.port` tells which.
    public var port: UInt16 = 8080
    /// Connection threads (libmicrohttpd's epoll loops, reading requests and writing responses) and
    /// as many request workers. Requests wait for a worker in one queue, in the order they arrived,
    /// whichever connection they came on: libmicrohttpd keeps each connection on one thread, so
    /// answering on that thread made every request wait for all the others of its thread, however
    /// slow, while the other threads idled (see bench/mixed).
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    public var limits = Limits()
    /// Where file parts are streamed while they arrive.
    public var uploadDirectory = NSTemporaryDirectory()
    public var connectionTimeoutSeconds: UInt32 = 30
    public var connectionLimit: UInt32 = 1024
    /// Per-connection memory for the request line and headers; more is answered by libmicrohttpd
    /// itself (431), so a flood of headers never reaches Swift.
    public var connectionMemoryLimit = 64 * 1024

    public init(port: UInt16 = 8080) { self.port = port }
}

public enum ServerError: Error, CustomStringConvertible {
    case cannotStart(port: UInt16)

    public var description: String {
        switch self {
        case .cannotStart(let port): "cannot listen on port \(port): is it already in use?"
        }
    }
}

/// An HTTP/1.1 server on libmicrohttpd: an internal epoll thread per worker, a bounded
/// request size, one log line per request, and a shutdown that lets requests in flight finish.
public final class Server: Sendable {
    let core: ServerCore
    private let daemon = Mutex<DaemonHandle?>(nil)

    public init(configuration: ServerConfiguration, responder: any Responder, logger: Logger) {
        core = ServerCore(configuration: configuration, responder: responder, logger: logger)
    }

    /// Starts listening; returns at once, the daemon's threads do the work.
    public func start() throws {
        let configuration = core.configuration
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if configuration.threads <= 1 { flags |= MHD_USE_INTERNAL_POLLING_THREAD.rawValue }
        let started = tg_start_daemon(
            flags, configuration.port,
            accessHandler, Unmanaged.passUnretained(core).toOpaque(),
            requestCompleted, Unmanaged.passUnretained(core).toOpaque(),
            uriArrived,
            UInt32(max(configuration.threads, 1) > 1 ? configuration.threads : 0),
            configuration.connectionMemoryLimit,
            configuration.connectionTimeoutSeconds,
            configuration.connectionLimit)
        guard let started else { throw ServerError.cannotStart(port: configuration.port) }
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// The port the server listens on.
    public var port: Int {
        daemon.withLock { daemon in daemon.map { Int(tg_daemon_port($0.pointer)) } ?? 0 }
    }

    /// Requests that have arrived and whose response has not been sent yet.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting connections, waits up to `gracePeriod` for requests in flight to be
    /// answered, then closes every connection.
    public func shutdown(gracePeriod: Duration = .seconds(30)) {
        guard let running = daemon.withLock({ daemon -> DaemonHandle? in
            defer { daemon = nil }
            return daemon
        })?.pointer else { return }
        let listener = MHD_quiesce_daemon(running)
        let deadline = ContinuousClock.now + gracePeriod
        while core.inFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        core.stop(running)
        if listener >= 0 { close(listener) }
    }
}

/// The daemon pointer; libmicrohttpd's daemon calls are thread-safe.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What the C callbacks reach through their `cls` pointer.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let responder: any Responder
    let logger: Logger
    let inFlight = Atomic<Int>(0)
    /// Where every request that is not answered immediately is answered, in arrival order.
    let workers: RequestWorkers
    /// Connections waiting for deferred work, and whether the daemon is stopping. libmicrohttpd
    /// panics when stopped with suspended connections, and a connection resumed after the stop would
    /// be freed memory: both are settled under this lock.
    private let suspensions = Mutex<(stopping: Bool, connections: [OpaquePointer: SuspendedConnection])>((false, [:]))

    init(configuration: ServerConfiguration, responder: any Responder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        workers = RequestWorkers(name: "tg-request", count: configuration.threads)
    }

    /// Suspends a connection while its deferred work runs; false once the daemon is stopping.
    func suspend(_ connection: SuspendedConnection) -> Bool {
        suspensions.withLock { suspensions in
            guard !suspensions.stopping else { return false }
            MHD_suspend_connection(connection.pointer)
            suspensions.connections[connection.pointer] = connection
            return true
        }
    }

    /// Hands a connection whose deferred work is done back to libmicrohttpd with its response, unless
    /// the daemon stopped meanwhile (work that outlived the grace period): then the response is dropped.
    func resume(_ connection: SuspendedConnection, with response: Response) {
        suspensions.withLock { suspensions in
            guard suspensions.connections.removeValue(forKey: connection.pointer) != nil else { return }
            connection.state.finishedDeferred = response
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Stops the daemon. Connections still waiting for their work are resumed first, to be closed.
    func stop(_ daemon: OpaquePointer) {
        suspensions.withLock { suspensions in
            suspensions.stopping = true
            for connection in suspensions.connections.values {
                connection.state.abandoned = true
                MHD_resume_connection(connection.pointer)
            }
            suspensions.connections = [:]
        }
        // Outside the lock: stopping joins the connection threads, which may be waiting for it.
        MHD_stop_daemon(daemon)
        workers.stop()
    }

    func log(_ request: Request, _ response: Response, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        // Hundredths of a millisecond, printed as "0.19" without `String(format:)`: that one call was 6 % of a board's load.
        let hundredths = elapsed.components.seconds * 100_000 + elapsed.components.attoseconds / 10_000_000_000_000
        let fraction = hundredths % 100
        // One message, not five metadata values: the stream handler built, sorted and joined a dictionary
        // for every request (2 % of the mixed bench's CPU). The same `key=value` words, in a fixed order.
        logger.info("""
            request method=\(request.method) path=\(request.path) status=\(response.status.code) \
            bytes=\(response.body.count) ms=\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)
            """)
    }
}
