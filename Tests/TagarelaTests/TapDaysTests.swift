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
                return raw == summary && !raw.isEmpty
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
