import Foundation
import GRDB
import HTTPServer

/// The patient's side: answer the oldest pending meal, read the history, record weight.
enum CheckInRoutes {
    static let templates = ["nutrition/checkin", "nutrition/answer", "nutrition/history", "nutrition/meal",
                            "nutrition/measurements"]

    static func add(to router: inout Router<Route>) {
        router.legacy(CheckInEndpoints.showCheckIn, showCheckIn)
        router.legacy(CheckInEndpoints.showHistory, showHistory)
        router.legacy(CheckInEndpoints.showMeal, showMeal)
        router.legacy(CheckInEndpoints.showMealPhoto, showMealPhoto)
        router.legacy(CheckInEndpoints.showAnswerForm, showAnswerForm)
        router.legacy(CheckInEndpoints.answer, answer)
        router.legacy(CheckInEndpoints.showMeasurements, showMeasurements)
        router.legacy(CheckInEndpoints.setSharing, setSharing)
        router.legacy(CheckInEndpoints.addWeight, addWeight)
        router.legacy(CheckInEndpoints.importWeights, importWeights)
    }

    @Sendable static func showCheckIn(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in try checkInPage(patientId: actor.userId, context, db) }
        return context.render("nutrition/checkin", title: "checkin_title", page)
    }

    /// The check-in page: the head of the queue, answerable from its day on; with why an answer was
    /// refused and what it held, when it was. Built inside the caller's one database access.
    static func checkInPage(patientId: Int64, refusal: String? = nil, typed: [CheckInPage.Typed] = [],
                            _ context: RequestContext, _ db: Database) throws -> CheckInPage {
        let pending = try Meal.queue(of: patientId).fetchAll(db)
        guard let next = pending.first else {
            return CheckInPage(meal: nil, pendingCount: nil, refusal: refusal, answerableFrom: nil, typed: typed)
        }
        let more = pending.count - 1
        let today = NutritionRoutes.today(context).date
        return CheckInPage(meal: MealView(try MealScreen.fetch(next, db), context.t, context.format),
                           pendingCount: more > 0 ? context.t("meals_more_pending", ["count": "\(more)"]) : nil,
                           refusal: refusal,
                           answerableFrom: NutritionDates.isAnswerable(mealDate: next.date, today: today)
                               ? nil : context.t("records_meal_answer_on_day", ["date": context.format.longDate(iso: next.date)]),
                           typed: typed)
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

    static func turn(of mealId: Int64?, patientId: Int64, today: String, _ db: Database) throws -> Turn {
        // Every check-in asks this twice (form, then answer): prepared statements kept by the connection.
        guard let mealId, let meal = try Meal.fetchOne(db, SQLRequest(sql: "SELECT * FROM meal WHERE id = ? AND patientId = ?",
                                                                      arguments: [mealId, patientId], cached: true))
        else { return .gone }
        if meal.mealStatus != .pending { return .answered }
        guard try Meal.headOfQueue(of: patientId, db) == meal.id else { return .notYet }
        return NutritionDates.isAnswerable(mealDate: meal.date, today: today) ? .current(meal) : .notToday(meal)
    }

    /// What a check-in request ends in, decided inside its one database access and rendered after it.
    enum CheckInOutcome: Sendable {
        case saved(Response)
        case redirect(Response)
        case checkIn(CheckInPage, Status)
        case form(AnswerPage, Status)
    }

    static func respond(_ outcome: CheckInOutcome, followed: Bool, _ context: RequestContext) -> Response {
        switch outcome {
        case .saved(let response), .redirect(let response): response
        case .checkIn(let page, let status): context.render("nutrition/checkin", title: "checkin_title", page, status: status)
        case .form(let page, let status):
            context.render("nutrition/answer", title: followed ? "answer_followed_title" : "answer_not_followed_title", page,
                           status: status)
        }
    }

    /// The refusal for a meal that cannot be answered now: 409 with the meal whose turn it is, or a
    /// 404 page that says the meal is not in the plan.
    static func refusal(_ turn: Turn, patientId: Int64, typed: [CheckInPage.Typed], _ context: RequestContext,
                        _ db: Database) throws -> CheckInOutcome {
        switch turn {
        case .answered: return .redirect(context.redirect(to: "/meals", flash: "meal_already_answered"))
        case .current, .notYet:
            return .checkIn(try checkInPage(patientId: patientId, refusal: context.t["meal_not_current"], typed: typed, context, db),
                            .conflict)
        case .notToday:
            return .checkIn(try checkInPage(patientId: patientId, refusal: context.t["records_meal_not_today"], typed: typed, context, db),
                            .conflict)
        case .gone:
            return .checkIn(try checkInPage(patientId: patientId, refusal: context.t["records_meal_gone"], typed: typed, context, db),
                            .notFound)
        }
    }

    @Sendable static func showAnswerForm(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let followed = context.request.query["followed"] != "0"
        let today = NutritionRoutes.today(context).date
        let outcome = try context.database.read { db -> CheckInOutcome in
            let mealTurn = try turn(of: context.id("meal"), patientId: actor.userId, today: today, db)
            guard case .current(let meal) = mealTurn else {
                return try refusal(mealTurn, patientId: actor.userId, typed: [], context, db)
            }
            let view = MealView(try MealScreen.fetch(meal, db), context.t, context.format)
            return .form(AnswerPage(meal: view, version: meal.version, followed: followed, form: FormState(), context.t), .ok)
        }
        return respond(outcome, followed: followed, context)
    }

    /// One transaction per answer; the meal must still be the pending head of the queue inside it,
    /// and the version of the prescription the form showed, so a double submit, the back button, a
    /// second tab or an edit by the nutritionist meanwhile never answers wrongly.
    @Sendable static func answer(_ context: RequestContext) throws -> Response {
        context.withUploadedPhoto("photo") { photo, photoProblem in
            let actor = try context.requireActor()
            let followed = context.request.form["followed"] != "0"
            let today = NutritionRoutes.today(context).date
            var form = FormState(context.request.form, fields: ["reason", "instead", "hunger"])
            for (name, value) in context.request.form.pairs where name.hasPrefix("q_") || name.hasPrefix("qf_") {
                form.values[name] = value
            }
            if let photoProblem { form.fail("photo", photoProblem) }
            // The photo is kept only if the answer is saved: a double submit or a refused form leaves no file behind.
            var keepsPhoto = false
            defer { if !keepsPhoto { context.app.media.remove(photo) } }
            let outcome = try context.database.write { db -> CheckInOutcome in
                let mealTurn = try turn(of: context.id("meal"), patientId: actor.userId, today: today, db)
                guard case .current(let meal) = mealTurn else {
                    return try refusal(mealTurn, patientId: actor.userId, typed: try typed(form, followed: followed, context, db),
                                       context, db)
                }
                let screen = try MealScreen.fetch(meal, db)
                guard Int(context.request.form["version"] ?? "") == meal.version else {
                    // The nutritionist changed the prescription while the form was open: show the new one.
                    let kept = carried(form, to: screen.lines.map(\.line))
                    return .form(AnswerPage(meal: MealView(screen, context.t, context.format), version: meal.version,
                                            followed: followed, form: kept, refusal: context.t["records_meal_changed"], context.t),
                                 .conflict)
                }
                guard let answer = Answer.read(&form, followed: followed, lines: screen.lines.map(\.line), context.t) else {
                    return .form(AnswerPage(meal: MealView(screen, context.t, context.format), version: meal.version,
                                            followed: followed, form: form, context.t), .unprocessableContent)
                }
                try answer.save(meal, photo: photo, at: context.now, audit: context.audit, db)
                return .saved(context.redirect(to: "/meals", flash: followed ? "meal_followed_saved" : "meal_not_followed_saved"))
            }
            if case .saved = outcome { keepsPhoto = true }
            return respond(outcome, followed: followed, context)
        }
    }

    /// What a refused answer held, in words, so the patient can copy it: quantities by food, or why
    /// and what instead.
    static func typed(_ form: FormState, followed: Bool, _ context: RequestContext, _ db: Database) throws -> [CheckInPage.Typed] {
        if !followed {
            return [("reason", "answer_reason"), ("instead", "answer_instead")].compactMap { field, label in
                let text = form[field].trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : CheckInPage.Typed(label: context.t[label], text: text)
            }
        }
        let quantities = form.values.compactMap { name, value -> (line: Int64, food: Int64?, text: String)? in
            guard name.hasPrefix("q_"), let line = Int64(name.dropFirst(2)) else { return nil }
            let text = value.trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : (line, Int64(form["qf_\(line)"]), text)
        }.sorted { $0.line < $1.line }
        let foods = Dictionary(uniqueKeysWithValues: try Food.fetchAll(db, keys: Set(quantities.compactMap(\.food))).map { ($0.id!, $0) })
        return quantities.map { entry in
            CheckInPage.Typed(label: entry.food.flatMap { foods[$0] }?.name(context.locale) ?? context.t["quantity"], text: entry.text)
        }
    }

    /// What was typed for an earlier version of a meal, moved onto its current lines: a typed quantity
    /// follows its food (a line of a food no longer prescribed is dropped); the texts stay as they were.
    static func carried(_ form: FormState, to lines: [MealLine]) -> FormState {
        var carried = FormState(values: ["reason": form["reason"], "instead": form["instead"], "hunger": form["hunger"]])
        var typedByFood: [Int64: [String]] = [:]
        let typed = form.values.compactMap { name, value -> (line: Int64, value: String)? in
            guard name.hasPrefix("q_"), let line = Int64(name.dropFirst(2)) else { return nil }
            return (line, value)
        }.sorted { $0.line < $1.line }
        for entry in typed {
            guard let food = Int64(form["qf_\(entry.line)"]) else { continue }
            typedByFood[food, default: []].append(entry.value)
        }
        for line in lines {
            guard let id = line.id, var values = typedByFood[line.foodId], !values.isEmpty else { continue }
            carried.values["q_\(id)"] = values.removeFirst()
            typedByFood[line.foodId] = values
        }
        return carried
    }

    /// What the patient answered, read and checked.
    struct Answer {
        let followed: Bool
        let consumed: [Int64: Double]
        let reason: String?
        let instead: String?
        let hunger: Int?

        static func read(_ form: inout FormState, followed: Bool, lines: [MealLine], _ t: Translator) -> Answer? {
            var consumed: [Int64: Double] = [:]
            let hungerText = form["hunger"]
            let hunger = Int(hungerText)
            if !hungerText.isEmpty, !(1...5).contains(hunger ?? 0) { form.fail("hunger", t["error_choose_option"]) }
            if followed {
                for line in lines {
                    let name = "q_\(line.id!)"
                    let text = form[name].trimmingCharacters(in: .whitespaces)
                    if text.isEmpty { consumed[line.id!] = line.quantity; continue }
                    guard let value = LocalizedFormat.parseDecimal(text), value >= 0, value <= 5000 else {
                        form.fail(name, t["error_quantity"]); continue
                    }
                    consumed[line.id!] = value
                }
                guard !form.hasErrors else { return nil }
                return Answer(followed: true, consumed: consumed, reason: nil, instead: nil, hunger: hunger)
            }
            let reason = form.required("reason", t["error_reason_required"])
            let instead = form.required("instead", t["error_instead_required"])
            guard !form.hasErrors, let reason, let instead else { return nil }
            return Answer(followed: false, consumed: [:], reason: reason, instead: instead, hunger: hunger)
        }

        func save(_ meal: Meal, photo: String?, at now: Date, audit: AuditContext, _ db: Database) throws {
            var meal = meal
            meal.status = followed ? MealStatus.fulfilled.rawValue : MealStatus.notFulfilled.rawValue
            meal.answeredAt = now
            meal.reason = reason
            meal.eatenInstead = instead
            meal.hunger = hunger
            meal.photoPath = photo
            try meal.update(db)
            for (lineId, quantity) in consumed {
                try db.execute(sql: "UPDATE mealLine SET consumedQuantity = ? WHERE id = ? AND mealId = ?",
                               arguments: [quantity, lineId, meal.id])
            }
            try audit.record(.update, "meal", meal.id, meal.status, db)
        }
    }

    @Sendable static func showHistory(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let meals = try context.database.read { db in
            let answered = try Meal.filter(Meal.Columns.patientId == actor.userId && Meal.Columns.status != MealStatus.pending.rawValue)
                .order(Meal.Columns.date.desc, Meal.Columns.time.desc, Column("id").desc).limit(200).fetchAll(db)
            return try MealScreen.fetch(answered, db).map { MealView($0, context.t, context.format) }
        }
        return context.render("nutrition/history", title: "meal_history_title", MealHistoryPage(meals: meals, isEmpty: meals.isEmpty))
    }

    @Sendable static func showMeal(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let view = try context.database.read { db in
            guard let meal = try Meal.filter(Meal.Columns.patientId == actor.userId).filter(key: context.id("meal")).fetchOne(db),
                  meal.mealStatus != .pending
            else { throw AppError.notFound }
            return MealView(try MealScreen.fetch(meal, db), context.t, context.format, photoURL: "/meals/\(meal.id!)/photo")
        }
        return context.render("nutrition/meal", title: "meal_detail_title", MealDetailPage(meal: view, backPath: "/meals/history"))
    }

    /// The plate photo, for the patient and for a nutritionist linked to them.
    @Sendable static func showMealPhoto(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let meal = try context.database.read { db -> Meal in
            guard let meal = try Meal.fetchOne(db, key: context.id("meal")) else { throw AppError.notFound }
            _ = try PatientScope.find(meal.patientId, visibleTo: actor, db)
            if actor.role == .clinician { _ = try NutritionRoutes.requireNutritionist(context) }
            return meal
        }
        guard let path = meal.photoPath, let response = context.app.media.response(for: path, request: context.request)
        else { throw AppError.notFound }
        return response
    }

    // MARK: - Measurements

    @Sendable static func showMeasurements(_ context: RequestContext) throws -> Response {
        try measurementsPage(context, form: FormState())
    }

    static func measurementsPage(_ context: RequestContext, form: FormState, status: Status = .ok) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in try measurementsModel(patientId: actor.userId, form: form, context, db) }
        return context.render("nutrition/measurements", title: "measurements_title", page, status: status)
    }

    /// The measurements page, inside the caller's one database access.
    static func measurementsModel(patientId: Int64, form: FormState, _ context: RequestContext, _ db: Database) throws -> MeasurementsPage {
        let patient = try PatientScope.find(patientId, visibleTo: try context.requireActor(), db)
        return MeasurementsPage(sharing: patient.sharesMeasurements, entries: try Weights.entries(of: patientId, db), form: form,
                                context.t, context.format)
    }

    /// A refused weight form comes back, with its errors, from inside the write that refused it.
    enum WeightOutcome: Sendable {
        case saved(Response)
        case refused(MeasurementsPage)
    }

    static func respond(_ outcome: WeightOutcome, _ context: RequestContext) -> Response {
        switch outcome {
        case .saved(let response): response
        case .refused(let page):
            context.render("nutrition/measurements", title: "measurements_title", page, status: .unprocessableContent)
        }
    }

    @Sendable static func setSharing(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let on = context.request.form["share"] == "1"
        try context.database.write { db in
            try db.execute(sql: "UPDATE patient SET sharesMeasurements = ? WHERE userId = ?", arguments: [on, actor.userId])
            try context.audit.record(.update, "patient", actor.userId, on ? "shares measurements" : "stopped sharing", db)
        }
        return context.redirect(to: "/measurements", flash: on ? "sharing_on" : "sharing_off")
    }

    @Sendable static func addWeight(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["measuredOn", "kg"])
        let outcome = try context.database.write { db -> WeightOutcome in
            let patient = try PatientScope.find(actor.userId, visibleTo: actor, db)
            let entry = Weights.read(&form, today: context.now, birthDate: patient.birthDate, context.format, context.t)
            if entry != nil, !patient.sharesMeasurements { form.fail("kg", context.t["sharing_required"]) }
            guard let entry, !form.hasErrors else {
                return .refused(try measurementsModel(patientId: actor.userId, form: form, context, db))
            }
            _ = try Weights.add([entry], patientId: actor.userId, source: "patient", at: context.now, db)
            return .saved(context.redirect(to: "/measurements", flash: "weight_saved"))
        }
        return respond(outcome, context)
    }

    /// A CSV of date and weight; only entries not stored yet are added, so importing the same file twice adds nothing.
    @Sendable static func importWeights(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState()
        let pasted = context.request.form["csv"] ?? ""
        let file = context.request.file(named: "file").flatMap { FileManager.default.contents(atPath: $0.temporaryPath) }
        let text = NutritionRules.importText(file: file.map { [UInt8]($0) }, pasted: pasted)
        form.values["csv"] = pasted
        let outcome = try context.database.write { db -> WeightOutcome in
            let patient = try PatientScope.find(actor.userId, visibleTo: actor, db)
            let parsed = NutritionRules.weightCSV(text, today: context.now, birthDate: patient.birthDate, format: context.format)
            if !parsed.badLines.isEmpty {
                form.fail("csv", context.t("import_bad_lines", ["lines": parsed.badLines.map(String.init).joined(separator: ", ")]))
            } else if parsed.entries.isEmpty {
                form.fail("csv", context.t["import_empty"])
            } else if !patient.sharesMeasurements {
                form.fail("csv", context.t["sharing_required"])
            }
            guard !form.hasErrors else { return .refused(try measurementsModel(patientId: actor.userId, form: form, context, db)) }
            let added = try Weights.add(parsed.entries, patientId: actor.userId, source: "import", at: context.now, db)
            return .saved(context.redirect(to: "/measurements?added=\(added)", flash: "weights_imported"))
        }
        return respond(outcome, context)
    }
}
