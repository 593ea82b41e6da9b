import Foundation
import GRDB
import HTTPServer
import Logging

/// The composition root: wires the database, templates, catalogues and routes, and answers
/// every request. `tagarela serve` and the tests build it the same way; only the configuration differs.
public final class App: Responder {
    public typealias Handler = @Sendable (RequestContext) throws -> Response

    static let flashCookie = "tagarela_flash"
    static let anonymousCSRFCookie = "tagarela_csrf"

    public let configuration: AppConfiguration
    /// The pool, reached by the dispatcher only: a handler gets one access opened for it (`DatabaseScope`).
    private let database: DatabasePool
    /// For the tests alone, which set rows up around requests and watch commits; no feature file
    /// names it (`PlatformTests` checks).
    var poolForTests: DatabasePool { database }
    let templates: Templates
    let catalogues: Catalogues
    let staticFiles: StaticFiles
    let router: Router<Route>
    let logger: Logger
    let clock: @Sendable () -> Date
    let assets: Assets
    let passwords: PasswordHasher
    /// Password hashing runs here, never on a server thread; one core stays free for pages.
    let hashingPool = WorkPool(name: "argon2", maxConcurrent: ProcessInfo.processInfo.activeProcessorCount - 1)
    let loginThrottle = LoginThrottle()
    let refusalLimit = RefusalAuditLimit()
    /// Image and audio conversion (ffmpeg) runs here, one job at a time.
    let mediaPool = WorkPool(name: "media", maxConcurrent: 1)
    /// A voice's clips for whole eduCAT packs, which no page waits for.
    let backgroundClips = BackgroundClips()
    let media: MediaStore
    let speech: SpeechAudio
    let pictograms: PictogramLibrary
    /// Refused as new passwords (`scripts/install-password-list`).
    let breachedPasswords: BreachedPasswords
    /// Everything kept in memory between requests.
    let caches = Caches()
    /// One-time keys of create forms already sent, so a double submit stores once.
    let submittedForms = SubmittedForms()
    /// Sessions' `lastSeenAt`, written in batches rather than a write per touch.
    let sessionTouches: SessionTouches
    /// Verified against when the username is unknown, so both failures take the same time.
    let decoyHash: String

    /// Every feature of the app, in the order their routes are added. A new feature is added here and
    /// nowhere else: its routes and its templates follow.
    static let features: [any Feature.Type] = [
        SiteRoutes.self, AccountsRoutes.self, DashboardRoutes.self, PeopleRoutes.self, RecordRoutes.self, AdminRoutes.self,
        BodyCompositionRoutes.self, CheckInRoutes.self, NutritionRoutes.self, SymbolRoutes.self, PlanRoutes.self,
        PlayerRoutes.self, UsageRoutes.self, TimerRoutes.self, SentenceRoutes.self, OBFRoutes.self, OfflineRoutes.self,
        AccessRoutes.self, EduCATRoutes.self, GoalRoutes.self, TwoFactorRoutes.self, PrivacyRoutes.self, FHIRRoutes.self,
        FHIRAPIRoutes.self,
    ]

    /// Every template a page names; checked at start.
    static let requiredTemplates = ["layout", "errors/error", "errors/storage-full"] + features.flatMap { $0.templates }

    /// Every route of every feature, each with its access rule and database use.
    static func makeRouter() -> Router<Route> {
        var router = Router<Route>()
        for feature in features { feature.add(to: &router) }
        return router
    }

    /// What `make` reads from the resources folder (texts, static files, templates, pictograms). The
    /// same for every app of one process: the tests, which start hundreds, load it once and pass it.
    public struct Resources: Sendable {
        let catalogues: Catalogues
        let staticFiles: StaticFiles
        let assets: Assets
        let templates: Templates
        let pictograms: PictogramLibrary

        public static func load(_ configuration: AppConfiguration) async throws -> Resources {
            guard FileManager.default.fileExists(atPath: configuration.templatesDirectory) else {
                throw StartupError.missingResources(configuration.resourcesDirectory)
            }
            // The picture library's names are read beside the templates' parse: the two are most of a start.
            async let pictograms = PictogramLibrary.load(curated: configuration.resourcesDirectory + "/Data/pictograms.json",
                                                         library: configuration.pictogramFolder + "/library.json")
            let catalogues = try Catalogues(directory: configuration.templatesDirectory + "/i18n")
            let staticFiles = try StaticFiles(root: configuration.publicDirectory)
            let assets = Assets(staticFiles)
            let templates = try await Templates.load(from: configuration.templatesDirectory, required: requiredTemplates,
                                                     catalogues: catalogues,
                                                     constants: assets.templateConstants.merging(PageChrome.Links.templateConstants) { $1 },
                                                     compare: configuration.comparesTemplates)
            return Resources(catalogues: catalogues, staticFiles: staticFiles, assets: assets, templates: templates,
                             pictograms: try await pictograms)
        }
    }

    /// `resources`, when given, must have been loaded with this configuration's resources folder and
    /// `comparesTemplates`; each app still compares its own renders.
    public static func make(
        _ configuration: AppConfiguration, logger: Logger, clock: @escaping @Sendable () -> Date = Date.init,
        resources: Resources? = nil
    ) async throws -> App {
        guard FileManager.default.fileExists(atPath: configuration.templatesDirectory) else {
            throw StartupError.missingResources(configuration.resourcesDirectory)
        }
        try configuration.prepareDirectories()
        let database = try AppDatabase.open(at: configuration.databasePath, readOnly: configuration.isReadOnlyReplica,
                                            trace: configuration.statementTrace)
        if !configuration.isReadOnlyReplica {  // a replica has what its primary prepared
            try await database.write { try TapDays.prepare($0, timeZone: configuration.timeZone, now: clock()) }
        }
        let keptFailures = try await database.read { try LoginFailures.live(now: clock(), $0) }
        if !configuration.isReadOnlyReplica {
            try FoodCatalogue.load(from: configuration.resourcesDirectory + "/Data/foods.json", into: database)
        }
        let loaded: Resources
        if let resources {
            loaded = Resources(catalogues: resources.catalogues, staticFiles: resources.staticFiles, assets: resources.assets,
                               templates: resources.templates.withOwnComparison(), pictograms: resources.pictograms)
        } else {
            loaded = try await Resources.load(configuration)
        }

        let router = makeRouter()

        let app = App(configuration: configuration, database: database, templates: loaded.templates, catalogues: loaded.catalogues,
                      staticFiles: loaded.staticFiles, assets: loaded.assets, router: router, logger: logger, clock: clock,
                      pictograms: loaded.pictograms)
        app.caches.pages.observe(database)
        app.loginThrottle.restore(keptFailures, now: clock())
        return app
    }

    init(configuration: AppConfiguration, database: DatabasePool, templates: Templates, catalogues: Catalogues,
         staticFiles: StaticFiles, assets: Assets, router: Router<Route>, logger: Logger, clock: @escaping @Sendable () -> Date,
         pictograms: PictogramLibrary) {
        self.configuration = configuration
        self.database = database
        self.templates = templates
        self.catalogues = catalogues
        self.staticFiles = staticFiles
        self.router = router
        self.logger = logger
        self.clock = clock
        self.assets = assets
        self.passwords = PasswordHasher(parameters: configuration.passwordHashing)
        self.media = MediaStore(directory: configuration.mediaDirectory)
        var speech = SpeechAudio(directory: configuration.audioFolder)
        speech.voices.subtract(configuration.voicesLeftOut.compactMap(SpeechVoice.init(rawValue:)))
        self.speech = speech
        self.pictograms = pictograms
        let (breached, loaded) = BreachedPasswords.load(file: configuration.breachedPasswordsFile)
        if !loaded {
            logger.warning("No breached-password list at \(configuration.breachedPasswordsFile): run scripts/install-password-list")
        }
        self.breachedPasswords = breached
        self.sessionTouches = SessionTouches(flushInterval: configuration.sessions.touchBatchInterval)
        self.decoyHash = passwords.hash(Token.make())
    }

    /// An HTTP server that answers with this app.
    public func makeServer() -> Server {
        var server = ServerConfiguration(port: configuration.port)
        server.threads = configuration.threads
        server.limits = configuration.limits
        server.uploadDirectory = configuration.uploadsDirectory
        return Server(configuration: server, responder: self, logger: logger)
    }

    /// Static files and the health check cost microseconds: they are answered at once, and a load
    /// balancer's probe never waits behind pages.
    public func immediateResponse(to request: Request) -> Response? {
        if let file = staticFiles.response(for: request) {
            return Self.withSecurityHeaders(file)
        }
        if request.method == .get, request.path == SiteEndpoints.health.pattern {
            return respond(to: request)
        }
        return nil
    }

    /// Requests whose route writes: the server answers at most all its workers but one of them at once,
    /// so while SQLite's one writer waits for the disk, a worker stays free for the pages.
    public func waitsForWriter(_ request: Request) -> Bool {
        guard case .found(let route, _) = router.match(request.method, request.path) else { return false }
        return route.database.writes
    }

    public func respond(to request: Request) -> Response {
        if let file = staticFiles.response(for: request) {
            return Self.withSecurityHeaders(file)
        }
        // Only for someone not signed in: signed-in pages use `lang` for other things (a symbol's language).
        let chosen = request.cookies[SessionStore.cookieName] == nil ? request.query["lang"].flatMap(AppLocale.init(rawValue:)) : nil
        let browserLocale = AppLocale.negotiate(userSetting: chosen ?? request.cookies[Self.languageCookie].flatMap(AppLocale.init(rawValue:)),
                                                acceptLanguage: request.headers["Accept-Language"])
        switch router.match(request.method, request.path) {
        case .found(let route, let parameters):
            var request = request
            request.pathParameters = parameters
            var response = dispatch(route, request, browserLocale: browserLocale)
            // A language chosen before signing in (the login page's links) is kept for the next pages.
            if let chosen {
                response.setCookie(SetCookie(name: Self.languageCookie, value: chosen.rawValue, maxAgeSeconds: 365 * 24 * 3600,
                                             secure: configuration.secureCookies))
            }
            return Self.withSecurityHeaders(response)
        case .methodNotAllowed(let allowed):
            var page = errorPage(.methodNotAllowed, locale: browserLocale)
            page.headers["Allow"] = allowed.map(\.description).joined(separator: ", ")
            return Self.withSecurityHeaders(page)
        case .notFound:
            return Self.withSecurityHeaders(errorPage(.notFound, locale: browserLocale))
        }
    }

    /// Resolves who is asking, enforces the route's access and the CSRF token, then calls the handler.
    /// Every route goes through here; nothing changes before these checks pass.
    private func dispatch(_ route: Route, _ request: Request, browserLocale: AppLocale) -> Response {
        // Read before the database is: what is cached below is stored under it (see `ReadCache`).
        let generation = caches.pages.generation
        let signedIn: SignedIn?
        let actor: Actor?
        do {
            (signedIn, actor) = try request.cookies[SessionStore.cookieName].flatMap {
                try signedInActor(token: $0, generation: generation)
            } ?? (nil, nil)
        } catch {
            logger.error("session lookup failed", metadata: ["error": "\(error)"])
            return errorPage(.internalServerError, locale: browserLocale)
        }
        let locale = signedIn?.user.appLocale ?? browserLocale

        let anonymousToken = request.cookies[Self.anonymousCSRFCookie].flatMap { $0.count == 43 ? $0 : nil }
        let context = RequestContext(request: request, app: self, signedIn: signedIn, actor: actor, locale: locale,
                                     csrf: CSRFToken(existing: signedIn?.session.csrfToken ?? anonymousToken),
                                     cacheGeneration: generation)

        if let refusal = refusal(of: route.access, to: context) { return refusal }
        if signedIn?.session.mustEnrolSecondFactor == true, !TwoFactorEndpoints.whileEnrolling.contains(request.path) {
            return request.method == .get ? .redirect(to: TwoFactorEndpoints.show.path())
                : recordingRefusal(errorPage(.forbidden, locale: locale), context)
        }
        if request.method == .post {
            let sent = request.form["_csrf"] ?? request.headers["X-CSRF-Token"] ?? ""
            let expected = signedIn?.session.csrfToken ?? anonymousToken
            guard let expected, Token.constantTimeEquals(sent, expected) else {
                return recordingRefusal(expiredFormPage(locale: locale), context)
            }
        }

        let scope = DatabaseScope(database, path: request.path, logger: logger)
        let dispatch = Dispatch(context: context, app: self, database: scope)
        let handler: Handler = { [self] context in
            try route.run(dispatch) ?? errorPage(.notFound, locale: context.locale, context: context)
        }
        var response = runOnce(handler, context, session: expectedToken(signedIn, anonymousToken))
        if configuration.reportsDatabaseAccesses {
            // Counted when the response is final: after the work a hashing or media pool did too.
            response = response.whenFinished { response in
                var response = response
                response.headers["X-Tagarela-DB-Accesses"] = "\(scope.accessCount)"
                response.headers["X-Tagarela-DB-Nested"] = "\(scope.nestedCount)"
                return response
            }
        }
        if let newToken = context.csrf.newToken, Self.isOpenedAsAPage(request) {
            response.setCookie(SetCookie(name: Self.anonymousCSRFCookie, value: newToken,
                                         secure: configuration.secureCookies, sameSite: .strict))
        }
        return response
    }

    /// Whether the browser shows this answer as a page. A script's fetch (the service worker keeping a
    /// signed-out tablet's boards, sent to the login page) never stores a new anonymous token: its answer
    /// can arrive after the login page a person is typing into and replace the token that form carries
    /// (docs/decisions/0092-a-fetch-never-replaces-the-login-forms-token.md). Chromium sends a navigation
    /// that the service worker passes on as `Sec-Fetch-Mode: navigate` with `Sec-Fetch-Dest: empty`.
    static func isOpenedAsAPage(_ request: Request) -> Bool {
        guard let mode = request.headers["Sec-Fetch-Mode"] else { return true }  // curl, older browsers
        return mode == "navigate" || request.headers["Sec-Fetch-Dest"] == "document"
    }

    private func expectedToken(_ signedIn: SignedIn?, _ anonymousToken: String?) -> String {
        signedIn?.session.csrfToken ?? anonymousToken ?? ""
    }

    /// Runs the handler, except for a form whose one-time key (`_once`) was sent before in this session:
    /// that one gets the first submission's answer (see `SubmittedForms`).
    private func runOnce(_ handler: (RequestContext) throws -> Response, _ context: RequestContext, session: String) -> Response {
        guard context.request.method == .post, let once = context.request.form["_once"], SubmittedForms.isWellFormed(once)
        else { return run(handler, context) }
        let key = session + " " + once
        switch submittedForms.begin(key, now: clock()) {
        case .repeated(let response): return response
        case .stillRunning: return errorPage(.conflict, locale: context.locale, context: context)
        case .first:
            return run(handler, context).whenFinished { [submittedForms, clock] response in
                submittedForms.finish(key, with: response, now: clock())
                return response
            }
        }
    }

    /// Writes what is kept only in memory between batches (sessions' last-seen times); call it once the
    /// server has stopped taking requests.
    public func saveBeforeExit() {
        try? sessionTouches.flush(database)
    }

    /// The session of a cookie token and who acts in it (the patient, in patient mode), from `cache`
    /// when it holds them, else from the database.
    private func signedInActor(token: String, generation: UInt64) throws -> (SignedIn, Actor)? {
        let now = clock()
        if let cached = caches.pages.session(for: token), SessionStore.isLive(cached.signedIn, at: now, policy: configuration.sessions) {
            if SessionStore.needsTouch(cached.signedIn, at: now, policy: configuration.sessions) {
                try SessionStore.touch(cached.signedIn, at: now, sessionTouches, database)
                caches.pages.touch(token: token, at: now)
            }
            return (cached.signedIn, cached.actor)
        }
        guard let (signedIn, actor) = try SessionStore.resolve(token: token, at: now, policy: configuration.sessions,
                                                               touches: sessionTouches, database, alsoReading: { try Self.actor(in: $0, $1) })
        else { return nil }
        caches.pages.store(session: signedIn, actor: actor, for: token, generation: generation)
        return (signedIn, actor)
    }

    /// Who acts in a session: its user, or in patient mode the patient with the tutor supervising; a
    /// patient with their display settings. Read with the session (`SessionStore.resolve`).
    private static func actor(in signedIn: SignedIn, _ db: Database) throws -> Actor {
        var actor = Actor(user: signedIn.user)
        if let patientId = signedIn.session.patientModeFor, let patient = try User.find(patientId, db) {
            actor = Actor(user: patient, supervisorId: signedIn.user.id)
            actor.display = try AccessSettings.display(patientId: patientId, db)
        } else if actor.role == .patient {
            actor.display = try AccessSettings.display(patientId: actor.userId, db)
        }
        return actor
    }

    /// Calls a handler, turning what it throws into the matching error page. The one place that
    /// maps errors to statuses; deferred work (logins, uploads) comes through here too.
    /// A 403, or a 404 on a record, is audited here (see `recordingRefusal`), after every access closed.
    func run(_ handler: (RequestContext) throws -> Response, _ context: RequestContext) -> Response {
        let response: Response
        do {
            response = try FormLanguage.$current.withValue(FormLanguage(t: context.t, format: context.format)) { try handler(context) }
        } catch let error as AppError {
            response = errorPage(error.status, locale: context.locale, context: context)
        } catch where StorageFull.matches(error) {
            logger.error("disk full", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            return self.response(for: StorageFull.page(context), context)
        } catch let error as NestedDatabaseAccess {
            logger.critical("handler opened a nested database access", metadata: ["error": "\(error)"])
            return errorPage(.internalServerError, locale: context.locale, context: context)
        } catch {
            logger.error("handler failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            return errorPage(.internalServerError, locale: context.locale, context: context)
        }
        return recordingRefusal(response, context)
    }

    /// The path and query of a request, so a login can return to exactly the page that was asked for.
    static func address(of request: Request) -> String {
        guard !request.query.isEmpty else { return request.path }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        let query = request.query.pairs.map { pair in
            "\(pair.name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(pair.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        return request.path + "?" + query.joined(separator: "&")
    }

    /// The answer when `access` does not let this request through, or nil when it does.
    private func refusal(of access: Access, to context: RequestContext) -> Response? {
        if case .anyone = access { return nil }
        guard let actor = context.actor else {
            guard context.request.method == .get else { return recordingRefusal(errorPage(.forbidden, locale: context.locale), context) }
            let next = Self.address(of: context.request).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"
            return .redirect(to: AccountsEndpoints.showLogin.path() + "?next=" + next)
        }
        return access.admits(actor) ? nil : recordingRefusal(errorPage(.forbidden, locale: context.locale, context: context), context)
    }

    /// The language someone not signed in chose (`?lang=`); a signed-in person's own setting wins.
    static let languageCookie = "tagarela_lang"

    public func errorResponse(_ status: Status, for request: Request) -> Response {
        let locale = AppLocale.negotiate(userSetting: nil, acceptLanguage: request.headers["Accept-Language"])
        return Self.withSecurityHeaders(errorPage(status, locale: locale))
    }

    func renderPage(_ template: String, title: String, _ model: some Sendable, context: RequestContext?,
                    locale: AppLocale? = nil, status: Status) -> Response {
        let locale = context?.locale ?? locale ?? .fallback
        let translator = catalogues.translator(for: locale)
        let flashKey = context?.request.cookies[Self.flashCookie].flatMap { key in
            key.allSatisfy({ $0.isLetter || $0 == "_" }) ? key : nil
        }
        var chrome = context.map { PageChrome($0, flash: flashKey.map { translator[$0] }) } ?? PageChrome()
        if chrome.isPatientMode {
            chrome.patientWords = PatientModeWords(catalogues.translator(
                for: PatientModeWords.locale(of: model, page: locale)))
        }
        let page = PageContext(model: model, translator: translator, assets: assets, pageTitle: title, chrome: chrome)
        var response = Response.html(templates.render(template, page, in: locale), status: status)
        // Pages carry health data: never kept by a shared cache or the browser's history cache.
        response.headers["Cache-Control"] = "no-store"
        if flashKey != nil {
            response.setCookie(.expired(Self.flashCookie, secure: configuration.secureCookies))
        }
        return response
    }

    /// The response a handler's reply stands for, rendered now: after the request's database access ended.
    func response(for reply: Reply, _ context: RequestContext) -> Response {
        var response: Response
        switch reply.content {
        case .page(let template, let title, let model, let status):
            response = renderPage(template, title: context.t[title], model, context: context, status: status)
        case .fragment(let template, let model):
            response = renderFragment(template, model, locale: context.locale)
        case .redirect(let path, let flash):
            response = .redirect(to: path)
            if let flash {
                response.setCookie(SetCookie(name: Self.flashCookie, value: flash, maxAgeSeconds: 120,
                                             secure: configuration.secureCookies))
            }
        case .ready(let ready):
            response = ready
        }
        for (name, value) in reply.headers { response.headers[name] = value }
        for cookie in reply.cookies { response.setCookie(cookie) }
        return response
    }

    /// A template rendered without the layout, as a string, for fragments kept in `caches`.
    func renderFragmentHTML(_ template: String, _ model: some Sendable, locale: AppLocale) -> String {
        let page = PageContext(model: model, translator: catalogues.translator(for: locale), assets: assets, pageTitle: "",
                               chrome: PageChrome())
        return templates.render(template, page, in: locale)
    }

    /// A piece of a page (no layout) for scripts that update part of a page in place.
    func renderFragment(_ template: String, _ model: some Sendable, locale: AppLocale) -> Response {
        let translator = catalogues.translator(for: locale)
        let page = PageContext(model: model, translator: translator, assets: assets, pageTitle: "", chrome: PageChrome())
        return .html(templates.render(template, page, in: locale))
    }

    func errorPage(_ status: Status, locale: AppLocale, context: RequestContext? = nil) -> Response {
        let t = catalogues.translator(for: locale)
        if status == .insufficientStorage {  // an upload refused by a full disk, before any handler ran
            let page = ErrorPage(code: status.code, message: t["faults_full_message"])
            return renderPage("errors/error", title: t["faults_full_title"], page, context: context, locale: locale, status: status)
        }
        let known = [400, 403, 404, 405, 409, 413, 422, 429, 500].contains(status.code) ? status.code : 500
        let page = ErrorPage(code: status.code, message: t["error_\(known)_message"])
        return renderPage("errors/error", title: t["error_\(known)_title"], page, context: context, locale: locale, status: status)
    }

    /// A form whose token does not match (opened in another tab, before a new login, or forged): refused
    /// like any 403, but told as what a person meets, with what to do.
    func expiredFormPage(locale: AppLocale) -> Response {
        let t = catalogues.translator(for: locale)
        let page = ErrorPage(code: Status.forbidden.code, message: t["error_expired_message"])
        return renderPage("errors/error", title: t["error_expired_title"], page, context: nil, locale: locale, status: .forbidden)
    }

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "media-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static func withSecurityHeaders(_ response: Response) -> Response {
        var response = response
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Permissions-Policy"] = "camera=(self), microphone=(self), geolocation=()"
        return response
    }
}

struct ErrorPage: Sendable {
    let code: Int
    let message: String
}

// A refused request's audit row: in this file, the one that holds the pool (`RefusalAuditLimit` keeps their rate).
extension App {
    /// Path parameters that name a file or a screen, not a record: a missing pictogram is not a probe.
    static let nonRecordParameters: Set<String> = ["file", "screen", "mode"]

    /// Whether `status` for this request is a refusal worth an audit entry: every 403, and a 404 on a
    /// route with a record id for a signed-in user (the answer to "not yours" as much as to "missing").
    static func isAuditedRefusal(_ status: Status, _ request: Request, signedIn: Bool) -> Bool {
        switch status {
        case .forbidden: true
        case .notFound: signedIn && request.pathParameters.keys.contains { !nonRecordParameters.contains($0) }
        default: false
        }
    }

    /// Writes a `refused` entry for `response` when it is a refusal (see `isAuditedRefusal`), once per
    /// request, within `refusalLimit`, and never inside another database access; returns `response`.
    func recordingRefusal(_ response: Response, _ context: RequestContext) -> Response {
        guard response.deferred == nil,
              Self.isAuditedRefusal(response.status, context.request, signedIn: context.actor != nil),
              !DatabaseScope.isOpenOnThisThread,
              context.refusalRecord.claim() else { return response }
        let audit = context.audit
        let key = audit.actorId.map { "user \($0)" } ?? "address \(audit.clientAddress)"
        guard refusalLimit.admit(key, at: audit.now) else {
            logger.warning("refused request not audited: limit reached",
                           metadata: ["who": "\(key)", "path": "\(context.request.path.prefix(200))"])
            return response
        }
        let summary = "\(context.request.method) \(context.request.path.prefix(200)) → \(response.status.code)"
        do {
            try database.write { db in try audit.record(.refused, "request", nil, summary, db) }
        } catch {
            logger.error("refused request not audited", metadata: ["error": "\(error)", "summary": "\(summary)"])
        }
        return response
    }
}
