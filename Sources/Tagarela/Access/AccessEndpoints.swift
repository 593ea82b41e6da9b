import HTTPServer

/// Every route of AccessRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`AccessEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum AccessEndpoints {
    static let show = Endpoint<Int64>(.get, "/patients/:id/access", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let update = Endpoint<Int64>(.post, "/patients/:id/access", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
}
