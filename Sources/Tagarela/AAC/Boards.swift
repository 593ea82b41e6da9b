import Foundation
import GRDB

/// A plan with its cells and the symbols on them, as the editor, the player and the print view need it.
struct BoardScreen: Sendable {
    struct Cell: Sendable {
        let position: Int
        let symbol: Symbol?
        let colour: CategoryColour
        let link: Plan?
        /// The cell's own colours as imported (`CellColours`), over its category's.
        var background: String? = nil
        var border: String? = nil
    }

    let plan: Plan
    let cells: [Cell]

    /// One statement for the cells with their symbols and categories' colours, prepared once per
    /// connection; the boards they open, when any, by a second. Three lookups by id, each writing its own
    /// `IN (…)`, with the cells decoded through `Decodable`, were a third of a board not rendered yet.
    static func fetch(_ plan: Plan, _ db: Database) throws -> BoardScreen {
        // Read by position: the cell's five columns, then the symbol's (`Symbol.columnsOfS`), NULL without one.
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT c.position, c.linkPlanId, c.backgroundColour, c.borderColour, category.colour, \(Symbol.columnsOfS)
            FROM planCell c LEFT JOIN symbol s ON s.id = c.symbolId LEFT JOIN category ON category.id = s.categoryId
            WHERE c.planId = ?
            """), arguments: [plan.id])
        let linked = Set(rows.compactMap { $0[1] as Int64? })
        let links = linked.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try Plan.fetchAll(db, ids: linked).map { ($0.id!, $0) })
        var byPosition: [Int: Row] = [:]
        for row in rows { byPosition[row[0]] = row }
        let cells = (0..<plan.cellCount).map { position -> Cell in
            guard let row = byPosition[position] else { return Cell(position: position, symbol: nil, colour: .white, link: nil) }
            let symbol = row[5] as Int64? == nil ? nil : Symbol(row: row, from: 5)
            return Cell(position: position, symbol: symbol,
                        colour: symbol == nil ? .white : CategoryColour(rawValue: row[4] ?? "") ?? .white,
                        link: (row[1] as Int64?).flatMap { links[$0] }, background: row[2], border: row[3])
        }
        return BoardScreen(plan: plan, cells: cells)
    }
}

/// The pure rules of a board's grid.
enum BoardRules {
    static let rowRange = LargeGrids.rowRange
    static let columnRange = LargeGrids.columnRange

    /// A board is 1×2 at the smallest; a big-symbol plan is always one cell, and a sentence plan has no grid.
    static func isValidSize(rows: Int, columns: Int, type: PlanType) -> Bool {
        switch type {
        case .bigSymbol, .sentence: rows == 1 && columns == 1
        case .board: rowRange.contains(rows) && columnRange.contains(columns) && rows * columns >= 2
        }
    }

    /// Where a cell lands when the grid changes size: same row and column, or nowhere if outside.
    static func position(_ position: Int, from old: (rows: Int, columns: Int), to new: (rows: Int, columns: Int)) -> Int? {
        let row = position / old.columns, column = position % old.columns
        guard row < new.rows, column < new.columns else { return nil }
        return row * new.columns + column
    }
}

/// Which plans an actor may open: exactly those of the patients they may see.
enum PlanScope {
    /// One statement: every tap and board load asks, and the patient's own lookup after the plan's was 4 % of a tap.
    static func find(_ id: Int64?, visibleTo actor: Actor, _ db: Database) throws -> Plan {
        guard let id else { throw AppError.notFound }
        let visible = PatientScope.oneCondition(on: "plan.patientId", visibleTo: actor)
        var arguments: StatementArguments = [id]
        _ = arguments.append(contentsOf: visible.arguments)
        guard let plan = try Plan.fetchOne(db, SQLRequest<Plan>(sql: "SELECT * FROM plan WHERE id = ? AND \(visible.sql)",
                                                                arguments: arguments, cached: true))
        else { throw AppError.notFound }
        return plan
    }

    /// For changes: a clinician linked to the patient.
    static func editable(_ id: Int64?, by actor: Actor, _ db: Database) throws -> Plan {
        let plan = try find(id, visibleTo: actor, db)
        guard actor.role == .clinician else { throw AppError.forbidden }
        return plan
    }
}
