import Foundation

/// A colour as OBF writes it (`rgb(…)`, `rgba(…)`, `#rrggbb`), and how it maps to Tagarela's categories.
struct RGB: Equatable, Sendable {
    let red: Int
    let green: Int
    let blue: Int

    init(_ red: Int, _ green: Int, _ blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `rgb(255, 0, 0)`, `rgba(255,0,0,0.5)`, `#f00` or `#ff0000`; nil for anything else.
    init?(css: String) {
        let text = css.trimmingCharacters(in: .whitespaces).lowercased()
        if let match = text.wholeMatch(of: /rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(,\s*[\d.]+\s*)?\)/),
           let r = Int(match.1), let g = Int(match.2), let b = Int(match.3), r < 256, g < 256, b < 256 {
            self.init(r, g, b)
        } else if text.hasPrefix("#"), [4, 7].contains(text.count), let value = Int(text.dropFirst(), radix: 16) {
            if text.count == 4 {
                self.init(((value >> 8) & 0xF) * 17, ((value >> 4) & 0xF) * 17, (value & 0xF) * 17)
            } else {
                self.init((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
            }
        } else {
            return nil
        }
    }

    var css: String { "rgb(\(red), \(green), \(blue))" }

    static let white = RGB(255, 255, 255)

    /// Hue in degrees, saturation and lightness in 0…1.
    var hsl: (hue: Double, saturation: Double, lightness: Double) {
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let high = max(r, g, b), low = min(r, g, b), lightness = (high + low) / 2
        guard high > low else { return (0, 0, lightness) }
        let delta = high - low
        let saturation = delta / (1 - abs(2 * lightness - 1))
        var hue: Double
        switch high {
        case r: hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6)
        case g: hue = 60 * ((b - r) / delta + 2)
        default: hue = 60 * ((r - g) / delta + 4)
        }
        if hue < 0 { hue += 360 }
        return (hue, saturation, lightness)
    }

    /// Near white, grey or black: no hue worth matching.
    var isNeutral: Bool {
        let (_, saturation, lightness) = hsl
        return saturation < 0.15 || lightness > 0.96 || lightness < 0.08
    }

    /// How far apart two colours look for the purpose of a category: mostly hue, since other tools paint
    /// Fitzgerald colours as pastels (`rgb(255, 255, 170)` is still "people yellow") while Tagarela's
    /// borders are strong; lightness separates navy from blue and white from grey.
    func distance(to other: RGB) -> Double {
        let a = hsl, b = other.hsl
        switch (isNeutral, other.isNeutral) {
        case (true, true): return abs(a.lightness - b.lightness)
        case (false, false):
            let hue = abs(a.hue - b.hue), around = min(hue, 360 - hue) / 180
            return around + 0.3 * abs(a.lightness - b.lightness)
        default: return 1 + abs(a.lightness - b.lightness)
        }
    }
}

extension CategoryColour {
    /// The colours of `Public/css/app.css` (`--cat-*`).
    var rgb: RGB {
        switch self {
        case .yellow: RGB(0xF5, 0xC4, 0x00)
        case .green: RGB(0x2E, 0x9E, 0x44)
        case .blue: RGB(0x1E, 0x73, 0xD8)
        case .pink: RGB(0xEC, 0x6F, 0xAE)
        case .orange: RGB(0xF2, 0x8C, 0x28)
        case .white: RGB(0xFF, 0xFF, 0xFF)
        case .purple: RGB(0x7B, 0x4F, 0xBF)
        case .brown: RGB(0x8B, 0x5A, 0x2B)
        case .red: RGB(0xD3, 0x2F, 0x2F)
        case .grey: RGB(0x8A, 0x90, 0x96)
        case .black: RGB(0x1B, 0x1B, 0x1B)
        case .teal: RGB(0x12, 0x93, 0x8A)
        case .navy: RGB(0x1F, 0x3A, 0x6D)
        case .lime: RGB(0x9C, 0xCC, 0x2E)
        case .gold: RGB(0xC9, 0xA2, 0x27)
        case .magenta: RGB(0xC2, 0x18, 0x9B)
        }
    }
}

/// Which of the clinician's categories an imported button joins. Pure.
enum CategoryMatch {
    /// A category of that name whose colour is the button's border or background (a Tagarela export) first;
    /// else the category whose colour is nearest to the button's background, or to its border when the
    /// background is neutral (Tagarela's own boards colour the border); a button without colour, or with
    /// only neutral ones (other tools draw grey borders on everything), joins the nearest to white.
    static func category(named name: String?, background: RGB?, border: RGB?, among categories: [Category]) -> Category? {
        guard !categories.isEmpty else { return nil }
        let given = [background, border].compactMap { $0 }
        if let name, let same = categories.first(where: { category in
            category.name == name && given.contains { category.categoryColour.rgb.distance(to: $0) < 0.01 }
        }) {
            return same
        }
        let colour: RGB = if let background, !background.isNeutral { background }
            else if let border, !border.isNeutral { border }
            else { background ?? .white }
        return categories.min { $0.categoryColour.rgb.distance(to: colour) < $1.categoryColour.rgb.distance(to: colour) }
    }
}
