import Foundation
import GRDB
@testable import Tagarela
import Testing

/// Rows handed to SQLite as JSON come back from `json_each` and `->>` as the values they were, whatever
/// a text holds.
@Suite struct SQLiteJSONTests {
    @Test func rowsComeBackFromSQLiteAsTheValuesTheyWere() throws {
        let texts = ["2026-11-23", "", #"aspas " e \ barra"#, "linha\nnova\tcom tab", "\u{1}\u{1F}", "ação 👋🏽 ñ", "/caminho/"]
        let date = Date(timeIntervalSince1970: 1_764_000_000.25)
        let rows: [[DatabaseValueConvertible?]] = texts.enumerated().map { index, text in
            [Int64(index) - 3, text, Double(index) / 4, nil, date, Int64.max, -0.000_01, Double.infinity]
        }
        let json = SQLiteJSON.array(of: rows)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]])
        #expect(parsed.count == texts.count)
        let back = try DatabaseQueue().read { db in
            try Row.fetchAll(db, sql: """
                SELECT value ->> 0 AS n, value ->> 1 AS text, value ->> 2 AS real, value ->> 3 AS missing,
                       value ->> 4 AS date, value ->> 5 AS big, value ->> 6 AS small, value ->> 7 AS infinite
                FROM json_each(?) ORDER BY key
                """, arguments: [json])
        }
        #expect(back.count == texts.count)
        for (index, row) in back.enumerated() {
            #expect(row["n"] as Int64? == Int64(index) - 3)
            #expect(row["text"] as String? == texts[index])
            #expect(row["real"] as Double? == Double(index) / 4)
            #expect((row["missing"] as DatabaseValue).isNull)
            #expect(row["date"] as Date? == date)
            #expect(row["big"] as Int64? == Int64.max)
            #expect(row["small"] as Double? == -0.000_01)
            #expect((row["infinite"] as DatabaseValue).isNull)
        }
        #expect(SQLiteJSON.array(of: []) == "[]")
    }
}
