import Foundation
import GRDB

/// A meal as the prescription form describes it, read and checked.
struct MealInput: Sendable {
    var type: MealType
    var customName: String?
    var date: String
    var time: String
    var lines: [(foodId: Int64, quantity: Double, unit: LineUnit)]

    static let maxLines = 12
    static var fieldNames: [String] {
        ["type", "customName", "date", "time", "version"]
            + (0..<maxLines).flatMap { ["food_\($0)", "quantity_\($0)", "unit_\($0)"] }
    }

    /// `today` is the clinic's date: the meal's date must fall in `NutritionDates.mealRange(today:)`.
    static func read(_ form: inout FormState, today: String, _ format: LocalizedFormat, _ t: Translator,
                     _ db: Database) throws -> MealInput? {
        let type = MealType(rawValue: form["type"])
        if type == nil { form.fail("type", t["error_choose_option"]) }
        let customName = form["customName"].trimmingCharacters(in: .whitespaces)
        if type == .custom, customName.isEmpty { form.fail("customName", t["error_name_required"]) }
        var date = format.parseDate(form["date"]).map { ISODate.string($0, timeZone: format.timeZone) }
        if date == nil { form.fail("date", t["error_date_invalid"]) }
        if let day = date, let problem = outOfRange(day, today: today, format, t) {
            form.fail("date", problem)
            date = nil
        }
        let time = Self.time(form["time"])
        if time == nil { form.fail("time", t["error_time_invalid"]) }
        var lines: [(Int64, Double, LineUnit)] = []
        for index in 0..<maxLines {
            let foodText = form["food_\(index)"], quantityText = form["quantity_\(index)"].trimmingCharacters(in: .whitespaces)
            if foodText.isEmpty && quantityText.isEmpty { continue }
            guard let foodId = Int64(foodText), try Food.exists(db, key: foodId) else {
                form.fail("food_\(index)", t["error_food_required"]); continue
            }
            guard let quantity = format.parseDecimal(quantityText), quantity > 0, quantity <= 5000 else {
                form.fail("quantity_\(index)", t["error_quantity"]); continue
            }
            lines.append((foodId, quantity, LineUnit(rawValue: form["unit_\(index)"]) ?? .household))
        }
        if lines.isEmpty, !form.hasErrors { form.fail("food_0", t["error_meal_empty"]) }
        guard !form.hasErrors, let type, let date, let time else { return nil }
        return MealInput(type: type, customName: type == .custom ? customName : nil, date: date, time: time, lines: lines)
    }

    /// The message for a meal date outside the year before and after today; nil when it fits.
    static func outOfRange(_ day: String, today: String, _ format: LocalizedFormat, _ t: Translator) -> String? {
        let range = NutritionDates.mealRange(today: today)
        guard !range.contains(day) else { return nil }
        return t("records_meal_date_range", ["min": format.shortDate(iso: range.lowerBound),
                                             "max": format.shortDate(iso: range.upperBound)])
    }

    /// "7:30", "07:30" or "0730" → "07:30".
    static func time(_ text: String) -> String? {
        let digits = text.filter(\.isNumber)
        guard (3...4).contains(digits.count), let value = Int(digits) else { return nil }
        let hour = value / 100, minute = value % 100
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return String(format: "%02d:%02d", hour, minute)
    }

    func insert(patientId: Int64, clinicianId: Int64, at now: Date, _ db: Database) throws -> Int64 {
        var meal = Meal(patientId: patientId, clinicianId: clinicianId, type: type.rawValue, customName: customName,
                        date: date, time: time, createdAt: now)
        try meal.insert(db)
        try insertLines(mealId: meal.id!, db)
        return meal.id!
    }

    func replace(_ meal: Meal, _ db: Database) throws {
        var meal = meal
        meal.type = type.rawValue
        meal.customName = customName
        meal.date = date
        meal.time = time
        meal.version += 1
        try meal.update(db)
        try MealLine.filter(Column("mealId") == meal.id).deleteAll(db)
        try insertLines(mealId: meal.id!, db)
    }

    private func insertLines(mealId: Int64, _ db: Database) throws {
        for (position, line) in lines.enumerated() {
            var row = MealLine(mealId: mealId, foodId: line.foodId, quantity: line.quantity, unit: line.unit.rawValue,
                               position: position)
            try row.insert(db)
        }
    }

    /// The form filled with a meal, for editing.
    static func formState(of screen: MealScreen, _ format: LocalizedFormat) -> FormState {
        var values = ["type": screen.meal.type, "customName": screen.meal.customName ?? "", "date": screen.meal.date,
                      "time": screen.meal.time, "version": "\(screen.meal.version)"]
        for (index, entry) in screen.lines.enumerated() {
            values["food_\(index)"] = "\(entry.food.id!)"
            values["quantity_\(index)"] = format.decimal(entry.line.quantity, fractionDigits: 2)
            values["unit_\(index)"] = entry.line.unit
        }
        return FormState(values: values)
    }

    /// The day to copy and the days to copy it to (at most 62).
    static func copyRange(_ form: inout FormState, today: String, _ format: LocalizedFormat, _ t: Translator) -> (String, [String])? {
        guard let source = format.parseDate(form["source"]), let from = format.parseDate(form["from"]),
              let to = format.parseDate(form["to"]),
              let first = ISODate.dayNumber(ISODate.string(from, timeZone: format.timeZone)),
              let last = ISODate.dayNumber(ISODate.string(to, timeZone: format.timeZone)),
              last >= first, last - first < 62
        else {
            form.fail("to", t["copy_invalid"])
            return nil
        }
        let days = (first...last).map(ISODate.string(dayNumber:))
        if let problem = outOfRange(days[0], today: today, format, t) ?? outOfRange(days[days.count - 1], today: today, format, t) {
            form.fail("to", problem)
            return nil
        }
        return (ISODate.string(source, timeZone: format.timeZone), days)
    }
}

/// A food a nutritionist adds to the catalogue.
enum FoodInput {
    static func read(_ form: inout FormState, _ t: Translator, _ format: LocalizedFormat, createdBy: Int64) -> Food? {
        let name = form.required("name", t["error_name_required"])
        let unit = form["unit"]
        if !Food.units.contains(unit) { form.fail("unit", t["error_choose_option"]) }
        func number(_ field: String, label: String, _ range: ClosedRange<Double>, unit: String, required: Bool) -> Double? {
            form.decimal(field, label: t[label], in: range, unit: unit, required: required, t, format)
        }
        let grams = number("gramsPerUnit", label: "grams_per_unit", 0.1...2000, unit: "g", required: true)
        let kcal = number("kcal", label: "energy_per_100g", 0...900, unit: "kcal", required: true)
        let protein = number("protein", label: "protein", 0...100, unit: "g", required: false)
        let carbohydrate = number("carbohydrate", label: "carbohydrate", 0...100, unit: "g", required: false)
        let fat = number("fat", label: "fat", 0...100, unit: "g", required: false)
        if let problem = FoodRules.macroProblem(protein: protein, carbohydrate: carbohydrate, fat: fat) {
            form.fail("fat", t("error_macros_over_100g", ["total": format.decimal(problem, fractionDigits: 1)]))
        }
        guard !form.hasErrors, let name, let grams, let kcal else { return nil }
        return Food(key: nil, namePtBR: name, nameEs: name, nameCa: name, nameEn: name, unit: unit, gramsPerUnit: grams,
                    kcalPer100g: kcal, proteinPer100g: protein, carbohydratePer100g: carbohydrate, fatPer100g: fat,
                    source: "—", createdBy: createdBy)
    }
}

extension FoodInput {
    /// The edit form filled with a food, in the reader's language.
    static func formState(of food: Food, _ locale: AppLocale, _ format: LocalizedFormat) -> FormState {
        var values = ["name": food.name(locale), "unit": food.unit, "gramsPerUnit": format.decimal(food.gramsPerUnit),
                      "kcal": format.decimal(food.kcalPer100g), "version": "\(food.version)"]
        values["protein"] = food.proteinPer100g.map { format.decimal($0) } ?? ""
        values["carbohydrate"] = food.carbohydratePer100g.map { format.decimal($0) } ?? ""
        values["fat"] = food.fatPer100g.map { format.decimal($0) } ?? ""
        return FormState(values: values)
    }
}

/// The catalogue's own arithmetic. Pure.
enum FoodRules {
    /// Protein, carbohydrate and fat per 100 g cannot weigh more than 100 g together; returns their
    /// total when they do (90 + 90 + 60 g), nil otherwise.
    static func macroProblem(protein: Double?, carbohydrate: Double?, fat: Double?) -> Double? {
        let total = (protein ?? 0) + (carbohydrate ?? 0) + (fat ?? 0)
        return total > 100 ? total : nil
    }
}
