import Foundation

/// A meal as the patient and the nutritionist read it: names, quantities and energy in their words.
struct MealView: Encodable, Hashable, Sendable {
    struct Line: Encodable, Hashable, Sendable {
        let id: Int64
        let foodId: Int64
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
    /// A meal not followed: how much the patient says they ate instead, and its energy.
    let estimate: String?
    let status: String
    let isFulfilled: Bool
    let isNotFulfilled: Bool
    let isPending: Bool
    let reason: String?
    let eatenInstead: String?
    let hunger: String?
    let photoURL: String?
    let lines: [Line]
    /// Set by the page that lists the meal: its own page (history), or the nutritionist's actions on it.
    var url: String?
    var editURL: String?
    var withdrawURL: String?

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
        estimate = meal.mealStatus == .notFulfilled ? meal.eatenShare.map { share in
            t("week_estimate_value", ["share": t["week_eaten_\(share)"],
                                      "kcal": format.decimal(screen.eaten?.kcal ?? 0, fractionDigits: 0)])
        } : nil
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
            return Line(id: entry.line.id!, foodId: entry.food.id!, name: entry.food.name(format.locale),
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
struct CheckInPage: PageModel {
    /// One part of a refused answer, shown so that nothing typed is lost.
    struct Typed: PageModel {
        let label: String
        let text: String
    }

    let meal: MealView?
    let pendingCount: String?
    /// Why an answer was refused (not this meal's turn, not its day, no longer in the plan).
    let refusal: String?
    /// Set when the next meal is of a later day: it is shown, and answered from that day on.
    let answerableFrom: String?
    let canAnswer: Bool
    let typed: [Typed]
    let hasTyped: Bool
    /// The two answers to the meal shown; nil when there is none.
    let answerLinks: AnswerLinks?
    let historyURL = CheckInEndpoints.showHistory.path()
    /// Today's and the week's meals.
    let planURL = CheckInEndpoints.showPlan.path()
    let measurementsURL = CheckInEndpoints.showMeasurements.path()

    struct AnswerLinks: PageModel {
        let followedURL: String
        let notFollowedURL: String
    }

    init(meal: MealView?, pendingCount: String?, refusal: String?, answerableFrom: String?, typed: [Typed]) {
        self.meal = meal
        self.pendingCount = pendingCount
        self.refusal = refusal
        self.answerableFrom = answerableFrom
        canAnswer = answerableFrom == nil
        self.typed = typed
        hasTyped = !typed.isEmpty
        answerLinks = meal.map { meal in
            AnswerLinks(followedURL: CheckInEndpoints.showAnswerForm.path(meal.id, query: ["followed": "1"]),
                        notFollowedURL: CheckInEndpoints.showAnswerForm.path(meal.id, query: ["followed": "0"]))
        }
    }
}

/// The answer form: followed (quantities) or not followed (why and what instead).
struct AnswerPage: PageModel {
    struct Hunger: PageModel {
        let value: Int
        let label: String
        let isChecked: Bool
    }

    let meal: MealView
    /// The version of the prescription shown, sent back with the answer.
    let version: Int
    let followed: Bool
    let form: FormState
    /// Why the answer was not saved when nothing in it was wrong (the meal changed meanwhile).
    let refusal: String?
    let quantities: [QuantityField]
    let hungerScale: [Hunger]
    /// How much was eaten instead of a meal not followed (`NutritionRules.eatenShares`).
    let eatenScale: [Hunger]
    let action: String
    let cancelURL = CheckInEndpoints.showCheckIn.path()

    struct QuantityField: PageModel {
        let name: String
        /// The hidden field naming the line's food, so a typed quantity follows its food if the meal changes.
        let foodField: String
        let foodId: Int64
        let label: String
        let value: String
        let unitLabel: String
        let error: String?
    }

    init(meal: MealView, version: Int, followed: Bool, form: FormState, refusal: String? = nil, _ t: Translator) {
        self.meal = meal
        self.version = version
        self.followed = followed
        self.form = form
        self.refusal = refusal
        action = CheckInEndpoints.answer.path(meal.id)
        quantities = meal.lines.map { line in
            let name = "q_\(line.id)"
            return QuantityField(name: name, foodField: "qf_\(line.id)", foodId: line.foodId, label: line.name,
                                 value: form.values[name] ?? line.quantityValue, unitLabel: line.unitLabel, error: form.errors[name])
        }
        hungerScale = (1...5).map { Hunger(value: $0, label: t["hunger_\($0)"], isChecked: form["hunger"] == "\($0)") }
        eatenScale = NutritionRules.eatenShares.map { Hunger(value: $0, label: t["week_eaten_\($0)"], isChecked: form["eaten"] == "\($0)") }
    }
}

struct MealHistoryPage: PageModel {
    let meals: [MealView]
    let isEmpty: Bool
    let checkInURL = CheckInEndpoints.showCheckIn.path()
}

struct MealDetailPage: PageModel {
    let meal: MealView
    let backPath: String
}
