import Foundation

/// Dates stored as ISO text (`2026-11-21`): a birth date has no time of day or time zone.
///
/// Day arithmetic is done on day numbers (days since 1970-01-01, proleptic Gregorian) with the
/// civil-calendar formulas of Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms":
/// pages list hundreds of dates, and a `Calendar` round trip per date was a visible part of their cost.
enum ISODate {
    static func string(_ date: Date, timeZone: TimeZone) -> String {
        string(dayNumber: dayNumber(of: date, timeZone: timeZone))
    }

    static func date(_ text: String, timeZone: TimeZone) -> Date? {
        LocalizedFormat(locale: .en, timeZone: timeZone).parseDate(text)
    }

    /// The day number of the day `date` falls on in `timeZone`.
    static func dayNumber(of date: Date, timeZone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }

    /// Days since 1970-01-01 for an ISO date, for date arithmetic; nil when it is not a real day. Pure.
    static func dayNumber(_ iso: String) -> Int? {
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return dayNumber(year: year, month: month, day: day)
    }

    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month and day of a day number. Pure.
    static func components(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func string(dayNumber day: Int) -> String {
        let (year, month, day) = components(dayNumber: day)
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// `value` in decimal, with leading zeros up to `width` digits.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The ISO date `days` later (or earlier, when negative); an unreadable date counts from 1970-01-01.
    static func adding(_ days: Int, to iso: String) -> String {
        string(dayNumber: (dayNumber(iso) ?? 0) + days)
    }

    /// Whole years between a birth date and today. Pure.
    static func age(birthDate: String, today: String) -> Int? {
        let b = birthDate.split(separator: "-").compactMap { Int($0) }
        let t = today.split(separator: "-").compactMap { Int($0) }
        guard b.count == 3, t.count == 3 else { return nil }
        var years = t[0] - b[0]
        if (t[1], t[2]) < (b[1], b[2]) { years -= 1 }
        return max(0, years)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
