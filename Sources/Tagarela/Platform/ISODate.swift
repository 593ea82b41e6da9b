import Foundation

/// Dates stored as ISO text (`2026-11-21`): a birth date has no time of day or time zone.
enum ISODate {
    static func string(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    static func date(_ text: String, timeZone: TimeZone) -> Date? {
        LocalizedFormat(locale: .en, timeZone: timeZone).parseDate(text)
    }

    /// Days since 1970-01-01 for an ISO date (proleptic Gregorian), for date arithmetic. Pure.
    static func dayNumber(_ iso: String) -> Int? {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return nil }
        return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    static func string(dayNumber day: Int) -> String {
        string(Date(timeIntervalSince1970: Double(day) * 86_400), timeZone: TimeZone(identifier: "UTC")!)
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
}
