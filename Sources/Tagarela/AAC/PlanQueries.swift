import Foundation
import GRDB

/// What the plan pages show, each read in the request's one transaction. Every function checks that
/// the actor may see the patient or plan first (`PatientScope`, `PlanScope`): a 404 otherwise.
enum PlanQueries {
    struct Patient {
        let id: Int64
        let name: String
        /// The language the patient's boards speak, for `lang` on other languages' pages: the voice of most
        /// of their words, else the patient's own language (Carla reads a Catalan screen, her boards speak
        /// Portuguese).
        let locale: AppLocale?
    }

    /// The patient, if the actor may see them, with the name pages print.
    static func patient(_ id: Int64, visibleTo actor: Actor, _ db: Database) throws -> Patient {
        try person(try PatientScope.find(id, visibleTo: actor, db).userId, db)
    }

    static func person(_ userId: Int64, _ db: Database) throws -> Patient {
        guard let user = try User.fetchOne(db, key: userId) else { throw AppError.notFound }
        let spoken = try String.fetchOne(db, sql: """
            SELECT s.voice FROM planCell c JOIN plan p ON p.id = c.planId JOIN symbol s ON s.id = c.symbolId
            WHERE p.patientId = ? AND s.voice IS NOT NULL GROUP BY s.voice ORDER BY count(*) DESC, s.voice LIMIT 1
            """, arguments: [userId])
        return Patient(id: userId, name: user.displayName, locale: spoken.flatMap(AppLocale.init(rawValue:)) ?? user.appLocale)
    }

    static func displayName(of userId: Int64, _ db: Database) throws -> String {
        guard let user = try User.fetchOne(db, key: userId) else { throw AppError.notFound }
        return user.displayName
    }

    struct List {
        let patient: Patient
        let plans: [Plan]
        let tutors: [User]
    }

    /// A patient's plans, newest first, with their tutors (a plan may be for one of them).
    static func list(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> List {
        let patient = try patient(patientId, visibleTo: actor, db)
        return List(patient: patient, plans: try plans(of: patient.id, db), tutors: try People.tutors(of: patient.id, db))
    }

    static func plans(of patientId: Int64, _ db: Database) throws -> [Plan] {
        try Plan.filter(Column("patientId") == patientId).order(Column("startsOn").desc, Column("id")).fetchAll(db)
    }

    struct NewPlan {
        let patient: Patient
        let tutors: [User]
    }

    /// What the plan form offers: the patient's tutors.
    static func newPlan(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> NewPlan {
        let patient = try patient(patientId, visibleTo: actor, db)
        return NewPlan(patient: patient, tutors: try People.tutors(of: patient.id, db))
    }

    /// The symbol chooser's filter, from the editor's address.
    struct SymbolFilter: Sendable {
        var category: Int64?
        var search = ""
        /// The chooser shows the first ones, by name.
        var limit = 60
    }

    /// The symbols a clinician may put on a patient's plan (their general ones and the patient's own),
    /// by name, filtered as the chooser asks.
    static func usableSymbols(clinicianId: Int64, patientId: Int64, _ filter: SymbolFilter, _ db: Database) throws -> [Symbol] {
        var symbols = SymbolScope.usable(by: clinicianId, for: patientId).order(Column("name").collating(.nocase))
        if let category = filter.category { symbols = symbols.filter(Column("categoryId") == category) }
        if !filter.search.isEmpty { symbols = symbols.filter(Column("name").like("%\(filter.search)%")) }
        return try symbols.limit(filter.limit).fetchAll(db)
    }

    struct BoardEditor {
        let screen: BoardScreen
        let patient: Patient
        let categories: [Category]
        let symbols: [Symbol]
        /// The patient's other boards, which a folder cell may open.
        let boards: [Plan]
    }

    /// What the editor of a plan shows: a board's grid, or a sentence plan's vocabulary.
    enum Editor {
        case board(BoardEditor)
        case sentence(SentenceQueries.Editor)
    }

    /// The plan, if the clinician may change it, with what its editor shows. `add` is the role a sentence
    /// plan's chooser adds a word to (none: no chooser).
    static func editor(planId: Int64, by actor: Actor, filter: SymbolFilter, add role: SentenceWord.Role?,
                       _ db: Database) throws -> Editor {
        let plan = try PlanScope.editable(planId, by: actor, db)
        if plan.planType == .sentence {
            return .sentence(try SentenceQueries.editor(plan, by: actor, filter: filter, add: role, db))
        }
        return .board(BoardEditor(
            screen: try BoardScreen.fetch(plan, db), patient: try person(plan.patientId, db),
            categories: try Category.forClinicianReadOnly(actor.userId, db),
            symbols: try usableSymbols(clinicianId: actor.userId, patientId: plan.patientId, filter, db),
            boards: try Plan.filter(Column("patientId") == plan.patientId && Column("id") != plan.id
                                    && Column("type") == PlanType.board.rawValue).fetchAll(db)))
    }

    /// One printed sheet of a plan: its grid, or a sentence plan's words.
    static func sheet(_ plan: Plan, patient: Patient, pageNumber: Int?, pages: [Int64: Int], _ t: Translator,
                      _ db: Database) throws -> PrintSheet {
        if plan.planType == .sentence {
            return PrintSheet(sentencePlan: plan, grammar: try SentenceGrammar.fetch(planId: plan.id!, db), patientName: patient.name,
                              wordsLang: t.locale.lang(of: patient.locale), pageNumber: pageNumber, t)
        }
        return PrintSheet(board: BoardView(try BoardScreen.fetch(plan, db), t), patientName: patient.name,
                          wordsLang: t.locale.lang(of: patient.locale), description: plan.description, pageNumber: pageNumber,
                          pages: pages, t)
    }

    struct Book {
        let patient: Patient
        /// In the book's order (`BookPage.order`).
        let plans: [Plan]
        let clinicianNames: [String]
    }

    /// Every plan of the patient, in the book's order, and the clinicians who made them.
    static func book(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> Book {
        let patient = try patient(patientId, visibleTo: actor, db)
        let plans = BookPage.order(try Plan.filter(Column("patientId") == patient.id).fetchAll(db))
        return Book(patient: patient, plans: plans,
                    clinicianNames: try User.fetchAll(db, keys: Set(plans.map(\.clinicianId))).map(\.displayName).sorted())
    }
}
