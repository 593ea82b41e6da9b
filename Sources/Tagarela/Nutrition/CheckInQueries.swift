import GRDB

/// What the patient's meal and measurement pages show, read inside the request's one database access.
enum CheckInQueries {
    /// The head of the patient's queue (the meal whose turn it is) and how many wait behind it.
    struct Queue: Sendable {
        let next: MealScreen?
        let waiting: Int
    }

    static func queue(patientId: Int64, _ db: Database) throws -> Queue {
        let pending = try Meal.queue(of: patientId).fetchAll(db)
        guard let next = pending.first else { return Queue(next: nil, waiting: 0) }
        return Queue(next: try MealScreen.fetch(next, db), waiting: pending.count - 1)
    }

    /// Whether the patient may answer a meal now; any other is refused with a clear message.
    enum Turn {
        case current(Meal)
        case answered
        /// Not the oldest pending meal.
        case notYet
        /// The oldest pending meal, but of a later day.
        case notToday(Meal)
        /// Not in the patient's plan: withdrawn by the nutritionist, or never theirs.
        case gone
    }

    static func turn(of mealId: Int64, patientId: Int64, today: String, _ db: Database) throws -> Turn {
        // Every check-in asks this twice (form, then answer): prepared statements kept by the connection.
        guard let meal = try Meal.fetchOne(db, SQLRequest(sql: "SELECT * FROM meal WHERE id = ? AND patientId = ?",
                                                          arguments: [mealId, patientId], cached: true))
        else { return .gone }
        if meal.mealStatus != .pending { return .answered }
        guard try Meal.headOfQueue(of: patientId, db) == meal.id else { return .notYet }
        return NutritionDates.isAnswerable(mealDate: meal.date, today: today) ? .current(meal) : .notToday(meal)
    }

    /// The foods named by `ids` (what a refused answer's quantities were typed for).
    static func foods(_ ids: Set<Int64>, _ db: Database) throws -> [Int64: Food] {
        guard !ids.isEmpty else { return [:] }
        return Dictionary(uniqueKeysWithValues: try Food.fetchAll(db, keys: ids).map { ($0.id!, $0) })
    }

    /// The patient's own meals of the week starting at `monday`: their plan, with what they answered.
    static func plan(patientId: Int64, monday: String, _ db: Database) throws -> [MealScreen] {
        try NutritionQueries.weekMeals(patientId: patientId, monday: monday, db)
    }

    /// The patient's answered meals, newest first (the last 200).
    static func history(patientId: Int64, _ db: Database) throws -> [MealScreen] {
        let answered = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.status != MealStatus.pending.rawValue)
            .order(Meal.Columns.date.desc, Meal.Columns.time.desc, Column("id").desc).limit(200).fetchAll(db)
        return try MealScreen.fetch(answered, db)
    }

    /// One answered meal of the patient; a pending one, or another patient's, is not found.
    static func answeredMeal(_ mealId: Int64, patientId: Int64, _ db: Database) throws -> MealScreen {
        guard let meal = try Meal.filter(Meal.Columns.patientId == patientId).filter(key: mealId).fetchOne(db),
              meal.mealStatus != .pending
        else { throw AppError.notFound }
        return try MealScreen.fetch(meal, db)
    }

    /// Where a meal's plate photo is stored, for the patient and for staff linked to them; a meal
    /// `actor` may not see is not found.
    static func photoPath(ofMeal mealId: Int64, visibleTo actor: Actor, _ db: Database) throws -> String? {
        guard let meal = try Meal.fetchOne(db, key: mealId) else { throw AppError.notFound }
        _ = try PatientScope.find(meal.patientId, visibleTo: actor, db)
        return meal.photoPath
    }

    /// The patient's weights and whether they share them.
    struct Measurements: Sendable {
        let patient: Patient
        let entries: [WeightEntry]
        /// Weights the clinic imported from other systems' FHIR Bundles.
        let imported: [ImportedMeasurement]
    }

    static func measurements(patientId: Int64, visibleTo actor: Actor, _ db: Database) throws -> Measurements {
        Measurements(patient: try PatientScope.find(patientId, visibleTo: actor, db), entries: try Weights.entries(of: patientId, db),
                     imported: try FHIRMeasurements.of(patientId, kinds: ["weight"], db))
    }
}
