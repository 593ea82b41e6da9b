import GRDB

/// What the nutritionist's pages show, read inside the request's one database access.
enum NutritionQueries {
    /// Everything the week page shows of one patient: the week's meals in full, and the energy and
    /// answers of the four weeks that end with it (for the summaries, the chart and the meals not followed).
    struct Week: Sendable {
        let linked: PeopleQueries.Person
        let monday: String
        let screens: [MealScreen]
        /// First day of the summaries' period (`periodWeeks` weeks ending with the week's Sunday).
        let periodFrom: String
        let period: [MealEnergy]
        /// The oldest pending meal when its time has passed, and how many are overdue.
        let queueHead: (MealScreen, Int)?
        let deviations: [Adherence.Deviation]
        let weights: [WeightEntry]
        /// Weights imported from other systems' FHIR Bundles, shown beside the log's, marked as imported.
        let importedWeights: [ImportedMeasurement]
        /// The patient's daily target, when the nutritionist set one.
        let target: DailyTarget?
    }

    static let periodWeeks = 4

    static func week(patientId: Int64, visibleTo actor: Actor, monday: String, now: (date: String, time: String),
                     _ db: Database) throws -> Week {
        let linked = try PeopleQueries.person(patientId, visibleTo: actor, db)
        let sunday = ISODate.adding(6, to: monday)
        let periodFrom = ISODate.adding(-7 * (periodWeeks - 1), to: monday)
        return Week(linked: linked, monday: monday, screens: try weekMeals(patientId: patientId, monday: monday, db),
                    periodFrom: periodFrom, period: try energies(patientId: patientId, from: periodFrom, to: sunday, db),
                    queueHead: try overdueHead(patientId: patientId, now: now, db),
                    deviations: try Adherence.deviations(patientId: patientId, limit: 5, db),
                    weights: try Weights.entries(of: patientId, forClinician: true, db),
                    importedWeights: try FHIRMeasurements.of(patientId, kinds: ["weight"], db),
                    target: try DailyTarget.fetchOne(db, key: patientId))
    }

    /// The meals of the week starting at `monday`, in full (lines and foods), by day and time.
    static func weekMeals(patientId: Int64, monday: String, _ db: Database) throws -> [MealScreen] {
        let meals = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date >= monday
                                    && Meal.Columns.date <= ISODate.adding(6, to: monday))
            .order(Meal.Columns.date, Meal.Columns.time, Column("id")).fetchAll(db)
        return try MealScreen.fetch(meals, db)
    }

    /// One meal of a period with its energy summed in SQL (one row per meal, whatever its lines).
    struct MealEnergy: Sendable {
        let id: Int64
        let date: String
        let time: String
        let type: MealType
        let customName: String?
        let status: MealStatus
        let reason: String?
        let eatenInstead: String?
        let eatenShare: Int?
        let plannedKcal: Double
        /// Of the consumed quantities (the prescribed ones where none was recorded).
        let consumedKcal: Double

        var eatenKcal: Double? {
            NutritionWeek.eatenKcal(status, plannedKcal: plannedKcal, consumedKcal: consumedKcal, eatenShare: eatenShare)
        }

        var scheduled: NutritionRules.ScheduledMeal {
            .init(status: status, date: date, time: time, plannedKcal: plannedKcal, eatenKcal: eatenKcal)
        }
    }

    /// The same arithmetic as `NutritionRules.nutrients`: a household quantity counts its unit's grams,
    /// grams and millilitres count as themselves.
    /// The line's own figures (as prescribed), not the catalogue's present ones.
    private static let gramsSQL = "CASE l.unit WHEN 'household' THEN %@ * l.foodGramsPerUnit ELSE %@ END * l.foodKcalPer100g / 100"

    static func energies(patientId: Int64, from: String, to: String, _ db: Database) throws -> [MealEnergy] {
        let planned = String(format: gramsSQL, "l.quantity", "l.quantity")
        let consumed = String(format: gramsSQL, "coalesce(l.consumedQuantity, l.quantity)", "coalesce(l.consumedQuantity, l.quantity)")
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT m.id, m.date, m.time, m.type, m.customName, m.status, m.reason, m.eatenInstead, m.eatenShare,
                   coalesce(sum(\(planned)), 0) AS planned, coalesce(sum(\(consumed)), 0) AS consumed
            FROM meal m LEFT JOIN mealLine l ON l.mealId = m.id
            WHERE m.patientId = ? AND m.date >= ? AND m.date <= ?
            GROUP BY m.id ORDER BY m.date, m.time, m.id
            """), arguments: [patientId, from, to])
        return rows.map { row in
            MealEnergy(id: row[0], date: row[1], time: row[2], type: MealType(rawValue: row[3]) ?? .custom, customName: row[4],
                       status: MealStatus(rawValue: row[5]) ?? .pending, reason: row[6], eatenInstead: row[7], eatenShare: row[8],
                       plannedKcal: row[9], consumedKcal: row[10])
        }
    }

    /// The weekly plan to print: the patient's name and the week's meals.
    struct Plan: Sendable {
        let name: String
        let screens: [MealScreen]
    }

    static func plan(patientId: Int64, visibleTo actor: Actor, monday: String, _ db: Database) throws -> Plan {
        let linked = try PeopleQueries.person(patientId, visibleTo: actor, db)
        return Plan(name: linked.user.displayName, screens: try weekMeals(patientId: patientId, monday: monday, db))
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

    /// The version of a patient's daily target (0: none yet).
    static func targetVersion(_ patientId: Int64, _ db: Database) throws -> Int {
        try DailyTarget.fetchOne(db, key: patientId)?.version ?? 0
    }

    /// One food of the catalogue (hidden ones are gone for the catalogue's pages: 404).
    static func food(_ id: Int64, _ db: Database) throws -> Food {
        guard let food = try Food.fetchOne(db, key: id), food.hiddenAt == nil else { throw AppError.notFound }
        return food
    }

    /// How many meal lines prescribe a food (what a merge moves, what makes a removal a hiding).
    static func foodUses(_ id: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM mealLine WHERE foodId = ?", arguments: [id]) ?? 0
    }

    /// The catalogue in the reader's language, by name; hidden foods are left out.
    static func foods(matching search: String = "", in locale: AppLocale, _ db: Database) throws -> [Food] {
        var request = Food.filter(sql: "hiddenAt IS NULL")
        if !search.isEmpty { request = request.filter(sql: "\(Food.nameColumn(locale)) LIKE ?", arguments: ["%\(search)%"]) }
        return try request.order(sql: "\(Food.nameColumn(locale)) COLLATE NOCASE").fetchAll(db)
    }

    /// What the prescription form needs: the patient and the catalogue.
    struct MealForm: Sendable {
        let linked: PeopleQueries.Person
        let foods: [Food]
    }

    /// The catalogue for the form; editing `mealId`, also the hidden foods it prescribes, so they stay chosen.
    static func mealForm(patientId: Int64, visibleTo actor: Actor, locale: AppLocale, keeping mealId: Int64? = nil,
                         _ db: Database) throws -> MealForm {
        var list = try foods(in: locale, db)
        if let mealId {
            list += try Food.fetchAll(db, sql: """
                SELECT * FROM food WHERE hiddenAt IS NOT NULL AND id IN (SELECT foodId FROM mealLine WHERE mealId = ?)
                """, arguments: [mealId])
        }
        return MealForm(linked: try PeopleQueries.person(patientId, visibleTo: actor, db), foods: list)
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

    /// What in `input` deserves a second look (`PrescriptionChecks`), against the patient's other meals
    /// that day (`excluding` the meal being edited).
    static func prescriptionWarnings(_ input: MealInput, patientId: Int64, excluding mealId: Int64?,
                                     _ db: Database) throws -> [PrescriptionChecks.Warning] {
        let foods = try Food.fetchAll(db, keys: Set(input.lines.map(\.foodId)))
        let byId = Dictionary(uniqueKeysWithValues: foods.map { ($0.id!, $0) })
        let lines = input.lines.compactMap { line in
            byId[line.foodId].map { PrescriptionChecks.Line(quantity: line.quantity, unit: line.unit, food: $0.composition) }
        }
        var others = Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date == input.date)
        if let mealId { others = others.filter(Column("id") != mealId) }
        let sameDay = try MealScreen.fetch(try others.fetchAll(db), db).map { screen in
            (type: screen.meal.mealType, time: screen.meal.time, kcal: screen.prescribed.kcal)
        }
        return PrescriptionChecks.warnings(lines: lines, type: input.type, time: input.time, sameDay: sameDay)
    }
}
