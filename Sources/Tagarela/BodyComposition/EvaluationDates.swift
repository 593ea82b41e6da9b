import Foundation

/// The dates of a trainer's client and of their evaluations, by what each means. Pure; dates are
/// ISO strings (`2026-11-21`), which compare in calendar order.
enum EvaluationDates {
    /// The equations and the evaluation table take ages 5 to 120.
    static let youngestAge = 5
    static let oldestAge = 120

    /// A client's birth date: someone aged 5 to 120 today. A slip such as 2023 for 1993 is caught
    /// here, where it is typed, instead of on every evaluation later.
    static func birthRange(today: String) -> ClosedRange<String> {
        adding(years: -oldestAge, to: today)...adding(years: -youngestAge, to: today)
    }

    enum Problem: Equatable, Sendable {
        case future
        /// Before the client's 5th birthday, given.
        case tooYoung(String)
        /// The birth date allows no evaluation date up to today (set before these ranges existed).
        case birthImplausible
    }

    /// Whether an evaluation may be dated `takenOn`: from the client's 5th birthday to today, and
    /// before their 121st.
    static func problem(takenOn: String, birthDate: String, today: String) -> Problem? {
        let first = adding(years: youngestAge, to: birthDate)
        let last = min(today, ISODate.adding(-1, to: adding(years: oldestAge + 1, to: birthDate)))
        if first > last { return .birthImplausible }
        if takenOn > today { return .future }
        if takenOn < first { return .tooYoung(first) }
        if takenOn > last { return .birthImplausible }
        return nil
    }

    /// The same day `years` later (or earlier); 29 February becomes 1 March in a common year, the
    /// day `ISODate.age` counts the birthday on.
    static func adding(years: Int, to iso: String) -> String {
        guard let day = ISODate.dayNumber(iso) else { return iso }
        let (year, month, date) = ISODate.components(dayNumber: day)
        let target = year + years
        if month == 2, date == 29, ISODate.dayNumber("\(ISODate.padded(target, 4))-02-29") == nil {
            return ISODate.string(dayNumber: ISODate.dayNumber(year: target, month: 3, day: 1))
        }
        return ISODate.string(dayNumber: ISODate.dayNumber(year: target, month: month, day: date))
    }

    /// Checks the birth date typed on the client form against `birthRange`; a date that does not read
    /// is left to the form's own reader.
    static func checkBirthDate(_ form: inout FormState, today: Date, _ format: LocalizedFormat, _ t: Translator) {
        let text = form["birthDate"].trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let date = format.parseDate(text) else { return }
        let range = birthRange(today: ISODate.string(today, timeZone: format.timeZone))
        guard !range.contains(ISODate.string(date, timeZone: format.timeZone)) else { return }
        form.fail("birthDate", t("records_birth_range", ["min": format.shortDate(iso: range.lowerBound),
                                                         "max": format.shortDate(iso: range.upperBound)]))
    }

    static func message(_ problem: Problem, birthDate: String, _ format: LocalizedFormat, _ t: Translator) -> String {
        switch problem {
        case .future: t["records_evaluation_future"]
        case .tooYoung(let first): t("records_evaluation_too_young", ["min": format.shortDate(iso: first)])
        case .birthImplausible: t("records_evaluation_check_birth", ["birth": format.shortDate(iso: birthDate)])
        }
    }
}
