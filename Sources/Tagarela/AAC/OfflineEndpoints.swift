import HTTPServer

/// Every route of OfflineRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`OfflineEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum OfflineEndpoints {
    static let boards = Endpoint< >(.get, "/play/offline", .signedIn([.patient]))
    static let manifest = Endpoint< >(.get, "/manifest.webmanifest", .anyone)
}
