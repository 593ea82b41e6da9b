import Foundation
import GRDB
import HTTPServer

/// The administrator's pages: staff accounts and the audit log.
enum AdminRoutes: Feature {
    static let templates = ["dashboards/admin", "admin/staff-form", "admin/audit", "admin/accounts"]

    static func add(to router: inout Router<Route>) {
        router.add(AdminEndpoints.dashboard) { $0.read(dashboard) }
        router.add(AdminEndpoints.newStaff) { $0.reply(newStaff) }
        router.add(AdminEndpoints.createStaff) { $0.write(createStaff) }
        router.add(AdminEndpoints.setActive) { $0.write(setActive) }
        router.add(AdminEndpoints.auditLog) { $0.read(auditLog) }
        router.add(AdminEndpoints.accounts) { $0.read(accounts) }
        router.add(AdminEndpoints.resetPassword) { $0.write(resetPassword) }
    }

    static let staffRoles: [Role] = [.clinician, .trainer, .admin]

    @Sendable static func dashboard(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        return .page("dashboards/admin", title: "dashboard_admin_title",
                     AdminDashboard(actor: actor, staff: try AdminQueries.staff(db), openErasures: try PrivacyQueries.openErasures(db), t: context.t))
    }

    @Sendable static func newStaff(_ context: RequestContext) -> Reply {
        .page("admin/staff-form", title: "staff_new_title", StaffFormPage(form: FormState(values: ["role": "clinician"]), t: context.t))
    }

    @Sendable static func createStaff(_ context: RequestContext, _ db: Database) throws -> Reply {
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

        if !form.hasErrors, let name, let role {
            switch try StaffAccounts.create(name: name, username: username, role: role, specialties: specialties, by: actor,
                                            audit: context.audit, db) {
            case .created(let user, let token):
                return PeopleRoutes.invitationCreated(for: user, token: token, backPath: AdminEndpoints.dashboard.path(), context)
            case .usernameTaken:
                form.fail("username", context.t["error_username_taken"])
            }
        }
        return .page("admin/staff-form", title: "staff_new_title", StaffFormPage(form: form, t: context.t),
                     status: .unprocessableContent)
    }

    /// Deactivating ends the person's sessions at once; their records stay.
    @Sendable static func setActive(_ context: RequestContext, _ db: Database, _ userId: Int64) throws -> Reply {
        let active = context.request.form["active"] == "1"
        try StaffAccounts.setActive(userId, active, by: try context.requireActor(), audit: context.audit, db)
        return .redirect(to: AdminEndpoints.dashboard.path(), flash: active ? "staff_activated" : "staff_deactivated")
    }

    /// Every account with a login, found by name or username, for a password reset.
    @Sendable static func accounts(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let search = (context.request.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        let users = try AdminQueries.accounts(matching: search, limit: AccountsPage.limit + 1, db)
        return .page("admin/accounts", title: "consent_accounts_title", AccountsPage(actor: actor, search: search, users: users, t: context.t))
    }

    /// A forgotten password: only an admin gives a new one-time link, for any account but their own.
    /// The old password and every session of the account stop at once; the owner chooses a new
    /// password through the link, which lasts a day.
    @Sendable static func resetPassword(_ context: RequestContext, _ db: Database, _ userId: Int64) throws -> Reply {
        let (user, token) = try StaffAccounts.resetPassword(userId, by: try context.requireActor(), audit: context.audit, db)
        return PeopleRoutes.invitationCreated(for: user, token: token, backPath: AdminEndpoints.accounts.path(),
                                                    isReset: true, context)
    }

    @Sendable static func auditLog(_ context: RequestContext, _ db: Database) throws -> Reply {
        let query = context.request.query
        var filter = AuditFilter()
        filter.actor = query["actor"] ?? ""
        filter.action = AuditEntry.Action(rawValue: query["action"] ?? "")?.rawValue ?? ""
        filter.entity = query["entity"] ?? ""
        filter.from = (query["from"]).flatMap(context.format.parseDate)
        filter.to = (query["to"]).flatMap(context.format.parseDate)
        let page = max(1, Int(query["page"] ?? "") ?? 1)
        let log = try AdminQueries.auditLog(filter, page: page, pageSize: AuditPage.pageSize, db)
        return .page("admin/audit", title: "audit_title", AuditPage(log, page: page, filter: filter, query: query, context: context))
    }
}

enum HTTPQuery {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
