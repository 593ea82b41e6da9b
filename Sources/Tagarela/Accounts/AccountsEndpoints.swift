import HTTPServer

/// Every route of AccountsRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`AccountsEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum AccountsEndpoints {
    static let showLogin = Endpoint< >(.get, "/login", .anyone)
    static let logIn = Endpoint< >(.post, "/login", .anyone)
    /// In patient mode only the adult's password ends the session (`exitPatientMode`).
    static let logOut = Endpoint< >(.post, "/logout", .ownAccount(Set(Role.allCases)))
    static let goHome = Endpoint< >(.get, "/home", .signedIn(Set(Role.allCases)))
    static let showInvitation = Endpoint<String>(.get, "/invitations/:token", .anyone)
    static let acceptInvitation = Endpoint<String>(.post, "/invitations/:token", .anyone)
    static let showAccount = Endpoint< >(.get, "/account", .ownAccount([.admin, .clinician, .trainer, .tutor, .patient]))
    static let changeLanguage = Endpoint< >(.post, "/account/language", .ownAccount([.admin, .clinician, .trainer, .tutor, .patient]))
    static let changePassword = Endpoint< >(.post, "/account/password", .ownAccount([.admin, .clinician, .trainer, .tutor, .patient]))
    static let logOutEverywhere = Endpoint< >(.post, "/account/sessions/end", .ownAccount([.admin, .clinician, .trainer, .tutor, .patient]))
    static let openPatientMode = Endpoint<Int64>(.post, "/patients/:id/patient-mode", .signedIn([.tutor, .clinician]))
    static let showPatientModeExit = Endpoint< >(.get, "/patient-mode/exit", .inPatientMode)
    static let exitPatientMode = Endpoint< >(.post, "/patient-mode/exit", .inPatientMode)
    static let switchModeling = Endpoint< >(.post, "/patient-mode/modeling", .inPatientMode)
    /// The adult says whether the child is tapping alone (taps carry no helper) or with their help.
    static let switchAlone = Endpoint< >(.post, "/patient-mode/alone", .inPatientMode)
}
