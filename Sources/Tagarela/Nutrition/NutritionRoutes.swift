import Foundation
import GRDB
import HTTPServer

/// The nutritionist's side: prescribe meals, copy a day, review answers and adherence, the food catalogue.
enum NutritionRoutes: Feature {
    static let templates = ["nutrition/review", "nutrition/week-meal", "nutrition/plan", "nutrition/meal-form",
                            "nutrition/food-options", "nutrition/foods", "nutrition/food-edit"]

    static func add(to router: inout Router<Route>) {
        router.add(NutritionEndpoints.review) { $0.read(review) }
        router.add(NutritionEndpoints.printPlan) { $0.read(printPlan) }
        router.add(NutritionEndpoints.newMeal) { $0.read(newMeal) }
        router.add(NutritionEndpoints.createMeal) { $0.write(createMeal) }
        router.add(NutritionEndpoints.editMeal) { $0.read(editMeal) }
        router.add(NutritionEndpoints.updateMeal) { $0.write(updateMeal) }
        router.add(NutritionEndpoints.withdrawMeal) { $0.write(withdrawMeal) }
        router.add(NutritionEndpoints.copyDay) { $0.write(copyDay) }
        router.add(NutritionEndpoints.addWeight) { $0.write(addWeight) }
        router.add(NutritionEndpoints.setTarget) { $0.write(setTarget) }
        router.add(NutritionEndpoints.showFoods) { $0.read(showFoods) }
        router.add(NutritionEndpoints.createFood) { $0.write(createFood) }
        router.add(NutritionEndpoints.editFood) { $0.read(editFood) }
        router.add(NutritionEndpoints.updateFood) { $0.write(updateFood) }
        router.add(NutritionEndpoints.mergeFood) { $0.write(mergeFood) }
        router.add(NutritionEndpoints.removeFood) { $0.write(removeFood) }
    }

    /// Nutrition pages need the nutrition specialty: a speech therapist linked to the same child gets 403.
    /// (The routes' access rule says so too; this keeps the rule next to the code that relies on it.)
    static func requireNutritionist(_ context: RequestContext) throws -> Actor {
        let actor = try context.requireActor()
        guard actor.specialties.contains(.nutrition) else { throw AppError.forbidden }
        return actor
    }

    // MARK: - Review

    @Sendable static func review(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        .page("nutrition/review", title: "nutrition_review_title", try reviewModel(context, patientId: patientId, db))
    }

    /// The week page's model; a refused copy or weight form comes back in it with what was typed and its errors.
    static func reviewModel(_ context: RequestContext, patientId: Int64, copyForm: FormState? = nil, weightForm: FormState? = nil,
                            targetForm: FormState? = nil, targetConflict: String? = nil, _ db: Database) throws -> ReviewPage {
        let actor = try requireNutritionist(context)
        let now = context.clinicNow
        let data = try NutritionQueries.week(patientId: patientId, visibleTo: actor, monday: context.monday,
                                             now: now, db)
        return ReviewPage(data: data, now: now, copyForm: copyForm ?? FormState(values: ["source": now.date]),
                          weightForm: weightForm ?? FormState(),
                          targetForm: targetForm ?? DailyTarget.formState(of: data.target, context.format),
                          targetConflict: targetConflict, context: context)
    }

    /// Sets the patient's daily target; a refused value or a second tab comes back on the review page as typed.
    @Sendable static func setTarget(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        _ = try PeopleQueries.person(patientId, visibleTo: actor, db)
        var form = FormState(context.request.form, fields: DailyTarget.fields)
        guard let figures = DailyTarget.read(&form, context.t, context.format) else {
            return .page("nutrition/review", title: "nutrition_review_title",
                         try reviewModel(context, patientId: patientId, targetForm: form, db), status: .unprocessableContent)
        }
        do {
            try DailyTargets.save(patientId: patientId, figures, from: Int(form["targetVersion"]), by: actor.userId,
                                  audit: context.audit, db)
        } catch is DailyTargets.ChangedSinceOpened {
            // What was typed stays; saving again now replaces the other change knowingly.
            form.values["targetVersion"] = "\(try NutritionQueries.targetVersion(patientId, db))"
            return .page("nutrition/review", title: "nutrition_review_title",
                         try reviewModel(context, patientId: patientId, targetForm: form,
                                         targetConflict: context.t["target_changed_elsewhere"], db), status: .conflict)
        }
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: "target_saved")
    }

    /// The week's meal plan on one A4 page, to print for the patient.
    @Sendable static func printPlan(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        let now = context.clinicNow
        let monday = context.monday
        let plan = try NutritionQueries.plan(patientId: patientId, visibleTo: actor, monday: monday, db)
        return .page("nutrition/plan", title: "week_plan_title",
                     MealPlanPage(name: plan.name, screens: plan.screens, monday: monday, now: now, showsToday: false,
                                  weekURL: { NutritionEndpoints.printPlan.path(patientId, query: ["week": $0]) },
                                  backURL: NutritionEndpoints.review.path(patientId, query: ["week": monday]),
                                  backLabel: context.t["week_back_to_week"], checkInURL: nil, context.t, context.format))
    }

    // MARK: - Prescribing

    static func mealFormPage(_ context: RequestContext, _ data: NutritionQueries.MealForm, mealId: Int64? = nil, form: FormState,
                             lineCount: Int = 8, conflict: String? = nil, warnings: [String] = []) -> MealFormPage {
        let patientId = data.linked.patient.userId
        return MealFormPage(patientId: patientId, patientName: data.linked.user.displayName,
                            action: mealId.map { NutritionEndpoints.updateMeal.path(patientId, $0) }
                                ?? NutritionEndpoints.createMeal.path(patientId),
                            form: form, foods: FoodOption.list(data.foods, context), lineCount: lineCount, isNew: mealId == nil,
                            conflict: conflict, warnings: warnings, context.t, foodOptions: { context.piece(alone: "nutrition/food-options", $0) })
    }

    /// The warnings in words: which line, how much, what the day adds up to, which meal is already there.
    static func warningTexts(_ warnings: [PrescriptionChecks.Warning], _ input: MealInput, _ foods: [Food],
                             _ context: RequestContext) -> [String] {
        let t = context.t, format = context.format
        return warnings.map { warning in
            switch warning {
            case .quantity(let index, let grams):
                let line = input.lines[index]
                let name = foods.first { $0.id == line.foodId }?.name(context.locale) ?? ""
                return t("meal_warning_quantity", ["food": name, "quantity": format.decimal(line.quantity, fractionDigits: 2),
                                                   "grams": format.decimal(grams, fractionDigits: 0)])
            case .dailyEnergy(let kcal):
                return t("meal_warning_day_energy", ["kcal": format.decimal(kcal, fractionDigits: 0),
                                                     "max": format.decimal(PrescriptionChecks.maxDailyKcal, fractionDigits: 0)])
            case .sameSlot(let time):
                return t("meal_warning_same_slot", ["date": format.shortDate(iso: input.date), "time": time])
            }
        }
    }

    @Sendable static func newMeal(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        let date = context.request.query["date"] ?? context.today
        let data = try NutritionQueries.mealForm(patientId: patientId, visibleTo: actor, locale: context.locale, db)
        return .page("nutrition/meal-form", title: "meal_new_title",
                     mealFormPage(context, data, form: FormState(values: ["type": "lunch", "date": date, "time": MealType.lunch.usualTime])))
    }

    @Sendable static func createMeal(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        var form = FormState(context.request.form, fields: MealInput.fieldNames)
        let data = try NutritionQueries.mealForm(patientId: patientId, visibleTo: actor, locale: context.locale, db)
        guard let input = try MealInput.read(&form, today: context.today, context.format, context.t, db) else {
            return .page("nutrition/meal-form", title: "meal_new_title", mealFormPage(context, data, form: form),
                         status: .unprocessableContent)
        }
        let warnings = try NutritionQueries.prescriptionWarnings(input, patientId: patientId, excluding: nil, db)
        if !warnings.isEmpty, context.request.form["confirm"] != "1" {
            return .page("nutrition/meal-form", title: "meal_new_title",
                         mealFormPage(context, data, form: form, warnings: warningTexts(warnings, input, data.foods, context)),
                         status: .unprocessableContent)
        }
        try Meals.create(input, patientId: patientId, clinicianId: actor.userId, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: "meal_created")
    }

    @Sendable static func editMeal(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ mealId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        let data = try NutritionQueries.mealForm(patientId: patientId, visibleTo: actor, locale: context.locale, keeping: mealId, db)
        let screen = try NutritionQueries.pendingMeal(mealId, patientId: patientId, db)
        return .page("nutrition/meal-form", title: "meal_edit_title",
                     mealFormPage(context, data, mealId: mealId, form: MealInput.formState(of: screen, context.format),
                                  lineCount: max(8, screen.lines.count + 2)))
    }

    @Sendable static func updateMeal(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ mealId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        var form = FormState(context.request.form, fields: MealInput.fieldNames)
        let data = try NutritionQueries.mealForm(patientId: patientId, visibleTo: actor, locale: context.locale, keeping: mealId, db)
        let screen = try NutritionQueries.pendingMeal(mealId, patientId: patientId, db)
        guard let input = try MealInput.read(&form, today: context.today, context.format, context.t, db) else {
            return .page("nutrition/meal-form", title: "meal_edit_title",
                         mealFormPage(context, data, mealId: mealId, form: form, lineCount: max(8, screen.lines.count + 2)),
                         status: .unprocessableContent)
        }
        let warnings = try NutritionQueries.prescriptionWarnings(input, patientId: patientId, excluding: mealId, db)
        if !warnings.isEmpty, context.request.form["confirm"] != "1", Int(form["version"]) == screen.meal.version {
            return .page("nutrition/meal-form", title: "meal_edit_title",
                         mealFormPage(context, data, mealId: mealId, form: form, lineCount: max(8, screen.lines.count + 2),
                                      warnings: warningTexts(warnings, input, data.foods, context)),
                         status: .unprocessableContent)
        }
        do {
            try Meals.update(screen.meal, from: Int(form["version"]), to: input, audit: context.audit, db)
        } catch is Meals.ChangedSinceOpened {
            // What was typed stays; saving again now replaces the other change knowingly.
            form.values["version"] = "\(screen.meal.version)"
            return .page("nutrition/meal-form", title: "meal_edit_title",
                         mealFormPage(context, data, mealId: mealId, form: form, lineCount: max(8, screen.lines.count + 2),
                                      conflict: context.t["meal_changed_elsewhere"]),
                         status: .conflict)
        }
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: "meal_updated")
    }

    @Sendable static func withdrawMeal(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ mealId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        _ = try PeopleQueries.person(patientId, visibleTo: actor, db)
        let screen = try NutritionQueries.pendingMeal(mealId, patientId: patientId, db)
        try Meals.withdraw(screen.meal, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: "meal_withdrawn")
    }

    /// Copies every meal of one day to each day of a range; a refused range comes back on the review page.
    @Sendable static func copyDay(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        _ = try PeopleQueries.person(patientId, visibleTo: actor, db)
        var form = FormState(context.request.form, fields: ["source", "from", "to"])
        guard let (source, targets) = MealInput.copyRange(&form, today: context.today, context.format, context.t) else {
            return .page("nutrition/review", title: "nutrition_review_title",
                         try reviewModel(context, patientId: patientId, copyForm: form, db), status: .unprocessableContent)
        }
        let copied = try Meals.copyDay(source, to: targets, patientId: patientId, clinicianId: actor.userId, audit: context.audit, db)
        let flash = switch copied {
        case nil: "copy_empty_day"
        case let copied? where copied.created == 0: "meals_copied_nothing"
        case let copied? where copied.skipped == 0: "meals_copied_all"
        default: "meals_copied"
        }
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: flash)
    }

    @Sendable static func addWeight(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        var form = FormState(context.request.form, fields: ["measuredOn", "kg"])
        // A weight before the patient's birth is refused, so the form is read inside the write that knows it.
        let linked = try PeopleQueries.person(patientId, visibleTo: actor, db)
        guard let entry = Weights.read(&form, today: context.now, birthDate: linked.patient.birthDate, context.format, context.t) else {
            return .page("nutrition/review", title: "nutrition_review_title",
                         try reviewModel(context, patientId: patientId, weightForm: form, db), status: .unprocessableContent)
        }
        try Weights.addByClinician(entry, patientId: patientId, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.review.path(patientId), flash: "weight_saved")
    }

    // MARK: - Foods

    @Sendable static func showFoods(_ context: RequestContext, _ db: Database) throws -> Reply {
        try foodsPage(context, form: FormState(values: ["unit": "portion", "gramsPerUnit": "100"]), db)
    }

    static func foodsPage(_ context: RequestContext, form: FormState, status: Status = .ok, _ db: Database) throws -> Reply {
        _ = try requireNutritionist(context)
        let search = context.request.query["q"] ?? ""
        let foods = try NutritionQueries.foods(matching: search, in: context.locale, db)
        return .page("nutrition/foods", title: "foods_title",
                     FoodsPage(foods: foods, search: search, form: form, context.t, context.format), status: status)
    }

    @Sendable static func createFood(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try requireNutritionist(context)
        var form = FormState(context.request.form, fields: ["name", "unit", "gramsPerUnit", "kcal", "protein", "carbohydrate", "fat"])
        guard let food = FoodInput.read(&form, context.t, context.format, createdBy: actor.userId) else {
            return try foodsPage(context, form: form, status: .unprocessableContent, db)
        }
        try Foods.add(food, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.showFoods.path(), flash: "food_created")
    }

    static let foodFields = ["name", "unit", "gramsPerUnit", "kcal", "protein", "carbohydrate", "fat", "version"]

    static func foodEditPage(_ context: RequestContext, _ food: Food, form: FormState, conflict: String? = nil,
                             status: Status = .ok, _ db: Database) throws -> Reply {
        let others = try NutritionQueries.foods(in: context.locale, db).filter { $0.id != food.id }
        return .page("nutrition/food-edit", title: "food_edit_title",
                     FoodEditPage(food: food, uses: try NutritionQueries.foodUses(food.id!, db), others: others, form: form,
                                  conflict: conflict, context.t, context.format), status: status)
    }

    @Sendable static func editFood(_ context: RequestContext, _ db: Database, _ foodId: Int64) throws -> Reply {
        _ = try requireNutritionist(context)
        let food = try NutritionQueries.food(foodId, db)
        return try foodEditPage(context, food, form: FoodInput.formState(of: food, context.locale, context.format), db)
    }

    @Sendable static func updateFood(_ context: RequestContext, _ db: Database, _ foodId: Int64) throws -> Reply {
        let actor = try requireNutritionist(context)
        let food = try NutritionQueries.food(foodId, db)
        var form = FormState(context.request.form, fields: foodFields)
        guard let corrected = FoodInput.read(&form, context.t, context.format, createdBy: actor.userId) else {
            return try foodEditPage(context, food, form: form, status: .unprocessableContent, db)
        }
        do {
            try Foods.update(food, from: Int(form["version"]), to: corrected, locale: context.locale, audit: context.audit, db)
        } catch is Foods.ChangedSinceOpened {
            // What was typed stays; saving again now replaces the other correction knowingly.
            form.values["version"] = "\(food.version)"
            return try foodEditPage(context, food, form: form, conflict: context.t["food_changed_elsewhere"], status: .conflict, db)
        }
        return .redirect(to: NutritionEndpoints.showFoods.path(), flash: "food_updated")
    }

    @Sendable static func mergeFood(_ context: RequestContext, _ db: Database, _ foodId: Int64) throws -> Reply {
        _ = try requireNutritionist(context)
        let duplicate = try NutritionQueries.food(foodId, db)
        guard let keptId = Int64(context.request.form["into"] ?? ""), keptId != foodId,
              let kept = try? NutritionQueries.food(keptId, db) else {
            var form = FoodInput.formState(of: duplicate, context.locale, context.format)
            form.fail("into", context.t["error_choose_option"])
            return try foodEditPage(context, duplicate, form: form, status: .unprocessableContent, db)
        }
        try Foods.merge(duplicate, into: kept, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.showFoods.path(), flash: "food_merged")
    }

    @Sendable static func removeFood(_ context: RequestContext, _ db: Database, _ foodId: Int64) throws -> Reply {
        _ = try requireNutritionist(context)
        let food = try NutritionQueries.food(foodId, db)
        let removal = try Foods.remove(food, audit: context.audit, db)
        return .redirect(to: NutritionEndpoints.showFoods.path(), flash: removal == .hidden ? "food_hidden" : "food_deleted")
    }
}
