import Foundation
import HTTPServer
import Mustache

/// What a form shows: the values typed (so nothing is lost on an error) and one message per
/// field in error. Templates read `{{form.values.name}}` and `{{#form.errors.name}}…{{/form.errors.name}}`.
struct FormState: Encodable, Sendable, MustacheParent {
    var values: [String: String] = [:]
    var errors: [String: String] = [:]

    init(values: [String: String] = [:]) { self.values = values }

    /// The typed values of `fields`. A value longer than its field's limit (`TextLimit.of`, or
    /// `limits` for this form) is cut to the limit and the field gets a message that names it, says
    /// the limit and that the text was cut: every form refuses a pasted megabyte the same way, keeps
    /// what fits and never echoes the rest back.
    init(_ form: Parameters, fields: [String], limits: [String: TextLimit] = [:]) {
        for field in fields {
            let value = form[field] ?? ""
            let limit = limits[field] ?? TextLimit.of(field)
            // utf8.count ≥ count, and is free: the cheap test first, on every field of every form.
            guard value.utf8.count > limit.characters, case let typed = value.count, typed > limit.characters else {
                values[field] = value
                continue
            }
            values[field] = String(value.prefix(limit.characters))
            errors[field] = FormLanguage.current.map { language in
                language.t("limits_error_too_long", ["field": language.t[limit.label],
                                                     "max": language.format.decimal(Double(limit.characters), fractionDigits: 0),
                                                     "typed": language.format.decimal(Double(typed), fractionDigits: 0)])
            } ?? "\(field): \(typed) > \(limit.characters)"
        }
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
        guard let value = format.parseDecimal(text) else {
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

/// The language of the request being handled, for messages written where no context is at hand
/// (`FormState.init`). `App.run` binds it around every handler, deferred ones included.
struct FormLanguage: Sendable {
    let t: Translator
    let format: LocalizedFormat

    @TaskLocal static var current: FormLanguage?
}

/// The longest text a field takes, in characters (what a person counts, not bytes), and the catalogue
/// key of its label for the message. Chosen in docs/decisions/0017-limits-before-work.md, "Limits before work".
struct TextLimit: Sendable, Equatable {
    let characters: Int
    let label: String

    /// A name of a person, food, plan, symbol or category, a username, a spoken text: one line on a card or a tile.
    static func name(_ label: String) -> TextLimit { TextLimit(characters: 120, label: label) }
    /// Observations, notes, descriptions, a diagnosis, a meal's reason: a long page of text.
    static func note(_ label: String) -> TextLimit { TextLimit(characters: 5_000, label: label) }
    /// Anything else (numbers, dates, times, choices, a contact): ten times what any valid value needs.
    static func short(_ label: String) -> TextLimit { TextLimit(characters: 200, label: label) }

    /// The limit of a field, by the name every form gives it.
    static func of(_ field: String) -> TextLimit {
        byField[field] ?? TextLimit(characters: 200, label: "limits_field_this")
    }

    static let byField: [String: TextLimit] = [
        "name": .name("field_name"), "displayName": .name("field_name"), "tutorName": .name("field_tutor_name"),
        "username": .name("field_username"), "tutorUsername": .name("field_username"), "spokenText": .name("symbol_spoken"),
        "customName": .name("meal_custom_name"),
        "body": .note("observation_body"), "description": .note("plan_description"), "notes": .note("field_notes"),
        "diagnosis": TextLimit(characters: 500, label: "field_diagnosis"), "reason": .note("answer_reason"), "instead": .note("answer_instead"),
        "contact": .short("field_contact"),
        // PasswordPolicy refuses more than 256 with its own message; this only bounds what is read.
        "password": TextLimit(characters: 1_000, label: "field_password"),
    ]
}

/// One choice of a `<select>` or a group of radio buttons, already translated.
struct SelectOption: Encodable, Sendable {
    let value: String
    let label: String
    let isSelected: Bool
    /// The label's language when it is not the page's (a board's name). Not named `lang`: a nil would
    /// find the page's own `lang` around it.
    var labelLang: String? = nil
}
