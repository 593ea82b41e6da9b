import Foundation
import GRDB
import HTTPServer

/// The administrator's pages: staff accounts and the audit log.
enum AdminRoutes {
    static let templates = ["dashboards/admin", "admin/staff-form", "admin/audit", "admin/accounts"]

    static func add(to router: inout Router<Route>) {
        router.read(AdminEndpoints.dashboard, dashboard)
        router.add(AdminEndpoints.newStaff, newStaff)
        router.write(AdminEndpoints.createStaff, createStaff)
        router.write(AdminEndpoints.setActive, setActive)
        router.read(AdminEndpoints.auditLog, auditLog)
        router.read(AdminEndpoints.accounts, accounts)
        router.write(AdminEndpoints.resetPassword, resetPassword)
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

struct AdminDashboard: PageModel {
    struct Member: PageModel {
        let id: Int64
        /// Posts a new one-time password link for this person.
        let resetURL: String
        /// Posts `active=0` or `active=1`.
        let activationURL: String
        let name: String
        let username: String
        let role: String
        /// nil for staff without specialties (no empty brackets).
        let specialties: String?
        let isActive: Bool
        let hasPassword: Bool
        let isSelf: Bool
    }

    let greeting: String
    let staff: [Member]
    let newStaffURL = AdminEndpoints.newStaff.path()
    let auditURL = AdminEndpoints.auditLog.path()
    let twoFactorPolicyURL = TwoFactorEndpoints.policy.path()
    let accountsURL = AdminEndpoints.accounts.path()
    let fhirTokensURL = FHIREndpoints.tokens.path()
    let erasuresURL = PrivacyEndpoints.erasures.path()
    /// "Erasure requests (2 waiting)", or the plain title when none waits.
    let erasuresLabel: String

    init(actor: Actor, staff: [User], openErasures: Int, t: Translator) {
        greeting = t("dashboard_greeting", ["name": actor.displayName])
        erasuresLabel = openErasures > 0 ? t("privacy_erasures_link_open", ["count": "\(openErasures)"]) : t["privacy_erasures_title"]
        self.staff = staff.map { user in
            Member(id: user.id!, resetURL: AdminEndpoints.resetPassword.path(user.id!),
                   activationURL: AdminEndpoints.setActive.path(user.id!), name: user.displayName,
                   username: user.username ?? "", role: t["role_\(user.role.rawValue)"],
                   specialties: Optional(Specialty.allCases.compactMap { user.specialtySet.contains($0) ? t["specialty_\($0.rawValue)"] : nil }
                       .joined(separator: ", ")).flatMap { $0.isEmpty ? nil : $0 },
                   isActive: user.isActive, hasPassword: user.passwordHash != nil, isSelf: user.id == actor.userId)
        }
    }
}

struct AccountsPage: PageModel {
    static let limit = 100

    struct Account: PageModel {
        let id: Int64
        /// Posts a new one-time password link for this person.
        let resetURL: String
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
    let searchURL = AdminEndpoints.accounts.path()
    let backURL = AdminEndpoints.dashboard.path()

    init(actor: Actor, search: String, users: [User], t: Translator) {
        self.search = search
        accounts = users.prefix(Self.limit).map { user in
            let status = !user.isActive ? t["status_inactive"]
                : user.passwordHash != nil ? t["status_active"] : t["login_pending"]
            return Account(id: user.id!, resetURL: AdminEndpoints.resetPassword.path(user.id!), name: user.displayName,
                           username: user.username ?? "", role: t["role_\(user.role.rawValue)"],
                           status: status, mayReset: user.isActive && user.id != actor.userId)
        }
        isEmpty = users.isEmpty
        isTruncated = users.count > Self.limit
    }
}

struct StaffFormPage: PageModel {
    typealias Option = SelectOption

    let form: FormState
    let createURL = AdminEndpoints.createStaff.path()
    let cancelURL = AdminEndpoints.dashboard.path()
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

struct AuditPage: PageModel {
    static let pageSize = 50

    struct Row: PageModel {
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
    let entities: [Option]
    let previousPage: String?
    let nextPage: String?
    let filterURL = AdminEndpoints.auditLog.path()

    init(_ log: AdminQueries.AuditLog, page: Int, filter: AuditFilter, query: HTTPServer.Parameters, context: RequestContext) {
        let t = context.t
        rows = log.entries.map {
            Row(when: "\(context.format.shortDate($0.at)) \(context.format.time($0.at))", actor: $0.actorName,
                action: t["audit_action_\($0.action)"], entity: Self.entity($0, log, t),
                summary: $0.summary, address: $0.clientAddress)
        }
        isEmpty = log.entries.isEmpty
        totalText = t("audit_total", ["count": "\(log.total)"])
        entities = AuditEntry.entities.map { SelectOption(value: $0, label: t["audit_entity_\($0)"], isSelected: filter.entity == $0) }
            .sorted { $0.label.localizedCompare($1.label) == .orderedAscending }
        actor = filter.actor
        entity = filter.entity
        from = query["from"] ?? ""
        to = query["to"] ?? ""
        actions = AuditEntry.Action.allCases.map {
            Option(value: $0.rawValue, label: t["audit_action_\($0.rawValue)"], isSelected: filter.action == $0.rawValue)
        }
        let (typedFrom, typedTo) = (query["from"] ?? "", query["to"] ?? "")
        func link(_ page: Int) -> String {
            AdminEndpoints.auditLog.path(query: ["actor": filter.actor, "action": filter.action, "entity": filter.entity,
                                                 "from": typedFrom, "to": typedTo, "page": "\(page)"])
        }
        previousPage = page > 1 ? link(page - 1) : nil
        nextPage = page * Self.pageSize < log.total ? link(page + 1) : nil
    }

    /// "Paciente · Carla Costa", "Prancha · Meu dia", "Refeição nº 12": what the entry is about, in the reader's
    /// language. Pure.
    static func entity(_ entry: AuditEntry, _ log: AdminQueries.AuditLog, _ t: Translator) -> String {
        let kind = AuditEntry.entities.contains(entry.entity) ? t["audit_entity_\(entry.entity)"] : entry.entity
        guard let id = entry.entityId else { return kind }
        let name = AuditEntry.entitiesNamingAPerson.contains(entry.entity) ? log.people[id] : entry.entity == "plan" ? log.plans[id] : nil
        return name.map { "\(kind) · \($0)" } ?? t("audit_entity_number", ["kind": kind, "id": "\(id)"])
    }
}

enum HTTPQuery {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
