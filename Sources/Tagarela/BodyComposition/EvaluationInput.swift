import Foundation

/// What the evaluation form holds once every field is read and checked.
struct EvaluationInput: Sendable {
    var skinfoldProtocol: SkinfoldProtocol
    var takenOn: String
    var weightKg: Double
    var heightM: Double
    /// Readings per site (1 to 3), in millimetres; only the protocol's sites.
    var skinfolds: [SkinfoldSite: [Double]]
    var perimeters: [PerimeterSite: Double]

    static let weightRange = 20.0...300.0
    static let heightRange = 1.0...2.3
    static let skinfoldRange = 2.0...80.0

    static func skinfoldField(_ site: SkinfoldSite, _ reading: Int) -> String { "sf_\(site.rawValue)_\(reading)" }
    static func perimeterField(_ site: PerimeterSite) -> String { "p_\(site.rawValue)" }

    static var fieldNames: [String] {
        ["protocol", "takenOn", "weight", "height"]
            + SkinfoldSite.allCases.flatMap { site in (1...3).map { skinfoldField(site, $0) } }
            + PerimeterSite.allCases.map(perimeterField) + ["version"]
    }

    /// Reads the form. Each problem is recorded against its field, in the user's language and
    /// naming the field; nil when anything needed is missing or wrong. The date must suit the client's
    /// `birthDate` (`EvaluationDates`).
    static func read(_ form: inout FormState, sex: BiologicalSex, birthDate: String?, today: Date, format: LocalizedFormat,
                     _ t: Translator) -> EvaluationInput? {
        var reader = FieldReader(form: form, format: format, t: t)
        let chosen = SkinfoldProtocol(rawValue: form["protocol"])
        if chosen == nil { reader.form.fail("protocol", t["error_choose_option"]) }
        let todayISO = ISODate.string(today, timeZone: format.timeZone)
        var takenOn = todayISO
        let dateText = form["takenOn"].trimmingCharacters(in: .whitespaces)
        if !dateText.isEmpty {
            if let date = format.parseDate(dateText) {
                takenOn = ISODate.string(date, timeZone: format.timeZone)
            } else {
                reader.form.fail("takenOn", t["error_date_invalid"])
            }
        }
        if reader.form.errors["takenOn"] == nil {
            if let birthDate, let problem = EvaluationDates.problem(takenOn: takenOn, birthDate: birthDate, today: todayISO) {
                reader.form.fail("takenOn", EvaluationDates.message(problem, birthDate: birthDate, format, t))
            } else if takenOn > todayISO {
                reader.form.fail("takenOn", t["records_evaluation_future"])
            }
        }
        let weight = reader.number("weight", label: t["field_weight"], in: weightRange, unit: "kg", required: true)
        let height = reader.height()
        var skinfolds: [SkinfoldSite: [Double]] = [:]
        // A trainer may measure perimeters only: with every skinfold left empty and a perimeter given, the
        // evaluation is kept without skinfolds and its composition figures are simply absent.
        let anySkinfold = SkinfoldSite.allCases.contains { site in
            (1...3).contains { !form[skinfoldField(site, $0)].trimmingCharacters(in: .whitespaces).isEmpty }
        }
        let anyPerimeter = PerimeterSite.allCases.contains { !form[perimeterField($0)].trimmingCharacters(in: .whitespaces).isEmpty }
        for site in (chosen ?? .jp7).sites(for: sex) where anySkinfold || !anyPerimeter {
            let label = t["skinfold_\(site.rawValue)"]
            let readings = (1...3).compactMap { index in
                reader.number(skinfoldField(site, index), label: label, in: skinfoldRange, unit: "mm", required: index == 1)
            }
            skinfolds[site] = readings
        }
        var perimeters: [PerimeterSite: Double] = [:]
        for site in PerimeterSite.allCases {
            perimeters[site] = reader.number(perimeterField(site), label: t[site.catalogueKey], in: site.plausibleCm,
                                             unit: "cm", required: false)
        }
        form = reader.form
        guard !form.hasErrors, let chosen, let weight, let height else { return nil }
        return EvaluationInput(skinfoldProtocol: chosen, takenOn: takenOn, weightKg: weight, heightM: height,
                               skinfolds: skinfolds, perimeters: perimeters)
    }

    /// The form filled with a stored evaluation, for correcting it.
    static func formState(of details: EvaluationDetails, _ format: LocalizedFormat) -> FormState {
        var values = ["protocol": details.evaluation.skinfoldProtocol, "takenOn": details.evaluation.takenOn,
                      "weight": format.decimal(details.weightKg, fractionDigits: 3),
                      "height": format.decimal(details.heightM, fractionDigits: 3),
                      "version": "\(details.evaluation.version)"]
        for (site, readings) in details.skinfolds {
            for (index, value) in readings.enumerated() where index < 3 {
                values[skinfoldField(site, index + 1)] = format.decimal(value)
            }
        }
        for (site, value) in details.perimeters { values[perimeterField(site)] = format.decimal(value) }
        return FormState(values: values)
    }

    /// The values in words for the audit log, so a corrected or deleted evaluation can be read again.
    var auditSummary: String {
        let folds = skinfolds.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue) " + $0.value.map { String($0) }.joined(separator: "/") }
        let sites = perimeters.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        return (["\(takenOn) \(skinfoldProtocol.rawValue)", "weight \(weightKg) kg", "height \(heightM) m"] + folds + sites)
            .joined(separator: ", ")
    }

    /// The same input as an unsaved evaluation, for showing results before saving.
    func details(sex: BiologicalSex, age: Double) -> EvaluationDetails {
        EvaluationDetails(
            evaluation: Evaluation(id: 0, patientId: 0, trainerId: 0, takenOn: takenOn, skinfoldProtocol: skinfoldProtocol.rawValue,
                                   sex: sex.rawValue, ageYears: age, weightGrams: Int((weightKg * 1000).rounded()),
                                   heightMm: Int((heightM * 1000).rounded()), createdAt: Date(timeIntervalSince1970: 0)),
            skinfolds: skinfolds, perimeters: perimeters)
    }
}

/// Reads decimal fields typed with a comma or a point, recording a message that names the field.
private struct FieldReader {
    var form: FormState
    let format: LocalizedFormat
    let t: Translator

    mutating func number(_ field: String, label: String, in range: ClosedRange<Double>, unit: String, required: Bool) -> Double? {
        form.decimal(field, label: label, in: range, unit: unit, required: required, t, format)
    }

    /// Height in metres (1,75) or centimetres (175): a value under 3 is taken as metres.
    mutating func height() -> Double? {
        let label = t["field_height"]
        let text = form["height"].trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { form.fail("height", t("error_field_required", ["field": label])); return nil }
        guard let value = format.parseDecimal(text) else {
            form.fail("height", t("error_not_a_number", ["field": label, "example": format.decimal(1.72, fractionDigits: 2)]))
            return nil
        }
        let metres = value < 3 ? value : value / 100
        guard EvaluationInput.heightRange.contains(metres) else {
            form.fail("height", t("error_height_range", ["field": label]))
            return nil
        }
        return metres
    }
}
