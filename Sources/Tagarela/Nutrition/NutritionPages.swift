import Foundation

struct FoodOption: Sendable {
    let id: Int64
    let name: String
    let unit: String
}

/// The prescription form: type, date, time and up to twelve lines.
struct MealFormPage: Sendable {
    typealias Option = SelectOption

    struct LineRow: Sendable {
        let index: Int
        let number: Int
        let foods: [Option]
        let quantity: String
        let units: [Option]
        let foodError: String?
        let quantityError: String?
    }

    let patientId: Int64
    let patientName: String
    let action: String
    let form: FormState
    let types: [Option]
    let lines: [LineRow]
    let isNew: Bool

    init(patientId: Int64, patientName: String, action: String, form: FormState, foods: [FoodOption], lineCount: Int,
         isNew: Bool, _ t: Translator) {
        self.patientId = patientId
        self.patientName = patientName
        self.action = action
        self.form = form
        self.isNew = isNew
        types = MealType.allCases.map { Option(value: $0.rawValue, label: t["meal_\($0.rawValue)"], isSelected: form["type"] == $0.rawValue) }
        lines = (0..<min(lineCount, MealInput.maxLines)).map { index in
            let chosen = form["food_\(index)"]
            let unit = form["unit_\(index)"].isEmpty ? LineUnit.household.rawValue : form["unit_\(index)"]
            return LineRow(
                index: index, number: index + 1,
                foods: foods.map { Option(value: "\($0.id)", label: "\($0.name) (\($0.unit))", isSelected: "\($0.id)" == chosen) },
                quantity: form["quantity_\(index)"],
                units: LineUnit.allCases.map { Option(value: $0.rawValue, label: t["line_unit_\($0.rawValue)"], isSelected: $0.rawValue == unit) },
                foodError: form.errors["food_\(index)"], quantityError: form.errors["quantity_\(index)"])
        }
    }
}

/// What the nutritionist reviews for one patient over a period.
struct ReviewPage: Encodable, Sendable {
    struct DeviationRow: Encodable, Sendable {
        let name: String
        let text: String
    }

    struct WeightRow: Encodable, Sendable {
        let date: String
        let weight: String
    }

    /// The oldest pending meal when its time has passed: it blocks the patient's check-in.
    struct Overdue: Encodable, Sendable {
        let text: String
        let editPath: String
        let showPath: String
        let showLabel: String
    }

    let patientId: Int64
    let patientName: String
    let from: String
    let to: String
    let overdue: Overdue?
    let adherence: String
    let counts: String
    let energyChart: String
    let meals: [MealView]
    let hasMeals: Bool
    let deviations: [DeviationRow]
    let weights: [WeightRow]
    let weightChart: String
    let sharesMeasurements: Bool
    let copyForm: FormState
    let weightForm: FormState

    init(patient: Patient, user: User, screens: [MealScreen], from: String, to: String, now: (date: String, time: String),
         queueHead: (MealScreen, Int)?, deviations: [Adherence.Deviation], weights: [WeightEntry], copyForm: FormState, weightForm: FormState,
         context: RequestContext) {
        let t = context.t, format = context.format
        patientId = patient.userId
        patientName = user.displayName
        self.from = from
        self.to = to
        self.copyForm = copyForm
        self.weightForm = weightForm
        overdue = queueHead.map { screen, count in
            let view = MealView(screen, t, format)
            let day = screen.meal.date
            return Overdue(text: t("records_queue_overdue", ["count": "\(count)", "meal": view.title, "when": view.when]),
                           editPath: "/patients/\(patient.userId)/meals/\(screen.meal.id!)/edit",
                           showPath: "/patients/\(patient.userId)/nutrition?from=\(day)&to=\(max(day, to))",
                           showLabel: t("records_queue_show_from", ["date": format.shortDate(iso: day)]))
        }
        let figures = NutritionRules.adherence(
            screens.map { .init(status: $0.meal.mealStatus, date: $0.meal.date, time: $0.meal.time) },
            from: from, to: to, nowDate: now.date, nowTime: now.time)
        adherence = figures.rate.map { "\(format.decimal($0 * 100, fractionDigits: 0)) %" } ?? "—"
        counts = t("adherence_counts", ["fulfilled": "\(figures.fulfilled)", "answered": "\(figures.answered)",
                                        "pending": "\(figures.pending)", "overdue": "\(figures.overdue)"])
        meals = screens.map { MealView($0, t, format, photoURL: "/meals/\($0.meal.id!)/photo") }
        hasMeals = !screens.isEmpty
        // Energy per day: prescribed for every meal, consumed for the meals followed.
        let days = Array(Set(screens.map(\.meal.date))).sorted()
        let prescribed = days.map { day in screens.filter { $0.meal.date == day }.reduce(0) { $0 + $1.prescribed.kcal } }
        let consumed: [Double?] = days.map { day in
            let answered = screens.filter { $0.meal.date == day && $0.meal.mealStatus != .pending }
            guard !answered.isEmpty else { return nil }
            return answered.reduce(0) { $0 + ($1.consumed?.kcal ?? 0) }
        }
        let labels = days.map { format.shortDate(iso: $0) }
        energyChart = days.isEmpty ? "" : LineChart(
            title: t["chart_energy"], unit: "kcal", labels: labels,
            series: [.init(name: t["energy_prescribed"], values: prescribed, colour: LineChart.palette[0]),
                     .init(name: t["energy_consumed"], values: consumed, colour: LineChart.palette[1])],
            format: { format.decimal($0, fractionDigits: 0) }).svg
        self.deviations = deviations.map {
            DeviationRow(name: $0.food.name(format.locale),
                         text: t("deviation_counts", ["deviated": "\($0.deviated)", "prescribed": "\($0.prescribed)"]))
        }
        self.weights = weights.reversed().map {
            WeightRow(date: format.shortDate(iso: $0.measuredOn),
                      weight: "\(format.decimal($0.kg)) kg")
        }
        weightChart = weights.count < 2 ? "" : LineChart(
            title: t["field_weight"], unit: "kg",
            labels: weights.map { format.shortDate(iso: $0.measuredOn) },
            series: [.init(name: t["field_weight"], values: weights.map(\.kg), colour: LineChart.palette[2])],
            format: { format.decimal($0) }).svg
        sharesMeasurements = patient.sharesMeasurements
    }
}

struct FoodsPage: Sendable {
    struct Row: Sendable {
        let name: String
        let unit: String
        let energy: String
        let macros: String
        let source: String
    }

    typealias Option = SelectOption

    let rows: [Row]
    let search: String
    let form: FormState
    let units: [Option]
    let countText: String

    init(foods: [Food], search: String, form: FormState, _ t: Translator, _ format: LocalizedFormat) {
        rows = foods.map { food in
            let macros = [("P", food.proteinPer100g), ("C", food.carbohydratePer100g), ("G", food.fatPer100g)]
                .map { "\($0.0) \($0.1.map { format.decimal($0) } ?? "—")" }.joined(separator: " · ")
            return Row(name: food.name(format.locale),
                       unit: "\(t["unit_\(food.unit)"]) = \(format.decimal(food.gramsPerUnit)) g",
                       energy: "\(format.decimal(food.kcalPer100g, fractionDigits: 0)) kcal", macros: macros,
                       source: food.source.split(separator: ",").first.map(String.init) ?? food.source)
        }
        self.search = search
        self.form = form
        units = Food.units.map { Option(value: $0, label: t["unit_\($0)"], isSelected: form["unit"] == $0) }
        countText = t("foods_count", ["count": "\(foods.count)"])
    }
}
