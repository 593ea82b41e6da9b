import Foundation
import GRDB
import HTTPServer

/// The patient's side: answer the oldest pending meal, read the history, record weight.
enum CheckInRoutes {
    static let templates = ["nutrition/checkin", "nutrition/answer", "nutrition/history", "nutrition/meal",
                            "nutrition/measurements"]

    static func add(to router: inout Router<Route>) {
        router.get("/meals", .signedIn([.patient]), showCheckIn)
        router.get("/meals/history", .signedIn([.patient]), showHistory)
        router.get("/meals/:meal", .signedIn([.patient]), showMeal)
        router.get("/meals/:meal/photo", .signedIn([.patient, .clinician], clinicianSpecialty: .nutrition), showMealPhoto)
        router.get("/meals/:meal/answer", .signedIn([.patient]), showAnswerForm)
        router.post("/meals/:meal/answer", .signedIn([.patient]), answer)
        router.get("/measurements", .signedIn([.patient]), showMeasurements)
        router.post("/measurements/sharing", .signedIn([.patient]), setSharing)
        router.post("/measurements", .signedIn([.patient]), addWeight)
        router.post("/measurements/import", .signedIn([.patient]), importWeights)
    }

    @Sendable static func showCheckIn(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db -> CheckInPage in
            let pending = try Meal.queue(of: actor.userId).fetchAll(db)
            guard let next = pending.first else { return CheckInPage(meal: nil, pendingCount: nil, refusal: nil) }
            let more = pending.count - 1
            return CheckInPage(meal: MealView(try MealScreen.fetch(next, db), context.t, context.format),
                               pendingCount: more > 0 ? context.t("meals_more_pending", ["count": "\(more)"]) : nil,
                               refusal: nil)
        }
        return context.render("nutrition/checkin", title: "checkin_title", page)
    }

    /// The meal the patient may answer now; any other is refused with a clear message.
    enum Turn { case current(Meal), answered, notYet }

    static func turn(of mealId: Int64?, patientId: Int64, _ db: Database) throws -> Turn {
        // Every check-in asks this twice (form, then answer): prepared statements kept by the connection.
        guard let mealId, let meal = try Meal.fetchOne(db, SQLRequest(sql: "SELECT * FROM meal WHERE id = ? AND patientId = ?",
                                                                      arguments: [mealId, patientId], cached: true))
        else { throw AppError.notFound }
        if meal.mealStatus != .pending { return .answered }
        return try Meal.headOfQueue(of: patientId, db) == meal.id ? .current(meal) : .notYet
    }

    @Sendable static func showAnswerForm(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let followed = context.request.query["followed"] != "0"
        return try context.database.read { db in
            switch try turn(of: context.id("meal"), patientId: actor.userId, db) {
            case .answered: return context.redirect(to: "/meals", flash: "meal_already_answered")
            case .notYet: return try notYourTurn(context)
            case .current(let meal):
                let view = MealView(try MealScreen.fetch(meal, db), context.t, context.format)
                return context.render("nutrition/answer", title: followed ? "answer_followed_title" : "answer_not_followed_title",
                                      AnswerPage(meal: view, followed: followed, form: FormState(), context.t))
            }
        }
    }

    /// One transaction per answer; the meal must still be the pending head of the queue inside it,
    /// so a double submit, the back button or a second tab never answers twice.
    @Sendable static func answer(_ context: RequestContext) throws -> Response {
        context.withUploadedPhoto("photo") { photo, photoProblem in
            let actor = try context.requireActor()
            let followed = context.request.form["followed"] != "0"
            var form = FormState(context.request.form, fields: ["reason", "instead", "hunger"])
            for (name, value) in context.request.form.pairs where name.hasPrefix("q_") { form.values[name] = value }
            if let photoProblem { form.fail("photo", photoProblem) }
            // The photo is kept only if the answer is saved: a double submit or a refused form leaves no file behind.
            var keepsPhoto = false
            defer { if !keepsPhoto { context.app.media.remove(photo) } }
            let outcome = try context.database.write { db -> AnswerOutcome in
                let meal: Meal
                switch try turn(of: context.id("meal"), patientId: actor.userId, db) {
                case .answered: return .refused(context.redirect(to: "/meals", flash: "meal_already_answered"))
                case .notYet: return .refused(try notYourTurn(context))
                case .current(let current): meal = current
                }
                let screen = try MealScreen.fetch(meal, db)
                guard let answer = Answer.read(&form, followed: followed, lines: screen.lines.map(\.line), context.t) else {
                    return .invalid(MealView(screen, context.t, context.format))
                }
                try answer.save(meal, photo: photo, at: context.now, audit: context.audit, db)
                return .saved(context.redirect(to: "/meals", flash: followed ? "meal_followed_saved" : "meal_not_followed_saved"))
            }
            switch outcome {
            case .saved(let response):
                keepsPhoto = true
                return response
            case .refused(let response): return response
            case .invalid(let view):
                return context.render("nutrition/answer", title: followed ? "answer_followed_title" : "answer_not_followed_title",
                                      AnswerPage(meal: view, followed: followed, form: form, context.t), status: .unprocessableContent)
            }
        }
    }

    enum AnswerOutcome: Sendable {
        case saved(Response)
        /// Already answered or not this meal's turn: nothing to correct in the form.
        case refused(Response)
        case invalid(MealView)
    }

    /// 409 with the meal whose turn it is, and why the other one was refused.
    static func notYourTurn(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db -> CheckInPage in
            let next = try Meal.queue(of: actor.userId).fetchOne(db)
            return CheckInPage(meal: try next.map { MealView(try MealScreen.fetch($0, db), context.t, context.format) },
                               pendingCount: nil, refusal: context.t["meal_not_current"])
        }
        return context.render("nutrition/checkin", title: "checkin_title", page, status: .conflict)
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
        let page = try context.database.read { db in
            let patient = try PatientScope.find(actor.userId, visibleTo: actor, db)
            return MeasurementsPage(sharing: patient.sharesMeasurements,
                                    entries: try Weights.entries(of: actor.userId, db), form: form, context.t, context.format)
        }
        return context.render("nutrition/measurements", title: "measurements_title", page, status: status)
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
        guard let entry = Weights.read(&form, today: context.now, context.format, context.t) else {
            return try measurementsPage(context, form: form, status: .unprocessableContent)
        }
        let saved = try context.database.write { db -> Bool in
            guard try PatientScope.find(actor.userId, visibleTo: actor, db).sharesMeasurements else { return false }
            _ = try Weights.add([entry], patientId: actor.userId, source: "patient", at: context.now, db)
            return true
        }
        guard saved else {
            form.fail("kg", context.t["sharing_required"])
            return try measurementsPage(context, form: form, status: .unprocessableContent)
        }
        return context.redirect(to: "/measurements", flash: "weight_saved")
    }

    /// A CSV of date and weight; only entries not stored yet are added, so importing the same file twice adds nothing.
    @Sendable static func importWeights(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState()
        let text: String = {
            if let file = context.request.file(named: "file"), let data = FileManager.default.contents(atPath: file.temporaryPath) {
                return String(decoding: data, as: UTF8.self)
            }
            return context.request.form["csv"] ?? ""
        }()
        form.values["csv"] = context.request.form["csv"] ?? ""
        let parsed = NutritionRules.weightCSV(text, today: context.now, format: context.format)
        if !parsed.badLines.isEmpty {
            form.fail("csv", context.t("import_bad_lines", ["lines": parsed.badLines.map(String.init).joined(separator: ", ")]))
        } else if parsed.entries.isEmpty {
            form.fail("csv", context.t["import_empty"])
        }
        guard !form.hasErrors else { return try measurementsPage(context, form: form, status: .unprocessableContent) }
        let added = try context.database.write { db -> Int? in
            guard try PatientScope.find(actor.userId, visibleTo: actor, db).sharesMeasurements else { return nil }
            return try Weights.add(parsed.entries, patientId: actor.userId, source: "import", at: context.now, db)
        }
        guard let added else {
            form.fail("csv", context.t["sharing_required"])
            return try measurementsPage(context, form: form, status: .unprocessableContent)
        }
        return context.redirect(to: "/measurements?added=\(added)", flash: "weights_imported")
    }
}

