import Foundation
import GRDB

/// A goal as typed in the form, checked: each kind with the parameters it needs.
struct GoalInput: Sendable, Equatable {
    var kind: GoalKind
    var title: String
    var target: Double
    var direction: GoalDirection = .atLeast
    var startsOn: String
    var endsOn: String
    var reviewOn: String?
    var symbolId: Int64?
    var categoryId: Int64?
    var minWords: Int?
    var gameArea: String?
    var gameMode: String?
    var aggregate: GameAggregate?
    var gameLevel: Int?
    var measure: BodyMeasureKind?
    var skinfoldProtocol: String?
    var perimeterSite: String?

    static let fieldNames = ["kind", "title", "target", "direction", "startsOn", "endsOn", "reviewOn", "symbolId", "categoryId",
                             "minWords", "gameArea", "gameMode", "aggregate", "gameLevel", "measure", "skinfoldProtocol", "perimeterSite", "version"]

    /// Dates further than this from today are typing slips (2062 for 2026).
    static let yearsAround = 5

    /// What the form may offer for one patient: the symbols on their boards and those symbols' categories.
    struct Options: Sendable {
        var symbols: [(id: Int64, name: String)] = []
        var categories: [(id: Int64, name: String)] = []
    }

    /// The sensible range of a target, by kind (and measure), with the unit key for the message.
    static func targetRange(_ kind: GoalKind, measure: BodyMeasureKind?) -> (range: ClosedRange<Double>, unitKey: String) {
        switch kind {
        case .symbolTaps, .categoryTaps: (1...5_000, "goal_unit_taps_per_week")
        case .sentences: (1...1_000, "goal_unit_sentences_per_week")
        case .independentTaps, .adherence: (1...100, "goal_unit_percent")
        case .gameHits: (1...500, "goal_unit_hits")
        case .gameAccuracy: (1...100, "goal_unit_percent_right")
        case .bodyMeasure:
            switch measure ?? .weight {
            case .percentFat: (3...60, "goal_unit_percent_fat")
            case .weight: (10...300, "goal_unit_kg")
            case .perimeter: (10...300, "goal_unit_cm")
            }
        }
    }

    /// Reads and checks the form; on a problem each field in error gets a message that names it, and nil is returned.
    static func read(_ form: inout FormState, kind: GoalKind, options: Options, today: String, _ format: LocalizedFormat,
                     _ t: Translator) -> GoalInput? {
        let title = form.required("title", t("error_field_required", ["field": t["goal_field_title"]]))
        var measure: BodyMeasureKind?
        var input = GoalInput(kind: kind, title: title ?? "", target: 0, startsOn: "", endsOn: "")
        switch kind {
        case .symbolTaps:
            input.symbolId = Int64(form["symbolId"]).flatMap { id in options.symbols.contains { $0.id == id } ? id : nil }
            if input.symbolId == nil { form.fail("symbolId", t("goal_error_choose", ["field": t["goal_field_symbolId"]])) }
        case .categoryTaps:
            input.categoryId = Int64(form["categoryId"]).flatMap { id in options.categories.contains { $0.id == id } ? id : nil }
            if input.categoryId == nil { form.fail("categoryId", t("goal_error_choose", ["field": t["goal_field_categoryId"]])) }
        case .sentences:
            input.minWords = form.decimal("minWords", label: t["goal_field_minWords"], in: 1...20, unit: "", required: true, t, format)
                .flatMap { $0.rounded() == $0 ? Int($0) : nil }
            if input.minWords == nil { form.fail("minWords", t("error_out_of_range", ["field": t["goal_field_minWords"], "min": "1", "max": "20", "unit": ""])) }
        case .independentTaps, .adherence:
            break
        case .gameHits, .gameAccuracy:
            input.gameArea = EduCATArea(rawValue: form["gameArea"])?.rawValue
            if input.gameArea == nil { form.fail("gameArea", t("goal_error_choose", ["field": t["goal_field_gameArea"]])) }
            let mode = form["gameMode"]
            if mode.isEmpty { input.gameMode = nil } else if ["normal", "challenge"].contains(mode) { input.gameMode = mode } else {
                form.fail("gameMode", t("goal_error_choose", ["field": t["goal_field_gameMode"]]))
            }
            if kind == .gameHits {
                input.aggregate = GameAggregate(rawValue: form["aggregate"])
                if input.aggregate == nil { form.fail("aggregate", t("goal_error_choose", ["field": t["goal_field_aggregate"]])) }
            } else if let area = input.gameArea.flatMap(EduCATArea.init(rawValue:)) {
                switch levelChoice(form["gameLevel"], area: area) {
                case .any: input.gameLevel = nil
                case .level(let number): input.gameLevel = number
                case .otherGame: form.fail("gameLevel", t["goal_error_level_game"])
                case .unknown: form.fail("gameLevel", t("goal_error_choose", ["field": t["goal_field_gameLevel"]]))
                }
            }
        case .bodyMeasure:
            measure = BodyMeasureKind(rawValue: form["measure"])
            input.measure = measure
            switch measure {
            case nil: form.fail("measure", t("goal_error_choose", ["field": t["goal_field_measure"]]))
            case .percentFat?:
                input.skinfoldProtocol = SkinfoldProtocol(rawValue: form["skinfoldProtocol"])?.rawValue
                if input.skinfoldProtocol == nil { form.fail("skinfoldProtocol", t("goal_error_choose", ["field": t["goal_field_skinfoldProtocol"]])) }
            case .perimeter?:
                input.perimeterSite = PerimeterSite(rawValue: form["perimeterSite"])?.rawValue
                if input.perimeterSite == nil { form.fail("perimeterSite", t("goal_error_choose", ["field": t["goal_field_perimeterSite"]])) }
            case .weight?: break
            }
            input.direction = GoalDirection(rawValue: form["direction"]) ?? .atMost
        }
        let (range, unitKey) = targetRange(kind, measure: measure)
        let target = form.decimal("target", label: t["goal_field_target"], in: range, unit: t[unitKey], required: true, t, format)
        let window = ISODate.adding(-yearsAround * 366, to: today)...ISODate.adding(yearsAround * 366, to: today)
        func date(_ field: String, required: Bool) -> String? {
            let text = form[field].trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                if required { form.fail(field, t("error_field_required", ["field": t["goal_field_\(field)"]])) }
                return nil
            }
            guard let iso = format.parseDate(text).map({ ISODate.string($0, timeZone: format.timeZone) }), window.contains(iso) else {
                form.fail(field, t("goal_error_date", ["field": t["goal_field_\(field)"]]))
                return nil
            }
            return iso
        }
        let startsOn = date("startsOn", required: true)
        let endsOn = date("endsOn", required: true)
        let reviewOn = date("reviewOn", required: false)
        if let startsOn, let endsOn, endsOn < startsOn { form.fail("endsOn", t["goal_error_end_before_start"]) }
        guard !form.hasErrors, let title, let target, let startsOn, let endsOn else { return nil }
        input.title = title
        input.target = target
        input.startsOn = startsOn
        input.endsOn = endsOn
        input.reviewOn = reviewOn
        return input
    }

    /// Writes the kind's parameters into `goal` (and clears the others: a kind changed keeps no stale one).
    func apply(to goal: inout Goal) {
        goal.symbolId = kind == .symbolTaps ? symbolId : nil
        goal.categoryId = kind == .categoryTaps ? categoryId : nil
        goal.minWords = kind == .sentences ? minWords : nil
        goal.gameArea = kind == .gameHits || kind == .gameAccuracy ? gameArea : nil
        goal.gameMode = kind == .gameHits || kind == .gameAccuracy ? gameMode : nil
        goal.aggregate = kind == .gameHits ? aggregate?.rawValue : nil
        goal.gameLevel = kind == .gameAccuracy ? gameLevel : nil
        goal.measure = kind == .bodyMeasure ? measure?.rawValue : nil
        goal.skinfoldProtocol = kind == .bodyMeasure && measure == .percentFat ? skinfoldProtocol : nil
        goal.perimeterSite = kind == .bodyMeasure && measure == .perimeter ? perimeterSite : nil
        goal.direction = kind == .bodyMeasure ? direction.rawValue : GoalDirection.atLeast.rawValue
    }

    /// A stored goal as form values, to edit it.
    static func formState(of goal: Goal) -> FormState {
        var values = ["kind": goal.kind, "title": goal.title, "target": Self.plain(goal.target), "direction": goal.direction,
                      "startsOn": goal.startsOn, "endsOn": goal.endsOn, "reviewOn": goal.reviewOn ?? "",
                      "version": "\(goal.version)"]
        values["symbolId"] = goal.symbolId.map { "\($0)" }
        values["categoryId"] = goal.categoryId.map { "\($0)" }
        values["minWords"] = goal.minWords.map { "\($0)" }
        values["gameArea"] = goal.gameArea
        values["gameMode"] = goal.gameMode
        values["aggregate"] = goal.aggregate
        values["gameLevel"] = goal.gameLevel.flatMap { level in goal.gameArea.map { levelValue(area: $0, number: level) } }
        values["measure"] = goal.measure
        values["skinfoldProtocol"] = goal.skinfoldProtocol
        values["perimeterSite"] = goal.perimeterSite
        return FormState(values: values)
    }

    /// A level as the form's select names it, "numbers:2": the game is part of the value, so a level
    /// picked under another game than the one chosen is caught, not taken for this game's level 2.
    static func levelValue(area: String, number: Int) -> String { "\(area):\(number)" }

    enum LevelChoice: Equatable { case any, level(Int), otherGame, unknown }

    /// What the level select says for the game `area`. Pure.
    static func levelChoice(_ value: String, area: EduCATArea) -> LevelChoice {
        if value.isEmpty { return .any }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let chosen = EduCATArea(rawValue: String(parts[0])), let number = Int(parts[1]),
              EduCATLevel.levels(chosen).contains(where: { $0.number == number })
        else { return .unknown }
        return chosen == area ? .level(number) : .otherGame
    }

    static func plain(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
