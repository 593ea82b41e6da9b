import Foundation

/// A JSON value written in the order it was built (`resourceType` first, as FHIR examples read) with
/// numbers kept as the decimal text they were given: a measure of 72.5 kg is written `72.5`, never
/// `72.499999999999986` (FHIR decimals carry their precision in their digits).
indirect enum FHIRJSON: Sendable, Equatable {
    case members([(String, FHIRJSON)])
    case array([FHIRJSON])
    case string(String)
    case number(String)
    case bool(Bool)

    static func == (lhs: FHIRJSON, rhs: FHIRJSON) -> Bool { lhs.serialized() == rhs.serialized() }

    /// A decimal with at most `digits` decimals, trailing zeros dropped (`72.50` → `72.5`, `3.0` → `3`).
    static func decimal(_ value: Double, digits: Int) -> FHIRJSON {
        var text = String(format: "%.\(digits)f", locale: Locale(identifier: "en_US_POSIX"), value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return .number(text)
    }

    static func integer(_ value: Int) -> FHIRJSON { .number(String(value)) }

    /// An object from pairs whose value may be absent: absent ones are left out, as FHIR wants
    /// (an element is never `null`, an array never empty).
    static func object(_ pairs: KeyValuePairs<String, FHIRJSON?>) -> FHIRJSON {
        .members(pairs.compactMap { key, value in
            guard let value else { return nil }
            if case .array(let items) = value, items.isEmpty { return nil }
            return (key, value)
        })
    }

    func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .members(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(pair.0, to: &out)
                out += ":"
                pair.1.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let text): Self.writeString(text, to: &out)
        case .number(let text): out += text
        case .bool(let value): out += value ? "true" : "false"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
