import Foundation

/// The nutritionist's week and the patient's weekly plan: which days a week holds, which week a
/// request asks for, and how a meal's cell reads. Pure; dates are ISO strings in the clinic's time zone.
enum NutritionWeek {
    /// Weeks start on Monday (ISO 8601), as meal plans are written.
    static func monday(of iso: String) -> String? {
        guard let day = ISODate.dayNumber(iso) else { return nil }
        return ISODate.string(dayNumber: day - weekdayIndex(dayNumber: day))
    }

    /// 0 for Monday … 6 for Sunday (1970-01-01, day 0, was a Thursday).
    static func weekdayIndex(dayNumber day: Int) -> Int { ((day % 7) + 7 + 3) % 7 }

    /// The Monday of the week an instant falls in, in the clinic's time zone: the day is taken where the
    /// clinic is, so a Sunday evening in São Paulo is still Sunday although it is Monday in UTC, and a
    /// change of summer time moves no day.
    static func monday(at instant: Date, timeZone: TimeZone) -> String {
        let day = ISODate.dayNumber(of: instant, timeZone: timeZone)
        return ISODate.string(dayNumber: day - weekdayIndex(dayNumber: day))
    }

    /// The seven ISO days of the week starting at `monday`.
    static func days(from monday: String) -> [String] {
        (0..<7).map { ISODate.adding($0, to: monday) }
    }

    /// Weeks a page may show: far enough for any real record (a meal forgotten decades ago still shows),
    /// near enough that day arithmetic and formatting never meet a year 0 or 10 000.
    static let earliest = "1900-01-01"
    static let latest = "2199-12-31"

    /// The week a request asks for, as its Monday. `week` may be any day of it (`2026-11-25`) or an ISO
    /// week (`2026-W48`, what a week picker sends). An old bookmark of a period (`from`/`to`, the page's
    /// former filter) shows this week when the period holds today, else the week the period starts.
    /// Anything unreadable or out of range shows this week: a bookmark never breaks the page.
    static func requested(week: String?, from: String?, to: String?, today: String) -> String {
        let current = monday(of: today) ?? today
        if let week = week?.trimmingCharacters(in: .whitespaces), !week.isEmpty {
            return readable(week).flatMap(monday(of:)) ?? isoWeek(week) ?? current
        }
        guard let from = from.flatMap(readable) else { return current }
        if let to = to.flatMap(readable), from <= today, today <= to { return current }
        return monday(of: from) ?? current
    }

    /// An ISO date within the weeks a page may show, else nil.
    static func readable(_ text: String) -> String? {
        guard text.count == 10, let day = ISODate.dayNumber(text) else { return nil }
        let iso = ISODate.string(dayNumber: day)
        return (earliest...latest).contains(iso) ? iso : nil
    }

    /// The Monday of an ISO week such as "2026-W48" (week 1 holds the year's first Thursday), else nil.
    static func isoWeek(_ text: String) -> String? {
        let parts = text.uppercased().split(separator: "-W")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), let week = Int(parts[1]),
              (1900...2199).contains(year), (1...53).contains(week) else { return nil }
        let january4 = ISODate.dayNumber(year: year, month: 1, day: 4)
        let firstMonday = january4 - weekdayIndex(dayNumber: january4)
        let monday = firstMonday + (week - 1) * 7
        // Week 53 exists only in long years: its Monday must still belong to the ISO year.
        let nextFirstMonday = { () -> Int in
            let next = ISODate.dayNumber(year: year + 1, month: 1, day: 4)
            return next - weekdayIndex(dayNumber: next)
        }()
        guard monday < nextFirstMonday else { return nil }
        return ISODate.string(dayNumber: monday)
    }

    /// How a meal's cell reads. Each has a mark as well as a colour, so the grid reads without colour.
    enum CellStatus: String, Sendable, CaseIterable {
        /// Followed as prescribed.
        case followed
        /// Followed, with some quantity changed.
        case changed
        case notFollowed = "not-followed"
        /// Pending, its time passed: it blocks the patient's check-in.
        case overdue
        /// Pending, its time still to come.
        case upcoming

        var mark: String {
            switch self {
            case .followed: "✓"
            case .changed: "≈"
            case .notFollowed: "✗"
            case .overdue: "!"
            case .upcoming: "○"
            }
        }
    }

    static func cellStatus(_ status: MealStatus, date: String, time: String, quantityChanged: Bool,
                           now: (date: String, time: String)) -> CellStatus {
        switch status {
        case .fulfilled: quantityChanged ? .changed : .followed
        case .notFulfilled: .notFollowed
        case .pending: NutritionDates.isOverdue(date: date, time: time, now: now) ? .overdue : .upcoming
        }
    }

    /// The energy eaten at a meal, as well as it is known: the consumed quantities of a followed meal,
    /// the patient's estimate of one not followed (a share of the prescription); nil when unknown.
    static func eatenKcal(_ status: MealStatus, plannedKcal: Double, consumedKcal: Double, eatenShare: Int?) -> Double? {
        switch status {
        case .fulfilled: consumedKcal
        case .notFulfilled: eatenShare.map { plannedKcal * Double($0) / 100 }
        case .pending: nil
        }
    }

    /// The energy eaten on a day, for the chart: known only when every meal of the day is (answered and, when not
    /// followed, estimated). A day with one meal unanswered or not estimated is a gap, never a plunge towards 0 kcal.
    static func dayEatenKcal(_ meals: [Double?]) -> Double? {
        guard !meals.isEmpty, meals.allSatisfy({ $0 != nil }) else { return nil }
        return meals.reduce(0) { $0 + $1! }
    }

    /// Whether a week's plan needs the smaller type to print on one A4 sheet: more than five kinds of
    /// meal, or a day of more than 24 lines (a meal's heading and its foods), beyond what the demo's
    /// four meals a day with up to four foods take.
    static func isDense(columns: Int, busiestDayLines: Int) -> Bool { columns > 5 || busiestDayLines > 24 }
}
