import Foundation
import HTTPServer

/// What a page's model is: plain stored properties that the template reads by name. `Encodable` lets
/// the renderer read them without reflection (see `MustacheEncoder`).
typealias PageModel = Encodable & Sendable

/// What a handler answers: a page still to be rendered, or a response that is ready. A handler never
/// renders: the dispatcher does, after the request's database access has ended, so that no template
/// work holds a transaction (the single writer above all).
struct Reply: Sendable {
    enum Content: Sendable {
        /// `template` inside the layout; `title` is a catalogue key.
        case page(template: String, title: String, model: any PageModel, status: Status)
        /// A template without the layout, for scripts that replace part of a page.
        case fragment(template: String, model: any PageModel)
        /// See Other, showing `flash` (a catalogue key) on the next page (Post/Redirect/Get).
        case redirect(to: String, flash: String?)
        case ready(Response)
    }

    var content: Content
    /// Added to the response once it is made (`Retry-After`, `Content-Disposition`…).
    var headers = Headers()
    private(set) var cookies: [SetCookie] = []

    init(_ content: Content) { self.content = content }

    /// A response made by hand (a file, JSON, an error page already rendered).
    init(_ response: Response) { content = .ready(response) }

    static func page(_ template: String, title: String, _ model: some PageModel, status: Status = .ok) -> Reply {
        Reply(.page(template: template, title: title, model: model, status: status))
    }

    static func fragment(_ template: String, _ model: some PageModel) -> Reply {
        Reply(.fragment(template: template, model: model))
    }

    static func redirect(to path: String, flash: String? = nil) -> Reply {
        Reply(.redirect(to: path, flash: flash))
    }

    static func text(_ text: String, status: Status = .ok) -> Reply { Reply(Response.text(text, status: status)) }

    static func status(_ status: Status) -> Reply { Reply(Response(status: status)) }

    mutating func setCookie(_ cookie: SetCookie) { cookies.append(cookie) }

    /// The status the response will have, known before it is rendered.
    var status: Status {
        switch content {
        case .page(_, _, _, let status): status
        case .fragment: .ok
        case .redirect: .seeOther
        case .ready(let response): response.status
        }
    }
}
