import Foundation
import HTTPServer
import Mustache

/// What a form shows: the values typed (so nothing is lost on an error) and one message per
/// field in error. Templates read `{{form.values.name}}` and `{{#form.errors.name}}…{{/form.errors.name}}`.
struct FormState: Sendable, MustacheParent {
    var values: [String: String] = [:]
    var errors: [String: String] = [:]

    init(values: [String: String] = [:]) { self.values = values }

    init(_ form: Parameters, fields: [String]) {
        for field in fields { values[field] = form[field] ?? "" }
    }

    var hasErrors: Bool { !errors.isEmpty }

    subscript(field: String) -> String { values[field] ?? "" }

    /// The trimmed value, or records `message` against the field when it is empty.
    mutating func required(_ field: String, _ message: String) -> String? {
        let value = self[field].trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty { errors[field] = message; return nil }
        return value
    }

    mutating func fail(_ field: String, _ message: String) { errors[field] = errors[field] ?? message }

    /// A decimal typed the user's way (`1,5` or `1.5`) within `range`. On a problem the field gets a
    /// message that names it (`label`) and says what is expected, and nil is returned; an empty field is
    /// nil, and a problem only when `required`.
    mutating func decimal(_ field: String, label: String, in range: ClosedRange<Double>, unit: String, required: Bool,
                          _ t: Translator, _ format: LocalizedFormat) -> Double? {
        let text = self[field].trimmingCharacters(in: .whitespaces)
        if text.isEmpty {
            if required { fail(field, t("error_field_required", ["field": label])) }
            return nil
        }
        guard let value = LocalizedFormat.parseDecimal(text) else {
            fail(field, t("error_not_a_number", ["field": label, "example": format.decimal(range.lowerBound + 0.5)]))
            return nil
        }
        guard range.contains(value) else {
            fail(field, t("error_out_of_range", ["field": label, "min": format.decimal(range.lowerBound),
                                                 "max": format.decimal(range.upperBound), "unit": unit]))
            return nil
        }
        return value
    }

    func child(named name: String) -> Any? {
        switch name {
        case "values": values
        case "errors": errors
        case "hasErrors": hasErrors
        default: nil
        }
    }
}

/// One choice of a `<select>` or a group of radio buttons, already translated.
struct SelectOption: Sendable {
    let value: String
    let label: String
    let isSelected: Bool
}
