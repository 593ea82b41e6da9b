import Foundation
import GRDB

/// Writing prescribed meals and the patient's answers. Each write checks that the meal may still
/// change (only a pending meal is edited, withdrawn or answered) and records its audit entry in the
/// same transaction.
enum Meals {
    @discardableResult
    static func create(_ input: MealInput, patientId: Int64, clinicianId: Int64, audit: AuditContext, _ db: Database) throws -> Int64 {
        let id = try input.insert(patientId: patientId, clinicianId: clinicianId, at: audit.now, db)
        try audit.record(.create, "meal", id, "\(input.date) \(input.time) \(input.type.rawValue)", db)
        return id
    }

    /// Someone changed the prescription after the edit form was opened (another tab, another device).
    struct ChangedSinceOpened: Error {}

    /// A new prescription for a pending meal, made on `version` of it; its version goes up, so an answer
    /// to the old one is refused, and so is an edit made on an older version (a second tab).
    static func update(_ meal: Meal, from version: Int?, to input: MealInput, audit: AuditContext, _ db: Database) throws {
        guard meal.mealStatus == .pending else { throw AppError.conflict }
        guard version == meal.version else { throw ChangedSinceOpened() }
        try input.replace(meal, db)
        try audit.record(.update, "meal", meal.id, "\(input.date) \(input.time) \(input.type.rawValue)", db)
    }

    static func withdraw(_ meal: Meal, audit: AuditContext, _ db: Database) throws {
        guard meal.mealStatus == .pending else { throw AppError.conflict }
        _ = try Meal.deleteOne(db, key: meal.id)
        try audit.record(.delete, "meal", meal.id, "\(meal.date) \(meal.time)", db)
    }

    /// What a copy did: meals made, and meals left out because the day already had one like it.
    struct Copied: Equatable, Sendable {
        let created: Int
        let skipped: Int
    }

    /// Copies every meal of `source` to each of `targets` (a weekly plan in a few clicks). A day that
    /// already has a meal of the same kind (a custom meal: of the same name) keeps it, at whatever time it
    /// was moved to, so copying again after an edit adds nothing. Returns nil (and writes nothing) when
    /// `source` has no meal.
    static func copyDay(_ source: String, to targets: [String], patientId: Int64, clinicianId: Int64,
                        audit: AuditContext, _ db: Database) throws -> Copied? {
        let meals = try MealScreen.fetch(try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date == source).fetchAll(db), db)
        guard !meals.isEmpty else { return nil }
        var created = 0, skipped = 0
        for day in targets where day != source {
            let present = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date == day).fetchAll(db)
            for screen in meals {
                if present.contains(where: { sameKind($0, screen.meal) }) { skipped += 1; continue }
                let input = MealInput(type: screen.meal.mealType, customName: screen.meal.customName, date: day,
                                      time: screen.meal.time,
                                      lines: screen.lines.map { ($0.food.id!, $0.line.quantity, $0.line.lineUnit) })
                _ = try input.insert(patientId: patientId, clinicianId: clinicianId, at: audit.now, db)
                created += 1
            }
        }
        try audit.record(.create, "meal", nil,
                         "copied \(source) → \(targets.first ?? "")…\(targets.last ?? ""): \(created), left alone \(skipped)", db)
        return Copied(created: created, skipped: skipped)
    }

    /// Two meals that fill the same place in a day's plan: the same kind, or custom meals of one name.
    static func sameKind(_ a: Meal, _ b: Meal) -> Bool {
        guard a.type == b.type else { return false }
        return a.mealType != .custom || (a.customName ?? "").lowercased() == (b.customName ?? "").lowercased()
    }

    /// The patient's answer to a pending meal, final once saved: an answered meal is refused (409), so
    /// a double submit changes nothing. `photo` is the stored plate photo, if one came with it.
    static func answer(_ meal: Meal, with answer: MealAnswer, photo: String?, audit: AuditContext, _ db: Database) throws {
        guard meal.mealStatus == .pending else { throw AppError.conflict }
        var meal = meal
        meal.status = answer.followed ? MealStatus.fulfilled.rawValue : MealStatus.notFulfilled.rawValue
        meal.answeredAt = audit.now
        meal.reason = answer.reason
        meal.eatenInstead = answer.instead
        meal.eatenShare = answer.followed ? nil : answer.eatenShare
        meal.hunger = answer.hunger
        meal.photoPath = photo
        try meal.update(db)
        for (lineId, quantity) in answer.consumed {
            try db.cachedStatement(sql: "UPDATE mealLine SET consumedQuantity = ? WHERE id = ? AND mealId = ?")
                .execute(arguments: [quantity, lineId, meal.id])
        }
        try audit.record(.update, "meal", meal.id, meal.status, db)
    }
}

/// What the patient answered, read and checked.
struct MealAnswer: Sendable {
    let followed: Bool
    let consumed: [Int64: Double]
    let reason: String?
    let instead: String?
    let hunger: Int?
    /// For a meal not followed: how much was eaten instead, in percent of the prescription (`NutritionRules.eatenShares`).
    var eatenShare: Int? = nil

    static func read(_ form: inout FormState, followed: Bool, lines: [MealLine], _ t: Translator,
                     _ format: LocalizedFormat) -> MealAnswer? {
        var consumed: [Int64: Double] = [:]
        let hungerText = form["hunger"]
        let hunger = Int(hungerText)
        if !hungerText.isEmpty, !(1...5).contains(hunger ?? 0) { form.fail("hunger", t["error_choose_option"]) }
        if followed {
            for line in lines {
                let name = "q_\(line.id!)"
                let text = form[name].trimmingCharacters(in: .whitespaces)
                if text.isEmpty { consumed[line.id!] = line.quantity; continue }
                guard let value = format.parseDecimal(text), value >= 0, value <= 5000 else {
                    form.fail(name, t["error_quantity"]); continue
                }
                consumed[line.id!] = value
            }
            guard !form.hasErrors else { return nil }
            return MealAnswer(followed: true, consumed: consumed, reason: nil, instead: nil, hunger: hunger)
        }
        let reason = form.required("reason", t["error_reason_required"])
        let instead = form.required("instead", t["error_instead_required"])
        let shareText = form["eaten"]
        let share = Int(shareText)
        if !shareText.isEmpty, !NutritionRules.eatenShares.contains(share ?? -1) { form.fail("eaten", t["error_choose_option"]) }
        guard !form.hasErrors, let reason, let instead else { return nil }
        return MealAnswer(followed: false, consumed: [:], reason: reason, instead: instead, hunger: hunger, eatenShare: share)
    }
}
