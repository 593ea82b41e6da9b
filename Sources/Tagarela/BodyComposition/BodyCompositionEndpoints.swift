import HTTPServer

/// Every route of BodyCompositionRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`BodyCompositionEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum BodyCompositionEndpoints {
    static let showClient = Endpoint<Int64>(.get, "/clients/:id", .signedIn([.trainer]))
    static let newEvaluation = Endpoint<Int64>(.get, "/clients/:id/evaluations/new", .signedIn([.trainer]))
    static let previewEvaluation = Endpoint<Int64>(.post, "/clients/:id/evaluations/preview", .signedIn([.trainer]))
    static let createEvaluation = Endpoint<Int64>(.post, "/clients/:id/evaluations", .signedIn([.trainer]))
    static let showEvaluation = Endpoint<Int64, Int64>(.get, "/clients/:id/evaluations/:evaluation", .signedIn([.trainer]))
    static let editEvaluation = Endpoint<Int64, Int64>(.get, "/clients/:id/evaluations/:evaluation/edit", .signedIn([.trainer]))
    static let updateEvaluation = Endpoint<Int64, Int64>(.post, "/clients/:id/evaluations/:evaluation", .signedIn([.trainer]))
    static let confirmDeleteEvaluation = Endpoint<Int64, Int64>(.get, "/clients/:id/evaluations/:evaluation/delete", .signedIn([.trainer]))
    static let deleteEvaluation = Endpoint<Int64, Int64>(.post, "/clients/:id/evaluations/:evaluation/delete", .signedIn([.trainer]))
    static let compare = Endpoint<Int64>(.get, "/clients/:id/compare", .signedIn([.trainer]))
}
