import Foundation

/// How a count moved, and the small pictures of it the overview draws. Pure.
enum RecordTrends {
    enum Direction: String, Sendable, Equatable {
        /// Nothing in either week: no trend to speak of.
        case none
        case up, steady, down
    }

    /// A change of less than a fifth either way is "steady": a child's week varies that much.
    static let steadyBand = 0.2

    /// The last 7 days against the 7 before them.
    static func direction(recent: Int, earlier: Int) -> Direction {
        if recent == 0 && earlier == 0 { return .none }
        if earlier == 0 { return .up }
        let ratio = Double(recent) / Double(earlier)
        if ratio >= 1 + steadyBand { return .up }
        if ratio <= 1 - steadyBand { return .down }
        return .steady
    }

    /// The days `from`…`to` (ISO dates, inclusive), oldest first, each with its count (0 when absent).
    static func daily(_ counts: [String: Int], from: String, to: String) -> [(day: String, count: Int)] {
        guard let first = ISODate.dayNumber(from), let last = ISODate.dayNumber(to), first <= last else { return [] }
        return (first...last).map { number in
            let day = ISODate.string(dayNumber: number)
            return (day, counts[day] ?? 0)
        }
    }

    /// The sum of the last `days` values of a daily series, and of the `days` before them.
    static func lastTwoWindows(_ values: [Int], days: Int) -> (recent: Int, earlier: Int) {
        let recent = values.suffix(days).reduce(0, +)
        let earlier = values.dropLast(days).suffix(days).reduce(0, +)
        return (recent, earlier)
    }

    /// The `points` of an SVG polyline drawing `values` (oldest first) in a `width` × `height` box,
    /// the highest value at the top, zero at the bottom; a flat line when every value is zero.
    static func sparkline(_ values: [Int], width: Double = 120, height: Double = 32) -> String {
        guard !values.isEmpty else { return "" }
        let top = Double(max(values.max() ?? 0, 1))
        let padding = 2.0
        let step = values.count > 1 ? (width - 2 * padding) / Double(values.count - 1) : 0
        return values.enumerated().map { index, value in
            let x = padding + step * Double(index)
            let y = height - padding - (height - 2 * padding) * Double(value) / top
            return "\(rounded(x)),\(rounded(y))"
        }.joined(separator: " ")
    }

    private static func rounded(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
