import Foundation
import GRDB
import HTTPServer

/// The pages a node answers itself, before any tenant's `App` is asked: a host it does not serve, and a
/// write sent to a read-only replica. The stylesheet and nothing of any tenant is read to make them; the
/// language is the browser's (its language cookie, then Accept-Language).
struct TenantPages: Sendable {
    let templates: Templates
    let catalogues: Catalogues
    let staticFiles: StaticFiles
    let assets: Assets

    struct NotServed: Sendable {
        let code: Int
        let host: String
        let message: String
        let hint: String
    }

    struct ReadOnly: Sendable {
        let code: Int
        let primaryLink: String
    }

    static func load(_ configuration: AppConfiguration) async throws -> TenantPages {
        let catalogues = try Catalogues(directory: configuration.templatesDirectory + "/i18n")
        let staticFiles = try StaticFiles(root: configuration.publicDirectory)
        let assets = Assets(staticFiles)
        let templates = try await Templates.load(
            from: configuration.templatesDirectory, required: ["tenants/not-served", "tenants/read-only"], catalogues: catalogues,
            constants: assets.templateConstants.merging(PageChrome.Links.templateConstants) { $1 })
        return TenantPages(templates: templates, catalogues: catalogues, staticFiles: staticFiles, assets: assets)
    }

    /// A host this node does not serve: the page says which address was asked for, and has no link (each
    /// would lead back here).
    func notServed(_ request: Request) -> Response {
        if let file = staticFiles.response(for: request) { return App.withSecurityHeaders(file) }
        let (locale, t) = language(of: request)
        let host = Tenant.normalizedHost(request.headers["Host"] ?? "")
        let model = NotServed(code: 404, host: host, message: t["tenants_not_served_message"], hint: t["tenants_not_served_hint"])
        let page = PageContext(model: model, translator: t, assets: assets, pageTitle: t["tenants_not_served_title"], chrome: PageChrome())
        return finished(Response.html(templates.render("tenants/not-served", page, in: locale), status: .notFound))
    }

    /// A page that writes, asked of a read-only replica: refused (403, nothing written) with a link to the
    /// same page on the primary (`ReadOnlyReplica.primaryLink`).
    func readOnly(_ request: Request, primary: String) -> Response {
        let (locale, t) = language(of: request)
        let model = ReadOnly(code: 403, primaryLink: ReadOnlyReplica.primaryLink(for: request, primary: primary))
        let page = PageContext(model: model, translator: t, assets: assets, pageTitle: t["tenants_read_only_title"], chrome: PageChrome())
        return finished(Response.html(templates.render("tenants/read-only", page, in: locale), status: .forbidden))
    }

    private func language(of request: Request) -> (AppLocale, Translator) {
        let locale = AppLocale.negotiate(userSetting: request.cookies[App.languageCookie].flatMap(AppLocale.init(rawValue:)),
                                         acceptLanguage: request.headers["Accept-Language"])
        return (locale, catalogues.translator(for: locale))
    }

    private func finished(_ response: Response) -> Response {
        var response = response
        response.headers["Cache-Control"] = "no-store"
        return App.withSecurityHeaders(response)
    }
}

/// A tenant served read-only from its replica: the rules of what is refused there. Pure.
enum ReadOnlyReplica {
    /// Whether the request would write: every POST (a login, a tap, a form) and any other request whose
    /// route writes. Reads go to the replica's `App`, which opened its database read-only.
    static func writes(_ request: Request, _ app: App) -> Bool {
        request.method != .get && request.method != .head || app.waitsForWriter(request)
    }

    /// Where the refusal page sends the person: the page they were on (a form's page, from Referer, when it
    /// is a page of this same site), else the page asked for when it was a GET, else the primary's home.
    static func primaryLink(for request: Request, primary: String) -> String {
        var path = request.method == .get ? request.path : SiteEndpoints.home.path()
        if request.method != .get, let referer = request.headers["Referer"].flatMap(URL.init(string:)),
           Tenant.normalizedHost(referer.host ?? "") == Tenant.normalizedHost(request.headers["Host"] ?? ""),
           referer.path.hasPrefix(SiteEndpoints.home.path()) {
            path = referer.path + (referer.query.map { "?" + $0 } ?? "")
        }
        return primary + path
    }

    /// Whether a write failed because the database is a read-only replica's (a session's touch, which a
    /// replica keeps in memory instead).
    static func refusedWrite(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
    }
}
