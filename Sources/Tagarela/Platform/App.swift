import Foundation
import GRDB
import HTTPServer
import Logging

/// The composition root: wires the database, templates, catalogues and routes, and answers
/// every request. `tagarela serve` and the tests build it the same way; only the configuration differs.
public final class App: Responder {
    public typealias Handler = @Sendable (RequestContext) throws -> Response

    public let configuration: AppConfiguration
    public let database: DatabasePool
    let templates: Templates
    let catalogues: Catalogues
    let staticFiles: StaticFiles
    let router: Router<Handler>
    let logger: Logger
    let clock: @Sendable () -> Date
    let assets: Assets

    /// Every template a page names; checked at start.
    static let requiredTemplates = ["layout", "errors/error"] + SiteRoutes.templates

    public static func make(
        _ configuration: AppConfiguration, logger: Logger, clock: @escaping @Sendable () -> Date = Date.init
    ) async throws -> App {
        guard FileManager.default.fileExists(atPath: configuration.templatesDirectory) else {
            throw StartupError.missingResources(configuration.resourcesDirectory)
        }
        try configuration.prepareDirectories()
        let database = try AppDatabase.open(at: configuration.databasePath)
        let templates = try await Templates.load(from: configuration.templatesDirectory, required: requiredTemplates)
        let catalogues = try Catalogues(directory: configuration.templatesDirectory + "/i18n")
        let staticFiles = try StaticFiles(root: configuration.publicDirectory)

        var router = Router<Handler>()
        SiteRoutes.add(to: &router)

        return App(configuration: configuration, database: database, templates: templates, catalogues: catalogues,
                   staticFiles: staticFiles, router: router, logger: logger, clock: clock)
    }

    init(configuration: AppConfiguration, database: DatabasePool, templates: Templates, catalogues: Catalogues,
         staticFiles: StaticFiles, router: Router<Handler>, logger: Logger, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.database = database
        self.templates = templates
        self.catalogues = catalogues
        self.staticFiles = staticFiles
        self.router = router
        self.logger = logger
        self.clock = clock
        self.assets = Assets(stylesheet: staticFiles.url(for: "/css/app.css"),
                             icon: staticFiles.url(for: "/img/icon.svg"))
    }

    /// An HTTP server that answers with this app.
    public func makeServer() -> Server {
        var server = ServerConfiguration(port: configuration.port)
        server.threads = configuration.threads
        server.limits = configuration.limits
        server.uploadDirectory = configuration.uploadsDirectory
        return Server(configuration: server, responder: self, logger: logger)
    }

    public func respond(to request: Request) -> Response {
        if let file = staticFiles.response(for: request) {
            return Self.withSecurityHeaders(file)
        }
        let locale = AppLocale.negotiate(userSetting: nil, acceptLanguage: request.headers["Accept-Language"])
        let response: Response
        switch router.match(request.method, request.path) {
        case .found(let handler, let parameters):
            var request = request
            request.pathParameters = parameters
            let context = RequestContext(request: request, app: self, locale: locale)
            do {
                response = try handler(context)
            } catch let error as AppError {
                response = errorPage(error.status, locale: locale)
            } catch {
                logger.error("handler failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
                response = errorPage(.internalServerError, locale: locale)
            }
        case .methodNotAllowed(let allowed):
            var page = errorPage(.methodNotAllowed, locale: locale)
            page.headers["Allow"] = allowed.map(\.description).joined(separator: ", ")
            response = page
        case .notFound:
            response = errorPage(.notFound, locale: locale)
        }
        return Self.withSecurityHeaders(response)
    }

    public func errorResponse(_ status: Status, for request: Request) -> Response {
        let locale = AppLocale.negotiate(userSetting: nil, acceptLanguage: request.headers["Accept-Language"])
        return Self.withSecurityHeaders(errorPage(status, locale: locale))
    }

    func renderPage(_ template: String, title: String, _ model: some Sendable, locale: AppLocale, status: Status) -> Response {
        let context = PageContext(model: model, translator: catalogues.translator(for: locale), assets: assets, pageTitle: title)
        var response = Response.html(templates.render(template, context), status: status)
        // Pages carry health data: never kept by a shared cache or the browser's history cache.
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    func errorPage(_ status: Status, locale: AppLocale) -> Response {
        let t = catalogues.translator(for: locale)
        let known = [400, 403, 404, 405, 413, 500].contains(status.code) ? status.code : 500
        let page = ErrorPage(code: status.code, message: t["error_\(known)_message"])
        return renderPage("errors/error", title: t["error_\(known)_title"], page, locale: locale, status: status)
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
