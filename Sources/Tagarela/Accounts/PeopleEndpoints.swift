import HTTPServer

/// Every route of PeopleRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`PeopleEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum PeopleEndpoints {
    static let newPatient = Endpoint< >(.get, "/patients/new", .signedIn([.clinician]))
    static let createPatient = Endpoint< >(.post, "/patients", .signedIn([.clinician]))
    static let showPatient = Endpoint<Int64>(.get, "/patients/:id", .signedIn([.clinician, .tutor]))
    static let editPatient = Endpoint<Int64>(.get, "/patients/:id/edit", .signedIn([.clinician]))
    static let showPhoto = Endpoint<Int64>(.get, "/patients/:id/photo", .signedIn([.clinician, .tutor, .trainer, .patient]))
    static let updatePatient = Endpoint<Int64>(.post, "/patients/:id", .signedIn([.clinician]))
    static let addTutor = Endpoint<Int64>(.post, "/patients/:id/tutors", .signedIn([.clinician]))
    static let unlinkTutor = Endpoint<Int64, Int64>(.post, "/patients/:id/tutors/:tutor/unlink", .signedIn([.clinician]))
    static let invite = Endpoint<Int64>(.post, "/people/:id/invitation", .signedIn([.clinician, .admin]))
    static let askPatient = Endpoint< >(.post, "/link-requests", .signedIn([.clinician]))
    /// Consent to a care link: its owner's, never given from patient mode.
    static let acceptLink = Endpoint<Int64>(.post, "/link-requests/:id/accept", .ownAccount([.tutor, .patient]))
    static let declineLink = Endpoint<Int64>(.post, "/link-requests/:id/decline", .ownAccount([.tutor, .patient]))
    static let newClient = Endpoint< >(.get, "/clients/new", .signedIn([.trainer]))
    static let createClient = Endpoint< >(.post, "/clients", .signedIn([.trainer]))
    static let editClient = Endpoint<Int64>(.get, "/clients/:id/edit", .signedIn([.trainer]))
    static let updateClient = Endpoint<Int64>(.post, "/clients/:id", .signedIn([.trainer]))
}
