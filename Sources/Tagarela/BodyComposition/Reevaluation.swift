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
        guard let lastTakenOn, let last = ISODate.dayNumber(lastTakenOn), let now = ISODate.dayNumber(today) else { return (.never, nil) }
        let due = last + intervalDays
        let dueOn = ISODate.string(dayNumber: due)
        if now > due { return (.overdue, dueOn) }
        if now >= due - dueWindowDays { return (.due, dueOn) }
        return (.upToDate, dueOn)
    }
}
