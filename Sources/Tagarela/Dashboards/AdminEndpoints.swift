import HTTPServer

/// Every route of AdminRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`AdminEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum AdminEndpoints {
    static let dashboard = Endpoint< >(.get, "/admin", .signedIn([.admin]))
    static let newStaff = Endpoint< >(.get, "/admin/staff/new", .signedIn([.admin]))
    static let createStaff = Endpoint< >(.post, "/admin/staff", .signedIn([.admin]))
    static let setActive = Endpoint<Int64>(.post, "/admin/staff/:id/activation", .signedIn([.admin]))
    static let auditLog = Endpoint< >(.get, "/admin/audit", .signedIn([.admin]))
    static let accounts = Endpoint< >(.get, "/admin/accounts", .signedIn([.admin]))
    static let resetPassword = Endpoint<Int64>(.post, "/admin/accounts/:id/password-reset", .signedIn([.admin]))
}
