import HTTPServer

/// Every route of OBFRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`OBFEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum OBFEndpoints {
    static let exportPackage = Endpoint<Int64>(.get, "/plans/:plan/export.obz", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let exportBoard = Endpoint<Int64>(.get, "/plans/:plan/export.obf", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let importForm = Endpoint<Int64>(.get, "/patients/:id/boards/import", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let importBoards = Endpoint<Int64>(.post, "/patients/:id/boards/import", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// How far the clinician's running import is (`?job=` the token of its form), as JSON.
    static let importProgress = Endpoint< >(.get, "/obf/import-progress", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// What an import brought in: counts, warnings, the set's root board.
    static let importResult = Endpoint<Int64>(.get, "/obf/imports/:import", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let usageLog = Endpoint<Int64>(.get, "/patients/:id/usage.obl", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
}
