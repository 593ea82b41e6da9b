import Foundation

/// When a client should be evaluated again. Pure.
enum Reevaluation {
    enum Status: String, Sendable {
        case never, upToDate, due, overdue
    }

    /// How many days before the due date a client shows as "due".
    static let dueWindowDays = 14

    /// `lastTakenOn` and `today` are ISO dates; `intervalDays` is the client's interval.
    static func status(lastTakenOn: String?, intervalDays: Int, today: String) -> (status: Status, dueOn: String?) {
        guard let lastTakenOn, let last = day(lastTakenOn), let now = day(today) else { return (.never, nil) }
        let due = last + intervalDays
        let dueOn = isoDate(fromDay: due)
        if now > due { return (.overdue, dueOn) }
        if now >= due - dueWindowDays { return (.due, dueOn) }
        return (.upToDate, dueOn)
    }

    /// Days since 1970-01-01 for an ISO date (proleptic Gregorian).
    static func day(_ iso: String) -> Int? {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return nil }
        return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    static func isoDate(fromDay day: Int) -> String {
        ISODate.string(Date(timeIntervalSince1970: Double(day) * 86_400), timeZone: TimeZone(identifier: "UTC")!)
    }
}
