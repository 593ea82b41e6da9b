import Foundation

/// A meal as the patient and the nutritionist read it: names, quantities and energy in their words.
struct MealView: Sendable {
    struct Line: Sendable {
        let id: Int64
        let name: String
        let prescribed: String
        let consumed: String?
        let quantityValue: String
        let unitLabel: String
        let isDeviation: Bool
    }

    let id: Int64
    let title: String
    let when: String
    let energy: String
    /// Protein, carbohydrate and fat of the prescription, in grams.
    let macros: String
    let consumedEnergy: String?
    let status: String
    let isFulfilled: Bool
    let isNotFulfilled: Bool
    let isPending: Bool
    let reason: String?
    let eatenInstead: String?
    let hunger: String?
    let photoURL: String?
    let lines: [Line]

    init(_ screen: MealScreen, _ t: Translator, _ format: LocalizedFormat, photoURL: String? = nil) {
        let meal = screen.meal
        id = meal.id!
        title = meal.mealType == .custom ? (meal.customName ?? t["meal_custom"]) : t["meal_\(meal.type)"]
        let day = format.longDate(iso: meal.date)
        when = "\(day) · \(meal.time)"
        let prescribed = screen.prescribed
        energy = "\(format.decimal(prescribed.kcal, fractionDigits: 0)) kcal"
        macros = t("macros_line", ["protein": format.decimal(prescribed.protein, fractionDigits: 0),
                                   "carbohydrate": format.decimal(prescribed.carbohydrate, fractionDigits: 0),
                                   "fat": format.decimal(prescribed.fat, fractionDigits: 0)])
        consumedEnergy = screen.consumed.map { "\(format.decimal($0.kcal, fractionDigits: 0)) kcal" }
        status = t["meal_status_\(meal.status)"]
        isFulfilled = meal.mealStatus == .fulfilled
        isNotFulfilled = meal.mealStatus == .notFulfilled
        isPending = meal.mealStatus == .pending
        reason = meal.reason
        eatenInstead = meal.eatenInstead
        hunger = meal.hunger.map { t("hunger_value", ["n": "\($0)", "label": t["hunger_\($0)"]]) }
        self.photoURL = meal.photoPath == nil ? nil : photoURL
        lines = screen.lines.map { entry in
            let unitLabel = Self.unitLabel(entry.line.lineUnit, food: entry.food, t)
            let consumed = meal.mealStatus == .fulfilled ? entry.line.consumedQuantity ?? entry.line.quantity : nil
            // "2 × colher de sopa" reads right in every language without plural rules; grams stay "150 g".
            let joiner = entry.line.lineUnit == .household ? " × " : " "
            return Line(id: entry.line.id!, name: entry.food.name(format.locale),
                        prescribed: format.decimal(entry.line.quantity, fractionDigits: 2) + joiner + unitLabel,
                        consumed: consumed.map { format.decimal($0, fractionDigits: 2) + joiner + unitLabel },
                        quantityValue: format.decimal(entry.line.quantity, fractionDigits: 2), unitLabel: unitLabel,
                        isDeviation: consumed.map { abs($0 - entry.line.quantity) > 0.001 } ?? false)
        }
    }

    static func unitLabel(_ unit: LineUnit, food: Food, _ t: Translator) -> String {
        switch unit {
        case .household: t["unit_\(food.unit)"]
        case .gram: "g"
        case .ml: "ml"
        }
    }
}

/// The patient's check-in page: the oldest pending meal, or nothing to answer.
struct CheckInPage: Sendable {
    let meal: MealView?
    let pendingCount: String?
    /// Why an answer was refused (it was not this meal's turn).
    let refusal: String?
}

/// The answer form: followed (quantities) or not followed (why and what instead).
struct AnswerPage: Sendable {
    struct Hunger: Sendable {
        let value: Int
        let label: String
        let isChecked: Bool
    }

    let meal: MealView
    let followed: Bool
    let form: FormState
    let quantities: [QuantityField]
    let hungerScale: [Hunger]

    struct QuantityField: Sendable {
        let name: String
        let label: String
        let value: String
        let unitLabel: String
        let error: String?
    }

    init(meal: MealView, followed: Bool, form: FormState, _ t: Translator) {
        self.meal = meal
        self.followed = followed
        self.form = form
        quantities = meal.lines.map { line in
            let name = "q_\(line.id)"
            return QuantityField(name: name, label: line.name, value: form.values[name] ?? line.quantityValue,
                                 unitLabel: line.unitLabel, error: form.errors[name])
        }
        hungerScale = (1...5).map { Hunger(value: $0, label: t["hunger_\($0)"], isChecked: form["hunger"] == "\($0)") }
    }
}

struct MealHistoryPage: Sendable {
    let meals: [MealView]
    let isEmpty: Bool
}

struct MealDetailPage: Sendable {
    let meal: MealView
    let backPath: String
}
