import Foundation
import GRDB

/// A cell's own colours, kept from an imported Open Board button (`background_color`, `border_color`)
/// as the file wrote them, so an export writes them back unchanged. They override the category's
/// border on the child's board, the editor and the print. Pure.
///
/// The pages' Content-Security-Policy allows no inline style, so a colour is shown through one of 216
/// classes of app.css (`bg-fc0`, `bd-fc0`: each channel rounded to 0, 3, 6, 9, c or f, the web-safe
/// palette); a translucent colour is first laid over white, as a board's white page would show it.
enum CellColours {
    /// The longest colour text kept; longer text is not a colour.
    static let longest = 48

    /// The colour as written (trimmed), when it is one OBF allows (`rgb(…)`, `rgba(…)`, `#rgb`, `#rrggbb`).
    static func kept(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= longest,
              RGB(css: text) != nil else { return nil }
        return text
    }

    /// The classes that paint a cell in its own colours ("" when it has none).
    static func classes(background: String?, border: String?) -> String {
        var classes: [String] = []
        if let code = background.flatMap(paletteCode) { classes.append("bg-\(code)") }
        if let code = border.flatMap(paletteCode) { classes.append("bd-\(code)") }
        return classes.joined(separator: " ")
    }

    /// The nearest colour of the web-safe palette, as three hex digits ("fc0").
    static func paletteCode(_ text: String) -> String? {
        guard let rgb = RGB(css: text) else { return nil }
        let alpha = Self.alpha(text)
        return [rgb.red, rgb.green, rgb.blue].map { channel -> String in
            let shown = alpha * Double(channel) + (1 - alpha) * 255
            return String(Int((shown / 51).rounded()) * 3, radix: 16)
        }.joined()
    }

    /// An `rgba(…)`'s opacity, 0…1; 1 for anything else.
    static func alpha(_ text: String) -> Double {
        guard let match = text.lowercased().firstMatch(of: /rgba\([^,]*,[^,]*,[^,]*,\s*([\d.]+)\s*\)/),
              let value = Double(match.1) else { return 1 }
        return min(max(value, 0), 1)
    }

    static func v1(_ db: Database) throws {
        try db.alter(table: "planCell") { t in
            t.add(column: "backgroundColour", .text)
            t.add(column: "borderColour", .text)
        }
    }
}
