import GRDB

/// What the nutritionist's pages show, read inside the request's one database access.
enum NutritionQueries {
    /// Everything the review page shows of one patient over a period.
    struct Review: Sendable {
        let linked: PeopleQueries.Person
        let screens: [MealScreen]
        /// The oldest pending meal when its time has passed, and how many are overdue.
        let queueHead: (MealScreen, Int)?
        let deviations: [Adherence.Deviation]
        let weights: [WeightEntry]
    }

    static func review(patientId: Int64, visibleTo actor: Actor, from: String, to: String,
                       now: (date: String, time: String), _ db: Database) throws -> Review {
        let linked = try PeopleQueries.person(patientId, visibleTo: actor, db)
        let meals = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date >= from && Meal.Columns.date <= to)
            .order(Meal.Columns.date.desc, Meal.Columns.time.desc).fetchAll(db)
        return Review(linked: linked, screens: try MealScreen.fetch(meals, db),
                      queueHead: try overdueHead(patientId: patientId, now: now, db),
                      deviations: try Adherence.deviations(patientId: patientId, db),
                      weights: try Weights.entries(of: patientId, forClinician: true, db))
    }

    /// The patient's oldest pending meal when its time has passed, with how many are overdue: the
    /// patient answers in order, so it blocks every later meal, whatever period the page shows.
    static func overdueHead(patientId: Int64, now: (date: String, time: String), _ db: Database) throws -> (MealScreen, Int)? {
        guard let head = try Meal.queue(of: patientId).fetchOne(db),
              NutritionDates.isOverdue(date: head.date, time: head.time, now: now) else { return nil }
        let overdue = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM meal WHERE patientId = ? AND status = 'pending' AND (date < ? OR (date = ? AND time < ?))
            """, arguments: [patientId, now.date, now.date, now.time]) ?? 0
        return (try MealScreen.fetch(head, db), overdue)
    }

    /// The catalogue in the reader's language, by name.
    static func foods(matching search: String = "", in locale: AppLocale, _ db: Database) throws -> [Food] {
        var request = Food.all()
        if !search.isEmpty { request = request.filter(sql: "\(Food.nameColumn(locale)) LIKE ?", arguments: ["%\(search)%"]) }
        return try request.order(sql: "\(Food.nameColumn(locale)) COLLATE NOCASE").fetchAll(db)
    }

    /// What the prescription form needs: the patient and the catalogue.
    struct MealForm: Sendable {
        let linked: PeopleQueries.Person
        let foods: [Food]
    }

    static func mealForm(patientId: Int64, visibleTo actor: Actor, locale: AppLocale, _ db: Database) throws -> MealForm {
        MealForm(linked: try PeopleQueries.person(patientId, visibleTo: actor, db), foods: try foods(in: locale, db))
    }

    /// A meal of the patient that can still change; an answered one is the patient's record (409),
    /// another patient's or a withdrawn one is not found.
    static func pendingMeal(_ mealId: Int64, patientId: Int64, _ db: Database) throws -> MealScreen {
        guard let meal = try Meal.filter(Meal.Columns.patientId == patientId).filter(key: mealId).fetchOne(db) else {
            throw AppError.notFound
        }
        guard meal.mealStatus == .pending else { throw AppError.conflict }
        return try MealScreen.fetch(meal, db)
    }
}
