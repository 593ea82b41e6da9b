import Foundation
import GRDB
import HTTPServer

/// Logging in and out, invitations, one's own account, and patient mode.
enum AccountsRoutes: Feature {
    static let templates = ["accounts/login", "accounts/invitation", "accounts/account", "accounts/patient-mode-exit"]

    static func add(to router: inout Router<Route>) {
        router.add(AccountsEndpoints.showLogin) { $0.reply(showLogin) }
        router.add(AccountsEndpoints.logIn) { $0.read(findLogin).slow(.passwordHashing, checkLogin).write(finishLogin) }
        router.add(AccountsEndpoints.logOut) { $0.write(logOut) }
        router.add(AccountsEndpoints.goHome) { $0.reply(goHome) }
        router.add(AccountsEndpoints.showInvitation) { $0.read(showInvitation) }
        router.add(AccountsEndpoints.acceptInvitation) {
            $0.read(findInvitation).slow(.passwordHashing, hashInvitationPassword).write(acceptInvitation)
        }
        router.add(AccountsEndpoints.showAccount) { $0.reply(showAccount) }
        router.add(AccountsEndpoints.changeLanguage) { $0.write(changeLanguage) }
        router.add(AccountsEndpoints.changePassword) { $0.slow(.passwordHashing, checkNewPassword).write(changePassword) }
        router.add(AccountsEndpoints.logOutEverywhere) { $0.write(logOutEverywhere) }
        router.add(AccountsEndpoints.openPatientMode) { $0.write(openPatientMode) }
        router.add(AccountsEndpoints.showPatientModeExit) { $0.reply(showPatientModeExit) }
        router.add(AccountsEndpoints.exitPatientMode) { $0.slow(.passwordHashing, checkAdultPassword).write(exitPatientMode) }
        router.add(AccountsEndpoints.switchModeling) { $0.write(switchModeling) }
        router.add(AccountsEndpoints.switchAlone) { $0.write(switchAlone) }
    }

    // MARK: - Login

    @Sendable static func showLogin(_ context: RequestContext) -> Reply {
        if let actor = context.actor { return .redirect(to: actor.role.homePath) }
        return .page("accounts/login", title: "login_title",
                     LoginPage(form: FormState(values: ["next": safeNext(context.request.query["next"]) ?? ""])))
    }

    /// What a login form sent, with the account it names (if any), before the password is checked.
    struct LoginAttempt: Sendable {
        /// As typed, without the password: what the page shows again on a failure.
        let form: FormState
        let username: String
        let password: String
        let admission: LoginThrottle.Admission
        let account: User?
    }

    enum LoginCheck: Sendable {
        case failed(LoginAttempt)
        /// `rehash`: the password hashed again when the stored hash uses weaker parameters.
        case passed(User, rehash: String?, next: String?)
    }

    /// A throttled attempt is answered at once; any other reads the account named.
    @Sendable static func findLogin(_ context: RequestContext, _ db: Database) throws -> Step<LoginAttempt> {
        var form = FormState(context.request.form, fields: ["username", "password", "next"])
        let username = form["username"].trimmingCharacters(in: .whitespaces)
        let password = form["password"]
        form.values["password"] = nil  // never sent back
        let admission = context.loginThrottle.admit(username: username, address: context.clientAddress, now: context.now)
        if admission.wait > 0 {
            form.fail("username", context.t("login_throttled", ["minutes": "\(Int((admission.wait / 60).rounded(.up)))"]))
            var reply = Reply.page("accounts/login", title: "login_title", LoginPage(form: form), status: .tooManyRequests)
            reply.headers["Retry-After"] = "\(Int(admission.wait.rounded(.up)))"
            return .reply(reply)
        }
        return .next(LoginAttempt(form: form, username: username, password: password, admission: admission,
                                  account: try User.named(username, db)))
    }

    /// On the hashing pool. An unknown username is checked against a decoy hash so that it costs the
    /// same time and gets the same answer as a wrong password.
    @Sendable static func checkLogin(_ context: RequestContext, _ attempt: LoginAttempt) -> Step<LoginCheck> {
        let usable = attempt.account.flatMap { $0.isActive && $0.passwordHash != nil ? $0 : nil }
        let verified = context.passwords.verify(attempt.password, against: usable?.passwordHash ?? context.decoyHash)
        guard verified, let user = usable, let hash = user.passwordHash else { return .next(.failed(attempt)) }
        context.loginThrottle.recordSuccess(username: attempt.username, address: context.clientAddress)
        let rehash = context.passwords.needsRehash(hash) ? context.passwords.hash(attempt.password) : nil
        return .next(.passed(user, rehash: rehash, next: attempt.form["next"]))
    }

    @Sendable static func finishLogin(_ context: RequestContext, _ db: Database, _ check: LoginCheck) throws -> Reply {
        switch check {
        case .failed(let attempt):
            let stranger = AuditContext(actorId: nil, actorName: "—", clientAddress: context.clientAddress, now: context.now)
            try Logins.recordFailure(username: attempt.username, account: attempt.account?.id, admission: attempt.admission,
                                     audit: stranger, db)
            try LoginFailures.keep(context.loginThrottle, keys: LoginThrottle.keys(username: attempt.username,
                                                                                  address: context.clientAddress).all,
                                   now: context.now, db)
            var form = attempt.form
            form.fail("username", context.t["login_failed"])
            return .page("accounts/login", title: "login_title", LoginPage(form: form), status: .unprocessableContent)
        case .passed(let user, let rehash, let next):
            try LoginFailures.keep(context.loginThrottle, keys: LoginThrottle.keys(username: user.username ?? "",
                                                                                  address: context.clientAddress).all,
                                   now: context.now, db)
            if try TwoFactorStore.isEnabled(user.id!, db) {
                try Logins.rehash(user, to: rehash, db)
                return try TwoFactorRoutes.askForCode(user, next: next, context, db)
            }
            let own = AuditContext(actorId: user.id, actorName: user.displayName, clientAddress: context.clientAddress, now: context.now)
            let token = try Logins.start(user, rehash: rehash, replacing: context.request.cookies[SessionStore.cookieName],
                                         policy: context.configuration.sessions, audit: own, db)
            // Staff whose role must use a second factor and have none set it up before anything else.
            let mustEnrol = try TwoFactorStore.requiredRoles(db).contains(user.role)
            if mustEnrol { try TwoFactorStore.mustEnrol(sessionToken: token, db) }
            var reply = Reply.redirect(to: mustEnrol ? TwoFactorEndpoints.show.path() : safeNext(next) ?? user.role.homePath)
            reply.setCookie(sessionCookie(token, context))
            return reply
        }
    }

    @Sendable static func logOut(_ context: RequestContext, _ db: Database) throws -> Reply {
        // In patient mode only the adult's password ends the session (see exitPatientMode).
        guard context.actor?.isPatientMode == false else { throw AppError.forbidden }
        if let token = context.request.cookies[SessionStore.cookieName] {
            try Logins.end(token: token, userId: context.signedIn?.user.id, audit: context.audit, db)
        }
        return signedOut(flash: "logged_out", context)
    }

    @Sendable static func goHome(_ context: RequestContext) throws -> Reply {
        .redirect(to: try context.requireActor().role.homePath)
    }

    // MARK: - Invitations

    @Sendable static func showInvitation(_ context: RequestContext, _ db: Database, _ token: String) throws -> Reply {
        invitationPage(try Invitation.find(token: token, at: context.now, db), token: token, form: FormState(), context)
    }

    struct ChosenPassword: Sendable {
        let token: String
        let password: String
        /// A username other than the one proposed, checked free; nil keeps the proposed one.
        let username: String?
    }

    struct HashedPassword: Sendable {
        let token: String
        let hash: String
        let username: String?
    }

    /// A link that no longer works, a username taken or a password the policy refuses is answered before any
    /// hashing. Only the holder of the link learns that a username is taken: it is theirs to choose.
    @Sendable static func findInvitation(_ context: RequestContext, _ db: Database, _ token: String) throws -> Step<ChosenPassword> {
        let lookup = try Invitation.find(token: token, at: context.now, db)
        guard case .valid(_, let user) = lookup else { return .reply(invitationPage(lookup, token: token, form: FormState(), context)) }
        let password = context.request.form["password"] ?? ""
        let typed = (context.request.form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        var form = FormState(values: ["username": typed])
        let changed = !typed.isEmpty && typed.lowercased() != user.username?.lowercased()
        if typed.isEmpty, user.username == nil {
            form.fail("username", context.t["error_username_invalid"])
        } else if changed, !Usernames.isValid(typed) {
            form.fail("username", context.t["error_username_invalid"])
        } else if changed, try !People.isUsernameFree(typed, except: user.id, db) {
            form.fail("username", context.t["error_username_taken"])
        }
        if let problem = PasswordPolicy.problem(with: password, confirmation: context.request.form["confirmation"] ?? "",
                                                username: changed ? typed : user.username, breached: context.breachedPasswords) {
            form.fail("password", context.t[problem.rawValue])
        }
        if form.hasErrors { return .reply(invitationPage(lookup, token: token, form: form, context, status: .unprocessableContent)) }
        return .next(ChosenPassword(token: token, password: password, username: changed ? typed : nil))
    }

    @Sendable static func hashInvitationPassword(_ context: RequestContext, _ chosen: ChosenPassword, _: String) -> Step<HashedPassword> {
        .next(HashedPassword(token: chosen.token, hash: context.passwords.hash(chosen.password), username: chosen.username))
    }

    @Sendable static func acceptInvitation(_ context: RequestContext, _ db: Database, _ chosen: HashedPassword, _: String) throws -> Reply {
        if let username = chosen.username, try !People.isUsernameFree(username, db) {
            // Taken between the check and now, by another tab or person.
            var form = FormState(values: ["username": username])
            form.fail("username", context.t["error_username_taken"])
            return invitationPage(try Invitation.find(token: chosen.token, at: context.now, db), token: chosen.token, form: form,
                                  context, status: .unprocessableContent)
        }
        guard let accepted = try Invitation.accept(token: chosen.token, passwordHash: chosen.hash, username: chosen.username,
                                                   at: context.now, clientAddress: context.clientAddress,
                                                   policy: context.configuration.sessions, db)
        else { return invitationPage(.used, token: chosen.token, form: FormState(), context) }
        var reply = Reply.redirect(to: accepted.user.role.homePath, flash: "password_set")
        reply.setCookie(sessionCookie(accepted.sessionToken, context))
        return reply
    }

    static func invitationPage(_ lookup: Invitation.Lookup, token: String, form: FormState, _ context: RequestContext,
                               status: Status = .ok) -> Reply {
        switch lookup {
        case .valid(_, let user):
            return .page("accounts/invitation", title: "invitation_title",
                         InvitationPage(name: user.displayName, username: form.values["username"] ?? user.username ?? "", form: form,
                                        problem: nil,
                                        acceptURL: AccountsEndpoints.acceptInvitation.path(token)), status: status)
        case .used, .expired, .unknown:
            let problem = switch lookup {
            case .used: "invitation_used"
            case .expired: "invitation_expired"
            default: "invitation_unknown"
            }
            return .page("accounts/invitation", title: "invitation_title",
                         InvitationPage(name: "", username: "", form: form, problem: context.t[problem], acceptURL: nil),
                         status: .gone)
        }
    }

    // MARK: - One's own account

    @Sendable static func showAccount(_ context: RequestContext) throws -> Reply {
        try accountPage(context, form: FormState())
    }

    /// Made from the session's account, read with the session: no database access of its own.
    static func accountPage(_ context: RequestContext, form: FormState, status: Status = .ok) throws -> Reply {
        let user = try ownAccount(context)
        let languages = AppLocale.allCases.map {
            AccountPage.Language(code: $0.rawValue, name: context.t["language_\($0.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                                 isSelected: user.appLocale == $0)
        }
        var page = AccountPage(name: user.displayName, username: user.username ?? "", role: context.t["role_\(user.role.rawValue)"],
                               languages: languages, usesBrowserLanguage: user.locale == nil, form: form)
        if user.role.isStaff { page.twoFactorURL = TwoFactorEndpoints.show.path() }
        return .page("accounts/account", title: "account_title", page, status: status)
    }

    /// The signed-in account, never in patient mode (a child does not change the adult's account).
    static func ownAccount(_ context: RequestContext) throws -> User {
        guard let user = context.signedIn?.user, context.actor?.isPatientMode == false else { throw AppError.forbidden }
        return user
    }

    @Sendable static func changeLanguage(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try ownAccount(context)
        let choice = context.request.form["locale"].flatMap(AppLocale.init(rawValue:))
        try OwnAccount.setLanguage(userId: user.id!, choice, at: context.now, db)
        return .redirect(to: AccountsEndpoints.showAccount.path(), flash: "language_changed")
    }

    /// On the hashing pool, holding no transaction: the new password against the policy, the current
    /// one against the account's hash (read with the session), then the new one hashed.
    /// What the password form's check decided: the new hash, or a wrong current password (counted by
    /// the login throttle like a wrong login, so the form cannot be used to guess it).
    enum PasswordCheck: Sendable {
        case changed(hash: String)
        case wrongCurrent(LoginThrottle.Admission)
    }

    @Sendable static func checkNewPassword(_ context: RequestContext) throws -> Step<PasswordCheck> {
        let user = try ownAccount(context)
        let password = context.request.form["password"] ?? ""
        var form = FormState()
        if let problem = PasswordPolicy.problem(with: password, confirmation: context.request.form["confirmation"] ?? "",
                                                username: user.username, breached: context.breachedPasswords) {
            form.fail("password", context.t[problem.rawValue])
            return .reply(try accountPage(context, form: form, status: .unprocessableContent))
        }
        let username = user.username ?? ""
        let admission = context.loginThrottle.admit(username: username, address: context.clientAddress, now: context.now)
        if admission.wait > 0 {
            form.fail("current", context.t("login_throttled", ["minutes": "\(Int((admission.wait / 60).rounded(.up)))"]))
            var reply = try accountPage(context, form: form, status: .tooManyRequests)
            reply.headers["Retry-After"] = "\(Int(admission.wait.rounded(.up)))"
            return .reply(reply)
        }
        guard let stored = user.passwordHash, context.passwords.verify(context.request.form["current"] ?? "", against: stored) else {
            return .next(.wrongCurrent(admission))
        }
        context.loginThrottle.recordSuccess(username: username, address: context.clientAddress)
        return .next(.changed(hash: context.passwords.hash(password)))
    }

    @Sendable static func changePassword(_ context: RequestContext, _ db: Database, _ check: PasswordCheck) throws -> Reply {
        let user = try ownAccount(context)
        try LoginFailures.keep(context.loginThrottle, keys: LoginThrottle.keys(username: user.username ?? "",
                                                                              address: context.clientAddress).all,
                               now: context.now, db)
        switch check {
        case .wrongCurrent(let admission):
            try Logins.recordFailure(username: user.username ?? "", account: user.id, admission: admission, audit: context.audit, db)
            var form = FormState()
            form.fail("current", context.t["password_current_wrong"])
            return try accountPage(context, form: form, status: .unprocessableContent)
        case .changed(let hash):
            try OwnAccount.changePassword(userId: user.id!, to: hash, keeping: context.signedIn?.session.id, audit: context.audit, db)
            return .redirect(to: AccountsEndpoints.showAccount.path(), flash: "password_changed")
        }
    }

    @Sendable static func logOutEverywhere(_ context: RequestContext, _ db: Database) throws -> Reply {
        let user = try ownAccount(context)
        try Logins.endEverywhere(userId: user.id!, audit: context.audit, db)
        return signedOut(flash: "logged_out_everywhere", context)
    }

    // MARK: - Patient mode

    @Sendable static func openPatientMode(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        guard let sessionId = context.signedIn?.session.id else { throw AppError.notFound }
        _ = try PatientScope.find(patientId, visibleTo: actor, db)
        guard try PatientScope.maySupervise(actor, patientId: patientId, db) else { throw AppError.forbidden }
        let plan = try PatientMode.open(sessionId: sessionId, patientId: patientId,
                                        plan: context.request.form["plan"].flatMap(Int64.init), audit: context.audit, db)
        // Opened from a plan: straight to that board, on the child's side.
        return .redirect(to: plan.map { PlayerEndpoints.play.path($0) } ?? Role.patient.homePath)
    }

    @Sendable static func showPatientModeExit(_ context: RequestContext) -> Reply {
        .page("accounts/patient-mode-exit", title: "patient_mode_exit_title",
              PatientModeExitPage(adultName: context.signedIn?.user.displayName ?? "", form: FormState()))
    }

    enum PatientModeExit: Sendable {
        case exit
        /// A wrong password that locks the exit for a while: the lockout is audited.
        case lockout
    }

    /// Only the adult's own password ends patient mode; the child needs to remember nothing. Wrong
    /// tries are limited per session (this tablet), never counted against the adult's logins.
    /// On the hashing pool, holding no transaction.
    @Sendable static func checkAdultPassword(_ context: RequestContext) throws -> Step<PatientModeExit> {
        guard let signedIn = context.signedIn, let sessionId = signedIn.session.id else { throw AppError.forbidden }
        let admission = context.loginThrottle.admitPatientModeExit(session: sessionId, now: context.now)
        if admission.wait == 0, let hash = signedIn.user.passwordHash,
           context.passwords.verify(context.request.form["password"] ?? "", against: hash) {
            context.loginThrottle.recordPatientModeExitSuccess(session: sessionId)
            return .next(.exit)
        }
        if admission.wait == 0, admission.locksAccount { return .next(.lockout) }
        var reply = wrongAdultPassword(throttled: admission.wait > 0, context)
        if admission.wait > 0 { reply.headers["Retry-After"] = "\(Int(admission.wait.rounded(.up)))" }
        return .reply(reply)
    }

    @Sendable static func exitPatientMode(_ context: RequestContext, _ db: Database, _ outcome: PatientModeExit) throws -> Reply {
        guard let signedIn = context.signedIn, let sessionId = signedIn.session.id else { throw AppError.forbidden }
        let patientId = signedIn.session.patientModeFor
        switch outcome {
        case .exit:
            try PatientMode.exit(sessionId: sessionId, patientId: patientId, audit: context.audit, db)
            return .redirect(to: signedIn.user.role.homePath)
        case .lockout:
            try PatientMode.recordExitLockout(patientId: patientId, audit: context.audit, db)
            return wrongAdultPassword(throttled: false, context)
        }
    }

    static func wrongAdultPassword(throttled: Bool, _ context: RequestContext) -> Reply {
        var form = FormState()
        form.fail("password", context.t[throttled ? "login_throttled_short" : "patient_mode_wrong_password"])
        return .page("accounts/patient-mode-exit", title: "patient_mode_exit_title",
                     PatientModeExitPage(adultName: context.signedIn?.user.displayName ?? "", form: form),
                     status: throttled ? .tooManyRequests : .unprocessableContent)
    }

    // MARK: - Helpers

    static func sessionCookie(_ token: String, _ context: RequestContext) -> SetCookie {
        SetCookie(name: SessionStore.cookieName, value: token, secure: context.configuration.secureCookies, sameSite: .lax)
    }

    /// To the login page, the session cookie gone.
    static func signedOut(flash: String, _ context: RequestContext) -> Reply {
        var reply = Reply.redirect(to: AccountsEndpoints.showLogin.path(), flash: flash)
        reply.setCookie(.expired(SessionStore.cookieName, secure: context.configuration.secureCookies))
        return reply
    }

    /// Only a local path may follow a login: `//evil.example` and absolute URLs are dropped, and so are
    /// control characters, which browsers strip (`/\t/evil.example` would become `//evil.example`).
    static func safeNext(_ next: String?) -> String? {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
              !next.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else { return nil }
        return next
    }
}
