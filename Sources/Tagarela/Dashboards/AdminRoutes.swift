import Foundation
import GRDB
import HTTPServer

/// The administrator's pages: staff accounts and the audit log.
enum AdminRoutes {
    static let templates = ["dashboards/admin", "admin/staff-form", "admin/audit", "admin/accounts"]

    static func add(to router: inout Router<Route>) {
        router.legacy(AdminEndpoints.dashboard, dashboard)
        router.legacy(AdminEndpoints.newStaff, newStaff)
        router.legacy(AdminEndpoints.createStaff, createStaff)
        router.legacy(AdminEndpoints.setActive, setActive)
        router.legacy(AdminEndpoints.auditLog, auditLog)
        router.legacy(AdminEndpoints.accounts, accounts)
        router.legacy(AdminEndpoints.resetPassword, resetPassword)
    }

    static let staffRoles: [Role] = [.clinician, .trainer, .admin]

    @Sendable static func dashboard(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let staff = try context.database.read { db in
            try User.filter(staffRoles.map(\.rawValue).contains(User.Columns.role))
                .order(User.Columns.isActive.desc, User.Columns.displayName.collating(.nocase)).fetchAll(db)
        }
        return context.render("dashboards/admin", title: "dashboard_admin_title",
                              AdminDashboard(actor: actor, staff: staff, t: context.t))
    }

    @Sendable static func newStaff(_ context: RequestContext) -> Response {
        context.render("admin/staff-form", title: "staff_new_title",
                       StaffFormPage(form: FormState(values: ["role": "clinician"]), t: context.t))
    }

    @Sendable static func createStaff(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["displayName", "username", "role"])
        let specialties = Set(context.request.form.values("specialty").compactMap(Specialty.init(rawValue:)))
        form.values["specialty_speech"] = specialties.contains(.speech) ? "1" : ""
        form.values["specialty_nutrition"] = specialties.contains(.nutrition) ? "1" : ""
        let name = form.required("displayName", context.t["error_name_required"])
        let username = form["username"].trimmingCharacters(in: .whitespaces)
        if !Usernames.isValid(username) { form.fail("username", context.t["error_username_invalid"]) }
        let role = Role(rawValue: form["role"]).flatMap { staffRoles.contains($0) ? $0 : nil }
        if role == nil { form.fail("role", context.t["error_choose_option"]) }
        if role == .clinician, specialties.isEmpty { form.fail("specialty", context.t["error_specialty_required"]) }

        let created = try context.database.write { db -> (User, String)? in
            guard !form.hasErrors, let name, let role else { return nil }
            guard try People.isUsernameFree(username, db) else { form.fail("username", context.t["error_username_taken"]); return nil }
            let created = try Accounts.insertStaff(name: name, username: username, role: role, specialties: specialties,
                                                   passwordHash: nil, createdBy: actor.userId, audit: context.audit, db)
            return created.invitationToken.map { (created.user, $0) }
        }
        guard let (user, token) = created else {
            return context.render("admin/staff-form", title: "staff_new_title", StaffFormPage(form: form, t: context.t),
                                  status: .unprocessableContent)
        }
        return PeopleRoutes.invitationCreated(for: user, token: token, backPath: "/admin", context)
    }

    /// Deactivating ends the person's sessions at once; their records stay.
    @Sendable static func setActive(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let active = context.request.form["active"] == "1"
        try context.database.write { db in
            guard var user = try User.fetchOne(db, key: context.id("id")), user.role.isStaff else { throw AppError.notFound }
            guard user.id != actor.userId else { throw AppError.forbidden }  // no locking oneself out
            user.isActive = active
            user.updatedAt = context.now
            try user.update(db, columns: ["isActive", "updatedAt"])
            if !active { try SessionStore.endAll(for: user.id!, db) }
            try context.audit.record(active ? .activate : .deactivate, "user", user.id, user.displayName, db)
        }
        return context.redirect(to: "/admin", flash: active ? "staff_activated" : "staff_deactivated")
    }

    /// Every account with a login, found by name or username, for a password reset.
    @Sendable static func accounts(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let search = (context.request.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        let users = try context.database.read { db in
            var request = User.filter(User.Columns.username != nil)
            if !search.isEmpty {
                let pattern = "%\(search)%"
                request = request.filter(User.Columns.displayName.like(pattern) || User.Columns.username.like(pattern))
            }
            return try request.order(User.Columns.displayName.collating(.nocase)).limit(AccountsPage.limit + 1).fetchAll(db)
        }
        return context.render("admin/accounts", title: "consent_accounts_title",
                              AccountsPage(actor: actor, search: search, users: users, t: context.t))
    }

    /// A forgotten password: only an admin gives a new one-time link, for any account but their own.
    /// The old password and every session of the account stop at once; the owner chooses a new
    /// password through the link, which lasts a day.
    @Sendable static func resetPassword(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (user, token) = try context.database.write { db -> (User, String) in
            guard var user = try User.fetchOne(db, key: context.id("id")), user.username != nil, user.isActive else {
                throw AppError.notFound
            }
            guard user.id != actor.userId else { throw AppError.forbidden }  // one's own: the account page
            if user.passwordHash != nil {
                // Had a password: it never becomes an account a clinician may invite.
                user.passwordSetAt = user.passwordSetAt ?? context.now
                user.passwordHash = nil
                user.updatedAt = context.now
                try user.update(db, columns: ["passwordHash", "passwordSetAt", "updatedAt"])
            }
            try SessionStore.endAll(for: user.id!, db)
            let token = try Invitation.issue(for: user.id!, by: actor.userId, at: context.now,
                                             lifetime: Invitation.resetLifetime, db)
            try context.audit.record(.passwordReset, "user", user.id, "\(user.displayName) (\(user.username ?? ""))", db)
            return (user, token)
        }
        return PeopleRoutes.invitationCreated(for: user, token: token, backPath: "/admin/accounts", isReset: true, context)
    }

    @Sendable static func auditLog(_ context: RequestContext) throws -> Response {
        let query = context.request.query
        var filter = AuditFilter()
        filter.actor = query["actor"] ?? ""
        filter.action = AuditEntry.Action(rawValue: query["action"] ?? "")?.rawValue ?? ""
        filter.entity = query["entity"] ?? ""
        filter.from = (query["from"]).flatMap(context.format.parseDate)
        filter.to = (query["to"]).flatMap(context.format.parseDate)
        let page = max(1, Int(query["page"] ?? "") ?? 1)
        let (entries, total) = try context.database.read { db in
            (try filter.request().limit(AuditPage.pageSize, offset: (page - 1) * AuditPage.pageSize).fetchAll(db),
             try filter.request().fetchCount(db))
        }
        return context.render("admin/audit", title: "audit_title",
                              AuditPage(entries: entries, total: total, page: page, filter: filter, query: query, context: context))
    }
}

struct AdminDashboard: Sendable {
    struct Member: Sendable {
        let id: Int64
        let name: String
        let username: String
        let role: String
        let specialties: String
        let isActive: Bool
        let hasPassword: Bool
        let isSelf: Bool
    }

    let greeting: String
    let staff: [Member]

    init(actor: Actor, staff: [User], t: Translator) {
        greeting = t("dashboard_greeting", ["name": actor.displayName])
        self.staff = staff.map { user in
            Member(id: user.id!, name: user.displayName, username: user.username ?? "", role: t["role_\(user.role.rawValue)"],
                   specialties: Specialty.allCases.filter(user.specialtySet.contains).map { t["specialty_\($0.rawValue)"] }
                       .joined(separator: ", "),
                   isActive: user.isActive, hasPassword: user.passwordHash != nil, isSelf: user.id == actor.userId)
        }
    }
}

struct AccountsPage: Sendable {
    static let limit = 100

    struct Account: Sendable {
        let id: Int64
        let name: String
        let username: String
        let role: String
        let status: String
        let mayReset: Bool
    }

    let search: String
    let accounts: [Account]
    let isEmpty: Bool
    let isTruncated: Bool

    init(actor: Actor, search: String, users: [User], t: Translator) {
        self.search = search
        accounts = users.prefix(Self.limit).map { user in
            let status = !user.isActive ? t["status_inactive"]
                : user.passwordHash != nil ? t["status_active"] : t["login_pending"]
            return Account(id: user.id!, name: user.displayName, username: user.username ?? "", role: t["role_\(user.role.rawValue)"],
                           status: status, mayReset: user.isActive && user.id != actor.userId)
        }
        isEmpty = users.isEmpty
        isTruncated = users.count > Self.limit
    }
}

struct StaffFormPage: Sendable {
    typealias Option = SelectOption

    let form: FormState
    let roles: [Option]
    let speechChecked: Bool
    let nutritionChecked: Bool

    init(form: FormState, t: Translator) {
        self.form = form
        roles = AdminRoutes.staffRoles.map { Option(value: $0.rawValue, label: t["role_\($0.rawValue)"], isSelected: form["role"] == $0.rawValue) }
        speechChecked = form["specialty_speech"] == "1"
        nutritionChecked = form["specialty_nutrition"] == "1"
    }
}

struct AuditPage: Sendable {
    static let pageSize = 50

    struct Row: Sendable {
        let when: String
        let actor: String
        let action: String
        let entity: String
        let summary: String
        let address: String
    }

    typealias Option = SelectOption

    let rows: [Row]
    let isEmpty: Bool
    let totalText: String
    let actor: String
    let entity: String
    let from: String
    let to: String
    let actions: [Option]
    let previousPage: String?
    let nextPage: String?

    init(entries: [AuditEntry], total: Int, page: Int, filter: AuditFilter, query: HTTPServer.Parameters, context: RequestContext) {
        let t = context.t
        rows = entries.map {
            Row(when: "\(context.format.shortDate($0.at)) \(context.format.time($0.at))", actor: $0.actorName,
                action: t["audit_action_\($0.action)"], entity: $0.entity + ($0.entityId.map { " #\($0)" } ?? ""),
                summary: $0.summary, address: $0.clientAddress)
        }
        isEmpty = entries.isEmpty
        totalText = t("audit_total", ["count": "\(total)"])
        actor = filter.actor
        entity = filter.entity
        from = query["from"] ?? ""
        to = query["to"] ?? ""
        actions = AuditEntry.Action.allCases.map {
            Option(value: $0.rawValue, label: t["audit_action_\($0.rawValue)"], isSelected: filter.action == $0.rawValue)
        }
        let base = query.pairs.filter { $0.name != "page" }
            .map { "\(HTTPQuery.encode($0.name))=\(HTTPQuery.encode($0.value))" }
        func link(_ page: Int) -> String { "/admin/audit?" + (base + ["page=\(page)"]).joined(separator: "&") }
        previousPage = page > 1 ? link(page - 1) : nil
        nextPage = page * Self.pageSize < total ? link(page + 1) : nil
    }
}

enum HTTPQuery {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
