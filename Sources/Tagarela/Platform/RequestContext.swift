import Foundation
import GRDB
import HTTPServer
import Synchronization
import Mustache

/// The CSRF token of a request: the session's or the anonymous cookie's, or a new one made only
/// when a page actually needs it (so `/healthz` and static-like answers never pay for randomness).
final class CSRFToken: Sendable {
    private let existing: String?
    private let generated = Mutex<String?>(nil)

    init(existing: String?) { self.existing = existing }

    var value: String {
        if let existing { return existing }
        return generated.withLock { token in
            if let token { return token }
            let fresh = Token.make()
            token = fresh
            return fresh
        }
    }

    /// A token made during this request, which the response must store in the anonymous cookie.
    var newToken: String? { existing == nil ? generated.withLock { $0 } : nil }
}

/// What a handler gets: the request, who makes it, the database, and the request's language.
/// Handlers read the clock and the database only through here.
public struct RequestContext: Sendable {
    public let request: Request
    /// Private: feature code reaches the app only through the accessors below, never its pool.
    private let app: App
    let signedIn: SignedIn?
    let actor: Actor?
    public let locale: AppLocale
    let csrf: CSRFToken
    /// `caches.pages`' generation when this request began, before it read anything.
    let cacheGeneration: UInt64
    /// Whether this request's refusal was audited already (see `App.recordingRefusal`).
    let refusalRecord = RefusalRecord()
    /// The token every form of this page carries; the session's, or an anonymous one kept in a cookie.
    var csrfToken: String { csrf.value }

    init(request: Request, app: App, signedIn: SignedIn?, actor: Actor?, locale: AppLocale, csrf: CSRFToken,
         cacheGeneration: UInt64) {
        self.request = request
        self.app = app
        self.signedIn = signedIn
        self.actor = actor
        self.locale = locale
        self.csrf = csrf
        self.cacheGeneration = cacheGeneration
    }
    var t: Translator { app.catalogues.translator(for: locale) }

    // What handlers may use of the app. Never the pool: a handler's one access is opened for it.
    var configuration: AppConfiguration { app.configuration }
    var media: MediaStore { app.media }
    var speech: SpeechAudio { app.speech }
    var backgroundClips: BackgroundClips { app.backgroundClips }
    var pictograms: PictogramLibrary { app.pictograms }
    /// What is kept in memory between requests (rendered grids and rows, sessions and pages).
    var caches: Caches { app.caches }
    var assets: Assets { app.assets }
    var passwords: PasswordHasher { app.passwords }
    var breachedPasswords: BreachedPasswords { app.breachedPasswords }
    var loginThrottle: LoginThrottle { app.loginThrottle }
    /// Verified against when a username is unknown, so both failures take the same time.
    var decoyHash: String { app.decoyHash }

    /// A template without the layout, as a string, rendered now: only in a step that holds no
    /// transaction (a `Finish`, the `then` of a write); `Templates.render` stops the process inside
    /// one. A handler inside its access returns a `piece` instead.
    func renderFragmentHTML(_ template: String, _ model: some PageModel) -> String {
        app.renderFragmentHTML(template, model, locale: locale)
    }
    /// A small piece rendered many times a page (a usage row) whose template names only its model's own
    /// fields: rendered with the model alone as its context, without the page's around it, whose making
    /// and climbing were about a fifth of each row (docs/decisions/README.md). A name the model does not answer
    /// prints nothing here, where the page's context might have answered it: keep such pieces to their
    /// own fields. Rendered now, so only where no access is open, as `renderFragmentHTML`.
    func renderPieceHTML(_ template: String, _ model: some MustacheParent & Sendable) -> String {
        app.templates.render(template, model, in: locale)
    }
    /// A piece of a page, as `renderPieceHTML` renders it, but rendered with the page: after the
    /// request's database access, when the page's template prints its `{{{html}}}`. With its model as
    /// its only context, a piece prints nothing but its template, its language and its model: it is
    /// kept in `caches.pieces` under those three, so one shown again is not rendered again.
    func piece(_ template: String, _ model: some PageModel & Hashable) -> Piece {
        let templates = app.templates, pieces = app.caches.pieces, locale = locale
        return Piece {
            pieces.value(for: PieceKey(template: template, locale: locale.rawValue, model: model)) {
                templates.render(template, (try? MustacheEncoder.tree(of: model)) ?? MustacheText(""), in: locale)
            }
        }
    }
    /// `renderPieceHTML`, rendered with the page: the model alone as its context, kept by the page only
    /// (a line's food options, printed again by the lines that chose the same food).
    func piece(alone template: String, _ model: some MustacheParent & Sendable) -> Piece {
        let templates = app.templates, locale = locale
        return Piece { templates.render(template, model, in: locale) }
    }
    /// A piece kept in `cache` under `key`, which must name everything it shows: rendered with the page
    /// (as `renderFragmentHTML` renders it) only when `cache` does not hold it, and its model built only then.
    func piece<Model: PageModel>(kept key: String, in cache: FragmentCache, _ template: String,
                                 _ model: @escaping @Sendable () -> Model) -> Piece {
        let app = app, locale = locale
        return Piece { cache.value(for: key) { app.renderFragmentHTML(template, model(), locale: locale) } }
    }
    /// As `piece(kept:in:_:_:)`, the model alone as its context (`renderPieceHTML`).
    func piece<Model: MustacheParent & Sendable>(kept key: String, in cache: FragmentCache, alone template: String,
                                                 _ model: @escaping @Sendable () -> Model) -> Piece {
        let templates = app.templates, locale = locale
        return Piece { cache.value(for: key) { templates.render(template, model(), in: locale) } }
    }
    /// The clinic's date today, `YYYY-MM-DD` in its time zone (not the server's).
    var today: String { ISODate.string(now, timeZone: app.configuration.timeZone) }
    /// The clinic's date and time now (its time zone, not the server's), the time as `HH:MM`.
    var clinicNow: (date: String, time: String) {
        let zone = app.configuration.timeZone, now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        return (ISODate.string(now, timeZone: zone), String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0))
    }
    /// The week the request asks for (`?week=`, or an old bookmark's `from`/`to`), as its Monday; this week's by default.
    var monday: String {
        let query = request.query
        return NutritionWeek.requested(week: query["week"], from: query["from"], to: query["to"], today: today)
    }
    var format: LocalizedFormat { LocalizedFormat(locale: locale, timeZone: app.configuration.timeZone) }
    var now: Date { app.clock() }

    /// The address to throttle and audit: the proxy's `X-Real-IP` when configured to trust it.
    var clientAddress: String {
        if app.configuration.trustProxyHeaders, let real = request.headers["X-Real-IP"], !real.isEmpty { return real }
        return request.clientAddress
    }

    func parameter(_ name: String) -> String? { request.pathParameters[name] }
    func id(_ name: String) -> Int64? { parameter(name).flatMap { Int64($0) } }

    /// The signed-in actor; routes guarded by `.signedIn` always have one.
    func requireActor() throws -> Actor {
        guard let actor else { throw AppError.forbidden }
        return actor
    }

    var audit: AuditContext {
        AuditContext(actorId: actor?.supervisorId ?? actor?.userId, actorName: signedIn?.user.displayName ?? "—",
                     clientAddress: clientAddress, now: now)
    }

    /// A signed-in page kept whole in `caches.pages` under `key`, which must name everything the page
    /// shows beyond the session and the cached tables (see `ReadCache.trackedTables`). A page with a
    /// flash message, or that is not a 200, is built and never stored.
    func cachedPage(_ key: String, build: () throws -> Response) rethrows -> Response {
        guard let token = request.cookies[SessionStore.cookieName], signedIn != nil,
              request.cookies[App.flashCookie] == nil else { return try build() }
        let fullKey = "\(token) \(key)"
        if let page = app.caches.pages.page(for: fullKey) { return page }
        let page = try build()
        if page.status == .ok, page.deferred == nil { app.caches.pages.store(page: page, for: fullKey, generation: cacheGeneration) }
        return page
    }
}

/// Set once when a request's refusal is written to the audit log, even when handlers nest runs.
final class RefusalRecord: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// True the first time only.
    func claim() -> Bool { !claimed.exchange(true, ordering: .relaxed) }
}
