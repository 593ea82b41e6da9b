import Foundation
import GRDB
import HTTPServer
import Testing
@testable import Tagarela

/// The usage history sums its counts from the summaries of the taps, and keeps each listed tap's
/// row rendered (`UsagePage.rowKey`): the counts must agree with SQL's, and a kept row must never show
/// what is no longer true.
@Suite struct UsageHistoryTests {
    /// The page's counts per day and its top ten, against the GROUP BY statements it used to run, for
    /// every kind of tap and with the filters.
    @Test func countsAgreeWithSQLsGrouping() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), bruno = try test.id(of: "bruno")
        let context = RequestContext(request: Request(method: .get, path: "/"), app: test.app, signedIn: nil, actor: nil,
                                     locale: .ptBR, csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
        let zone = test.app.configuration.timeZone
        let (symbol, plan) = try test.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT symbolId, planId FROM tap WHERE patientId = ? AND symbolId IS NOT NULL GROUP BY symbolId ORDER BY count(*) DESC LIMIT 1
                """, arguments: [carla]))
            return (row[0] as Int64, row[1] as Int64)
        }
        // Unfiltered and by symbol, the counts come from the summaries of `tapDay`; by board, adult or kind, from it or the taps.
        // The demo's taps run from 4 to 18 November: from the 10th, most symbols were first used before the period.
        for query in [[("from", "2026-11-01"), ("to", "2026-11-30")], [("from", "2026-11-01"), ("to", "2026-11-30"), ("kind", "own")],
                      [("from", "2026-11-01"), ("to", "2026-11-30"), ("kind", "modeling")],
                      [("from", "2026-11-01"), ("to", "2026-11-30"), ("assisted", "\(bruno)")], [("from", "2026-11-20"), ("to", "2026-11-20")],
                      [("from", "2026-11-01"), ("to", "2026-11-30"), ("symbol", "\(symbol)")],
                      [("from", "2026-11-01"), ("to", "2026-11-30"), ("plan", "\(plan)")], [("from", "2026-11-10"), ("to", "2026-11-18")]] {
            let filter = UsageRoutes.Filter(Parameters(query), context: context)
            try test.read { db in
                let ana = Actor(user: try #require(try User.fetchOne(db, sql: "SELECT * FROM user WHERE username = 'ana'")))
                let history = try UsageQueries.history(patientId: carla, visibleTo: ana, filter, timeZone: zone, db)
                let (condition, arguments) = filter.condition(patientId: carla, timeZone: zone)
                let offset = try Int.fetchOne(db, sql: "SELECT offsetSeconds FROM tapDayZone")!
                let taps = "SELECT date(at, '\(offset) seconds') AS day, symbolId FROM tap WHERE \(condition)"
                let days = try Row.fetchAll(db, sql: "SELECT day, count(*) FROM (\(taps)) GROUP BY day ORDER BY day", arguments: arguments)
                let perDay = days.map { "\($0[0] as String) \($0[1] as Int)" }
                let top = try Row.fetchAll(db, sql: """
                    SELECT symbol.name, count(*) AS n FROM (\(taps)) AS t JOIN symbol ON symbol.id = t.symbolId
                    GROUP BY symbol.id ORDER BY n DESC, symbol.name LIMIT 10
                    """, arguments: arguments).map { "\($0[0] as String) \($0[1] as Int)" }
                #expect(history.perDay.map { "\($0.day) \($0.count)" } == perDay, "\(query)")
                #expect(history.top.map { "\($0.name) \($0.count)" } == top, "\(query)")
                #expect(history.total == days.reduce(0) { $0 + ($1[1] as Int) })
            }
        }
    }

    /// Ties at the tenth place are broken by name in bytes, as SQLite's BINARY collation orders them,
    /// and a symbol deleted since its taps leaves room for the next one.
    @Test func theTopTenBreaksTiesByNameAndSkipsDeletedSymbols() async throws {
        let test = try await TestApp()
        try test.read { db in
            let symbols = try Row.fetchAll(db, sql: "SELECT id, name FROM symbol ORDER BY id LIMIT 14").map { (id: $0[0] as Int64, name: $0[1] as String) }
            try #require(symbols.count == 14)
            // Eight symbols counted 9…2, then six tied at 1 for the last two places, and a deleted symbol with the most.
            var counts: [Int64: Int] = [999_999: 50]
            for (index, symbol) in symbols.enumerated() { counts[symbol.id] = max(9 - index, 1) }
            let top = try UsageQueries.topSymbols(counts, limit: 10, db)
            let ties = symbols.dropFirst(8).map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect(top.map(\.name) == symbols.prefix(8).map(\.name) + ties.prefix(2))
            #expect(top.map(\.count) == [9, 8, 7, 6, 5, 4, 3, 2, 1, 1])
            #expect(try UsageQueries.topSymbols([999_999: 3], limit: 10, db).isEmpty)
            #expect(try UsageQueries.topSymbols([:], limit: 10, db).isEmpty)
        }
    }

    /// A row is kept rendered, but a renamed symbol, a deleted board or another language shows at once.
    @Test func keptRowsFollowRenamesDeletedBoardsAndLanguages() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let path = "/patients/\(carla)/usage?from=2026-11-01&to=2026-11-30"
        let latest = try #require(try test.read { db in
            try Row.fetchOne(db, sql: "SELECT symbolId, planId FROM tap WHERE patientId = ? ORDER BY at DESC, id DESC LIMIT 1",
                             arguments: [carla])
        })
        let symbolId: Int64 = latest[0], planId: Int64 = latest[1]
        func firstRow(_ headers: [(String, String)] = []) throws -> String {
            let page = try ana.get(path, headers: headers).text
            let start = try #require(page.range(of: "<tbody><tr>"))
            return String(page[start.upperBound...].prefix { $0 != "\n" }.split(separator: "</tr>").first ?? "")
        }
        let before = try firstRow()
        #expect(before.contains("sozinho") || before.contains("Bruno Costa"))

        try test.write { db in try db.execute(sql: "UPDATE symbol SET name = 'Nome novo' WHERE id = ?", arguments: [symbolId]) }
        #expect(try firstRow().contains("<td>Nome novo</td>"))

        let english = try firstRow([("Accept-Language", "en")])
        #expect(english.contains(#"<td lang="pt-BR">Nome novo</td>"#), "a Portuguese word on an English page says so")
        #expect(!english.contains("sozinho"))
        #expect(english.contains("AM</td>") || english.contains("PM</td>"), "the time as English writes it: \(english)")
        #expect(try firstRow().contains("<td>Nome novo</td>"), "the Portuguese row is still right after the English one")

        try test.write { db in try db.execute(sql: "DELETE FROM plan WHERE id = ?", arguments: [planId]) }
        let afterDelete = try firstRow()
        #expect(afterDelete.contains("<td>—</td>"), "a tap of a deleted board shows no board: \(afterDelete)")
        #expect(afterDelete.contains("<td>Nome novo</td>"))
    }

    /// The rows are kept apart from the boards' grids: histories opened once each cannot push a child's
    /// board out of its cache.
    @Test func keptRowsLeaveTheBoardsCacheAlone() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let boards = test.app.caches.fragments.count
        let page = try ana.get("/patients/\(carla)/usage?from=2026-11-01&to=2026-11-30").text
        let rows = page.components(separatedBy: "<tr><td>").count - 1
        #expect(rows > 0)
        #expect(test.app.caches.usageRows.count == rows)
        #expect(test.app.caches.fragments.count == boards)
    }
}
