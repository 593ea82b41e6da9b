import Foundation
import GRDB
import HTTPServer

/// The nutritionist's side: prescribe meals, copy a day, review answers and adherence, the food catalogue.
enum NutritionRoutes {
    static let templates = ["nutrition/review", "nutrition/meal-form", "nutrition/foods"]

    static func add(to router: inout Router<Route>) {
        router.legacy(NutritionEndpoints.review, review)
        router.legacy(NutritionEndpoints.newMeal, newMeal)
        router.legacy(NutritionEndpoints.createMeal, createMeal)
        router.legacy(NutritionEndpoints.editMeal, editMeal)
        router.legacy(NutritionEndpoints.updateMeal, updateMeal)
        router.legacy(NutritionEndpoints.withdrawMeal, withdrawMeal)
        router.legacy(NutritionEndpoints.copyDay, copyDay)
        router.legacy(NutritionEndpoints.addWeight, addWeight)
        router.legacy(NutritionEndpoints.showFoods, showFoods)
        router.legacy(NutritionEndpoints.createFood, createFood)
    }

    /// A linked patient, for a clinician with the nutrition specialty.
    static func patient(_ context: RequestContext, _ db: Database) throws -> (Patient, User) {
        let actor = try requireNutritionist(context)
        let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
        return (patient, try User.fetchOne(db, key: patient.userId)!)
    }

    /// Nutrition pages need the nutrition specialty: a speech therapist linked to the same child gets 403.
    static func requireNutritionist(_ context: RequestContext) throws -> Actor {
        let actor = try context.requireActor()
        guard actor.specialties.contains(.nutrition) else { throw AppError.forbidden }
        return actor
    }

    static func today(_ context: RequestContext) -> (date: String, time: String) {
        let zone = context.app.configuration.timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: context.now)
        return (ISODate.string(context.now, timeZone: zone), String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0))
    }

    // MARK: - Review

    @Sendable static func review(_ context: RequestContext) throws -> Response {
        try reviewPage(context)
    }

    /// The review page; a refused copy or weight form comes back with what was typed and its errors.
    static func reviewPage(_ context: RequestContext, copyForm: FormState? = nil, status: Status = .ok) throws -> Response {
        let page = try context.database.read { db in try reviewModel(context, copyForm: copyForm, db) }
        return context.render("nutrition/review", title: "nutrition_review_title", page, status: status)
    }

    /// The review page's model, inside the caller's one database access.
    static func reviewModel(_ context: RequestContext, copyForm: FormState? = nil, weightForm: FormState? = nil,
                            _ db: Database) throws -> ReviewPage {
        let now = today(context)
        let query = context.request.query
        let from = query["from"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: context.format.timeZone) }
            ?? ISODate.adding(-13, to: now.date)
        let to = query["to"].flatMap(context.format.parseDate).map { ISODate.string($0, timeZone: context.format.timeZone) }
            ?? ISODate.adding(7, to: now.date)
        let (patient, user) = try patient(context, db)
        let meals = try Meal.filter(Meal.Columns.patientId == patient.userId && Meal.Columns.date >= from && Meal.Columns.date <= to)
            .order(Meal.Columns.date.desc, Meal.Columns.time.desc).fetchAll(db)
        let screens = try MealScreen.fetch(meals, db)
        return ReviewPage(patient: patient, user: user, screens: screens, from: from, to: to, now: now,
                          queueHead: try overdueHead(patientId: patient.userId, now: now, db),
                          deviations: try Adherence.deviations(patientId: patient.userId, db),
                          weights: try Weights.entries(of: patient.userId, forClinician: true, db),
                          copyForm: copyForm ?? FormState(values: ["source": now.date]), weightForm: weightForm ?? FormState(),
                          context: context)
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

    // MARK: - Prescribing

    @Sendable static func newMeal(_ context: RequestContext) throws -> Response {
        let date = context.request.query["date"] ?? today(context).date
        let page = try context.database.read { db in
            let (patient, user) = try patient(context, db)
            return MealFormPage(patientId: patient.userId, patientName: user.displayName, action: "/patients/\(patient.userId)/meals",
                                form: FormState(values: ["type": "lunch", "date": date, "time": MealType.lunch.usualTime]),
                                foods: try foodOptions(context, db), lineCount: 6, isNew: true, context.t)
        }
        return context.render("nutrition/meal-form", title: "meal_new_title", page)
    }

    @Sendable static func createMeal(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: MealInput.fieldNames)
        let day = today(context).date
        return try context.database.write { db in
            let (patient, user) = try patient(context, db)
            guard let input = try MealInput.read(&form, today: day, context.format, context.t, db) else {
                return context.render("nutrition/meal-form", title: "meal_new_title",
                                      MealFormPage(patientId: patient.userId, patientName: user.displayName,
                                                   action: "/patients/\(patient.userId)/meals", form: form,
                                                   foods: try foodOptions(context, db), lineCount: 6, isNew: true, context.t),
                                      status: .unprocessableContent)
            }
            let id = try input.insert(patientId: patient.userId, clinicianId: actor.userId, at: context.now, db)
            try context.audit.record(.create, "meal", id, "\(input.date) \(input.time) \(input.type.rawValue)", db)
            return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "meal_created")
        }
    }

    @Sendable static func editMeal(_ context: RequestContext) throws -> Response {
        let page = try context.database.read { db in
            let (patient, user) = try patient(context, db)
            let screen = try pendingMeal(context, patientId: patient.userId, db)
            return MealFormPage(patientId: patient.userId, patientName: user.displayName,
                                action: "/patients/\(patient.userId)/meals/\(screen.meal.id!)",
                                form: MealInput.formState(of: screen, context.format), foods: try foodOptions(context, db),
                                lineCount: max(6, screen.lines.count + 2), isNew: false, context.t)
        }
        return context.render("nutrition/meal-form", title: "meal_edit_title", page)
    }

    /// Only a pending meal can change; an answered one is the patient's record.
    static func pendingMeal(_ context: RequestContext, patientId: Int64, _ db: Database) throws -> MealScreen {
        guard let meal = try Meal.filter(Meal.Columns.patientId == patientId).filter(key: context.id("meal")).fetchOne(db) else {
            throw AppError.notFound
        }
        guard meal.mealStatus == .pending else { throw AppError.conflict }
        return try MealScreen.fetch(meal, db)
    }

    @Sendable static func updateMeal(_ context: RequestContext) throws -> Response {
        var form = FormState(context.request.form, fields: MealInput.fieldNames)
        let day = today(context).date
        return try context.database.write { db in
            let (patient, user) = try patient(context, db)
            let screen = try pendingMeal(context, patientId: patient.userId, db)
            guard let input = try MealInput.read(&form, today: day, context.format, context.t, db) else {
                return context.render("nutrition/meal-form", title: "meal_edit_title",
                                      MealFormPage(patientId: patient.userId, patientName: user.displayName,
                                                   action: "/patients/\(patient.userId)/meals/\(screen.meal.id!)", form: form,
                                                   foods: try foodOptions(context, db), lineCount: max(6, screen.lines.count + 2),
                                                   isNew: false, context.t),
                                      status: .unprocessableContent)
            }
            try input.replace(screen.meal, db)
            try context.audit.record(.update, "meal", screen.meal.id, "\(input.date) \(input.time) \(input.type.rawValue)", db)
            return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "meal_updated")
        }
    }

    @Sendable static func withdrawMeal(_ context: RequestContext) throws -> Response {
        try context.database.write { db in
            let (patient, _) = try patient(context, db)
            let screen = try pendingMeal(context, patientId: patient.userId, db)
            _ = try Meal.deleteOne(db, key: screen.meal.id)
            try context.audit.record(.delete, "meal", screen.meal.id, "\(screen.meal.date) \(screen.meal.time)", db)
            return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "meal_withdrawn")
        }
    }

    /// Copies every meal of one day to each day of a range (a weekly plan in a few clicks). A day that
    /// already has a meal of the same type at the same time keeps it, so copying twice adds nothing.
    @Sendable static func copyDay(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["source", "from", "to"])
        guard let (source, targets) = MealInput.copyRange(&form, today: today(context).date, context.format, context.t) else {
            return try reviewPage(context, copyForm: form, status: .unprocessableContent)
        }
        return try context.database.write { db in
            let (patient, _) = try patient(context, db)
            let meals = try MealScreen.fetch(try Meal.filter(Meal.Columns.patientId == patient.userId && Meal.Columns.date == source).fetchAll(db), db)
            guard !meals.isEmpty else { return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "copy_empty_day") }
            var created = 0
            for day in targets where day != source {
                for screen in meals {
                    let exists = try Meal.filter(Meal.Columns.patientId == patient.userId && Meal.Columns.date == day
                                                 && Column("type") == screen.meal.type && Meal.Columns.time == screen.meal.time).fetchCount(db) > 0
                    if exists { continue }
                    let input = MealInput(type: screen.meal.mealType, customName: screen.meal.customName, date: day,
                                          time: screen.meal.time,
                                          lines: screen.lines.map { ($0.food.id!, $0.line.quantity, $0.line.lineUnit) })
                    _ = try input.insert(patientId: patient.userId, clinicianId: actor.userId, at: context.now, db)
                    created += 1
                }
            }
            try context.audit.record(.create, "meal", nil, "copied \(source) → \(targets.first ?? "")…\(targets.last ?? ""): \(created)", db)
            return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "meals_copied")
        }
    }

    @Sendable static func addWeight(_ context: RequestContext) throws -> Response {
        var form = FormState(context.request.form, fields: ["measuredOn", "kg"])
        // A weight before the patient's birth is refused, so the form is read inside the write that knows it.
        return try context.database.write { db in
            let (patient, _) = try patient(context, db)
            guard let entry = Weights.read(&form, today: context.now, birthDate: patient.birthDate, context.format, context.t) else {
                return context.render("nutrition/review", title: "nutrition_review_title",
                                      try reviewModel(context, weightForm: form, db), status: .unprocessableContent)
            }
            try Weights.add([entry], patientId: patient.userId, source: "clinician", at: context.now, db)
            try context.audit.record(.create, "weightEntry", patient.userId, "\(entry.date) \(entry.kg)", db)
            return context.redirect(to: "/patients/\(patient.userId)/nutrition", flash: "weight_saved")
        }
    }

    // MARK: - Foods

    static func foodOptions(_ context: RequestContext, _ db: Database) throws -> [FoodOption] {
        try Food.order(sql: "\(Food.nameColumn(context.locale)) COLLATE NOCASE").fetchAll(db).map {
            FoodOption(id: $0.id!, name: $0.name(context.locale), unit: context.t["unit_\($0.unit)"])
        }
    }

    @Sendable static func showFoods(_ context: RequestContext) throws -> Response {
        try foodsPage(context, form: FormState(values: ["unit": "portion", "gramsPerUnit": "100"]))
    }

    static func foodsPage(_ context: RequestContext, form: FormState, status: Status = .ok) throws -> Response {
        _ = try requireNutritionist(context)
        let search = context.request.query["q"] ?? ""
        let foods = try context.database.read { db in
            try Food.filter(sql: "\(Food.nameColumn(context.locale)) LIKE ?", arguments: ["%\(search)%"])
                .order(sql: "\(Food.nameColumn(context.locale)) COLLATE NOCASE").fetchAll(db)
        }
        return context.render("nutrition/foods", title: "foods_title",
                              FoodsPage(foods: foods, search: search, form: form, context.t, context.format), status: status)
    }

    @Sendable static func createFood(_ context: RequestContext) throws -> Response {
        let actor = try requireNutritionist(context)
        var form = FormState(context.request.form, fields: ["name", "unit", "gramsPerUnit", "kcal", "protein", "carbohydrate", "fat"])
        guard let food = FoodInput.read(&form, context.t, context.format, createdBy: actor.userId) else {
            return try foodsPage(context, form: form, status: .unprocessableContent)
        }
        try context.database.write { db in
            var food = food
            try food.insert(db)
            try context.audit.record(.create, "food", food.id, food.namePtBR, db)
        }
        return context.redirect(to: "/foods", flash: "food_created")
    }
}
