import Foundation

/// The kinds of meal a nutritionist prescribes, with the time each usually has.
enum MealType: String, Sendable, CaseIterable {
    case breakfast, morningSnack, lunch, afternoonSnack, dinner, supper, custom

    var usualTime: String {
        switch self {
        case .breakfast: "07:30"
        case .morningSnack: "10:00"
        case .lunch: "12:30"
        case .afternoonSnack: "16:00"
        case .dinner: "19:30"
        case .supper: "21:30"
        case .custom: "12:00"
        }
    }
}

enum MealStatus: String, Sendable {
    case pending, fulfilled
    case notFulfilled = "not_fulfilled"
}

/// How a line's quantity is counted: in the food's household unit, or in grams or millilitres.
enum LineUnit: String, Sendable, CaseIterable {
    case household, gram, ml
}

/// Energy and macronutrients, in kcal and grams.
struct Nutrients: Sendable, Equatable {
    var kcal = 0.0
    var protein = 0.0
    var carbohydrate = 0.0
    var fat = 0.0

    static func + (a: Nutrients, b: Nutrients) -> Nutrients {
        Nutrients(kcal: a.kcal + b.kcal, protein: a.protein + b.protein,
                  carbohydrate: a.carbohydrate + b.carbohydrate, fat: a.fat + b.fat)
    }
}

/// A food's composition per 100 g and the weight of its household unit.
struct FoodComposition: Sendable {
    let gramsPerUnit: Double
    let kcal: Double
    let protein: Double?
    let carbohydrate: Double?
    let fat: Double?
}

/// The arithmetic of meals: energy from lines, adherence over a period. Pure.
enum NutritionRules {
    /// Millilitres count as grams (water-like density): prescriptions of drinks are in glasses or ml.
    static func grams(quantity: Double, unit: LineUnit, gramsPerUnit: Double) -> Double {
        switch unit {
        case .household: quantity * gramsPerUnit
        case .gram, .ml: quantity
        }
    }

    static func nutrients(of food: FoodComposition, quantity: Double, unit: LineUnit) -> Nutrients {
        let factor = grams(quantity: quantity, unit: unit, gramsPerUnit: food.gramsPerUnit) / 100
        return Nutrients(kcal: food.kcal * factor, protein: (food.protein ?? 0) * factor,
                         carbohydrate: (food.carbohydrate ?? 0) * factor, fat: (food.fat ?? 0) * factor)
    }

    /// Adherence over a period: followed ÷ answered, with what is still unanswered and overdue; and the
    /// energy of the answered meals whose intake is known (followed, or not followed with an estimate).
    struct Adherence: Sendable, Equatable {
        var fulfilled = 0
        var notFulfilled = 0
        var pending = 0
        var overdue = 0
        /// Meals not followed whose patient said how much they ate instead.
        var estimated = 0
        /// Prescribed and eaten energy of the answered meals whose intake is known.
        var plannedKcal = 0.0
        var eatenKcal = 0.0

        var answered: Int { fulfilled + notFulfilled }
        /// nil when nothing was answered: no rate is better than a made-up 0 % or 100 %.
        var rate: Double? { answered == 0 ? nil : Double(fulfilled) / Double(answered) }
        /// Eaten ÷ prescribed energy over the meals whose intake is known; nil when there is none. A
        /// meal not followed without an estimate is left out of both sides, never counted as 0 kcal.
        var energyRate: Double? { plannedKcal <= 0 ? nil : eatenKcal / plannedKcal }
    }

    struct ScheduledMeal: Sendable {
        let status: MealStatus
        /// ISO date and "HH:MM".
        let date: String
        let time: String
        var plannedKcal = 0.0
        /// nil when not known (pending, or not followed without an estimate).
        var eatenKcal: Double? = nil
    }

    /// `now` is the clinic's local date and time ("2026-11-21", "14:05"); a pending meal whose time
    /// has passed is overdue.
    static func adherence(_ meals: [ScheduledMeal], from: String, to: String, nowDate: String, nowTime: String) -> Adherence {
        var result = Adherence()
        for meal in meals where meal.date >= from && meal.date <= to {
            switch meal.status {
            case .fulfilled: result.fulfilled += 1
            case .notFulfilled:
                result.notFulfilled += 1
                if meal.eatenKcal != nil { result.estimated += 1 }
            case .pending:
                result.pending += 1
                if (meal.date, meal.time) < (nowDate, nowTime) { result.overdue += 1 }
            }
            if meal.status != .pending, let eaten = meal.eatenKcal {
                result.plannedKcal += meal.plannedKcal
                result.eatenKcal += eaten
            }
        }
        return result
    }

    /// The shares of the prescription a patient may say they ate instead of a meal, in percent:
    /// nothing, a little, about half, about as much, more, about double.
    static let eatenShares = [0, 25, 50, 100, 150, 200]

    /// A prescription's nutrients scaled to the share (percent) the patient says they ate.
    static func scaled(_ nutrients: Nutrients, share: Int) -> Nutrients {
        let factor = Double(share) / 100
        return Nutrients(kcal: nutrients.kcal * factor, protein: nutrients.protein * factor,
                         carbohydrate: nutrients.carbohydrate * factor, fat: nutrients.fat * factor)
    }

    /// The text of a weight import: the file's when one was chosen, else what was pasted. Browsers
    /// send the file field even when no file was chosen, empty: an empty file never hides the pasted lines.
    static func importText(file: [UInt8]?, pasted: String) -> String {
        if let file, !file.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return String(decoding: file, as: UTF8.self)
        }
        return pasted
    }

    /// Reads "date,weight" lines (a header line and blank lines are skipped; `;` works too, as
    /// spreadsheets in pt-BR and es export it). Returns the entries and the numbers of unreadable lines;
    /// a weight dated after `today` or before the patient's birth is one of those, as on the form.
    /// A date in an imported line: ISO, the locale's order, or dd/mm/yyyy where the locale reads mm/dd
    /// (a spreadsheet from Brazil or Spain opened in English) when the first number can only be a day.
    static func importDate(_ text: String, _ format: LocalizedFormat) -> Date? {
        if let date = format.parseDate(text) { return date }
        let numbers = text.trimmingCharacters(in: .whitespaces).split(separator: "/").map(String.init)
        guard format.locale == .en, numbers.count == 3, let day = Int(numbers[0]), day > 12 else { return nil }
        return LocalizedFormat(locale: .ptBR, timeZone: format.timeZone).parseDate(text)
    }

    static func weightCSV(_ text: String, today: Date, birthDate: String? = nil,
                          format: LocalizedFormat) -> (entries: [(date: String, kg: Double)], badLines: [Int]) {
        let range = NutritionDates.weightRange(today: ISODate.string(today, timeZone: format.timeZone), birthDate: birthDate)
        var entries: [(String, Double)] = []
        var bad: [Int] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let separator: Character = line.contains(";") ? ";" : ","
            let fields = line.split(separator: separator, maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, let date = importDate(fields[0], format),
                  range.contains(ISODate.string(date, timeZone: format.timeZone)),
                  let kg = format.parseDecimal(fields[1]), (2...400).contains(kg)
            else {
                if index > 0 || fields.first.map({ format.parseDate($0) != nil }) == true { bad.append(index + 1) }
                continue
            }
            entries.append((ISODate.string(date, timeZone: format.timeZone), kg))
        }
        return (entries, bad)
    }
}

/// What makes a prescription worth a second look before it is stored: the clinician may confirm it.
enum PrescriptionChecks {
    /// More household units than anyone eats at one meal (999 yogurts), or more than 2 kg of one food.
    static let maxHouseholdUnits = 20.0
    static let maxGramsPerLine = 2000.0
    /// A day's prescribed energy past this is a typing slip far more often than a plan.
    static let maxDailyKcal = 5000.0

    enum Warning: Equatable, Sendable {
        case quantity(line: Int, grams: Double)
        case dailyEnergy(kcal: Double)
        case sameSlot(time: String)
    }

    struct Line: Sendable {
        let quantity: Double
        let unit: LineUnit
        let food: FoodComposition
    }

    /// `lines` is the meal being saved; `sameDay` the patient's other meals that day (not the one being
    /// edited), each with its type, time and prescribed energy.
    static func warnings(lines: [Line], type: MealType, time: String,
                         sameDay: [(type: MealType, time: String, kcal: Double)]) -> [Warning] {
        var found: [Warning] = []
        for (index, line) in lines.enumerated() {
            let grams = NutritionRules.grams(quantity: line.quantity, unit: line.unit, gramsPerUnit: line.food.gramsPerUnit)
            if (line.unit == .household && line.quantity > maxHouseholdUnits) || grams > maxGramsPerLine {
                found.append(.quantity(line: index, grams: grams))
            }
        }
        let mealKcal = lines.reduce(0.0) { $0 + NutritionRules.nutrients(of: $1.food, quantity: $1.quantity, unit: $1.unit).kcal }
        let dayKcal = mealKcal + sameDay.reduce(0.0) { $0 + $1.kcal }
        if dayKcal > maxDailyKcal { found.append(.dailyEnergy(kcal: dayKcal)) }
        // Two meals of one kind (custom meals excepted) or two at one time on a day.
        if let other = sameDay.first(where: { ($0.type == type && type != .custom) || $0.time == time }) {
            found.append(.sameSlot(time: other.time))
        }
        return found
    }
}
