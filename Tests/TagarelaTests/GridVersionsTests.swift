import Foundation
import GRDB
@testable import Tagarela
import Testing

/// The grid version kept by triggers (`GridVersions`), against the demo clinic's real database: every
/// write that changes what a board's grid shows moves it, by any writer; other writes leave it.
@Suite struct GridVersionsTests {
    struct Board {
        let plan: Int64
        let symbols: [Int64]
    }

    func board(_ test: TestApp, _ patient: String, _ name: String) throws -> Board {
        let patientId = try test.id(of: patient)
        return try test.read { db in
            let plan = try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND name = ?", arguments: [patientId, name])!
            return Board(plan: plan, symbols: try Int64.fetchAll(db, sql: """
                SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position
                """, arguments: [plan]))
        }
    }

    /// Whether `change` moved the version of `plan` (and only up).
    func moves(_ test: TestApp, _ plan: Int64, _ change: (Database) throws -> Void) throws -> Bool {
        try test.write { db in
            let before = try GridVersions.version(planId: plan, db)
            try change(db)
            let after = try GridVersions.version(planId: plan, db)
            #expect(after >= before)
            return after > before
        }
    }

    @Test func eachWriteAGridShowsMovesItsVersionAndOtherWritesDoNot() async throws {
        let test = try await TestApp()
        let words = try board(test, "Carla Costa", "Palavras principais")
        let things = try board(test, "Carla Costa", "Coisas e comidas")
        let elsewhere = try test.read { try Int64.fetchOne($0, sql: """
            SELECT id FROM symbol WHERE id NOT IN (SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL)
            """, arguments: [words.plan])! }
        let at = test.clock.now

        #expect(!(try moves(test, words.plan) { db in
            let carla = Actor(user: try User.find(try test.id(of: "Carla Costa"), db)!)
            try Taps.record(symbolId: words.symbols[0], key: "grid-version-tap", planId: words.plan, at: at, receivedAt: at, actor: carla, db)
        }), "a tap")
        #expect(!(try moves(test, words.plan) { try $0.execute(sql: "UPDATE symbol SET name = 'outra' WHERE id = ?", arguments: [elsewhere]) }),
                "a symbol on no cell of the board")
        #expect(!(try moves(test, words.plan) { try $0.execute(sql: "UPDATE plan SET startsOn = '2026-01-01' WHERE id = ?", arguments: [words.plan]) }),
                "the board's start date, which the grid does not show")

        #expect(try moves(test, words.plan) { try $0.execute(sql: "UPDATE symbol SET name = 'mãe' WHERE id = ?", arguments: [words.symbols[1]]) },
                "a symbol on a cell")
        #expect(try moves(test, words.plan) {
            try $0.execute(sql: "UPDATE planCell SET backgroundColour = '#ffee00' WHERE planId = ? AND position = 0", arguments: [words.plan])
        }, "a cell's colour")
        #expect(try moves(test, words.plan) { try $0.execute(sql: "DELETE FROM planCell WHERE planId = ? AND position = 0", arguments: [words.plan]) },
                "a cell cleared")
        #expect(try moves(test, words.plan) {
            try $0.execute(sql: "INSERT INTO planCell (planId, position, linkPlanId) VALUES (?, 0, ?)", arguments: [words.plan, things.plan])
        }, "a cell placed")
        #expect(try moves(test, words.plan) { try $0.execute(sql: "UPDATE plan SET name = 'Comidas' WHERE id = ?", arguments: [things.plan]) },
                "the board a folder opens renamed")
        #expect(try moves(test, words.plan) { try $0.execute(sql: "UPDATE plan SET name = 'Palavras' WHERE id = ?", arguments: [words.plan]) },
                "the board renamed")
        let category = try test.read { try Int64.fetchOne($0, sql: "SELECT categoryId FROM symbol WHERE id = ?", arguments: [words.symbols[2]])! }
        #expect(try moves(test, words.plan) { try $0.execute(sql: "UPDATE category SET colour = 'purple' WHERE id = ?", arguments: [category]) },
                "the colour of a category of a symbol on a cell")
        #expect(try moves(test, words.plan) {
            try $0.execute(sql: "DELETE FROM tap WHERE symbolId = ?", arguments: [words.symbols[3]])
            try $0.execute(sql: "DELETE FROM symbol WHERE id = ?", arguments: [words.symbols[3]])
        }, "a symbol on a cell deleted: its cell empties")
        #expect(try moves(test, words.plan) { try $0.execute(sql: "DELETE FROM plan WHERE id = ?", arguments: [things.plan]) },
                "the board a folder opens deleted: the folder goes")
    }

    @Test func aDeletedBoardsNumberIsKeptSoItsIdNeverNamesAnOldGrid() async throws {
        let test = try await TestApp()
        let words = try board(test, "Carla Costa", "Palavras principais")
        let (before, after, row) = try test.write { db in
            let before = try GridVersions.version(planId: words.plan, db)
            try db.execute(sql: "DELETE FROM plan WHERE id = ?", arguments: [words.plan])
            return (before, try GridVersions.version(planId: words.plan, db),
                    try Int64.fetchOne(db, sql: "SELECT version FROM gridVersion WHERE planId = ?", arguments: [words.plan]))
        }
        #expect(after > before, "its cells went with it, each moving the number")
        #expect(row == after, "the row stays: a board given this id again counts on from here")
    }
}
