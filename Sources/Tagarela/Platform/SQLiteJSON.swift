import Foundation
import GRDB

/// Rows of values handed to SQLite as one JSON argument, read back with `json_each(?)` and `value ->> n`.
/// A statement that takes a list this way keeps the same text for any length, so GRDB can keep it
/// prepared (`cached: true`); one `?` or `VALUES` row per item makes a new statement every time.
enum SQLiteJSON {
    /// `[[1, "2026-11-23", null], …]`: integers, reals and texts come back from `->>` as the same SQL
    /// values (dates as GRDB stores them); blobs are not expected here and travel as null.
    static func array(of rows: [[DatabaseValueConvertible?]]) -> String {
        let values: [[Any]] = rows.map { $0.map { value in
            switch value?.databaseValue.storage {
            case .int64(let int): int
            case .double(let double): double
            case .string(let string): string
            case .blob, .null, nil: NSNull()
            }
        } }
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `[1,2,3]`, for `id IN (SELECT value FROM json_each(?))`.
    static func list(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}

extension FetchableRecord where Self: TableRecord {
    /// The records whose `column` (the primary key) is one of `ids`, in no order, through one prepared
    /// statement whatever their number: `fetchAll(db, keys:)` writes one placeholder per key, so each
    /// count is a new statement to parse and plan.
    static func fetchAll(_ db: Database, ids: some Sequence<Int64>, column: String = "id") throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: """
            SELECT * FROM \(databaseTableName.quotedDatabaseIdentifier)
            WHERE \(column.quotedDatabaseIdentifier) IN (SELECT value FROM json_each(?))
            """), arguments: [SQLiteJSON.list(ids)])
    }
}
