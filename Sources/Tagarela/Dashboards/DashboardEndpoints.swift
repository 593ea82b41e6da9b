import HTTPServer

/// Every route of DashboardRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`DashboardEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum DashboardEndpoints {
    static let clinician = Endpoint< >(.get, "/clinician", .signedIn([.clinician]))
    static let tutor = Endpoint< >(.get, "/tutor", .signedIn([.tutor]))
    static let patient = Endpoint< >(.get, "/patient", .signedIn([.patient]))
    static let trainer = Endpoint< >(.get, "/trainer", .signedIn([.trainer]))
}
