import Foundation

/// The food catalogue as one line's choices (`nutrition/food-options`).
struct FoodChoices: Sendable {
    let options: [SelectOption]

    init(_ foods: [FoodOption], chosen: String) {
        options = foods.map { SelectOption(value: "\($0.id)", label: "\($0.name) (\($0.unit))", isSelected: "\($0.id)" == chosen) }
    }
}

struct FoodOption: Sendable {
    let id: Int64
    let name: String
    let unit: String

    /// The catalogue as the prescription form's choices, in the reader's language.
    static func list(_ foods: [Food], _ context: RequestContext) -> [FoodOption] {
        foods.map { FoodOption(id: $0.id!, name: $0.name(context.locale), unit: context.t["unit_\($0.unit)"]) }
    }
}

/// The prescription form: type, date, time and up to twelve lines.
struct MealFormPage: PageModel {
    typealias Option = SelectOption

    struct LineRow: PageModel {
        let index: Int
        let number: Int
        /// The catalogue's `<option>`s with this line's food selected (`nutrition/food-options`), rendered with the page.
        let foodOptions: Piece
        let quantity: String
        let units: [Option]
        let foodError: String?
        let quantityError: String?
    }

    let patientId: Int64
    let patientName: String
    let action: String
    /// Back to the patient's review page.
    let cancelURL: String
    let form: FormState
    let types: [Option]
    let lines: [LineRow]
    let isNew: Bool
    /// Why an edit was refused because someone saved another one since the form was opened.
    let conflict: String?
    /// What to look at again before saving; the form then offers to save anyway.
    let warnings: [String]
    let hasWarnings: Bool

    /// `foodOptions` makes the piece of the catalogue as `<option>`s with one value selected: the form
    /// repeats the catalogue on every line, and rendering it once per chosen food rather than once
    /// per line made the new-meal form two and a half times cheaper (docs/decisions/README.md).
    init(patientId: Int64, patientName: String, action: String, form: FormState, foods: [FoodOption], lineCount: Int,
         isNew: Bool, conflict: String? = nil, warnings: [String] = [], _ t: Translator,
         foodOptions renderFoodOptions: (FoodChoices) -> Piece) {
        self.conflict = conflict
        self.warnings = warnings
        hasWarnings = !warnings.isEmpty
        self.patientId = patientId
        self.patientName = patientName
        self.action = action
        cancelURL = NutritionEndpoints.review.path(patientId)
        self.form = form
        self.isNew = isNew
        types = MealType.allCases.map { Option(value: $0.rawValue, label: t["meal_\($0.rawValue)"], isSelected: form["type"] == $0.rawValue) }
        var optionsByChoice: [String: Piece] = [:]
        lines = (0..<min(lineCount, MealInput.maxLines)).map { index in
            let chosen = form["food_\(index)"]
            let unit = form["unit_\(index)"].isEmpty ? LineUnit.household.rawValue : form["unit_\(index)"]
            let foodOptions = optionsByChoice[chosen] ?? renderFoodOptions(FoodChoices(foods, chosen: chosen))
            optionsByChoice[chosen] = foodOptions
            return LineRow(
                index: index, number: index + 1, foodOptions: foodOptions,
                quantity: form["quantity_\(index)"],
                units: LineUnit.allCases.map { Option(value: $0.rawValue, label: t["line_unit_\($0.rawValue)"], isSelected: $0.rawValue == unit) },
                foodError: form.errors["food_\(index)"], quantityError: form.errors["quantity_\(index)"])
        }
    }
}

/// The nutritionist's week of one patient: what needs attention and the summaries first, then the
/// week as a grid (a row per day, a column per kind of meal), each cell with its status (colour, mark
/// and word) and the energy prescribed and eaten; older and later weeks one click away.
struct ReviewPage: PageModel {
    struct DeviationRow: PageModel {
        let name: String
        let text: String
    }

    struct WeightRow: PageModel {
        let date: String
        let weight: String
        /// "imported from … (FHIR)" for a weight another system sent; nil for the log's own.
        let source: String?
    }

    /// The oldest pending meal when its time has passed: it blocks the patient's check-in.
    struct Overdue: PageModel {
        let text: String
        let editPath: String
        let showPath: String
        let showLabel: String
    }

    /// Adherence and energy over a span (the four weeks, or the week shown).
    struct Summary: PageModel {
        let title: String
        let rate: String
        let counts: String
        let energy: String
    }

    struct NotFollowedRow: PageModel {
        let when: String
        let reason: String
        let instead: String
        let estimate: String
    }

    struct Column: PageModel {
        let label: String
    }

    /// A meal in its cell, with its details folded (`nutrition/week-meal`, a `Piece` of the page).
    struct CellMeal: PageModel, Hashable {
        let meal: MealView
        let statusClass: String
        let mark: String
        /// The status in words, as the legend says it (overdue, to come…).
        let statusText: String
        let time: String
        /// The name of a custom meal (the column says the others').
        let customTitle: String?
        let planned: String
        let eaten: String?
        /// For a pending meal's withdraw form: a piece is rendered with its own model only.
        let csrf: String
    }

    struct Cell: PageModel {
        let label: String
        /// `CellMeal`s, each rendered on its own.
        let meals: [Piece]
        let isEmpty: Bool
    }

    struct Day: PageModel {
        let weekday: String
        let date: String
        let isToday: Bool
        let totals: String
        let cells: [Cell]
        let newMealURL: String
    }

    struct Legend: PageModel {
        let mark: String
        let statusClass: String
        let label: String
    }

    /// One figure of a day against the target: prescribed and eaten, each with its standing.
    struct TargetFigure: PageModel {
        let text: String
        /// `target-under`, `target-within`, `target-over`; empty without a target for it.
        let standingClass: String
        let mark: String
        let standing: String
    }

    struct TargetCell: PageModel {
        /// The column's heading, for a phone, where the table is a list of days.
        let label: String
        let prescribed: TargetFigure
        let eaten: TargetFigure?
    }

    struct TargetRow: PageModel {
        let day: String
        let cells: [TargetCell]
    }

    struct TargetHeader: PageModel {
        let label: String
        let target: String
    }

    let patientId: Int64
    let patientName: String
    let weekTitle: String
    /// The Monday shown, for the week picker.
    let week: String
    let previousWeekURL: String
    let nextWeekURL: String
    /// Back to the week of today; nil when it is the week shown.
    let thisWeekURL: String?
    let overdue: Overdue?
    /// The four weeks ending with the week shown: the headline figures.
    let period: Summary
    /// `period.rate`, kept under the name the page has always shown it by.
    let adherence: String
    let weekSummary: Summary
    let energyChart: String
    let notFollowed: [NotFollowedRow]
    let columns: [Column]
    let days: [Day]
    let legend: [Legend]
    let hasMeals: Bool
    let deviations: [DeviationRow]
    let weights: [WeightRow]
    let weightChart: String
    let sharesMeasurements: Bool
    let copyForm: FormState
    let weightForm: FormState
    /// The daily target: its form, a second tab's conflict, and the week's days against it.
    let targetForm: FormState
    let targetConflict: String?
    let targetURL: String
    let hasTarget: Bool
    let targetHeaders: [TargetHeader]
    let targetRows: [TargetRow]
    let targetLegend: [Legend]
    let newMealURL: String
    let patientURL: String
    let printURL: String
    let foodsURL = NutritionEndpoints.showFoods.path()
    /// The week picker (a GET form) and the two forms that post from this page.
    let filterURL: String
    let copyURL: String
    let addWeightURL: String

    init(data: NutritionQueries.Week, now: (date: String, time: String), copyForm: FormState, weightForm: FormState,
         targetForm: FormState, targetConflict: String?, context: RequestContext) {
        let t = context.t, format = context.format
        let patient = data.linked.patient, id = patient.userId
        let monday = data.monday, sunday = ISODate.adding(6, to: monday)
        patientId = id
        patientName = data.linked.user.displayName
        week = monday
        weekTitle = t("week_of", ["start": format.shortDate(iso: monday), "end": format.shortDate(iso: sunday)])
        previousWeekURL = NutritionEndpoints.review.path(id, query: ["week": ISODate.adding(-7, to: monday)])
        nextWeekURL = NutritionEndpoints.review.path(id, query: ["week": ISODate.adding(7, to: monday)])
        let currentWeek = NutritionWeek.monday(of: now.date) ?? now.date
        thisWeekURL = monday == currentWeek ? nil : NutritionEndpoints.review.path(id, query: ["week": currentWeek])
        newMealURL = NutritionEndpoints.newMeal.path(id)
        patientURL = PeopleEndpoints.showPatient.path(id)
        printURL = NutritionEndpoints.printPlan.path(id, query: ["week": monday])
        filterURL = NutritionEndpoints.review.path(id)
        copyURL = NutritionEndpoints.copyDay.path(id)
        addWeightURL = NutritionEndpoints.addWeight.path(id)
        self.copyForm = copyForm
        self.weightForm = weightForm
        self.targetForm = targetForm
        self.targetConflict = targetConflict
        targetURL = NutritionEndpoints.setTarget.path(id)
        (hasTarget, targetHeaders, targetRows) = Self.targetTable(data, monday: monday, t, format)
        targetLegend = TargetStanding.allCases.map {
            Legend(mark: $0.mark, statusClass: "target-\($0.rawValue)", label: t["target_standing_\($0.rawValue)"])
        }
        overdue = data.queueHead.map { Self.overdue($0.0, count: $0.1, patientId: id, t, format) }

        // Summaries: the four weeks, then the week shown.
        let scheduled = data.period.map(\.scheduled)
        period = Self.summary(t("week_period_title", ["start": format.shortDate(iso: data.periodFrom), "end": format.shortDate(iso: sunday)]),
                              NutritionRules.adherence(scheduled, from: data.periodFrom, to: sunday, nowDate: now.date, nowTime: now.time),
                              t, format)
        adherence = period.rate
        weekSummary = Self.summary(t["week_this_title"],
                                   NutritionRules.adherence(scheduled, from: monday, to: sunday, nowDate: now.date, nowTime: now.time),
                                   t, format)
        notFollowed = Self.notFollowed(data.period, t, format)
        energyChart = Self.energyChart(data.period, t, format)

        // The grid: a row per day, a column per kind of meal the week holds.
        let views = data.screens.map { screen in
            var view = MealView(screen, t, format, photoURL: CheckInEndpoints.showMealPhoto.path(screen.meal.id!))
            if screen.meal.mealStatus == .pending {
                view.editURL = NutritionEndpoints.editMeal.path(id, screen.meal.id!)
                view.withdrawURL = NutritionEndpoints.withdrawMeal.path(id, screen.meal.id!)
            }
            return view
        }
        hasMeals = !views.isEmpty
        let types = MealType.allCases.filter { type in data.screens.contains { $0.meal.mealType == type } }
        columns = types.map { Column(label: t["meal_\($0.rawValue)"]) }
        let cellMeals = zip(data.screens, views).map { screen, view -> (String, MealType, Piece) in
            (screen.meal.date, screen.meal.mealType,
             context.piece("nutrition/week-meal", Self.cellMeal(screen, view, now: now, csrf: context.csrfToken, t, format)))
        }
        let weekdays = (1...7).map { t["week_day_\($0)"] }
        days = NutritionWeek.days(from: monday).enumerated().map { index, day in
            let totals = Self.dayTotals(data.screens.filter { $0.meal.date == day }, t, format)
            return Day(weekday: weekdays[index], date: format.shortDate(iso: day), isToday: day == now.date, totals: totals,
                       cells: types.map { type in
                           let inCell = cellMeals.filter { $0.0 == day && $0.1 == type }.map(\.2)
                           return Cell(label: t["meal_\(type.rawValue)"], meals: inCell, isEmpty: inCell.isEmpty)
                       },
                       newMealURL: NutritionEndpoints.newMeal.path(id, query: ["date": day]))
        }
        legend = NutritionWeek.CellStatus.allCases.map {
            Legend(mark: $0.mark, statusClass: $0.rawValue, label: t["week_status_\($0.rawValue)"])
        }

        self.deviations = data.deviations.map {
            DeviationRow(name: $0.food.name(format.locale),
                         text: t("deviation_counts", ["deviated": "\($0.deviated)", "prescribed": "\($0.prescribed)"]))
        }
        weights = Self.weightRows(data.weights, imported: data.importedWeights, t, format)
        weightChart = Self.weightChart(data.weights, imported: data.importedWeights, t, format)
        sharesMeasurements = patient.sharesMeasurements
    }

    /// The oldest overdue meal, with how many are overdue, and links to edit it and to show its week.
    static func overdue(_ screen: MealScreen, count: Int, patientId id: Int64, _ t: Translator, _ format: LocalizedFormat) -> Overdue {
        let view = MealView(screen, t, format)
        let day = screen.meal.date
        return Overdue(text: t("records_queue_overdue", ["count": "\(count)", "meal": view.title, "when": view.when]),
                       editPath: NutritionEndpoints.editMeal.path(id, screen.meal.id!),
                       showPath: NutritionEndpoints.review.path(id, query: ["week": NutritionWeek.monday(of: day) ?? day]),
                       showLabel: t("records_queue_show_from", ["date": format.shortDate(iso: day)]))
    }

    /// A meal in a cell of the week: its status (colour, mark and word) and the energy prescribed and eaten.
    static func cellMeal(_ screen: MealScreen, _ view: MealView, now: (date: String, time: String), csrf: String,
                         _ t: Translator, _ format: LocalizedFormat) -> CellMeal {
        let meal = screen.meal
        let changed = view.lines.contains(where: \.isDeviation)
        let status = NutritionWeek.cellStatus(meal.mealStatus, date: meal.date, time: meal.time, quantityChanged: changed, now: now)
        let eaten = screen.eaten.map { nutrients in
            t(meal.mealStatus == .notFulfilled ? "week_kcal_estimated" : "week_kcal_eaten",
              ["kcal": format.decimal(nutrients.kcal, fractionDigits: 0)])
        } ?? (meal.mealStatus == .notFulfilled ? t["week_kcal_unknown"] : nil)
        return CellMeal(meal: view, statusClass: status.rawValue, mark: status.mark, statusText: t["week_status_\(status.rawValue)"],
                        time: meal.time, customTitle: meal.mealType == .custom ? view.title : nil,
                        planned: t("week_kcal_planned", ["kcal": format.decimal(screen.prescribed.kcal, fractionDigits: 0)]),
                        eaten: eaten, csrf: csrf)
    }

    /// A period's adherence in words: the rate, the counts, and the energy eaten against planned when known.
    static func summary(_ title: String, _ figures: NutritionRules.Adherence, _ t: Translator, _ format: LocalizedFormat) -> Summary {
        let percent = { (value: Double) in "\(format.decimal(value * 100, fractionDigits: 0)) %" }
        let energy = figures.energyRate.map { rate in
            t("week_energy_known", ["rate": percent(rate), "eaten": format.decimal(figures.eatenKcal, fractionDigits: 0),
                                    "planned": format.decimal(figures.plannedKcal, fractionDigits: 0),
                                    "estimated": "\(figures.estimated)"])
        } ?? t["week_energy_unknown"]
        return Summary(title: title, rate: figures.rate.map(percent) ?? "—",
                       counts: t("adherence_counts", ["fulfilled": "\(figures.fulfilled)", "answered": "\(figures.answered)",
                                                      "pending": "\(figures.pending)", "overdue": "\(figures.overdue)"]),
                       energy: energy)
    }

    /// The last three meals of the period not followed, the latest first, with why and what was eaten instead.
    static func notFollowed(_ period: [NutritionQueries.MealEnergy], _ t: Translator, _ format: LocalizedFormat) -> [NotFollowedRow] {
        period.filter { $0.status == .notFulfilled }.reversed().prefix(3).map { meal in
            let title = meal.type == .custom ? (meal.customName ?? t["meal_custom"]) : t["meal_\(meal.type.rawValue)"]
            return NotFollowedRow(when: "\(format.shortDate(iso: meal.date)) · \(meal.time) · \(title)", reason: meal.reason ?? "",
                                  instead: meal.eatenInstead ?? "",
                                  estimate: meal.eatenShare.map { share in
                                      t("week_estimate_value", ["share": t["week_eaten_\(share)"],
                                                                "kcal": format.decimal(meal.eatenKcal ?? 0, fractionDigits: 0)])
                                  } ?? t["week_estimate_none"])
        }
    }

    /// Energy per day over the period, as an SVG chart: prescribed for every meal, eaten where it is known.
    static func energyChart(_ period: [NutritionQueries.MealEnergy], _ t: Translator, _ format: LocalizedFormat) -> String {
        let byDay = Dictionary(grouping: period, by: \.date)
        let chartDays = byDay.keys.sorted()
        return chartDays.isEmpty ? "" : LineChart(
            title: t["chart_energy"], unit: "kcal", labels: chartDays.map { format.shortDate(iso: $0) },
            series: [.init(name: t["energy_prescribed"], values: chartDays.map { day in byDay[day]!.reduce(0) { $0 + $1.plannedKcal } },
                           colour: LineChart.palette[0]),
                     .init(name: t["week_energy_eaten"], values: chartDays.map { day in
                         NutritionWeek.dayEatenKcal(byDay[day]!.map(\.eatenKcal))
                     }, colour: LineChart.palette[1])],
            days: chartDays.map { ISODate.dayNumber($0) ?? 0 }, fromZero: true, breaksAtMissing: true,
            format: { format.decimal($0, fractionDigits: 0) }).svg
    }

    /// A day's energy in words: planned, and eaten when any meal of it is known; empty for a day without meals.
    static func dayTotals(_ ofDay: [MealScreen], _ t: Translator, _ format: LocalizedFormat) -> String {
        let planned = ofDay.reduce(0) { $0 + $1.prescribed.kcal }
        let eaten = ofDay.compactMap(\.eaten?.kcal)
        return ofDay.isEmpty ? "" : eaten.isEmpty
            ? t("week_day_planned", ["planned": format.decimal(planned, fractionDigits: 0)])
            : t("week_day_totals", ["planned": format.decimal(planned, fractionDigits: 0),
                                    "eaten": format.decimal(eaten.reduce(0, +), fractionDigits: 0)])
    }

    /// The weights logged and imported, the latest first, an imported one with its source.
    static func weightRows(_ logged: [WeightEntry], imported: [ImportedMeasurement], _ t: Translator,
                           _ format: LocalizedFormat) -> [WeightRow] {
        let own = logged.map { (day: $0.measuredOn, kg: $0.kg, source: String?.none) }
        let others = imported.map { (day: $0.day, kg: $0.value, source: Optional($0.sourceLabel(t))) }
        return (own + others).sorted { $0.day > $1.day }.map {
            WeightRow(date: format.shortDate(iso: $0.day), weight: "\(format.decimal($0.kg)) kg", source: $0.source)
        }
    }

    /// The weights as an SVG chart, logged and imported as two series on one axis of days; none below two days.
    static func weightChart(_ logged: [WeightEntry], imported: [ImportedMeasurement], _ t: Translator,
                            _ format: LocalizedFormat) -> String {
        let axis = DatedSeries.axis([
            DatedSeries(name: t["field_weight"], colour: LineChart.palette[2], points: logged.map { ($0.measuredOn, $0.kg) }),
            DatedSeries(name: t("fhir_imported_series", ["measure": t["field_weight"]]), colour: LineChart.palette[3],
                        points: imported.map { ($0.day, $0.value) }),
        ])
        return axis.days.count < 2 ? "" : LineChart(
            title: t["field_weight"], unit: "kg", labels: axis.days.map { format.shortDate(iso: $0) }, series: axis.series,
            days: axis.days.map { ISODate.dayNumber($0) ?? 0 }, format: { format.decimal($0) }).svg
    }

    /// The week's days with meals, prescribed and eaten against the daily target (energy and each macronutrient
    /// the target names), as wger's plans colour planned against logged. A day's eaten figures show only when
    /// every meal of it is known.
    static func targetTable(_ data: NutritionQueries.Week, monday: String, _ t: Translator,
                            _ format: LocalizedFormat) -> (Bool, [TargetHeader], [TargetRow]) {
        guard let target = data.target else { return (false, [], []) }
        let measures: [(String, Double?, String, (Nutrients) -> Double)] = [
            (t["target_kcal"], target.kcal, "kcal", \.kcal), (t["target_protein"], target.proteinG, "g", \.protein),
            (t["target_carbohydrate"], target.carbohydrateG, "g", \.carbohydrate), (t["target_fat"], target.fatG, "g", \.fat),
        ]
        let headers = measures.map { label, goal, unit, _ in
            TargetHeader(label: label, target: goal.map { "\(format.decimal($0, fractionDigits: 0)) \(unit)" } ?? "—")
        }
        func figure(_ value: Double, _ goal: Double?, _ unit: String) -> TargetFigure {
            let text = "\(format.decimal(value, fractionDigits: 0)) \(unit)"
            guard let goal else { return TargetFigure(text: text, standingClass: "", mark: "", standing: "") }
            let standing = TargetStanding.of(value, target: goal)
            return TargetFigure(text: text, standingClass: "target-\(standing.rawValue)", mark: standing.mark,
                                standing: t["target_standing_\(standing.rawValue)"])
        }
        let rows = NutritionWeek.days(from: monday).compactMap { day -> TargetRow? in
            let screens = data.screens.filter { $0.meal.date == day }
            guard !screens.isEmpty else { return nil }
            let prescribed = screens.reduce(Nutrients()) { $0 + $1.prescribed }
            let eatenKnown = screens.allSatisfy { $0.eaten != nil }
            let eaten = eatenKnown ? screens.reduce(Nutrients()) { $0 + $1.eaten! } : nil
            return TargetRow(day: format.shortDate(iso: day), cells: zip(measures, headers).map { measure, header in
                let (_, goal, unit, value) = measure
                return TargetCell(label: "\(header.label) · \(t["target_goal"]) \(header.target)",
                                  prescribed: figure(value(prescribed), goal, unit), eaten: eaten.map { figure(value($0), goal, unit) })
            })
        }
        return (true, headers, rows)
    }
}

/// The weekly meal plan on one A4 page, for the patient to take home; on a phone, the patient's
/// today and week, day by day.
struct MealPlanPage: PageModel {
    struct PlanMeal: PageModel {
        let time: String
        let title: String
        /// A custom meal's own name (the column names the others).
        let customTitle: String?
        let lines: [String]
        let energy: String
        let mark: String
        let status: String
        let statusClass: String
    }

    struct PlanCell: PageModel {
        let label: String
        let meals: [PlanMeal]
        let isEmpty: Bool
    }

    struct PlanDay: PageModel {
        let weekday: String
        let date: String
        let isToday: Bool
        let cells: [PlanCell]
        let meals: [PlanMeal]
        let hasMeals: Bool
    }

    let patientName: String
    let weekTitle: String
    let columns: [ReviewPage.Column]
    let days: [PlanDay]
    let hasMeals: Bool
    /// A week too full for the sheet's usual type size prints smaller, to stay on one page.
    let isDense: Bool
    /// The patient's page shows today's meals first (not printed).
    let today: PlanDay?
    let previousWeekURL: String
    let nextWeekURL: String
    let thisWeekURL: String?
    let backURL: String
    let backLabel: String
    /// The patient's check-in, from their own plan.
    let checkInURL: String?

    /// `weekURL` prints the link to another week of the same plan.
    init(name: String, screens: [MealScreen], monday: String, now: (date: String, time: String), showsToday: Bool,
         weekURL: (String) -> String, backURL: String, backLabel: String, checkInURL: String?, _ t: Translator, _ format: LocalizedFormat) {
        patientName = name
        weekTitle = t("week_of", ["start": format.shortDate(iso: monday), "end": format.shortDate(iso: ISODate.adding(6, to: monday))])
        let types = MealType.allCases.filter { type in screens.contains { $0.meal.mealType == type } }
        columns = types.map { ReviewPage.Column(label: t["meal_\($0.rawValue)"]) }
        let planMeals = screens.map { screen -> (String, MealType, PlanMeal) in
            let view = MealView(screen, t, format)
            let status = NutritionWeek.cellStatus(screen.meal.mealStatus, date: screen.meal.date, time: screen.meal.time,
                                                  quantityChanged: view.lines.contains(where: \.isDeviation), now: now)
            return (screen.meal.date, screen.meal.mealType,
                    PlanMeal(time: screen.meal.time, title: view.title,
                             customTitle: screen.meal.mealType == .custom ? view.title : nil, lines: view.lines.map { "\($0.name): \($0.prescribed)" },
                             energy: view.energy, mark: status.mark, status: view.status, statusClass: status.rawValue))
        }
        let weekdays = (1...7).map { t["week_day_\($0)"] }
        days = NutritionWeek.days(from: monday).enumerated().map { index, day in
            let ofDay = planMeals.filter { $0.0 == day }
            return PlanDay(weekday: weekdays[index], date: format.shortDate(iso: day), isToday: day == now.date,
                           cells: types.map { type in
                               let inCell = ofDay.filter { $0.1 == type }.map(\.2)
                               return PlanCell(label: t["meal_\(type.rawValue)"], meals: inCell, isEmpty: inCell.isEmpty)
                           },
                           meals: ofDay.map(\.2), hasMeals: !ofDay.isEmpty)
        }
        hasMeals = !screens.isEmpty
        isDense = NutritionWeek.isDense(columns: types.count,
                                        busiestDayLines: days.map { $0.meals.reduce(0) { $0 + 1 + $1.lines.count } }.max() ?? 0)
        today = showsToday ? days.first(where: \.isToday) : nil
        previousWeekURL = weekURL(ISODate.adding(-7, to: monday))
        nextWeekURL = weekURL(ISODate.adding(7, to: monday))
        let currentWeek = NutritionWeek.monday(of: now.date) ?? now.date
        thisWeekURL = monday == currentWeek ? nil : weekURL(currentWeek)
        self.backURL = backURL
        self.backLabel = backLabel
        self.checkInURL = checkInURL
    }
}

struct FoodsPage: PageModel {
    struct Row: PageModel {
        let name: String
        /// Correct, merge or remove the food.
        let editURL: String
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
    /// The search (a GET form) and the new food's form post to the same path.
    let searchURL = NutritionEndpoints.showFoods.path()
    let createURL = NutritionEndpoints.createFood.path()

    init(foods: [Food], search: String, form: FormState, _ t: Translator, _ format: LocalizedFormat) {
        rows = foods.map { food in
            let macros = [("P", food.proteinPer100g), ("C", food.carbohydratePer100g), ("G", food.fatPer100g)]
                .map { "\($0.0) \($0.1.map { format.decimal($0) } ?? "—")" }.joined(separator: " · ")
            return Row(name: food.name(format.locale), editURL: NutritionEndpoints.editFood.path(food.id!),
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

/// A food's correction, merge into another and removal, on one page.
struct FoodEditPage: PageModel {
    typealias Option = SelectOption

    let name: String
    let form: FormState
    let units: [Option]
    let conflict: String?
    let updateURL: String
    let mergeURL: String
    let removeURL: String
    let cancelURL = NutritionEndpoints.showFoods.path()
    let others: [Option]
    let hasOthers: Bool
    let mergeError: String?
    /// What removing does: a food in meals is hidden, one in none is deleted.
    let removeText: String
    let usesText: String

    init(food: Food, uses: Int, others: [Food], form: FormState, conflict: String?, _ t: Translator, _ format: LocalizedFormat) {
        name = food.name(format.locale)
        self.form = form
        self.conflict = conflict
        units = Food.units.map { Option(value: $0, label: t["unit_\($0)"], isSelected: form["unit"] == $0) }
        updateURL = NutritionEndpoints.updateFood.path(food.id!)
        mergeURL = NutritionEndpoints.mergeFood.path(food.id!)
        removeURL = NutritionEndpoints.removeFood.path(food.id!)
        // Foods with the same first word first: the likely duplicates.
        let firstWord = name.split(separator: " ").first.map { $0.lowercased() } ?? ""
        let sorted = others.filter { $0.name(format.locale).lowercased().hasPrefix(firstWord) }
            + others.filter { !$0.name(format.locale).lowercased().hasPrefix(firstWord) }
        self.others = sorted.map { other in
            Option(value: "\(other.id!)", label: "\(other.name(format.locale)) · \(format.decimal(other.kcalPer100g, fractionDigits: 0)) kcal",
                   isSelected: false)
        }
        hasOthers = !others.isEmpty
        mergeError = form.errors["into"]
        usesText = t("food_uses", ["count": "\(uses)"])
        removeText = uses > 0 ? t["food_remove_hides"] : t["food_remove_deletes"]
    }
}
