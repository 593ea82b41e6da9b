import HTTPServer

/// Every route of TimerRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`TimerEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum TimerEndpoints {
    static let timer = Endpoint< >(.get, "/timer", .signedIn([.patient]))
}
