import Foundation
import GRDB
import HTTPServer

/// Logging in and out, invitations, one's own account, and patient mode.
enum AccountsRoutes {
    static let templates = ["accounts/login", "accounts/invitation", "accounts/account", "accounts/patient-mode-exit"]

    static func add(to router: inout Router<Route>) {
        router.legacy(AccountsEndpoints.showLogin, showLogin)
        router.legacy(AccountsEndpoints.logIn, logIn)
        router.legacy(AccountsEndpoints.logOut, logOut)
        router.legacy(AccountsEndpoints.goHome, goHome)
        router.legacy(AccountsEndpoints.showInvitation, showInvitation)
        router.legacy(AccountsEndpoints.acceptInvitation, acceptInvitation)
        router.legacy(AccountsEndpoints.showAccount, showAccount)
        router.legacy(AccountsEndpoints.changeLanguage, changeLanguage)
        router.legacy(AccountsEndpoints.changePassword, changePassword)
        router.legacy(AccountsEndpoints.logOutEverywhere, logOutEverywhere)
        router.legacy(AccountsEndpoints.openPatientMode, openPatientMode)
        router.legacy(AccountsEndpoints.showPatientModeExit, showPatientModeExit)
        router.legacy(AccountsEndpoints.exitPatientMode, exitPatientMode)
    }

    // MARK: - Login

    @Sendable static func showLogin(_ context: RequestContext) -> Response {
        if let actor = context.actor { return .redirect(to: actor.role.homePath) }
        return context.render("accounts/login", title: "login_title",
                              LoginPage(form: FormState(values: ["next": safeNext(context.request.query["next"]) ?? ""])))
    }

    /// The password check runs on the hashing pool; an unknown username is checked against a
    /// decoy hash so that it costs the same time and gets the same answer as a wrong password.
    @Sendable static func logIn(_ context: RequestContext) -> Response {
        var form = FormState(context.request.form, fields: ["username", "password", "next"])
        let username = form["username"].trimmingCharacters(in: .whitespaces)
        let password = form["password"]
        form.values["password"] = nil  // never sent back
        let address = context.clientAddress
        let typed = form

        let admission = context.app.loginThrottle.admit(username: username, address: address, now: context.now)
        let wait = admission.wait
        if wait > 0 {
            form.fail("username", context.t("login_throttled", ["minutes": "\(Int((wait / 60).rounded(.up)))"]))
            var page = context.render("accounts/login", title: "login_title", LoginPage(form: form), status: .tooManyRequests)
            page.headers["Retry-After"] = "\(Int(wait.rounded(.up)))"
            return page
        }
        let app = context.app
        return .deferred(on: app.hashingPool) {
            app.run({ context in
                var form = typed
                let found = try context.database.read { try User.named(username, $0) }
                let usable = found.flatMap { $0.isActive && $0.passwordHash != nil ? $0 : nil }
                let verified = app.passwords.verify(password, against: usable?.passwordHash ?? app.decoyHash)
                guard verified, var user = usable else {
                    try context.database.write { db in
                        try recordFailedLogin(username: username, account: found?.id, admission: admission, context, db)
                    }
                    form.fail("username", context.t["login_failed"])
                    return context.render("accounts/login", title: "login_title", LoginPage(form: form),
                                          status: .unprocessableContent)
                }
                app.loginThrottle.recordSuccess(username: username, address: address)
                let rehash = app.passwords.needsRehash(user.passwordHash!) ? app.passwords.hash(password) : nil
                let token = try context.database.write { db in
                    if let rehash {
                        user.passwordHash = rehash
                        try user.update(db, columns: ["passwordHash"])
                    }
                    let token = try SessionStore.start(for: user, replacing: context.request.cookies[SessionStore.cookieName],
                                                       at: context.now, policy: app.configuration.sessions, db)
                    try AuditContext(actorId: user.id, actorName: user.displayName, clientAddress: address, now: context.now)
                        .record(.login, "user", user.id, user.username ?? "", db)
                    return token
                }
                var response = Response.redirect(to: safeNext(form["next"]) ?? user.role.homePath)
                response.setCookie(sessionCookie(token, context))
                return response
            }, context)
        }
    }

    /// A wrong password (or an unknown name) in the audit log, and the lockout it starts if it is the
    /// failure that crosses a limit. The typed name is kept short: it is whatever a stranger sent.
    static func recordFailedLogin(username: String, account: Int64?, admission: LoginThrottle.Admission,
                                  _ context: RequestContext, _ db: Database) throws {
        let audit = AuditContext(actorId: nil, actorName: "—", clientAddress: context.clientAddress, now: context.now)
        let typed = String(username.prefix(64))
        try audit.record(.loginFailed, "user", account, typed, db)
        if admission.locksAccount { try audit.record(.lockout, "user", account, "account: \(typed)", db) }
        if admission.locksAddress { try audit.record(.lockout, "address", nil, "address: \(context.clientAddress)", db) }
    }

    @Sendable static func logOut(_ context: RequestContext) throws -> Response {
        // In patient mode only the adult's password ends the session (see exitPatientMode).
        guard context.actor?.isPatientMode == false else { throw AppError.forbidden }
        if let token = context.request.cookies[SessionStore.cookieName] {
            try context.database.write { db in
                try SessionStore.end(token: token, db)
                try context.audit.record(.logout, "user", context.signedIn?.user.id, "", db)
            }
        }
        var response = context.redirect(to: "/login", flash: "logged_out")
        response.setCookie(.expired(SessionStore.cookieName, secure: context.app.configuration.secureCookies))
        return response
    }

    @Sendable static func goHome(_ context: RequestContext) throws -> Response {
        .redirect(to: try context.requireActor().role.homePath)
    }

    // MARK: - Invitations

    @Sendable static func showInvitation(_ context: RequestContext) throws -> Response {
        let token = context.parameter("token") ?? ""
        let lookup = try context.database.read { try Invitation.find(token: token, at: context.now, $0) }
        return invitationPage(lookup, form: FormState(), context)
    }

    @Sendable static func acceptInvitation(_ context: RequestContext) throws -> Response {
        let token = context.parameter("token") ?? ""
        let lookup = try context.database.read { try Invitation.find(token: token, at: context.now, $0) }
        guard case .valid(let invitation, let user) = lookup else { return invitationPage(lookup, form: FormState(), context) }
        var form = FormState()
        let password = context.request.form["password"] ?? ""
        if let problem = PasswordPolicy.problem(with: password, confirmation: context.request.form["confirmation"] ?? "",
                                                username: user.username) {
            form.fail("password", context.t[problem.rawValue])
            return invitationPage(lookup, form: form, context, status: .unprocessableContent)
        }
        let app = context.app
        return .deferred(on: app.hashingPool) {
            app.run({ context in
                var invitation = invitation, user = user
                let hash = app.passwords.hash(password)
                let sessionToken = try context.database.write { db -> String? in
                    // Re-read inside the transaction: of two tabs racing, one wins.
                    guard case .valid = try Invitation.find(token: token, at: context.now, db) else { return nil }
                    invitation.usedAt = context.now
                    try invitation.update(db, columns: ["usedAt"])
                    user.passwordHash = hash
                    user.updatedAt = context.now
                    user.passwordSetAt = context.now
                    try user.update(db, columns: ["passwordHash", "updatedAt", "passwordSetAt"])
                    try SessionStore.endAll(for: user.id!, db)
                    try AuditContext(actorId: user.id, actorName: user.displayName, clientAddress: context.clientAddress,
                                     now: context.now).record(.setPassword, "user", user.id, "invitation", db)
                    return try SessionStore.start(for: user, replacing: nil, at: context.now,
                                                  policy: app.configuration.sessions, db)
                }
                guard let sessionToken else { return invitationPage(.used, form: FormState(), context) }
                var response = context.redirect(to: user.role.homePath, flash: "password_set")
                response.setCookie(sessionCookie(sessionToken, context))
                return response
            }, context)
        }
    }

    static func invitationPage(_ lookup: Invitation.Lookup, form: FormState, _ context: RequestContext,
                               status: Status = .ok) -> Response {
        switch lookup {
        case .valid(_, let user):
            return context.render("accounts/invitation", title: "invitation_title",
                                  InvitationPage(name: user.displayName, username: user.username ?? "", form: form,
                                                 problem: nil), status: status)
        case .used, .expired, .unknown:
            let problem = switch lookup {
            case .used: "invitation_used"
            case .expired: "invitation_expired"
            default: "invitation_unknown"
            }
            return context.render("accounts/invitation", title: "invitation_title",
                                  InvitationPage(name: "", username: "", form: form, problem: context.t[problem]),
                                  status: .gone)
        }
    }

    // MARK: - One's own account

    @Sendable static func showAccount(_ context: RequestContext) throws -> Response {
        try accountPage(context, form: FormState())
    }

    static func accountPage(_ context: RequestContext, form: FormState, status: Status = .ok) throws -> Response {
        let actor = try context.requireActor()
        guard !actor.isPatientMode, let user = context.signedIn?.user else { throw AppError.forbidden }
        let languages = AppLocale.allCases.map {
            AccountPage.Language(code: $0.rawValue, name: context.t["language_\($0.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                                 isSelected: user.appLocale == $0)
        }
        return context.render("accounts/account", title: "account_title",
                              AccountPage(name: user.displayName, username: user.username ?? "",
                                          role: context.t["role_\(user.role.rawValue)"], languages: languages,
                                          usesBrowserLanguage: user.locale == nil, form: form), status: status)
    }

    @Sendable static func changeLanguage(_ context: RequestContext) throws -> Response {
        guard let user = context.signedIn?.user, context.actor?.isPatientMode == false else { throw AppError.forbidden }
        let choice = context.request.form["locale"].flatMap(AppLocale.init(rawValue:))
        try context.database.write { db in
            try db.execute(sql: "UPDATE user SET locale = ?, updatedAt = ? WHERE id = ?",
                           arguments: [choice?.rawValue, context.now, user.id])
        }
        return context.redirect(to: "/account", flash: "language_changed")
    }

    @Sendable static func changePassword(_ context: RequestContext) throws -> Response {
        guard let user = context.signedIn?.user, context.actor?.isPatientMode == false else { throw AppError.forbidden }
        let current = context.request.form["current"] ?? ""
        let password = context.request.form["password"] ?? ""
        if let problem = PasswordPolicy.problem(with: password, confirmation: context.request.form["confirmation"] ?? "",
                                                username: user.username) {
            var form = FormState()
            form.fail("password", context.t[problem.rawValue])
            return try accountPage(context, form: form, status: .unprocessableContent)
        }
        let app = context.app
        let sessionId = context.signedIn?.session.id
        return .deferred(on: app.hashingPool) {
            app.run({ context in
                var form = FormState(), user = user
                guard let stored = user.passwordHash, app.passwords.verify(current, against: stored) else {
                    form.fail("current", context.t["password_current_wrong"])
                    return try accountPage(context, form: form, status: .unprocessableContent)
                }
                let hash = app.passwords.hash(password)
                try context.database.write { db in
                    user.passwordHash = hash
                    user.updatedAt = context.now
                    user.passwordSetAt = context.now
                    try user.update(db, columns: ["passwordHash", "updatedAt", "passwordSetAt"])
                    // Other devices must log in again with the new password; this one stays.
                    try Session.filter(Session.Columns.userId == user.id && Column("id") != sessionId).deleteAll(db)
                    try context.audit.record(.setPassword, "user", user.id, "account", db)
                }
                return context.redirect(to: "/account", flash: "password_changed")
            }, context)
        }
    }

    @Sendable static func logOutEverywhere(_ context: RequestContext) throws -> Response {
        guard let user = context.signedIn?.user, context.actor?.isPatientMode == false else { throw AppError.forbidden }
        try context.database.write { db in
            try SessionStore.endAll(for: user.id!, db)
            try context.audit.record(.logout, "user", user.id, "everywhere", db)
        }
        var response = context.redirect(to: "/login", flash: "logged_out_everywhere")
        response.setCookie(.expired(SessionStore.cookieName, secure: context.app.configuration.secureCookies))
        return response
    }

    // MARK: - Patient mode

    @Sendable static func openPatientMode(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        guard let patientId = context.id("id"), let session = context.signedIn?.session else { throw AppError.notFound }
        let planId = context.request.form["plan"].flatMap(Int64.init)
        let destination = try context.database.write { db -> String in
            _ = try PatientScope.find(patientId, visibleTo: actor, db)
            guard try PatientScope.maySupervise(actor, patientId: patientId, db) else { throw AppError.forbidden }
            try db.execute(sql: "UPDATE session SET patientModeFor = ? WHERE id = ?", arguments: [patientId, session.id])
            try context.audit.record(.patientModeOpen, "patient", patientId, "", db)
            // Opened from a plan: straight to that board, on the child's side.
            if let planId, try Plan.filter(key: planId).filter(Column("patientId") == patientId).fetchCount(db) == 1 {
                return "/play/\(planId)"
            }
            return Role.patient.homePath
        }
        return .redirect(to: destination)
    }

    @Sendable static func showPatientModeExit(_ context: RequestContext) -> Response {
        context.render("accounts/patient-mode-exit", title: "patient_mode_exit_title",
                       PatientModeExitPage(adultName: context.signedIn?.user.displayName ?? "", form: FormState()))
    }

    /// Only the adult's own password ends patient mode; the child needs to remember nothing. Wrong
    /// tries are limited per session (this tablet), never counted against the adult's logins.
    @Sendable static func exitPatientMode(_ context: RequestContext) throws -> Response {
        guard let signedIn = context.signedIn, let sessionId = signedIn.session.id else { throw AppError.forbidden }
        let password = context.request.form["password"] ?? ""
        let app = context.app
        let admission = app.loginThrottle.admitPatientModeExit(session: sessionId, now: context.now)
        let patientId = signedIn.session.patientModeFor
        return .deferred(on: app.hashingPool) {
            app.run({ context in
                guard admission.wait == 0, let hash = signedIn.user.passwordHash, app.passwords.verify(password, against: hash) else {
                    if admission.wait == 0, admission.locksAccount {
                        try context.database.write { db in
                            try context.audit.record(.lockout, "session", patientId, "patient mode exit", db)
                        }
                    }
                    var form = FormState()
                    form.fail("password", context.t[admission.wait > 0 ? "login_throttled_short" : "patient_mode_wrong_password"])
                    var page = context.render("accounts/patient-mode-exit", title: "patient_mode_exit_title",
                                              PatientModeExitPage(adultName: signedIn.user.displayName, form: form),
                                              status: admission.wait > 0 ? .tooManyRequests : .unprocessableContent)
                    if admission.wait > 0 { page.headers["Retry-After"] = "\(Int(admission.wait.rounded(.up)))" }
                    return page
                }
                app.loginThrottle.recordPatientModeExitSuccess(session: sessionId)
                try context.database.write { db in
                    try db.execute(sql: "UPDATE session SET patientModeFor = NULL WHERE id = ?", arguments: [sessionId])
                    try context.audit.record(.patientModeExit, "patient", patientId, "", db)
                }
                return .redirect(to: signedIn.user.role.homePath)
            }, context)
        }
    }

    // MARK: - Helpers

    static func sessionCookie(_ token: String, _ context: RequestContext) -> SetCookie {
        SetCookie(name: SessionStore.cookieName, value: token, secure: context.app.configuration.secureCookies, sameSite: .lax)
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

struct LoginPage: Sendable { let form: FormState }

struct InvitationPage: Sendable {
    let name: String
    let username: String
    let form: FormState
    let problem: String?
}

struct AccountPage: Sendable {
    struct Language: Sendable {
        let code: String
        let name: String
        let isSelected: Bool
    }
    let name: String
    let username: String
    let role: String
    let languages: [Language]
    let usesBrowserLanguage: Bool
    let form: FormState
}

struct PatientModeExitPage: Sendable {
    let adultName: String
    let form: FormState
}
