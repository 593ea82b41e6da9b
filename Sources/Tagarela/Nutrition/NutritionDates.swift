import Foundation

/// The dates a nutrition record may carry, each by what it means. Pure; dates are ISO strings
/// (`2026-11-21`), which compare in calendar order.
enum NutritionDates {
    /// A meal is prescribed at most a year ahead (a long plan) and a year back (a plan written down
    /// late). Further back, a typing slip such as 1999 for 2025 would become the patient's next meal.
    static let mealWindowDays = 365
    /// The oldest a weight can be when the patient's birth date is unknown: the oldest plausible person.
    static let oldestPersonYears = 120

    static func mealRange(today: String) -> ClosedRange<String> {
        ISODate.adding(-mealWindowDays, to: today)...ISODate.adding(mealWindowDays, to: today)
    }

    /// A weight is from the patient's life: not before their birth (or 120 years back when unknown),
    /// and not from the future.
    static func weightRange(today: String, birthDate: String?) -> ClosedRange<String> {
        let oldest = ISODate.adding(-oldestPersonYears * 365 - oldestPersonYears / 4, to: today)
        guard let birthDate, ISODate.dayNumber(birthDate) != nil, birthDate <= today else { return oldest...today }
        return max(birthDate, oldest)...today
    }

    /// A patient answers a meal on its day or later, never ahead: a meal of tomorrow has not been eaten.
    static func isAnswerable(mealDate: String, today: String) -> Bool { mealDate <= today }

    /// Whether a pending meal's time has passed (`now` is the clinic's local date and "HH:MM").
    static func isOverdue(date: String, time: String, now: (date: String, time: String)) -> Bool {
        (date, time) < (now.date, now.time)
    }
}
