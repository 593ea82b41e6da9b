import GRDB

/// What the administrator's pages read, each in the request's one transaction.
enum AdminQueries {
    /// Staff accounts, the active ones first, by name.
    static func staff(_ db: Database) throws -> [User] {
        try User.filter(AdminRoutes.staffRoles.map(\.rawValue).contains(User.Columns.role))
            .order(User.Columns.isActive.desc, User.Columns.displayName.collating(.nocase)).fetchAll(db)
    }

    /// Every account with a login whose name or username contains `search` (all of them when it is
    /// empty), by name, at most `limit` (one more tells the page that the list was cut).
    static func accounts(matching search: String, limit: Int, _ db: Database) throws -> [User] {
        var request = User.filter(User.Columns.username != nil)
        if !search.isEmpty {
            let pattern = "%\(search)%"
            request = request.filter(User.Columns.displayName.like(pattern) || User.Columns.username.like(pattern))
        }
        return try request.order(User.Columns.displayName.collating(.nocase)).limit(limit).fetchAll(db)
    }

    struct AuditLog {
        let entries: [AuditEntry]
        /// Entries matching the filter on every page.
        let total: Int
        /// The names of the people and boards the page's entries are about, by id, so the page says
        /// "Carla Costa" rather than "patient #7" (a record since deleted keeps its number).
        let people: [Int64: String]
        let plans: [Int64: String]
    }

    /// One page (from 1) of the audit entries that match `filter`, the newest first.
    static func auditLog(_ filter: AuditFilter, page: Int, pageSize: Int, _ db: Database) throws -> AuditLog {
        let entries = try filter.request().limit(pageSize, offset: (page - 1) * pageSize).fetchAll(db)
        let personIds = Set(entries.filter { AuditEntry.entitiesNamingAPerson.contains($0.entity) }.compactMap(\.entityId))
        let planIds = Set(entries.filter { $0.entity == "plan" }.compactMap(\.entityId))
        return AuditLog(entries: entries, total: try filter.request().fetchCount(db),
                        people: Dictionary(uniqueKeysWithValues: try User.fetchAll(db, keys: personIds).map { ($0.id!, $0.displayName) }),
                        plans: Dictionary(uniqueKeysWithValues: try Plan.fetchAll(db, keys: planIds).map { ($0.id!, $0.name) }))
    }
}
