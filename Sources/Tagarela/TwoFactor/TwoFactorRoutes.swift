import Foundation
import GRDB
import HTTPServer

/// A second factor for staff (TOTP, RFC 6238), required or optional per role by the administrator.
enum TwoFactorRoutes: Feature {
    static let templates = ["twofactor/code", "twofactor/setup", "twofactor/policy"]
    static let challengeCookie = "tagarela_login_code"

    static func add(to router: inout Router<Route>) {
        router.add(TwoFactorEndpoints.showCode) { $0.reply(showCode) }
        router.add(TwoFactorEndpoints.checkCode) { $0.write(checkCode) }
        router.add(TwoFactorEndpoints.show) { $0.read(show) }
        router.add(TwoFactorEndpoints.begin) { $0.write(begin) }
        router.add(TwoFactorEndpoints.confirm) { $0.write(confirm) }
        router.add(TwoFactorEndpoints.disable) { $0.write(disable) }
        router.add(TwoFactorEndpoints.policy) { $0.read(policy) }
        router.add(TwoFactorEndpoints.setPolicy) { $0.write(setPolicy) }
    }

    // MARK: - The login's second step

    /// The password was right and the account has a factor: no session yet, a challenge and its cookie.
    static func askForCode(_ user: User, next: String?, _ context: RequestContext, _ db: Database) throws -> Reply {
        let token = try TwoFactorStore.challenge(for: user.id!, next: next, now: context.now, db)
        var reply = Reply.redirect(to: TwoFactorEndpoints.showCode.path())
        reply.setCookie(SetCookie(name: challengeCookie, value: token, maxAgeSeconds: Int(TwoFactorStore.challengeLifetime),
                                  secure: context.configuration.secureCookies, sameSite: .strict))
        return reply
    }

    @Sendable static func showCode(_ context: RequestContext) -> Reply {
        guard context.request.cookies[challengeCookie] != nil else { return .redirect(to: AccountsEndpoints.showLogin.path()) }
        return .page("twofactor/code", title: "twofactor_code_title", CodePage(form: FormState()))
    }

    /// A right code starts the session the password began; a wrong one counts against the account like a
    /// wrong password (`LoginThrottle`), so the six digits cannot be guessed.
    @Sendable static func checkCode(_ context: RequestContext, _ db: Database) throws -> Reply {
        guard let token = context.request.cookies[challengeCookie],
              let (user, next) = try TwoFactorStore.pending(token, now: context.now, db) else {
            return .redirect(to: AccountsEndpoints.showLogin.path(), flash: "twofactor_expired")
        }
        let username = user.username ?? ""
        let admission = context.loginThrottle.admit(username: username, address: context.clientAddress, now: context.now)
        let keys = LoginThrottle.keys(username: username, address: context.clientAddress).all
        var form = FormState()
        if admission.wait > 0 {
            form.fail("code", context.t("login_throttled", ["minutes": "\(Int((admission.wait / 60).rounded(.up)))"]))
            var reply = Reply.page("twofactor/code", title: "twofactor_code_title", CodePage(form: form), status: .tooManyRequests)
            reply.headers["Retry-After"] = "\(Int(admission.wait.rounded(.up)))"
            return reply
        }
        guard try TwoFactorStore.verify(user.id!, code: context.request.form["code"] ?? "", at: context.now, db) else {
            let stranger = AuditContext(actorId: nil, actorName: "—", clientAddress: context.clientAddress, now: context.now)
            try Logins.recordFailure(username: username + " (code)", account: user.id, admission: admission, audit: stranger, db)
            try LoginFailures.keep(context.loginThrottle, keys: keys, now: context.now, db)
            form.fail("code", context.t["twofactor_code_wrong"])
            return .page("twofactor/code", title: "twofactor_code_title", CodePage(form: form), status: .unprocessableContent)
        }
        context.loginThrottle.recordSuccess(username: username, address: context.clientAddress)
        try LoginFailures.keep(context.loginThrottle, keys: keys, now: context.now, db)
        try TwoFactorStore.endChallenge(token, db)
        let own = AuditContext(actorId: user.id, actorName: user.displayName, clientAddress: context.clientAddress, now: context.now)
        let session = try Logins.start(user, rehash: nil, replacing: context.request.cookies[SessionStore.cookieName],
                                       policy: context.configuration.sessions, audit: own, db)
        var reply = Reply.redirect(to: AccountsRoutes.safeNext(next) ?? user.role.homePath)
        reply.setCookie(AccountsRoutes.sessionCookie(session, context))
        reply.setCookie(.expired(challengeCookie, secure: context.configuration.secureCookies))
        return reply
    }

    // MARK: - One's own factor

    @Sendable static func show(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try AccountsRoutes.ownAccount(context)
        return try setupPage(user, form: FormState(), context, db)
    }

    static func setupPage(_ user: User, form: FormState, recoveryCodes: [String] = [], status: Status = .ok, _ context: RequestContext,
                          _ db: Database) throws -> Reply {
        let state = try TwoFactorStore.state(of: user.id!, db)
        let required = try TwoFactorStore.requiredRoles(db).contains(user.role)
        return .page("twofactor/setup", title: "twofactor_title",
                     SetupPage(user: user, state: state, required: required, recoveryCodes: recoveryCodes, form: form, context: context),
                     status: status)
    }

    @Sendable static func begin(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try AccountsRoutes.ownAccount(context)
        try TwoFactorStore.begin(user.id!, audit: context.audit, db)
        return .redirect(to: TwoFactorEndpoints.show.path())
    }

    /// The first code confirms the setup; the page then shows the recovery codes, once.
    @Sendable static func confirm(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try AccountsRoutes.ownAccount(context)
        guard let codes = try TwoFactorStore.confirm(user.id!, code: context.request.form["code"] ?? "", audit: context.audit, db) else {
            var form = FormState()
            form.fail("code", context.t["twofactor_code_wrong"])
            return try setupPage(user, form: form, status: .unprocessableContent, context, db)
        }
        return try setupPage(user, form: FormState(), recoveryCodes: codes, context, db)
    }

    @Sendable static func disable(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try AccountsRoutes.ownAccount(context)
        var form = FormState()
        if try TwoFactorStore.requiredRoles(db).contains(user.role) {
            form.fail("disableCode", context.t["twofactor_required_cannot_disable"])
            return try setupPage(user, form: form, status: .conflict, context, db)
        }
        guard try TwoFactorStore.disable(user.id!, code: context.request.form["code"] ?? "", audit: context.audit, db) else {
            form.fail("disableCode", context.t["twofactor_code_wrong"])
            return try setupPage(user, form: form, status: .unprocessableContent, context, db)
        }
        return .redirect(to: TwoFactorEndpoints.show.path(), flash: "twofactor_disabled")
    }

    // MARK: - The administrator's choice

    @Sendable static func policy(_ context: RequestContext, _ db: Database) throws -> Reply {
        .page("twofactor/policy", title: "twofactor_policy_title", PolicyPage(required: try TwoFactorStore.requiredRoles(db), context: context))
    }

    @Sendable static func setPolicy(_ context: RequestContext, _ db: Database) throws -> Reply {
        let chosen = Set(TwoFactorStore.staffRoles.filter { context.request.form["role_\($0.rawValue)"] == "on" })
        try TwoFactorStore.setRequired(chosen, audit: context.audit, db)
        return .redirect(to: TwoFactorEndpoints.policy.path(), flash: "twofactor_policy_saved")
    }
}
