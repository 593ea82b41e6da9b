import HTTPServer

/// Every route of PrivacyRoutes: a patient's (or their tutor's) view and download of what Tagarela
/// holds about them and their request to erase it, and the administrator's decision on such requests.
/// Never in patient mode: these rights are the adult's to use, not a child's holding the tablet.
enum PrivacyEndpoints {
    static let show = Endpoint<Int64>(.get, "/patients/:id/privacy", .ownAccount([.patient, .tutor]))
    static let download = Endpoint<Int64>(.get, "/patients/:id/privacy/archive.zip", .ownAccount([.patient, .tutor]))
    static let requestErasure = Endpoint<Int64>(.post, "/patients/:id/privacy/erasure", .ownAccount([.patient, .tutor]))
    static let withdrawErasure = Endpoint<Int64>(.post, "/patients/:id/privacy/erasure/withdraw", .ownAccount([.patient, .tutor]))
    static let erasures = Endpoint< >(.get, "/admin/erasures", .ownAccount([.admin]))
    static let erase = Endpoint<Int64>(.post, "/admin/erasures/:request/erase", .ownAccount([.admin]))
    static let decline = Endpoint<Int64>(.post, "/admin/erasures/:request/decline", .ownAccount([.admin]))
}
