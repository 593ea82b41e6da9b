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
    let notServed: NotServedPage
    private let state = Mutex(Running())
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    struct Running {
        var byHost: [String: App] = [:]
        var byName: [String: (tenant: Tenant, app: App)] = [:]
        /// The registry file last read, by inode and modification time.
        var readVersion: FileVersion?
        var wanted = TenantRegistry()
        /// The last failure to start each tenant, logged once.
        var failures: [String: String] = [:]
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
                              notServed: try await NotServedPage.load(base))
        await node.reload()
        return node
    }

    init(file: TenantFile, base: AppConfiguration, logger: Logger, clock: @escaping @Sendable () -> Date, notServed: NotServedPage) {
        self.file = file
        self.base = base
        self.logger = logger
        self.clock = clock
        self.notServed = notServed
    }

    /// The configuration a tenant's `App` starts with.
    func configuration(of tenant: Tenant) -> AppConfiguration {
        var configuration = base
        configuration.dataDirectory = file.dataDirectory(of: tenant)
        // Links sent by mail start with the tenant's own first host; `TAGARELA_SITE_URL` names one site only.
        configuration.siteURL = (base.secureCookies ? "https://" : "http://") + tenant.hosts[0]
        configuration.pictogramsDirectory = base.pictogramsDirectory ?? base.dataDirectory + "/pictograms"
        configuration.passwordsDirectory = base.passwordsDirectory ?? base.dataDirectory + "/passwords"
        return configuration
    }

    /// The tenants serving now, by name (tests and `/healthz`).
    public var apps: [String: App] { state.withLock { $0.byName.mapValues { $0.app } } }

    func app(forHost host: String?) -> App? {
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
        let (wanted, running) = state.withLock { ($0.wanted, $0.byName.mapValues { $0.tenant }) }
        for (name, tenant) in running where wanted.tenant(named: name) != tenant {
            stop(name)
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
            let app = try await App.make(configuration, logger: tenantLogger, clock: clock)
            state.withLock { state in
                state.byName[tenant.name] = (tenant, app)
                for host in tenant.hosts { state.byHost[host] = app }
                state.failures[tenant.name] = nil
            }
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
            for host in tenant.hosts where state.byHost[host] === app { state.byHost[host] = nil }
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
        app(forHost: request.headers["Host"])?.respond(to: request) ?? notServed.response(for: request)
    }

    public func immediateResponse(to request: Request) -> Response? {
        guard let app = app(forHost: request.headers["Host"]) else {
            if request.method == .get, request.path == SiteEndpoints.health.pattern {
                return .text("ok: \(apps.count) tenants\n")  // the node's own health, for a probe that names no tenant
            }
            return notServed.response(for: request)
        }
        return app.immediateResponse(to: request)
    }

    public func waitsForWriter(_ request: Request) -> Bool {
        app(forHost: request.headers["Host"])?.waitsForWriter(request) ?? false
    }

    public func errorResponse(_ status: Status, for request: Request) -> Response {
        app(forHost: request.headers["Host"])?.errorResponse(status, for: request) ?? notServed.response(for: request)
    }
}

/// The page for a host this node does not serve: the stylesheet and no link (each would lead back here), in
/// the browser's language, saying which address was asked for. Nothing of any tenant is read to make it.
struct NotServedPage: Sendable {
    let templates: Templates
    let catalogues: Catalogues
    let staticFiles: StaticFiles
    let assets: Assets

    struct Model: Sendable {
        let code: Int
        let host: String
        let message: String
        let hint: String
    }

    static func load(_ configuration: AppConfiguration) async throws -> NotServedPage {
        let catalogues = try Catalogues(directory: configuration.templatesDirectory + "/i18n")
        let staticFiles = try StaticFiles(root: configuration.publicDirectory)
        let assets = Assets(staticFiles)
        let templates = try await Templates.load(
            from: configuration.templatesDirectory, required: ["tenants/not-served"], catalogues: catalogues,
            constants: assets.templateConstants.merging(PageChrome.Links.templateConstants) { $1 })
        return NotServedPage(templates: templates, catalogues: catalogues, staticFiles: staticFiles, assets: assets)
    }

    func response(for request: Request) -> Response {
        if let file = staticFiles.response(for: request) { return App.withSecurityHeaders(file) }
        let locale = AppLocale.negotiate(userSetting: request.cookies[App.languageCookie].flatMap(AppLocale.init(rawValue:)),
                                         acceptLanguage: request.headers["Accept-Language"])
        let t = catalogues.translator(for: locale)
        let host = Tenant.normalizedHost(request.headers["Host"] ?? "")
        let model = Model(code: 404, host: host, message: t["tenants_not_served_message"], hint: t["tenants_not_served_hint"])
        let page = PageContext(model: model, translator: t, assets: assets, pageTitle: t["tenants_not_served_title"], chrome: PageChrome())
        var response = Response.html(templates.render("tenants/not-served", page, in: locale), status: .notFound)
        response.headers["Cache-Control"] = "no-store"
        return App.withSecurityHeaders(response)
    }
}
