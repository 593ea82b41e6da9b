import Foundation
import GRDB

/// What the goal pages read, each within the reader's patients (`PatientScope`).
extension GoalQueries {
    /// Names the description of a goal needs: its symbol's and its category's.
    struct Names: Sendable {
        var symbols: [Int64: String] = [:]
        var categories: [Int64: String] = [:]
    }

    struct List: Sendable {
        let person: PeopleQueries.Person
        /// Open goals first (by last day), then closed ones (latest closed first).
        let goals: [Goal]
        let progress: [Int64: GoalProgress]
        let names: Names
    }

    /// A patient's goals with their progress on `today`, open and closed.
    static func list(patientId: Int64, visibleTo actor: Actor, today: String, timeZone: TimeZone, _ db: Database) throws -> List {
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        let goals = try Goal.fetchAll(db, sql: """
            SELECT * FROM goal WHERE patientId = ?
            ORDER BY closedAt IS NOT NULL, CASE WHEN closedAt IS NULL THEN endsOn END, closedAt DESC, id
            """, arguments: [person.patient.userId]).filter { GoalAccess.mayRead($0.goalKind, actor) }
        return List(person: person, goals: goals, progress: try measure(goals, today: today, timeZone: timeZone, db), names: try names(goals, db))
    }

    /// A patient's own open goals, soonest last day first, with their progress on `today`.
    static func mine(patientId: Int64, today: String, timeZone: TimeZone, _ db: Database) throws -> (goals: [Goal], progress: [Int64: GoalProgress]) {
        let goals = try Goal.filter(Goal.Columns.patientId == patientId && Goal.Columns.closedAt == nil)
            .order(Column("endsOn"), Column("id")).fetchAll(db)
        return (goals, try measure(goals, today: today, timeZone: timeZone, db))
    }

    struct Detail: Sendable {
        let person: PeopleQueries.Person
        let goal: Goal
        let progress: GoalProgress
        let names: Names
        let events: [GoalEvent]
        /// The notes the reader may see: clinicians see every note; tutors the tutors' notes only.
        let notes: [GoalNote]
        /// The measure week by week (`GoalChart.days`), oldest first.
        let history: [(day: String, measured: Double?)]
    }

    /// One goal of a patient the actor may see; a goal of another patient is not found.
    static func detail(goalId: Int64, patientId: Int64, visibleTo actor: Actor, today: String, timeZone: TimeZone,
                       _ db: Database) throws -> Detail {
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        guard let goal = try Goal.filter(key: goalId).filter(Goal.Columns.patientId == person.patient.userId).fetchOne(db),
              GoalAccess.mayRead(goal.goalKind, actor) else {
            throw AppError.notFound
        }
        let events = try GoalEvent.filter(Column("goalId") == goalId).order(Column("at").desc, Column("id").desc).fetchAll(db)
        var notes = GoalNote.filter(Column("goalId") == goalId)
        if actor.role != .clinician { notes = notes.filter(Column("isPrivate") == false) }
        let progress = try measure([goal], today: today, timeZone: timeZone, db)[goalId]!
        let history = try GoalQueries.history(of: [goal], days: GoalChart.days(of: goal, today: today, timeZone: timeZone),
                                              timeZone: timeZone, db)[goalId] ?? []
        return Detail(person: person, goal: goal, progress: progress, names: try names([goal], db), events: events,
                      notes: try notes.order(Column("createdAt").desc, Column("id").desc).fetchAll(db), history: history)
    }

    /// The goal being edited, with the patient; not found outside the actor's patients.
    static func goal(_ goalId: Int64, patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> (PeopleQueries.Person, Goal) {
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        guard let goal = try Goal.filter(key: goalId).filter(Goal.Columns.patientId == person.patient.userId).fetchOne(db) else {
            throw AppError.notFound
        }
        return (person, goal)
    }

    /// The symbols on the patient's boards and their categories: what a communication goal may count.
    static func options(patientId: Int64, _ db: Database) throws -> GoalInput.Options {
        let symbols = try PlanSymbols.of(patient: patientId, db)
        let categoryIds = Array(Set(symbols.map(\.categoryId)))
        let categories = try Category.fetchAll(db, keys: categoryIds).sorted { $0.name.localizedCompare($1.name) == .orderedAscending }
        return GoalInput.Options(symbols: symbols.map { ($0.id!, $0.name) }, categories: categories.map { ($0.id!, $0.name) })
    }

    static func names(_ goals: [Goal], _ db: Database) throws -> Names {
        var names = Names()
        let symbolIds = goals.compactMap(\.symbolId), categoryIds = goals.compactMap(\.categoryId)
        if !symbolIds.isEmpty {
            for symbol in try Symbol.fetchAll(db, keys: symbolIds) { names.symbols[symbol.id!] = symbol.name }
        }
        if !categoryIds.isEmpty {
            for category in try Category.fetchAll(db, keys: categoryIds) { names.categories[category.id!] = category.name }
        }
        return names
    }
}
