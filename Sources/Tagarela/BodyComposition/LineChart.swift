import Foundation

/// A small server-rendered SVG line chart: no script, no inline style (the CSP forbids both),
/// colours as presentation attributes, and every text escaped. Pure.
struct LineChart: Sendable {
    struct Series: Sendable {
        let name: String
        let values: [Double?]
        let colour: String
    }

    let title: String
    let unit: String
    /// One label per point (dates); as many are shown under the axis as fit without touching (`ChartLayout.ticks`).
    let labels: [String]
    let series: [Series]
    /// Where each point falls in time (day numbers, `ISODate.dayNumber`): points are spaced by time. nil: evenly.
    var days: [Int]? = nil
    /// A phone's width: the chart is drawn near its own size there, so its text stays readable
    /// (`fontSize` × the rendered width ÷ `width` ≥ 12 px from a 300 px figure up; see `minimumTextPixels`).
    var width = 360.0
    var height = 230.0
    var fontSize = 15.0
    /// Fixed bounds of the value axis (a percentage: 0–100), so its three lines fall on round values.
    var range: ClosedRange<Double>? = nil
    /// The value axis starts at zero (an energy: a day at half the prescription looks like half).
    var fromZero = false
    /// A missing value breaks the line (an unanswered day is a gap, not a plunge or a bridge).
    var breaksAtMissing = false

    /// A value formatter for the axis and point labels (the locale's decimal mark).
    let format: @Sendable (Double) -> String

    static let palette = ["#0b7a5a", "#b3261e", "#1d4ed8", "#8a4b08"]

    /// The size the smallest text of the chart is shown at when the chart is `renderedWidth` pixels wide.
    func minimumTextPixels(renderedWidth: Double) -> Double { fontSize * renderedWidth / width }

    var svg: String {
        let values = series.flatMap { $0.values.compactMap { $0 } }
        guard let low = values.min(), let high = values.max(), !labels.isEmpty else { return "" }
        let padding = max((high - low) * 0.15, abs(high) * 0.02, 0.5)
        // Counts and measures are never negative: their axis does not go below zero.
        let bottom = range?.lowerBound ?? (fromZero && low >= 0 ? 0 : low >= 0 ? max(low - padding, 0) : low - padding)
        let top = range?.upperBound ?? high + padding
        let left = 58.0, right = width - 18, upper = 30.0
        let legend = series.count > 1
            ? ChartLayout.legendRows(widths: series.map { ChartLayout.textWidth("● " + $0.name, fontSize: fontSize) },
                                     from: 4, to: width - 4, gap: fontSize)
            : []
        let legendRowCount = (legend.map(\.row).max() ?? -1) + 1
        let lineHeight = fontSize + 5
        let totalHeight = height + Double(max(legendRowCount - 1, 0)) * lineHeight
        let tickBaseline = height - 14 - (legendRowCount > 0 ? 16 : 0)
        let lower = tickBaseline - fontSize - 10
        let xs = ChartLayout.positions(days: days, count: labels.count, from: left, to: right)
        func y(_ value: Double) -> Double { lower - (lower - upper) * (value - bottom) / (top - bottom) }

        var labelsByValue: [Double: String] = [:]
        func label(_ value: Double) -> String {
            if let text = labelsByValue[value] { return text }
            let text = escape(format(value))
            labelsByValue[value] = text
            return text
        }

        var parts: [String] = []
        parts.append(##"<svg class="chart" viewBox="0 0 \##(Int(width)) \##(Int(totalHeight))" role="img" aria-label="\##(escape(title + " (" + unit + ")"))" xmlns="http://www.w3.org/2000/svg">"##)
        parts.append(##"<text x="4" y="18" font-size="\##(Int(fontSize + 1))" font-weight="700" fill="#1a1a1a">\##(escape(title)) (\##(escape(unit)))</text>"##)
        for fraction in [0.0, 0.5, 1.0] {
            let value = bottom + (top - bottom) * fraction
            let yy = y(value)
            parts.append(##"<line x1="\##(left)" y1="\##(rounded(yy))" x2="\##(right)" y2="\##(rounded(yy))" stroke="#d0d0d0" stroke-width="1"/>"##)
            parts.append(##"<text x="\##(left - 6)" y="\##(rounded(yy + 4))" font-size="\##(Int(fontSize))" text-anchor="end" fill="#4a4a4a">\##(label(value))</text>"##)
        }
        let ticks = ChartLayout.ticks(centres: xs, widths: labels.map { ChartLayout.textWidth($0, fontSize: fontSize) },
                                      from: 0, to: width, gap: fontSize * 0.8)
        for tick in ticks {
            parts.append(##"<text class="chart-tick" x="\##(rounded(tick.centre))" y="\##(tickBaseline)" font-size="\##(Int(fontSize))" text-anchor="middle" fill="#4a4a4a">\##(escape(labels[tick.index]))</text>"##)
        }
        for line in series {
            let runs = breaksAtMissing ? ChartLayout.segments(line.values) : [line.values.indices.filter { line.values[$0] != nil }]
            for run in runs where run.count > 1 {
                let path = run.map { "\(rounded(xs[$0])),\(rounded(y(line.values[$0]!)))" }.joined(separator: " ")
                parts.append(##"<polyline points="\##(path)" fill="none" stroke="\##(line.colour)" stroke-width="3" stroke-linejoin="round"/>"##)
            }
            let name = escape(line.name)
            for (index, value) in line.values.enumerated() {
                guard let value else { continue }
                parts.append(##"<circle cx="\##(rounded(xs[index]))" cy="\##(rounded(y(value)))" r="4.5" fill="\##(line.colour)"><title>\##(name) · \##(escape(labels[index])): \##(label(value))</title></circle>"##)
            }
        }
        for (line, place) in zip(series, legend) {
            // Room under the baseline for descenders ("ç", "p"): a legend at the very edge was cut.
            let baseline = height - 6 + Double(place.row) * lineHeight
            parts.append(##"<text class="chart-legend" x="\##(rounded(place.x))" y="\##(rounded(baseline))" font-size="\##(Int(fontSize))" fill="\##(line.colour)">● \##(escape(line.name))</text>"##)
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// One decimal, as `%.1f` writes it (coordinates; `String(format:)` was a tenth of the usage page).
    private func rounded(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    private func escape(_ text: String) -> String { HTML.escape(text) }
}

/// Where a chart's points, date labels and legend go. Pure, so the rules are tested without drawing.
enum ChartLayout {
    /// A generous estimate of a label's width in the chart's units: digits, letters and slashes of a sans-serif
    /// font are narrower than 0.62 em, so labels placed by this estimate do not touch once drawn.
    static func textWidth(_ text: String, fontSize: Double) -> Double {
        Double(text.count) * fontSize * 0.62
    }

    /// The x of each point: by time when `days` are given (a fortnight without data is a fortnight wide),
    /// evenly otherwise; a single point in the middle.
    static func positions(days: [Int]?, count: Int, from left: Double, to right: Double) -> [Double] {
        guard count > 1 else { return count == 1 ? [(left + right) / 2] : [] }
        if let days, days.count == count, let first = days.min(), let last = days.max(), last > first {
            return days.map { left + (right - left) * Double($0 - first) / Double(last - first) }
        }
        if let days, days.count == count, days.min() == days.max() { return Array(repeating: (left + right) / 2, count: count) }
        return (0..<count).map { left + (right - left) * Double($0) / Double(count - 1) }
    }

    struct Tick: Equatable, Sendable {
        let index: Int
        /// The centre the label is drawn at: its point's x, moved inwards when the label would leave the chart.
        let centre: Double
        let width: Double
        var start: Double { centre - width / 2 }
        var end: Double { centre + width / 2 }
    }

    /// The labels to show under the axis: the first and the last, and between them as many as fit with `gap`
    /// between neighbours, left to right; none overlaps another or leaves `from`…`to`.
    static func ticks(centres: [Double], widths: [Double], from: Double, to: Double, gap: Double) -> [Tick] {
        func tick(_ index: Int) -> Tick {
            let width = widths[index]
            let centre = min(max(centres[index], from + width / 2), to - width / 2)
            return Tick(index: index, centre: centre, width: width)
        }
        guard !centres.isEmpty, centres.count == widths.count else { return [] }
        var chosen = [tick(0)]
        guard centres.count > 1 else { return chosen }
        let last = tick(centres.count - 1)
        for index in 1..<(centres.count - 1) {
            let candidate = tick(index)
            if candidate.start >= chosen.last!.end + gap, candidate.end + gap <= last.start { chosen.append(candidate) }
        }
        if last.start >= chosen.last!.end + gap {
            chosen.append(last)
        } else if chosen.count > 1 {
            // The last date matters more than one in the middle: it takes the place of the one before it.
            chosen.removeLast()
            if last.start >= chosen.last!.end + gap { chosen.append(last) }
        }
        return chosen
    }

    /// The runs of consecutive known values: each is drawn as its own line, so a missing value is a gap.
    static func segments(_ values: [Double?]) -> [[Int]] {
        var runs: [[Int]] = []
        var current: [Int] = []
        for (index, value) in values.enumerated() {
            if value == nil {
                if !current.isEmpty { runs.append(current); current = [] }
            } else {
                current.append(index)
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// Legend entries placed left to right, on a new row when the next would not fit.
    static func legendRows(widths: [Double], from: Double, to: Double, gap: Double) -> [(row: Int, x: Double)] {
        var row = 0, x = from
        return widths.map { width in
            if x > from, x + width > to { row += 1; x = from }
            defer { x += width + gap }
            return (row, x)
        }
    }
}

/// Series measured on different days drawn on one time axis: the union of their days (ISO), each
/// series nil where it has no value, so a weight imported between two evaluations falls between them.
struct DatedSeries: Sendable {
    let name: String
    let colour: String
    /// (ISO day, value); a day given twice keeps its last value.
    let points: [(day: String, value: Double)]

    static func axis(_ all: [DatedSeries]) -> (days: [String], series: [LineChart.Series]) {
        let days = Set(all.flatMap { $0.points.map(\.day) }).sorted()
        let series = all.filter { !$0.points.isEmpty }.map { one in
            let byDay = Dictionary(one.points.map { ($0.day, $0.value) }, uniquingKeysWith: { _, last in last })
            return LineChart.Series(name: one.name, values: days.map { byDay[$0] }, colour: one.colour)
        }
        return (days, series)
    }
}
