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
    }

    /// One page (from 1) of the audit entries that match `filter`, the newest first.
    static func auditLog(_ filter: AuditFilter, page: Int, pageSize: Int, _ db: Database) throws -> AuditLog {
        AuditLog(entries: try filter.request().limit(pageSize, offset: (page - 1) * pageSize).fetchAll(db),
                 total: try filter.request().fetchCount(db))
    }
}
