import Foundation
import GRDB
import HTTPServer

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
