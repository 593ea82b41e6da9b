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

    /// Every form CSS gives a colour in: `rgb(255, 0, 0)`, `rgba(255,0,0,0.5)`, `rgb(255 0 0 / 50%)`,
    /// `rgb(100%, 0%, 0%)`, `hsl(0, 100%, 50%)`, `hsla(…)`, `#f00`, `#f00f`, `#ff0000`, `#ff0000ff` and the
    /// CSS named colours; the alpha is dropped (a cell is painted opaque). Nil for anything else.
    init?(css: String) {
        let text = css.trimmingCharacters(in: .whitespaces).lowercased()
        if let rgb = Self.functional(text) {
            self = rgb
        } else if text.hasPrefix("#"), [4, 5, 7, 9].contains(text.count),
                  text.dropFirst().allSatisfy(\.isHexDigit), let value = Int(text.dropFirst(), radix: 16) {
            switch text.count {
            case 4: self.init(((value >> 8) & 0xF) * 17, ((value >> 4) & 0xF) * 17, (value & 0xF) * 17)
            case 5: self.init(((value >> 12) & 0xF) * 17, ((value >> 8) & 0xF) * 17, ((value >> 4) & 0xF) * 17)
            case 7: self.init((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
            default: self.init((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF)
            }
        } else if let hex = Self.named[text] {
            self.init((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF)
        } else {
            return nil
        }
    }

    /// `rgb()`/`rgba()`/`hsl()`/`hsla()` with commas or spaces, numbers or percentages, an optional alpha.
    private static func functional(_ text: String) -> RGB? {
        guard let match = text.wholeMatch(of: /(rgba?|hsla?)\(\s*([^)]*?)\s*\)/) else { return nil }
        let parts = match.2.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map(String.init)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        func number(_ part: String, percentOf scale: Double) -> Double? {
            if part.hasSuffix("%") { return Double(part.dropLast()).map { $0 / 100 * scale } }
            return Double(part.hasSuffix("deg") ? String(part.dropLast(3)) : part)
        }
        if match.1.hasPrefix("rgb") {
            let channels = parts.prefix(3).compactMap { number($0, percentOf: 255) }
            guard channels.count == 3, channels.allSatisfy({ (0...255).contains($0) }) else { return nil }
            return RGB(Int(channels[0].rounded()), Int(channels[1].rounded()), Int(channels[2].rounded()))
        }
        guard let hue = number(parts[0], percentOf: 360), let saturation = number(parts[1], percentOf: 1),
              let lightness = number(parts[2], percentOf: 1), parts[1].hasSuffix("%") || saturation <= 1,
              (0...1).contains(saturation), (0...1).contains(lightness) else { return nil }
        // CSS Color 4's hsl-to-rgb.
        func channel(_ n: Double) -> Int {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return Int(((lightness - a * max(-1, min(k - 3, 9 - k, 1))) * 255).rounded())
        }
        return RGB(channel(0), channel(8), channel(4))
    }

    /// The CSS named colours that AAC apps write (the CSS 2.1 sixteen and the common extended ones).
    static let named: [String: Int] = [
        "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "grey": 0x808080, "white": 0xFFFFFF, "maroon": 0x800000,
        "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "magenta": 0xFF00FF, "green": 0x008000, "lime": 0x00FF00,
        "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF, "teal": 0x008080, "aqua": 0x00FFFF,
        "cyan": 0x00FFFF, "orange": 0xFFA500, "pink": 0xFFC0CB, "brown": 0xA52A2A, "gold": 0xFFD700, "violet": 0xEE82EE,
        "lightblue": 0xADD8E6, "lightgreen": 0x90EE90, "lightyellow": 0xFFFFE0, "lightpink": 0xFFB6C1, "lightgray": 0xD3D3D3,
        "lightgrey": 0xD3D3D3, "lightcoral": 0xF08080, "lightsalmon": 0xFFA07A, "lightskyblue": 0x87CEFA,
        "skyblue": 0x87CEEB, "steelblue": 0x4682B4, "royalblue": 0x4169E1, "dodgerblue": 0x1E90FF, "darkblue": 0x00008B,
        "darkgreen": 0x006400, "darkred": 0x8B0000, "darkorange": 0xFF8C00, "darkgray": 0xA9A9A9, "darkgrey": 0xA9A9A9,
        "palegreen": 0x98FB98, "khaki": 0xF0E68C, "plum": 0xDDA0DD, "salmon": 0xFA8072, "tomato": 0xFF6347,
        "coral": 0xFF7F50, "orchid": 0xDA70D6, "tan": 0xD2B48C, "wheat": 0xF5DEB3, "beige": 0xF5F5DC, "ivory": 0xFFFFF0,
        "lavender": 0xE6E6FA, "turquoise": 0x40E0D0, "crimson": 0xDC143C, "indigo": 0x4B0082, "chocolate": 0xD2691E,
        "goldenrod": 0xDAA520, "forestgreen": 0x228B22, "limegreen": 0x32CD32, "seagreen": 0x2E8B57, "hotpink": 0xFF69B4,
        "deeppink": 0xFF1493, "mediumpurple": 0x9370DB, "moccasin": 0xFFE4B5, "lightsteelblue": 0xB0C4DE,
        "orangered": 0xFF4500, "yellowgreen": 0x9ACD32, "greenyellow": 0xADFF2F, "mintcream": 0xF5FFFA,
        "whitesmoke": 0xF5F5F5, "gainsboro": 0xDCDCDC, "dimgray": 0x696969, "dimgrey": 0x696969,
    ]

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
