import Foundation
@testable import Tagarela
import Testing

/// The chart rules of issue 52, item 5: labels that never collide, gaps for unknown days, time to scale,
/// one line per protocol, an energy axis from zero.
@Suite struct ChartLayoutTests {
    @Test func tickLabelsNeverOverlapAndKeepTheFirstAndLastDates() {
        for count in [1, 2, 3, 7, 28, 90] {
            let centres = ChartLayout.positions(days: nil, count: count, from: 58, to: 342)
            let widths = Array(repeating: ChartLayout.textWidth("11/24/2026", fontSize: 15), count: count)
            let ticks = ChartLayout.ticks(centres: centres, widths: widths, from: 0, to: 360, gap: 12)
            #expect(ticks.first?.index == 0, "\(count) points")
            if count > 1 { #expect(ticks.last?.index == count - 1, "\(count) points: the last date is shown") }
            for (a, b) in zip(ticks, ticks.dropFirst()) { #expect(a.end + 12 <= b.start, "\(count): \(a) and \(b) touch") }
            #expect(ticks.allSatisfy { $0.start >= 0 && $0.end <= 360 }, "inside the chart")
        }
    }

    @Test func twoDatesTooCloseToShareTheAxisShowOnlyTheFirst() {
        let ticks = ChartLayout.ticks(centres: [100, 110], widths: [93, 93], from: 0, to: 360, gap: 12)
        #expect(ticks.map(\.index) == [0, 1] || ticks.count == 1)
        for (a, b) in zip(ticks, ticks.dropFirst()) { #expect(a.end + 12 <= b.start) }
    }

    @Test func pointsAreSpacedByTime() {
        // 1, 2 and 30 November: the second point sits near the first, not in the middle.
        let xs = ChartLayout.positions(days: [0, 1, 29], count: 3, from: 0, to: 290)
        #expect(xs == [0, 10, 290])
        #expect(ChartLayout.positions(days: nil, count: 3, from: 0, to: 290) == [0, 145, 290])
    }

    @Test func missingValuesSplitTheLine() {
        #expect(ChartLayout.segments([1, 2, nil, 4, nil, nil, 7, 8]) == [[0, 1], [3], [6, 7]])
        #expect(ChartLayout.segments([nil, nil]) == [])
        let svg = LineChart(title: "kcal", unit: "kcal", labels: ["a", "b", "c", "d", "e"],
                            series: [.init(name: "eaten", values: [1800, 1900, nil, 2000, 2100], colour: "#000")],
                            breaksAtMissing: true, format: { String($0) }).svg
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2, "a gap on the unknown day")
    }

    @Test func theEnergyAxisStartsAtZero() {
        let svg = LineChart(title: "kcal", unit: "kcal", labels: ["a", "b"],
                            series: [.init(name: "n", values: [1800, 2100], colour: "#000")],
                            fromZero: true, format: { String(Int($0)) }).svg
        #expect(svg.contains(">0</text>"), "\(svg)")
    }

    @Test func aDayIsKnownOnlyWhenEveryMealIsKnown() {
        #expect(NutritionWeek.dayEatenKcal([500, 700]) == 1200)
        #expect(NutritionWeek.dayEatenKcal([500, nil]) == nil, "a not-estimated meal is not 0 kcal")
        #expect(NutritionWeek.dayEatenKcal([]) == nil)
    }

    @Test func legendsWrapInsteadOfLeavingTheChart() {
        let rows = ChartLayout.legendRows(widths: [200, 200, 100], from: 4, to: 356, gap: 15)
        #expect(rows.map(\.row) == [0, 1, 1])
        #expect(rows.allSatisfy { $0.x >= 4 })
    }

    @Test func thePercentFatTrendDrawsOneLinePerProtocol() throws {
        func evaluation(_ day: String, _ chosen: SkinfoldProtocol, _ fold: Double) -> EvaluationDetails {
            let sites = chosen.sites(for: .male)
            return EvaluationDetails(
                evaluation: Evaluation(id: 1, patientId: 1, trainerId: 1, takenOn: day, skinfoldProtocol: chosen.rawValue,
                                       sex: "male", ageYears: 40, weightGrams: 80000, heightMm: 1780, createdAt: Date()),
                skinfolds: Dictionary(uniqueKeysWithValues: sites.map { ($0, [fold]) }), perimeters: [:])
        }
        let history = [evaluation("2026-01-01", .jp7, 15), evaluation("2026-02-01", .jp3, 18), evaluation("2026-03-01", .jp7, 14),
                       evaluation("2026-04-01", .jp3, 17)]
        let series = ClientHistoryPage.percentFatSeries(history, Translator(locale: .en, texts: ["protocol_short_jp7": "JP7", "protocol_short_jp3": "JP3"]))
        #expect(series.count == 2)
        #expect(series.allSatisfy { line in line.values.enumerated().allSatisfy { index, value in
            (value == nil) == (history[index].skinfoldProtocol.rawValue != (line.name.contains("7") ? "jp7" : "jp3"))
        } })
    }
}
