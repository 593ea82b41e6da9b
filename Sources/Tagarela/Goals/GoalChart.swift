import Foundation

/// A goal's measure week by week against its target, as a server-drawn chart (`LineChart`): on the goal's
/// page and for each goal of the progress report.
enum GoalChart {
    /// The chart of `history` (oldest first), or nil when fewer than two weeks were measured: one point
    /// says nothing a sentence does not.
    static func svg(_ goal: Goal, history: [(day: String, measured: Double?)], _ t: Translator,
                    _ format: LocalizedFormat, compact: Bool = false) -> String? {
        guard history.count >= 2, history.contains(where: { $0.measured != nil }) else { return nil }
        let decimals = goal.goalKind == .bodyMeasure ? 1 : 0
        var chart = LineChart(
            title: t["goal_history_chart"], unit: t[goal.unitKey], labels: history.map { format.shortDate(iso: $0.day) },
            series: [.init(name: t["goal_history_measured"], values: history.map(\.measured), colour: LineChart.palette[0]),
                     .init(name: t["goal_field_target"], values: history.map { _ in goal.target }, colour: LineChart.palette[1])],
            format: { format.decimal($0, fractionDigits: decimals) })
        if goal.unitKey.hasPrefix("goal_unit_percent") { chart.range = 0...100 }
        if compact { chart.height = 180 }
        return chart.svg
    }

    /// The days a goal's history is drawn at: its first day to today, or to its last day or the day it was
    /// closed when earlier; none before it begins.
    static func days(of goal: Goal, today: String, timeZone: TimeZone) -> [String] {
        var last = min(today, goal.endsOn)
        if let closedAt = goal.closedAt { last = min(last, ISODate.string(closedAt, timeZone: timeZone)) }
        guard last >= goal.startsOn else { return [] }
        return GoalRules.historyDays(from: goal.startsOn, to: last)
    }
}
