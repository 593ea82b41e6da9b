import Foundation

/// How a goal is going, from plain values: the period, today, what was measured. Pure; dates are ISO
/// strings of the clinic's calendar (`2026-11-21`), which compare in calendar order.
enum GoalRules {
    /// A goal runs from its first to its last day, both included.
    struct Period: Sendable, Equatable {
        let startsOn: String
        let endsOn: String
    }

    /// How a kind of goal is judged.
    enum Style: Sendable, Equatable {
        /// A habit per week (taps, sentences, taps alone): the last 7 days against the target; at the
        /// end, the period's last 7 days decide.
        case weekly
        /// A figure over the whole period so far (adherence, average game hits).
        case average
        /// A value to reach by the last day (best game hits, a body measure): met as soon as the latest
        /// measure reaches it; on the way, compared with a straight line from the baseline to the target.
        case reach
    }

    /// The first days of a goal are a grace period: nothing measured yet is "not started", something
    /// measured short of the target is "early days", never "behind".
    static let graceDays = 7

    enum Phase: Sendable, Equatable {
        case before
        /// `elapsed` counts the first day as 1; `total` is the period's length in days.
        case during(elapsed: Int, total: Int)
        case after
    }

    static func phase(_ period: Period, today: String) -> Phase {
        if today < period.startsOn { return .before }
        if today > period.endsOn { return .after }
        return .during(elapsed: days(from: period.startsOn, to: today), total: days(from: period.startsOn, to: period.endsOn))
    }

    /// The number of days from `first` to `last`, both included.
    static func days(from first: String, to last: String) -> Int {
        guard let a = ISODate.dayNumber(first), let b = ISODate.dayNumber(last) else { return 0 }
        return b - a + 1
    }

    /// The days a weekly goal measures: the 7 days ending today (or the period's last day once it is
    /// over), never before the period's first day; nil before the period begins.
    static func weekWindow(_ period: Period, today: String) -> ClosedRange<String>? {
        guard today >= period.startsOn else { return nil }
        let last = min(today, period.endsOn)
        return max(period.startsOn, ISODate.adding(-6, to: last))...last
    }

    /// The days a period goal measures: from the first day up to today (or the last day); nil before it begins.
    static func periodWindow(_ period: Period, today: String) -> ClosedRange<String>? {
        guard today >= period.startsOn else { return nil }
        return period.startsOn...min(today, period.endsOn)
    }

    /// The instants that bound clinic days `days`: the first instant of the first day, and the first
    /// instant of the day after the last, in the clinic's time zone. A day is what the rest of the app
    /// calls a day (`ISODate.dayNumber(of:timeZone:)`, which decides "today" and every form's date): a
    /// tap at 23:30 in São Paulo belongs to that day, though it is stored on the next day in UTC, and a
    /// day of a summer-time change is 23 or 25 hours long.
    static func instants(of days: ClosedRange<String>, timeZone: TimeZone) -> (from: Date, until: Date) {
        (start(ofDay: ISODate.dayNumber(days.lowerBound) ?? 0, timeZone: timeZone),
         start(ofDay: (ISODate.dayNumber(days.upperBound) ?? 0) + 1, timeZone: timeZone))
    }

    /// The first instant that `ISODate.dayNumber(of:timeZone:)` places on day `day` (or later: a day
    /// whose midnight a clock change skips starts when the clock jumps).
    static func start(ofDay day: Int, timeZone: TimeZone) -> Date {
        let midnightUTC = Double(day) * 86_400
        // The offset may differ on either side of the local midnight: try both, keep the earliest that is on the day.
        let before = midnightUTC - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnightUTC)))
        let after = midnightUTC - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: before)))
        let onTheDay = [before, after].sorted().filter { ISODate.dayNumber(of: Date(timeIntervalSince1970: $0), timeZone: timeZone) >= day }
        if let first = onTheDay.first, ISODate.dayNumber(of: Date(timeIntervalSince1970: first - 1), timeZone: timeZone) < day {
            return Date(timeIntervalSince1970: first)
        }
        // A clock change right at midnight: find the jump by halving the hour around it.
        var (low, high) = (min(before, after) - 3_600, max(before, after) + 3_600)
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if ISODate.dayNumber(of: Date(timeIntervalSince1970: middle), timeZone: timeZone) >= day { high = middle } else { low = middle }
        }
        return Date(timeIntervalSince1970: high)
    }

    /// The days a goal's history is drawn at, oldest first: `last`, then back by whole weeks (more than one
    /// when the span is long, so that at most `points` are drawn) while on or after `first`.
    static func historyDays(from first: String, to last: String, points: Int = 13) -> [String] {
        let span = days(from: first, to: last)
        guard span > 0 else { return [] }
        let weeks = max(1, Int((Double(span) / 7 / Double(max(points - 1, 1))).rounded(.up)))
        return stride(from: 0, to: span, by: 7 * weeks).map { ISODate.adding(-$0, to: last) }.reversed()
    }

    // MARK: - Measures

    /// `part` of `whole` in %, or nil when there is nothing to divide.
    static func percent(_ part: Int, of whole: Int) -> Double? {
        whole > 0 ? Double(part) * 100 / Double(whole) : nil
    }

    /// An accuracy goal's figure: the answers right of those given, in %; nil when none was given (no
    /// answer is not 0 % right).
    static func shareRight(right: Int, answered: Int) -> Double? {
        percent(min(max(right, 0), answered), of: answered)
    }

    /// A game goal's figure: the best or the average hits of the games played.
    static func gameValue(hits: [Int], _ aggregate: GameAggregate) -> Double? {
        guard !hits.isEmpty else { return nil }
        switch aggregate {
        case .best: return Double(hits.max()!)
        case .average: return Double(hits.reduce(0, +)) / Double(hits.count)
        }
    }

    /// One value of a body measure, from an evaluation (with its skinfold protocol) or a weighing.
    struct BodyReading: Sendable, Equatable {
        let takenOn: String
        /// The skinfold protocol of a % fat value; nil for weight and perimeters.
        let skinfoldProtocol: String?
        let value: Double
    }

    /// The baseline (the latest reading before the period, else its first) and the latest reading in the
    /// period so far. A % fat goal reads only its own protocol: equations disagree by several points, so a
    /// change of protocol is not progress.
    static func bodyValues(_ readings: [BodyReading], protocol skinfoldProtocol: String?, period: Period,
                           today: String) -> (baseline: Double?, latest: Double?) {
        let usable = readings
            .filter { skinfoldProtocol == nil || $0.skinfoldProtocol == skinfoldProtocol }
            .sorted { $0.takenOn < $1.takenOn }
        let last = min(today, period.endsOn)
        let inPeriod = usable.filter { $0.takenOn >= period.startsOn && $0.takenOn <= last }
        let before = usable.last { $0.takenOn < period.startsOn }
        return ((before ?? inPeriod.first)?.value, inPeriod.last?.value)
    }

    // MARK: - Status

    static func reaches(_ value: Double, _ target: Double, _ direction: GoalDirection) -> Bool {
        switch direction {
        case .atLeast: value >= target - 1e-9
        case .atMost: value <= target + 1e-9
        }
    }

    /// The status of a goal on `today`. `measured` is the value in the goal's unit (nil when nothing
    /// was measured); `baseline` is where a `reach` goal started from (0 for games when nil).
    static func status(_ style: Style, period: Period, today: String, measured: Double?, target: Double,
                       direction: GoalDirection = .atLeast, baseline: Double? = nil) -> GoalStatus {
        let phase = phase(period, today: today)
        switch (style, phase) {
        case (_, .before):
            return .notStarted
        case (.weekly, .after), (.average, .after):
            guard let measured else { return .missed }
            return reaches(measured, target, direction) ? .met : .missed
        case (.reach, .after):
            guard let measured else { return .missed }
            return reaches(measured, target, direction) ? .met : .missed
        case (.weekly, .during(let elapsed, _)):
            // A week's count is what the week holds, never scaled up: the first day's 2 taps are 2, not 14.
            if let measured, reaches(measured, target, direction) { return .onTrack }
            if elapsed <= graceDays { return (measured ?? 0) == 0 ? .notStarted : .early }
            return .behind
        case (.average, .during(let elapsed, _)):
            guard let measured else { return elapsed <= graceDays ? .notStarted : .behind }
            if reaches(measured, target, direction) { return .onTrack }
            return elapsed <= graceDays ? .early : .behind
        case (.reach, .during(let elapsed, let total)):
            guard let measured else { return .notStarted }
            if reaches(measured, target, direction) { return .met }
            let start = baseline ?? 0
            let expected = start + (target - start) * Double(elapsed) / Double(max(total, 1))
            if reaches(measured, expected, direction) { return .onTrack }
            return elapsed <= graceDays ? .early : .behind
        }
    }

    /// How far along a goal is, 0…1, for a progress bar: measured against target (from the baseline for `reach`).
    static func fraction(_ style: Style, measured: Double?, target: Double, direction: GoalDirection,
                         baseline: Double?) -> Double {
        guard let measured else { return 0 }
        let value: Double
        switch (style, direction) {
        case (.reach, _):
            guard let baseline, abs(target - baseline) > 1e-9 else {
                return reaches(measured, target, direction) ? 1 : (direction == .atLeast && target > 0 ? measured / target : 0)
            }
            value = (measured - baseline) / (target - baseline)
        case (_, .atLeast): value = target > 0 ? measured / target : 1
        case (_, .atMost): value = measured > 0 ? target / measured : 1
        }
        return min(1, max(0, value))
    }
}
