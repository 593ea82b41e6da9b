import GRDB

/// A board's own picture on the child's tiles (`/patient`, `/play`): one of its cells' pictures, chosen in
/// the editor. Until one is chosen, or once that picture has left the board, the first picture stands in,
/// so every tile keeps a picture the child may open (`MediaAccess` serves the board's pictures only).
enum BoardCovers {
    static func v1(_ db: Database) throws {
        try db.alter(table: "plan") { t in
            t.add(column: "coverSymbolId", .integer).references("symbol", onDelete: .setNull)
        }
    }

    /// The SQL for a plan's tile picture (a symbol id), for a query that has `plan` in scope: the chosen
    /// cover while it is still on the board (or among a sentence plan's words), else the first picture
    /// of the grid, or a sentence plan's first word.
    static let symbolOfPlan = """
        COALESCE(
            (SELECT c.symbolId FROM planCell c
             WHERE c.planId = plan.id AND c.symbolId = plan.coverSymbolId AND c.position < plan.rows * plan.columns
             UNION ALL
             SELECT w.symbolId FROM sentenceWord w WHERE w.planId = plan.id AND w.symbolId = plan.coverSymbolId
             LIMIT 1),
            CASE WHEN plan.type = 'sentence'
                THEN (SELECT w.symbolId FROM sentenceWord w JOIN symbol s ON s.id = w.symbolId
                      WHERE w.planId = plan.id ORDER BY w.id LIMIT 1)
                ELSE (SELECT c.symbolId FROM planCell c JOIN symbol s ON s.id = c.symbolId
                      WHERE c.planId = plan.id AND c.position < plan.rows * plan.columns ORDER BY c.position LIMIT 1) END)
        """

    /// Makes the picture of the board's cell at `position` its cover. The cell must hold a symbol.
    static func choose(_ cell: PlanCell, of plan: Plan, _ db: Database) throws {
        guard let symbolId = cell.symbolId else { throw AppError.badRequest }
        try choose(symbolId: symbolId, of: plan, db)
    }

    /// Makes a picture of the plan (a cell's, or a sentence plan's word's) its cover.
    static func choose(symbolId: Int64, of plan: Plan, _ db: Database) throws {
        try db.execute(sql: "UPDATE plan SET coverSymbolId = ? WHERE id = ?", arguments: [symbolId, plan.id])
    }
}
