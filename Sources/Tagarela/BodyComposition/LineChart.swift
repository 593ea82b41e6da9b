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
    /// One label per point (dates), shown under the first and last points and the middle one.
    let labels: [String]
    let series: [Series]
    /// A phone's width: the chart is drawn near its own size there, so its text stays readable
    /// (`fontSize` × the rendered width ÷ `width` ≥ 12 px from a 300 px figure up; see `minimumTextPixels`).
    var width = 360.0
    var height = 230.0
    var fontSize = 15.0
    /// Fixed bounds of the value axis (a percentage: 0–100), so its three lines fall on round values.
    var range: ClosedRange<Double>? = nil

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
        let bottom = range?.lowerBound ?? (low >= 0 ? max(low - padding, 0) : low - padding), top = range?.upperBound ?? high + padding
        let left = 58.0, right = width - 18, upper = 30.0, lower = height - (series.count > 1 ? 54 : 40)
        func x(_ index: Int) -> Double {
            labels.count == 1 ? (left + right) / 2 : left + (right - left) * Double(index) / Double(labels.count - 1)
        }
        func y(_ value: Double) -> Double { lower - (lower - upper) * (value - bottom) / (top - bottom) }

        var labelsByValue: [Double: String] = [:]
        func label(_ value: Double) -> String {
            if let text = labelsByValue[value] { return text }
            let text = escape(format(value))
            labelsByValue[value] = text
            return text
        }

        var parts: [String] = []
        parts.append(##"<svg class="chart" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="\##(escape(title + " (" + unit + ")"))" xmlns="http://www.w3.org/2000/svg">"##)
        parts.append(##"<text x="4" y="18" font-size="\##(Int(fontSize + 1))" font-weight="700" fill="#1a1a1a">\##(escape(title)) (\##(escape(unit)))</text>"##)
        for fraction in [0.0, 0.5, 1.0] {
            let value = bottom + (top - bottom) * fraction
            let yy = y(value)
            parts.append(##"<line x1="\##(left)" y1="\##(rounded(yy))" x2="\##(right)" y2="\##(rounded(yy))" stroke="#d0d0d0" stroke-width="1"/>"##)
            parts.append(##"<text x="\##(left - 6)" y="\##(rounded(yy + 4))" font-size="\##(Int(fontSize))" text-anchor="end" fill="#4a4a4a">\##(label(value))</text>"##)
        }
        let labelled = Set([0, labels.count / 2, labels.count - 1])
        for index in labelled.sorted() {
            let anchor = labels.count == 1 ? "middle" : index == 0 ? "start" : index == labels.count - 1 ? "end" : "middle"
            parts.append(##"<text x="\##(rounded(x(index)))" y="\##(height - 14)" font-size="\##(Int(fontSize))" text-anchor="\##(anchor)" fill="#4a4a4a">\##(escape(labels[index]))</text>"##)
        }
        for line in series {
            let points = line.values.enumerated().compactMap { index, value in value.map { (x(index), y($0), $0) } }
            if points.count > 1 {
                let path = points.map { "\(rounded($0.0)),\(rounded($0.1))" }.joined(separator: " ")
                parts.append(##"<polyline points="\##(path)" fill="none" stroke="\##(line.colour)" stroke-width="3" stroke-linejoin="round"/>"##)
            }
            let name = escape(line.name)
            for point in points {
                parts.append(##"<circle cx="\##(rounded(point.0))" cy="\##(rounded(point.1))" r="4.5" fill="\##(line.colour)"><title>\##(name): \##(label(point.2))</title></circle>"##)
            }
        }
        if series.count > 1 {
            for (index, line) in series.enumerated() {
                let legendX = left + Double(index) * (right - left) / Double(series.count)
                parts.append(##"<text x="\##(rounded(legendX))" y="\##(height - 2)" font-size="\##(Int(fontSize))" fill="\##(line.colour)">● \##(escape(line.name))</text>"##)
            }
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
