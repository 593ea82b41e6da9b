import Foundation
import GRDB
import HTTPServer

/// The patient's side: answer the oldest pending meal, read the history, record weight.
enum CheckInRoutes: Feature {
    static let templates = ["nutrition/checkin", "nutrition/plan", "nutrition/answer", "nutrition/history", "nutrition/meal",
                            "nutrition/measurements"]

    static func add(to router: inout Router<Route>) {
        router.add(CheckInEndpoints.showCheckIn) { $0.read(showCheckIn) }
        router.add(CheckInEndpoints.showHistory) { $0.read(showHistory) }
        router.add(CheckInEndpoints.showPlan) { $0.read(showPlan) }
        router.add(CheckInEndpoints.showMeal) { $0.read(showMeal) }
        router.add(CheckInEndpoints.showMealPhoto) { $0.read(showMealPhoto) }
        router.add(CheckInEndpoints.showAnswerForm) { $0.read(showAnswerForm) }
        router.add(CheckInEndpoints.answer) { $0.slow(.media, whenUploaded: "photo", storePhoto).write(answer) }
        router.add(CheckInEndpoints.showMeasurements) { $0.read(showMeasurements) }
        router.add(CheckInEndpoints.setSharing) { $0.write(setSharing) }
        router.add(CheckInEndpoints.addWeight) { $0.write(addWeight) }
        router.add(CheckInEndpoints.importWeights) { $0.slow(.media, whenUploaded: "file", readImport).write(importWeights) }
    }

    @Sendable static func showCheckIn(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        return .page("nutrition/checkin", title: "checkin_title", try checkInPage(patientId: actor.userId, context, db))
    }

    /// The check-in page: the head of the queue, answerable from its day on; with why an answer was
    /// refused and what it held, when it was.
    static func checkInPage(patientId: Int64, refusal: String? = nil, typed: [CheckInPage.Typed] = [],
                            _ context: RequestContext, _ db: Database) throws -> CheckInPage {
        let queue = try CheckInQueries.queue(patientId: patientId, db)
        guard let next = queue.next else {
            return CheckInPage(meal: nil, pendingCount: nil, refusal: refusal, answerableFrom: nil, typed: typed)
        }
        let today = context.today
        return CheckInPage(meal: MealView(next, context.t, context.format),
                           pendingCount: queue.waiting > 0 ? context.t("meals_more_pending", ["count": "\(queue.waiting)"]) : nil,
                           refusal: refusal,
                           answerableFrom: NutritionDates.isAnswerable(mealDate: next.meal.date, today: today)
                               ? nil : context.t("records_meal_answer_on_day", ["date": context.format.longDate(iso: next.meal.date)]),
                           typed: typed)
    }

    static func answerPage(_ page: AnswerPage, status: Status = .ok) -> Reply {
        .page("nutrition/answer", title: page.followed ? "answer_followed_title" : "answer_not_followed_title", page, status: status)
    }

    /// The refusal for a meal that cannot be answered now: 409 with the meal whose turn it is, or a
    /// 404 page that says the meal is not in the plan.
    static func refusal(_ turn: CheckInQueries.Turn, patientId: Int64, typed: [CheckInPage.Typed], _ context: RequestContext,
                        _ db: Database) throws -> Reply {
        let (message, status): (String, Status)
        switch turn {
        case .answered: return .redirect(to: CheckInEndpoints.showCheckIn.path(), flash: "meal_already_answered")
        case .current, .notYet: (message, status) = ("meal_not_current", .conflict)
        case .notToday: (message, status) = ("records_meal_not_today", .conflict)
        case .gone: (message, status) = ("records_meal_gone", .notFound)
        }
        return .page("nutrition/checkin", title: "checkin_title",
                     try checkInPage(patientId: patientId, refusal: context.t[message], typed: typed, context, db), status: status)
    }

    @Sendable static func showAnswerForm(_ context: RequestContext, _ db: Database, _ mealId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let followed = context.request.query["followed"] != "0"
        let mealTurn = try CheckInQueries.turn(of: mealId, patientId: actor.userId, today: context.today, db)
        guard case .current(let meal) = mealTurn else {
            return try refusal(mealTurn, patientId: actor.userId, typed: [], context, db)
        }
        let view = MealView(try MealScreen.fetch(meal, db), context.t, context.format)
        return answerPage(AnswerPage(meal: view, version: meal.version, followed: followed, form: FormState(), context.t))
    }

    /// A plate photo sent with an answer, stored before the answer's transaction opens; or why it was refused.
    struct UploadedPhoto: Sendable {
        let path: String?
        let problem: String?
    }

    @Sendable static func storePhoto(_ context: RequestContext, _ mealId: Int64) throws -> Step<UploadedPhoto> {
        guard let upload = context.request.file(named: "photo"), upload.size > 0 else { return .next(UploadedPhoto(path: nil, problem: nil)) }
        do {
            return .next(UploadedPhoto(path: try context.media.storePhoto(upload), problem: nil))
        } catch let failure as MediaStore.Failure {
            return .next(UploadedPhoto(path: nil, problem: failure.message(context.t, context.format)))
        }
    }

    /// One transaction per answer; the meal must still be the pending head of the queue inside it,
    /// and the version of the prescription the form showed, so a double submit, the back button, a
    /// second tab or an edit by the nutritionist meanwhile never answers wrongly.
    @Sendable static func answer(_ context: RequestContext, _ db: Database, _ photo: UploadedPhoto, _ mealId: Int64) throws -> Reply {
        // The photo is kept only if the answer is saved: a double submit or a refused form leaves no file behind.
        var keepsPhoto = false
        defer { if !keepsPhoto { context.media.remove(photo.path) } }
        let actor = try context.requireActor()
        let followed = context.request.form["followed"] != "0"
        var form = FormState(context.request.form, fields: ["reason", "instead", "hunger", "eaten"])
        for (name, value) in context.request.form.pairs where name.hasPrefix("q_") || name.hasPrefix("qf_") {
            form.values[name] = value
        }
        if let problem = photo.problem { form.fail("photo", problem) }
        let mealTurn = try CheckInQueries.turn(of: mealId, patientId: actor.userId, today: context.today, db)
        guard case .current(let meal) = mealTurn else {
            return try refusal(mealTurn, patientId: actor.userId, typed: try typed(form, followed: followed, context, db), context, db)
        }
        let screen = try MealScreen.fetch(meal, db)
        guard Int(context.request.form["version"] ?? "") == meal.version else {
            // The nutritionist changed the prescription while the form was open: show the new one.
            let kept = carried(form, to: screen.lines.map(\.line))
            return answerPage(AnswerPage(meal: MealView(screen, context.t, context.format), version: meal.version, followed: followed,
                                         form: kept, refusal: context.t["records_meal_changed"], context.t), status: .conflict)
        }
        guard let answer = MealAnswer.read(&form, followed: followed, lines: screen.lines.map(\.line), context.t, context.format) else {
            return answerPage(AnswerPage(meal: MealView(screen, context.t, context.format), version: meal.version, followed: followed,
                                         form: form, context.t), status: .unprocessableContent)
        }
        try Meals.answer(meal, with: answer, photo: photo.path, audit: context.audit, db)
        keepsPhoto = true
        return .redirect(to: CheckInEndpoints.showCheckIn.path(), flash: followed ? "meal_followed_saved" : "meal_not_followed_saved")
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
        let foods = try CheckInQueries.foods(Set(quantities.compactMap(\.food)), db)
        return quantities.map { entry in
            CheckInPage.Typed(label: entry.food.flatMap { foods[$0] }?.name(context.locale) ?? context.t["quantity"], text: entry.text)
        }
    }

    /// What was typed for an earlier version of a meal, moved onto its current lines: a typed quantity
    /// follows its food (a line of a food no longer prescribed is dropped); the texts stay as they were.
    static func carried(_ form: FormState, to lines: [MealLine]) -> FormState {
        var carried = FormState(values: ["reason": form["reason"], "instead": form["instead"], "hunger": form["hunger"],
                                          "eaten": form["eaten"]])
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

    @Sendable static func showHistory(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let meals = try CheckInQueries.history(patientId: actor.userId, db).map { screen in
            var view = MealView(screen, context.t, context.format)
            view.url = CheckInEndpoints.showMeal.path(screen.meal.id!)
            return view
        }
        return .page("nutrition/history", title: "meal_history_title", MealHistoryPage(meals: meals, isEmpty: meals.isEmpty))
    }

    /// The patient's plan: today's meals first, then the week day by day, printable on one A4 page.
    @Sendable static func showPlan(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let now = context.clinicNow
        let monday = context.monday
        let screens = try CheckInQueries.plan(patientId: actor.userId, monday: monday, db)
        return .page("nutrition/plan", title: "week_plan_title",
                     MealPlanPage(name: actor.displayName, screens: screens, monday: monday, now: now, showsToday: true,
                                  weekURL: { CheckInEndpoints.showPlan.path(query: ["week": $0]) },
                                  backURL: CheckInEndpoints.showCheckIn.path(), backLabel: context.t["checkin_title"],
                                  checkInURL: CheckInEndpoints.showCheckIn.path(), context.t, context.format))
    }

    @Sendable static func showMeal(_ context: RequestContext, _ db: Database, _ mealId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let screen = try CheckInQueries.answeredMeal(mealId, patientId: actor.userId, db)
        let view = MealView(screen, context.t, context.format, photoURL: CheckInEndpoints.showMealPhoto.path(mealId))
        return .page("nutrition/meal", title: "meal_detail_title", MealDetailPage(meal: view, backPath: CheckInEndpoints.showHistory.path()))
    }

    /// The plate photo, for the patient and for a nutritionist linked to them.
    @Sendable static func showMealPhoto(_ context: RequestContext, _ db: Database, _ mealId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        if actor.role == .clinician { _ = try NutritionRoutes.requireNutritionist(context) }
        guard let path = try CheckInQueries.photoPath(ofMeal: mealId, visibleTo: actor, db),
              let response = context.media.response(for: path, request: context.request)
        else { throw AppError.notFound }
        return Reply(response)
    }

    // MARK: - Measurements

    @Sendable static func showMeasurements(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        // After an import without unreadable lines: how many weights it added.
        let report = context.request.query["added"].flatMap(Int.init).map { context.t("weights_imported_count", ["count": "\($0)"]) }
        return measurementsPage(try CheckInQueries.measurements(patientId: actor.userId, visibleTo: actor, db), form: FormState(),
                                importReport: report, context)
    }

    /// The measurements page; a refused weight form comes back in it, with its errors, from inside the write that refused it.
    static func measurementsPage(_ data: CheckInQueries.Measurements, form: FormState, status: Status = .ok,
                                 importReport: String? = nil, skippedLines: [String] = [], _ context: RequestContext) -> Reply {
        .page("nutrition/measurements", title: "measurements_title",
              MeasurementsPage(sharing: data.patient.sharesMeasurements, entries: data.entries, imported: data.imported, form: form,
                               importReport: importReport, skippedLines: skippedLines, context.t, context.format),
              status: status)
    }

    @Sendable static func setSharing(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let on = context.request.form["share"] == "1"
        try MeasurementSharing.set(on, patientId: actor.userId, audit: context.audit, db)
        return .redirect(to: CheckInEndpoints.showMeasurements.path(), flash: on ? "sharing_on" : "sharing_off")
    }

    @Sendable static func addWeight(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["measuredOn", "kg"])
        let data = try CheckInQueries.measurements(patientId: actor.userId, visibleTo: actor, db)
        let entry = Weights.read(&form, today: context.now, birthDate: data.patient.birthDate, context.format, context.t)
        if entry != nil, !data.patient.sharesMeasurements { form.fail("kg", context.t["sharing_required"]) }
        guard let entry, !form.hasErrors else { return measurementsPage(data, form: form, status: .unprocessableContent, context) }
        try Weights.add([entry], patientId: actor.userId, source: "patient", at: context.now, db)
        return .redirect(to: CheckInEndpoints.showMeasurements.path(), flash: "weight_saved")
    }

    /// The text of an import: the uploaded file's, read before the transaction opens, or what was pasted.
    @Sendable static func readImport(_ context: RequestContext) throws -> Step<String> {
        let file = context.request.file(named: "file").flatMap { FileManager.default.contents(atPath: $0.temporaryPath) }
        return .next(NutritionRules.importText(file: file.map { [UInt8]($0) }, pasted: context.request.form["csv"] ?? ""))
    }

    /// A CSV of date and weight; only entries not stored yet are added, so importing the same file twice adds nothing.
    @Sendable static func importWeights(_ context: RequestContext, _ db: Database, _ text: String) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState()
        form.values["csv"] = context.request.form["csv"] ?? ""
        let data = try CheckInQueries.measurements(patientId: actor.userId, visibleTo: actor, db)
        let parsed = NutritionRules.weightCSV(text, today: context.now, birthDate: data.patient.birthDate, format: context.format)
        if parsed.entries.isEmpty {
            form.fail("csv", parsed.badLines.isEmpty ? context.t["import_empty"]
                : context.t("import_bad_lines", ["lines": parsed.badLines.map(String.init).joined(separator: ", ")]))
        } else if !data.patient.sharesMeasurements {
            form.fail("csv", context.t["sharing_required"])
        }
        guard !form.hasErrors else { return measurementsPage(data, form: form, status: .unprocessableContent, context) }
        let added = try Weights.add(parsed.entries, patientId: actor.userId, source: "import", at: context.now, db)
        guard !parsed.badLines.isEmpty else {
            return .redirect(to: CheckInEndpoints.showMeasurements.path(query: ["added": "\(added)"]), flash: "weights_imported")
        }
        // The readable lines are stored; each unreadable one is named, and kept in the box to correct and send again.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        let skipped = parsed.badLines.map { number in
            context.t("import_skipped_line", ["line": "\(number)", "text": number <= lines.count ? lines[number - 1] : ""])
        }
        form.values["csv"] = parsed.badLines.compactMap { $0 <= lines.count ? lines[$0 - 1] : nil }.joined(separator: "\n")
        let after = try CheckInQueries.measurements(patientId: actor.userId, visibleTo: actor, db)
        return measurementsPage(after, form: form, importReport: context.t("weights_imported_partly",
                                                                          ["count": "\(added)", "skipped": "\(parsed.badLines.count)"]),
                                skippedLines: skipped, context)
    }
}
