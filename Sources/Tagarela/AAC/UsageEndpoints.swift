import HTTPServer

/// Every route of UsageRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`UsageEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum UsageEndpoints {
    static let usage = Endpoint<Int64>(.get, "/patients/:id/usage", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let usageCSV = Endpoint<Int64>(.get, "/patients/:id/usage.csv", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let observations = Endpoint<Int64>(.get, "/patients/:id/observations", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let addObservation = Endpoint<Int64>(.post, "/patients/:id/observations", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let printObservations = Endpoint<Int64>(.get, "/patients/:id/observations/print", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
}
