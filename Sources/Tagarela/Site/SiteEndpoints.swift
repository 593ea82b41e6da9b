import HTTPServer

/// The public pages' routes, declared once: method, path and who may call them. Links print their
/// URLs from here (`SiteEndpoints.about.path()`), so a link cannot name a route that is not there.
enum SiteEndpoints {
    static let home = Endpoint< >(.get, "/", .anyone)
    static let about = Endpoint< >(.get, "/about", .anyone)
    /// What a patient's tablet shows, from its kept copy, for a page that needs the network (`Public/sw.js`).
    static let offline = Endpoint< >(.get, "/offline", .anyone)
    /// For load balancers and benchmarks; answered before any page (see `App.immediateResponse`).
    static let health = Endpoint< >(.get, "/healthz", .anyone)
}
