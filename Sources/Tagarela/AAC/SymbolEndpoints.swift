import HTTPServer

/// Every route of SymbolRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`SymbolEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum SymbolEndpoints {
    static let list = Endpoint< >(.get, "/symbols", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let newSymbol = Endpoint< >(.get, "/symbols/new", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let create = Endpoint< >(.post, "/symbols", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let edit = Endpoint<Int64>(.get, "/symbols/:symbol/edit", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let update = Endpoint<Int64>(.post, "/symbols/:symbol", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// The symbol's word forms, corrected by the clinician (`SymbolFormsRoutes`).
    static let updateForms = Endpoint<Int64>(.post, "/symbols/:symbol/forms", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let createCategory = Endpoint< >(.post, "/categories", .signedIn([.clinician], clinicianSpecialty: .speech))
}
