import Foundation
import GRDB

/// Rows of values handed to SQLite as one JSON argument, read back with `json_each(?)` and `value ->> n`.
/// A statement that takes a list this way keeps the same text for any length, so GRDB can keep it
/// prepared (`cached: true`); one `?` or `VALUES` row per item makes a new statement every time.
enum SQLiteJSON {
    /// `[[1, "2026-11-23", null], …]`: integers, reals and texts come back from `->>` as the same SQL
    /// values (dates as GRDB stores them); blobs are not expected here and travel as null.
    ///
    /// Written directly: Foundation's `JSONSerialization`, boxing every value as `Any`, was a fifth of
    /// the clinician's dashboard, which passes its patients' goals this way.
    static func array(of rows: [[DatabaseValueConvertible?]]) -> String {
        var json = "["
        for (index, row) in rows.enumerated() {
            json += index == 0 ? "[" : ",["
            for (column, value) in row.enumerated() {
                if column > 0 { json += "," }
                switch value?.databaseValue.storage {
                case .int64(let int): json += String(int)
                case .double(let double) where double.isFinite: json += "\(double)"
                case .string(let string): appendQuoted(string, to: &json)
                case .double, .blob, .null, nil: json += "null"
                }
            }
            json += "]"
        }
        return json + "]"
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as it is.
    private static func appendQuoted(_ string: String, to json: inout String) {
        json += "\""
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            json += string
        } else {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: json.unicodeScalars.append(scalar)
                }
            }
        }
        json += "\""
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
