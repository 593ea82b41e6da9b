import Foundation
import GRDB
import HTTPServer

/// What a handler gets: the request, the database, and the request's language.
/// Handlers read the clock and the database only through here.
public struct RequestContext: Sendable {
    public let request: Request
    let app: App
    public let locale: AppLocale

    var database: DatabasePool { app.database }
    var t: Translator { app.catalogues.translator(for: locale) }
    var format: LocalizedFormat { LocalizedFormat(locale: locale, timeZone: app.configuration.timeZone) }
    var now: Date { app.clock() }

    func parameter(_ name: String) -> String? { request.pathParameters[name] }

    /// Renders `template` inside the layout; `title` is a catalogue key.
    func render(_ template: String, title: String, _ model: some Sendable, status: Status = .ok) -> Response {
        app.renderPage(template, title: t[title], model, locale: locale, status: status)
    }
}
