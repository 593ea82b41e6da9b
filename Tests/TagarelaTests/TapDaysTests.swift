import Foundation
import GRDB
import Testing
@testable import Tagarela

/// The usage history's counts come from `tapDay`, kept by triggers; it must agree with the taps.
@Suite struct TapDaysTests {
    @Test func theSummaryAgreesWithTheTapsThroughInsertsUpdatesAndDeletes() async throws {
        let test = try await TestApp()
        func agree() throws -> Bool {
            try test.read { db in
                let offset = try Int.fetchOne(db, sql: "SELECT offsetSeconds FROM tapDayZone")!
                let raw = try Row.fetchAll(db, sql: """
                    SELECT patientId, date(at, ? || ' seconds') AS day, coalesce(planId, 0) AS planId,
                           coalesce(symbolId, 0) AS symbolId, coalesce(assistedBy, 0) AS assistedBy, count(*) AS n
                    FROM tap GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
                    """, arguments: [offset])
                let summary = try Row.fetchAll(db, sql: "SELECT * FROM tapDay ORDER BY 1, 2, 3, 4, 5")
                return try raw == summary && !raw.isEmpty && summariesAgree(db)
            }
        }
        #expect(try agree(), "after the demo's taps")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT offsetSeconds FROM tapDayZone") } == -3 * 3600,
                "the clinic's offset (America/Sao_Paulo)")
        try test.write { db in
            try db.execute(sql: "UPDATE tap SET planId = NULL WHERE id IN (SELECT id FROM tap ORDER BY id LIMIT 3)")
            try db.execute(sql: "DELETE FROM tap WHERE id IN (SELECT id FROM tap ORDER BY id DESC LIMIT 5)")
        }
        #expect(try agree(), "after updates and deletes")
        try test.write { db in try TapDays.prepare(db, timeZone: TimeZone(identifier: "Europe/Madrid")!, now: test.clock.now) }
        #expect(try agree(), "after a change of time zone, recounted")
    }

    /// The overview's counts per day and per symbol and first uses (`TapDays.v3DayTotalsAndFirstUse`) are what `tapDay` gives.
    private func summariesAgree(_ db: Database) throws -> Bool {
        let days = try Row.fetchAll(db, sql: "SELECT patientId, day, sum(n) AS n FROM tapDay GROUP BY 1, 2 ORDER BY 1, 2")
        let symbolDays = try Row.fetchAll(db, sql: "SELECT patientId, symbolId, day, sum(n) AS n FROM tapDay GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
        let firsts = try Row.fetchAll(db, sql: "SELECT patientId, symbolId, min(day) AS day FROM tapDay GROUP BY 1, 2 ORDER BY 1, 2")
        let totals = try Row.fetchAll(db, sql: "SELECT patientId, day, n FROM tapDayTotal ORDER BY 1, 2")
        let firstUses = try Row.fetchAll(db, sql: "SELECT patientId, symbolId, day FROM tapSymbolFirst ORDER BY 1, 2")
        let perSymbol = try Row.fetchAll(db, sql: "SELECT patientId, symbolId, day, n FROM tapSymbolDay ORDER BY 1, 2, 3")
        return days == totals && symbolDays == perSymbol && firsts == firstUses
    }

    /// The daily counts and first uses follow every way a tap comes or goes: a tap sent late from a
    /// tablet that was offline (an earlier day, before the symbol's first use), its board or its symbol
    /// deleted (the tap moves to the summary's 0), the symbol's first taps deleted, a patient deleted
    /// with all their taps. A change to `tapDay`'s key, which the summaries would not follow, is refused.
    @Test func theDailyCountsAndFirstUsesFollowLateTapsDeletionsAndAPatientGone() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        #expect(try test.read { db in
            try summariesAgree(db) && (try Int.fetchOne(db, sql: "SELECT count(*) FROM tapSymbolFirst WHERE patientId = ?", arguments: [carla])!) > 3
        }, "after the demo's taps, summed by the migration")
        let (symbol, firstDay) = try test.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT symbolId, day FROM tapSymbolFirst WHERE patientId = ? AND symbolId <> 0 ORDER BY day DESC LIMIT 1
                """, arguments: [carla]))
            return (row[0] as Int64, row[1] as String)
        }
        let late = test.clock.now.addingTimeInterval(-90 * 86_400)
        try test.write { db in
            try db.execute(sql: "INSERT INTO tap (key, patientId, symbolId, at, receivedAt) VALUES ('late', ?, ?, ?, ?)",
                           arguments: [carla, symbol, late, test.clock.now])
        }
        let lateDay = ISODate.string(late, timeZone: test.app.configuration.timeZone)
        #expect(try test.read { db in
            try summariesAgree(db) && (try String.fetchOne(db, sql: "SELECT day FROM tapSymbolFirst WHERE patientId = ? AND symbolId = ?",
                                                         arguments: [carla, symbol])) == lateDay
        }, "a late tap moves the first use back")
        try test.write { db in try db.execute(sql: "DELETE FROM tap WHERE key = 'late'") }
        #expect(try test.read { db in
            try summariesAgree(db) && (try String.fetchOne(db, sql: "SELECT day FROM tapSymbolFirst WHERE patientId = ? AND symbolId = ?",
                                                         arguments: [carla, symbol])) == firstDay
        }, "and forward again when it goes")
        try test.write { db in
            let endOfFirstDay = try #require(ISODate.date(firstDay, timeZone: test.app.configuration.timeZone)).addingTimeInterval(86_400)
            try db.execute(sql: "DELETE FROM tap WHERE patientId = ? AND symbolId = ? AND at < ?", arguments: [carla, symbol, endOfFirstDay])
            try db.execute(sql: "DELETE FROM plan WHERE id = (SELECT planId FROM tap WHERE patientId = ? AND planId IS NOT NULL LIMIT 1)", arguments: [carla])
            try db.execute(sql: "DELETE FROM symbol WHERE id = (SELECT symbolId FROM tap WHERE patientId = ? AND symbolId IS NOT NULL AND symbolId <> ? LIMIT 1)",
                           arguments: [carla, symbol])
        }
        #expect(try test.read(summariesAgree), "after a symbol's first taps, a board and a symbol were deleted")
        try test.write { db in try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [carla]) }
        #expect(try test.read { db in
            try summariesAgree(db) && (try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM tapDayTotal WHERE patientId = ?) + (SELECT count(*) FROM tapSymbolFirst WHERE patientId = ?)
                """, arguments: [carla, carla])) == 0
        }, "a patient deleted leaves nothing behind")
        #expect(throws: DatabaseError.self) {
            try test.write { db in try db.execute(sql: "UPDATE tapDay SET day = '2001-01-01' WHERE day = (SELECT max(day) FROM tapDay)") }
        }
    }

    /// v1 swept the whole table for emptied rows on every deleted tap (minutes for a patient with
    /// 100 000 taps). A planted empty row elsewhere shows the sweep is gone: only the tap's own row is
    /// looked at.
    @Test func aDeletedTapTouchesOnlyItsOwnSummaryRow() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        try test.write { db in
            try db.execute(sql: "INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n) VALUES (?, '2001-01-01', 0, 0, 0, 0)",
                           arguments: [carla])
            try db.execute(sql: "DELETE FROM tap WHERE id = (SELECT max(id) FROM tap)")
        }
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tapDay WHERE day = '2001-01-01'") } == 1)
    }
}
