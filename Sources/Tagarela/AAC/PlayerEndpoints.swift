import HTTPServer

/// Every route of PlayerRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`PlayerEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum PlayerEndpoints {
    static let list = Endpoint< >(.get, "/play", .signedIn([.patient]))
    static let play = Endpoint<Int64>(.get, "/play/:plan", .signedIn([.patient]))
    static let recordTap = Endpoint< >(.post, "/taps", .signedIn([.patient]))
}
