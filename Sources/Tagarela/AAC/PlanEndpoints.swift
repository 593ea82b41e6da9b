import HTTPServer

/// Every route of PlanRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`PlanEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum PlanEndpoints {
    static let list = Endpoint<Int64>(.get, "/patients/:id/plans", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let newPlan = Endpoint<Int64>(.get, "/patients/:id/plans/new", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let create = Endpoint<Int64>(.post, "/patients/:id/plans", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// Gives the patient a copy of the starter core board set (`StarterSet`) in the language the form names.
    static let assignStarter = Endpoint<Int64>(.post, "/patients/:id/boards/starter", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let editor = Endpoint<Int64>(.get, "/plans/:plan/edit", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let setCell = Endpoint<Int64, Int>(.post, "/plans/:plan/cells/:position", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// A library picture made into a symbol of the patient and put in the cell (a folder cell keeps its board).
    static let cellPicture = Endpoint<Int64, Int>(.post, "/plans/:plan/cells/:position/picture", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let printView = Endpoint<Int64>(.get, "/plans/:plan/print", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let book = Endpoint<Int64>(.get, "/patients/:id/book", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let pictogram = Endpoint<String>(.get, "/pictograms/:file", .signedIn(Set(Role.allCases)))
    static let audio = Endpoint<String>(.get, "/media/audio/:file", .signedIn(Set(Role.allCases)))
    static let image = Endpoint<String>(.get, "/media/images/:file", .signedIn(Set(Role.allCases)))
}
