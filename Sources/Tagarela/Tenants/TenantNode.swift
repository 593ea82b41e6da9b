import Foundation
import HTTPServer
import Logging
import Synchronization

/// A node serving several clinic networks: one `App` per tenant (its own database pool, media folder,
/// caches, sessions), chosen by the request's Host header before anything else is looked at. Nothing is
/// shared between tenants but the process, the templates on disk and the installed pictograms, so a
/// tenant's rows, sessions and media cannot reach another's by construction. A host the node does not
/// serve gets a 404 page in the browser's language. The registry (`tenants.conf`) is read again within
/// a second of changing: `tagarela tenant add` then a login works without a restart.
public final class TenantNode: Responder, Sendable {
    public let file: TenantFile
    let base: AppConfiguration
    let logger: Logger
    let clock: @Sendable () -> Date
    let pages: TenantPages
    private let state = Mutex(Running())
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    struct Running {
        var byHost: [String: (tenant: Tenant, app: App)] = [:]
        var byName: [String: (tenant: Tenant, app: App)] = [:]
        /// The registry file last read, by inode and modification time.
        var readVersion: FileVersion?
        var wanted = TenantRegistry()
        /// The last failure to start each tenant, logged once.
        var failures: [String: String] = [:]
        /// The database file each replica tenant's `App` opened: a newer restored copy has another inode.
        var replicaFiles: [String: FileVersion] = [:]
    }

    struct FileVersion: Equatable {
        let inode: UInt64
        let seconds: Int
        let nanoseconds: Int
    }

    /// `base` is the node's configuration: `dataDirectory` holds `tenants.conf`, the shared pictograms
    /// and password list; each tenant gets a copy with its own data folder.
    public static func make(_ base: AppConfiguration, logger: Logger,
                            clock: @escaping @Sendable () -> Date = Date.init) async throws -> TenantNode {
        try FileManager.default.createDirectory(atPath: base.uploadsDirectory, withIntermediateDirectories: true)
        let node = TenantNode(file: TenantFile(nodeDataDirectory: base.dataDirectory), base: base, logger: logger, clock: clock,
                              pages: try await TenantPages.load(base))
        await node.reload()
        return node
    }

    init(file: TenantFile, base: AppConfiguration, logger: Logger, clock: @escaping @Sendable () -> Date, pages: TenantPages) {
        self.file = file
        self.base = base
        self.logger = logger
        self.clock = clock
        self.pages = pages
    }

    /// The configuration a tenant's `App` starts with.
    func configuration(of tenant: Tenant) -> AppConfiguration {
        var configuration = base
        configuration.dataDirectory = file.dataDirectory(of: tenant)
        // Links sent by mail start with the tenant's own first host; `TAGARELA_SITE_URL` names one site only.
        configuration.siteURL = (base.secureCookies ? "https://" : "http://") + tenant.hosts[0]
        configuration.pictogramsDirectory = base.pictogramsDirectory ?? base.dataDirectory + "/pictograms"
        configuration.passwordsDirectory = base.passwordsDirectory ?? base.dataDirectory + "/passwords"
        configuration.primaryURL = tenant.primary
        return configuration
    }

    /// The tenants serving now, by name (tests and `/healthz`).
    public var apps: [String: App] { state.withLock { $0.byName.mapValues { $0.app } } }

    func app(forHost host: String?) -> App? { served(forHost: host)?.app }

    func served(forHost host: String?) -> (tenant: Tenant, app: App)? {
        let host = Tenant.normalizedHost(host ?? "")
        return state.withLock { $0.byHost[host] }
    }

    /// Reads the registry when it changed and starts, restarts or drops tenants to match it; a tenant
    /// that failed to start (a restore still running, a folder not writable) is tried again each call.
    public func reload() async {
        let version = Self.version(of: file.path)
        let changed = state.withLock { $0.readVersion != version }
        if changed {
            do {
                let wanted = try file.read()
                state.withLock { $0.wanted = wanted; $0.readVersion = version }
            } catch {
                logger.error("tenants.conf not read, the tenants serving stay as they are", metadata: ["error": "\(error)"])
                state.withLock { $0.readVersion = version }
                return
            }
        }
        let (wanted, running, replicaFiles) = state.withLock { ($0.wanted, $0.byName.mapValues { $0.tenant }, $0.replicaFiles) }
        for (name, tenant) in running where wanted.tenant(named: name) != tenant {
            stop(name)
        }
        // A replica is refreshed by restoring a newer copy beside it and pointing `db` at it
        // (deploy/region/replica-refresh): the App still reading the old one gives way to one on the new.
        for (name, tenant) in running where tenant.isReplica && wanted.tenant(named: name) == tenant {
            let now = Self.version(of: configuration(of: tenant).databasePath)
            if let now, let opened = replicaFiles[name], now.inode != opened.inode { await start(tenant) }
        }
        for tenant in wanted.tenants where running[tenant.name] != tenant {
            await start(tenant)
        }
    }

    private func start(_ tenant: Tenant) async {
        let configuration = configuration(of: tenant)
        do {
            try Restoring.refuseIfInProgress(configuration)
            var tenantLogger = logger
            tenantLogger[metadataKey: "tenant"] = "\(tenant.name)"
            let opened = Self.version(of: configuration.databasePath)
            let app = try await App.make(configuration, logger: tenantLogger, clock: clock)
            let replaced = state.withLock { state -> App? in
                let replaced = state.byName[tenant.name]?.app
                state.byName[tenant.name] = (tenant, app)
                for host in tenant.hosts { state.byHost[host] = (tenant, app) }
                if tenant.isReplica { state.replicaFiles[tenant.name] = opened }
                state.failures[tenant.name] = nil
                return replaced
            }
            replaced?.saveBeforeExit()  // a replica's older copy: requests in flight keep it until they answer
            logger.notice("tenant \(tenant.name) serves \(tenant.hosts.joined(separator: ", ")) from \(configuration.dataDirectory)")
        } catch {
            let message = "\(error)"
            let isNew = state.withLock { state in
                defer { state.failures[tenant.name] = message }
                return state.failures[tenant.name] != message
            }
            if isNew { logger.error("tenant \(tenant.name) not started; tried again each second", metadata: ["error": "\(message)"]) }
        }
    }

    private func stop(_ name: String) {
        let stopped = state.withLock { state -> App? in
            guard let (tenant, app) = state.byName.removeValue(forKey: name) else { return nil }
            for host in tenant.hosts where state.byHost[host]?.app === app { state.byHost[host] = nil }
            state.replicaFiles[name] = nil
            return app
        }
        // Requests in flight keep their `App`; the pool closes when the last of them has answered.
        stopped?.saveBeforeExit()
        if stopped != nil { logger.notice("tenant \(name) no longer served") }
    }

    /// Reads the registry again every `interval` until `stopWatching()`.
    public func startWatching(every interval: Duration = .seconds(1)) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                await self.reload()
            }
        }
        watcher.withLock { $0?.cancel(); $0 = task }
    }

    public func stopWatching() {
        watcher.withLock { $0?.cancel(); $0 = nil }
    }

    public func saveBeforeExit() {
        for app in apps.values { app.saveBeforeExit() }
    }

    static func version(of path: String) -> FileVersion? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileVersion(inode: UInt64(info.st_ino), seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }

    /// One HTTP server for every tenant; uploads arrive in the node's folder before a tenant's handler
    /// moves them into that tenant's media.
    public func makeServer() -> Server {
        var server = ServerConfiguration(port: base.port)
        server.threads = base.threads
        server.limits = base.limits
        server.uploadDirectory = base.uploadsDirectory
        return Server(configuration: server, responder: self, logger: logger)
    }

    // MARK: Responder: every call goes to the tenant of the request's host.

    public func respond(to request: Request) -> Response {
        guard let (tenant, app) = served(forHost: request.headers["Host"]) else { return pages.notServed(request) }
        if let primary = tenant.primary, ReadOnlyReplica.writes(request, app) {
            return pages.readOnly(request, primary: primary)
        }
        return app.respond(to: request)
    }

    public func immediateResponse(to request: Request) -> Response? {
        guard let (tenant, app) = served(forHost: request.headers["Host"]) else {
            if request.method == .get, request.path == SiteEndpoints.health.pattern {
                return .text("ok: \(apps.count) tenants\n")  // the node's own health, for a probe that names no tenant
            }
            return pages.notServed(request)
        }
        // A refused write is answered at once, before its upload or its turn at the writer is waited for.
        if let primary = tenant.primary, ReadOnlyReplica.writes(request, app) { return pages.readOnly(request, primary: primary) }
        return app.immediateResponse(to: request)
    }

    public func waitsForWriter(_ request: Request) -> Bool {
        app(forHost: request.headers["Host"])?.waitsForWriter(request) ?? false
    }

    public func errorResponse(_ status: Status, for request: Request) -> Response {
        app(forHost: request.headers["Host"])?.errorResponse(status, for: request) ?? pages.notServed(request)
    }
}

