import Foundation
import GRDB
import HTTPServer

/// Writes to plans and their cells, each with its audit row and its checks.
enum Plans {
    /// Saves a new plan (already checked by `PlanInput`) and returns its id.
    static func create(_ plan: Plan, audit: AuditContext, _ db: Database) throws -> Int64 {
        var saved = plan
        try saved.insert(db)
        try audit.record(.create, "plan", saved.id, saved.name, db)
        return saved.id!
    }

    /// One change to one cell of a board, as its form asks.
    enum CellChange: Sendable, Equatable {
        case clear
        case symbol(Int64)
        case link(Int64)
        /// Swap with the cell at this position, so a move never loses the cell that was there.
        case move(to: Int)
        /// The cell's picture becomes the board's own picture on the child's tiles.
        case cover

        /// The change a cell's form asks for; nil when it asks for none that can be read. Pure.
        static func read(_ form: Parameters) -> CellChange? {
            if form["clear"] == "1" { return .clear }
            if form["cover"] == "1" { return .cover }
            if let id = form["symbol"].flatMap(Int64.init) { return .symbol(id) }
            if let id = form["link"].flatMap(Int64.init) { return .link(id) }
            if let target = form["moveTo"].flatMap(Int.init) { return .move(to: target) }
            return nil
        }
    }

    /// Changes one cell of a plan the clinician may edit, and returns the plan and the position to select
    /// afterwards (where a moved cell went). Publishing is instant: the patient's next load shows it.
    /// A position outside the grid, a symbol the clinician may not use here, or a board of another
    /// patient is a 404; a change that cannot be read (or a move onto itself) is a 400.
    static func setCell(planId: Int64, position: Int, _ change: CellChange?, by actor: Actor, audit: AuditContext,
                        _ db: Database) throws -> (plan: Plan, select: Int) {
        let plan = try PlanScope.editable(planId, by: actor, db)
        guard (0..<plan.cellCount).contains(position) else { throw AppError.notFound }
        var cell = try cellAt(position, of: plan, db)
        var select = position
        switch change {
        case .clear:
            cell.symbolId = nil
            cell.linkPlanId = nil
            (cell.backgroundColour, cell.borderColour) = (nil, nil)
        case .symbol(let symbolId):
            guard try SymbolScope.usable(by: actor.userId, for: plan.patientId).filter(key: symbolId).fetchCount(db) == 1
            else { throw AppError.notFound }
            cell.symbolId = symbolId
            // An imported button's colours belonged to its word.
            (cell.backgroundColour, cell.borderColour) = (nil, nil)
        case .link(let linkId):
            guard linkId != plan.id,
                  try Plan.filter(key: linkId).filter(Column("patientId") == plan.patientId).fetchCount(db) == 1
            else { throw AppError.notFound }
            cell.linkPlanId = linkId
        case .move(let target) where (0..<plan.cellCount).contains(target) && target != position:
            var other = try cellAt(target, of: plan, db)
            (cell.symbolId, other.symbolId) = (other.symbolId, cell.symbolId)
            (cell.linkPlanId, other.linkPlanId) = (other.linkPlanId, cell.linkPlanId)
            (cell.backgroundColour, other.backgroundColour) = (other.backgroundColour, cell.backgroundColour)
            (cell.borderColour, other.borderColour) = (other.borderColour, cell.borderColour)
            try other.save(db)
            select = target
        case .cover:
            try BoardCovers.choose(cell, of: plan, db)
            try touch(plan, at: audit.now, db)
            try audit.record(.update, "plan", plan.id, "cover cell \(position)", db)
            return (plan, select)
        case .move, nil:
            throw AppError.badRequest
        }
        try cell.save(db)
        try touch(plan, at: audit.now, db)
        try audit.record(.update, "plan", plan.id, "cell \(position)", db)
        return (plan, select)
    }

    /// A library picture chosen for a cell, with what the editor made of it before the write.
    struct CellPicture: Sendable {
        let hexcode: String
        /// The word in the language the search matched, or a folder's board name.
        let name: String
        let voice: AppLocale
        /// The generated clip of `name` (nil if it could not be made).
        let clip: String?
        /// The clinician's category the editor was filtered by, if any.
        let categoryId: Int64?
    }

    /// Makes a symbol of the patient from a library picture and puts it in the cell; a folder cell keeps
    /// the board it opens and shows the picture. The symbol goes in the chosen category of the clinician,
    /// else their orange one (nouns), else their first (the defaults are created for a clinician who has none).
    static func setCellPicture(planId: Int64, position: Int, _ picture: CellPicture, by actor: Actor, audit: AuditContext,
                               _ t: Translator, _ db: Database) throws -> Plan {
        let plan = try PlanScope.editable(planId, by: actor, db)
        guard (0..<plan.cellCount).contains(position), plan.planType != .sentence else { throw AppError.notFound }
        let categories = try Category.forClinician(actor.userId, t, db)
        // A picture found by its word is most often a thing: the nouns' orange (the Fitzgerald key) unless one was chosen.
        let category = categories.first { $0.id == picture.categoryId } ?? categories.first { $0.categoryColour == .orange } ?? categories[0]
        var symbol = Symbol(clinicianId: actor.userId, categoryId: category.id!, name: picture.name, spokenText: picture.name,
                            audioKind: "generated", createdAt: audit.now, updatedAt: audit.now)
        symbol.patientId = plan.patientId
        symbol.pictogram = picture.hexcode
        symbol.audioFile = picture.clip
        symbol.voice = picture.voice.rawValue
        try symbol.insert(db)
        try audit.record(.create, "symbol", symbol.id, symbol.name, db)
        var cell = try cellAt(position, of: plan, db)
        cell.symbolId = symbol.id
        if cell.linkPlanId == nil { (cell.backgroundColour, cell.borderColour) = (nil, nil) }
        try cell.save(db)
        try touch(plan, at: audit.now, db)
        try audit.record(.update, "plan", plan.id, "cell \(position)", db)
        return plan
    }

    private static func cellAt(_ position: Int, of plan: Plan, _ db: Database) throws -> PlanCell {
        try PlanCell.fetchOne(db, key: ["planId": plan.id, "position": position])
            ?? PlanCell(planId: plan.id!, position: position, symbolId: nil, linkPlanId: nil)
    }

    /// Marks the plan changed (its editor, the player's cache and offline copies read this).
    static func touch(_ plan: Plan, at now: Date, _ db: Database) throws {
        try db.execute(sql: "UPDATE plan SET updatedAt = ? WHERE id = ?", arguments: [now, plan.id])
    }

    /// A plan printed alone: health data leaving on paper, so the export is audited. Returns the plan.
    static func recordPrint(planId: Int64, visibleTo actor: Actor, audit: AuditContext, _ db: Database) throws -> Plan {
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        try audit.record(.export, "patient", plan.patientId, "print plan \(plan.id!) '\(plan.name)'", db)
        return plan
    }

    /// The communication book of a patient, printed: audited like a single plan.
    static func recordBook(patientId: Int64, plans: Int, audit: AuditContext, _ db: Database) throws {
        try audit.record(.export, "patient", patientId, "communication book (\(plans) plans)", db)
    }
}
