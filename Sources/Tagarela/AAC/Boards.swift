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

    static func fetch(_ plan: Plan, _ db: Database) throws -> BoardScreen {
        let stored = try PlanCell.fetchAll(db.cachedStatement(sql: "SELECT * FROM planCell WHERE planId = ?"), arguments: [plan.id])
        let symbols = Dictionary(uniqueKeysWithValues: try Symbol.fetchAll(db, ids: Set(stored.compactMap(\.symbolId))).map { ($0.id!, $0) })
        let categories = Dictionary(uniqueKeysWithValues: try Category.fetchAll(db, ids: Set(symbols.values.map(\.categoryId))).map {
            ($0.id!, $0.categoryColour)
        })
        let links = Dictionary(uniqueKeysWithValues: try Plan.fetchAll(db, ids: Set(stored.compactMap(\.linkPlanId))).map { ($0.id!, $0) })
        let byPosition = Dictionary(stored.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        let cells = (0..<plan.cellCount).map { position -> Cell in
            let cell = byPosition[position]
            let symbol = cell?.symbolId.flatMap { symbols[$0] }
            return Cell(position: position, symbol: symbol,
                        colour: symbol.flatMap { categories[$0.categoryId] } ?? .white,
                        link: cell?.linkPlanId.flatMap { links[$0] },
                        background: cell?.backgroundColour, border: cell?.borderColour)
        }
        return BoardScreen(plan: plan, cells: cells)
    }
}

/// The pure rules of a board's grid.
enum BoardRules {
    static let rowRange = 1...6
    static let columnRange = 1...8

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
