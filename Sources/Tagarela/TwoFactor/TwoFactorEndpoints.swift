import HTTPServer

/// Every route of TwoFactorRoutes: the login's second step, a staff member's own setup, and the
/// administrator's choice of which staff roles must use one.
enum TwoFactorEndpoints {
    /// After a right password, for an account with a second factor: the code, or a recovery code.
    static let showCode = Endpoint< >(.get, "/login/code", .anyone)
    static let checkCode = Endpoint< >(.post, "/login/code", .anyone)
    static let show = Endpoint< >(.get, "/account/two-factor", .ownAccount([.admin, .clinician, .trainer]))
    static let begin = Endpoint< >(.post, "/account/two-factor/start", .ownAccount([.admin, .clinician, .trainer]))
    static let confirm = Endpoint< >(.post, "/account/two-factor", .ownAccount([.admin, .clinician, .trainer]))
    static let disable = Endpoint< >(.post, "/account/two-factor/disable", .ownAccount([.admin, .clinician, .trainer]))
    static let policy = Endpoint< >(.get, "/admin/two-factor", .signedIn([.admin]))
    static let setPolicy = Endpoint< >(.post, "/admin/two-factor", .signedIn([.admin]))

    /// What a session that must set up its factor may still reach.
    static let whileEnrolling: Set<String> = [show.path(), begin.path(), confirm.path(), AccountsEndpoints.logOut.path()]
}
