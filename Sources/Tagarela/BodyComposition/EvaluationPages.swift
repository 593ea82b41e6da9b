import Foundation

/// The computed results of an evaluation, formatted for the page (and for the live preview).
struct ResultsView: PageModel {
    struct Row: PageModel {
        let label: String
        let value: String
        let note: String?
    }

    let rows: [Row]
    let warning: String?

    init?(_ details: EvaluationDetails, _ t: Translator, _ format: LocalizedFormat) {
        guard let result = details.result else { return nil }
        let sex = details.sex
        // Masses, percentages and the BMI with two decimals, as the seed's report prints them ("%.2f").
        func kg(_ value: Double) -> String { "\(format.decimal(value, fractionDigits: 2)) kg" }
        var rows: [Row] = [
            Row(label: t["result_sum_skinfolds"], value: "\(format.decimal(result.sumOfSkinfolds)) mm", note: nil),
            Row(label: t["result_density"], value: "\(format.decimal(result.density, fractionDigits: 4)) g/cm³", note: nil),
            Row(label: t["result_percent_fat"], value: "\(format.decimal(result.percentFat, fractionDigits: 2)) %",
                note: t["fat_class_\(result.fatClass.rawValue)"]),
            Row(label: t["result_fat_mass"], value: kg(result.fatMassKg), note: nil),
            Row(label: t["result_lean_mass"], value: kg(result.leanMassKg), note: "\(format.decimal(result.percentLean, fractionDigits: 2)) %"),
            Row(label: t["result_ideal_weight"], value: kg(result.idealWeightKg), note: Self.goal(result.weightChangeKg, t, format)),
        ]
        let bmi = details.bmi
        rows.append(Row(label: t["result_bmi"], value: format.decimal(bmi, fractionDigits: 2), note: t["bmi_class_\(BMIClass.classify(bmi: bmi).rawValue)"]))
        if let waist = details.perimeters[.waist], let hip = details.perimeters[.hip] {
            let ratio = waist / hip
            let risk = WaistHipRisk.classify(ratio: ratio, sex: sex, age: details.evaluation.ageYears)
            rows.append(Row(label: t["result_waist_hip"], value: format.decimal(ratio, fractionDigits: 2),
                            note: t["risk_\(risk.risk.rawValue)"] + (risk.isExtrapolated ? " " + t["risk_extrapolated"] : "")))
        }
        if let waist = details.perimeters[.waist] {
            rows.append(Row(label: t["result_waist"], value: "\(format.decimal(waist)) cm",
                            note: t["waist_risk_\(WaistRisk.classify(waistCm: waist, sex: sex).rawValue)"]))
        }
        self.rows = rows
        warning = result.ageIsValidated ? nil : t("warning_age_range", ["age": "\(Int(details.evaluation.ageYears))"])
    }

    static func goal(_ change: Double, _ t: Translator, _ format: LocalizedFormat) -> String {
        if abs(change) < 0.5 { return t["goal_keep"] }
        return change < 0
            ? t("goal_lose", ["kg": format.decimal(-change)])
            : t("goal_gain", ["kg": format.decimal(change)])
    }
}

/// The evaluation form, with results once the required fields are valid.
struct EvaluationFormPage: PageModel {
    struct Option: PageModel {
        let value: String
        let label: String
        let sites: String
        let isSelected: Bool
    }

    struct SkinfoldRow: PageModel {
        let site: String
        let label: String
        /// Space-separated protocols using this site for the client's sex, for the script that hides the others.
        let protocols: String
        let isUsed: Bool
        let fields: [Field]
        let error: String?
    }

    struct Field: PageModel {
        let name: String
        let label: String
        var placeholder = ""
        let value: String
        let isInvalid: Bool
    }

    let clientId: Int64
    let clientName: String
    /// Where the form posts: a new evaluation, or the correction of a stored one.
    let action: String
    /// The browser keeps a draft per form: a correction never restores a new evaluation's draft.
    let draftKey: String
    let isEdit: Bool
    let cancelPath: String
    /// The live results (the form's script) and the "Calculate" button without it.
    let previewURL: String
    /// Where a client's missing sex or birth date is filled in.
    let editClientURL: String
    let sexLabel: String
    let age: String
    let protocols: [Option]
    let skinfolds: [SkinfoldRow]
    let perimeters: [Field]
    let perimeterErrors: [String]
    let hasPerimeterErrors: Bool
    let form: FormState
    let results: ResultsView?
    /// Why a correction was refused because someone saved another one since the form was opened.
    let conflict: String?

    init(clientId: Int64, clientName: String, sex: BiologicalSex?, age: Int?, form: FormState,
         results: ResultsView?, editing: Int64? = nil, conflict: String? = nil, _ t: Translator) {
        self.conflict = conflict
        self.clientId = clientId
        self.clientName = clientName
        action = editing.map { BodyCompositionEndpoints.updateEvaluation.path(clientId, $0) }
            ?? BodyCompositionEndpoints.createEvaluation.path(clientId)
        draftKey = editing.map { "evaluation-\(clientId)-\($0)" } ?? "evaluation-\(clientId)"
        isEdit = editing != nil
        cancelPath = editing.map { BodyCompositionEndpoints.showEvaluation.path(clientId, $0) }
            ?? BodyCompositionEndpoints.showClient.path(clientId)
        previewURL = BodyCompositionEndpoints.previewEvaluation.path(clientId)
        editClientURL = PeopleEndpoints.editClient.path(clientId)
        sexLabel = sex.map { t["sex_\($0.rawValue)"] } ?? ""
        self.age = age.map { t("age_years", ["years": "\($0)"]) } ?? ""
        let chosen = SkinfoldProtocol(rawValue: form["protocol"]) ?? .jp7
        let sexForSites = sex ?? .female
        protocols = SkinfoldProtocol.allCases.map { option in
            Option(value: option.rawValue, label: t["protocol_\(option.rawValue)"],
                   sites: option.sites(for: sexForSites).map { t["skinfold_\($0.rawValue)"] }.joined(separator: ", "),
                   isSelected: option == chosen)
        }
        skinfolds = SkinfoldSite.allCases.map { site in
            let users = SkinfoldProtocol.allCases.filter { $0.sites(for: sexForSites).contains(site) }
            let fields = (1...3).map { index in
                Field(name: EvaluationInput.skinfoldField(site, index),
                      label: t("skinfold_reading_of", ["site": t["skinfold_\(site.rawValue)"], "n": "\(index)"]),
                      placeholder: t("skinfold_reading", ["n": "\(index)"]),
                      value: form[EvaluationInput.skinfoldField(site, index)],
                      isInvalid: form.errors[EvaluationInput.skinfoldField(site, index)] != nil)
            }
            return SkinfoldRow(site: site.rawValue, label: t["skinfold_\(site.rawValue)"],
                               protocols: users.map(\.rawValue).joined(separator: " "),
                               isUsed: chosen.sites(for: sexForSites).contains(site), fields: fields,
                               error: (1...3).lazy.compactMap { form.errors[EvaluationInput.skinfoldField(site, $0)] }.first)
        }
        perimeters = PerimeterSite.allCases.map { site in
            let name = EvaluationInput.perimeterField(site)
            return Field(name: name, label: t[site.catalogueKey], value: form[name], isInvalid: form.errors[name] != nil)
        }
        perimeterErrors = PerimeterSite.allCases.compactMap { form.errors[EvaluationInput.perimeterField($0)] }
        hasPerimeterErrors = !perimeterErrors.isEmpty
        self.form = form
        self.results = results
    }
}

/// A client's page: profile, re-evaluation reminder, evaluation history, trend charts.
struct ClientHistoryPage: PageModel {
    struct Row: PageModel {
        let id: Int64
        /// The evaluation's report.
        let url: String
        let date: String
        let protocolName: String
        let weight: String
        let percentFat: String
        let sumOfSkinfolds: String
        let isFirst: Bool
        let isLast: Bool
    }

    struct Chart: PageModel {
        let svg: String
    }

    /// A measurement another system sent in a FHIR Bundle, marked as imported with where it came from.
    struct ImportedRow: PageModel {
        let date: String
        let what: String
        let value: String
        let source: String
    }

    let client: ClientPage
    let reevaluationDays: Int
    let reminder: String?
    let reminderIsOverdue: Bool
    let evaluations: [Row]
    let hasEvaluations: Bool
    let canCompare: Bool
    let charts: [Chart]
    let perimeterCharts: [Chart]
    let hasPerimeterCharts: Bool
    /// Evaluations or imported measurements to draw.
    let hasCharts: Bool
    let imported: [ImportedRow]
    let hasImported: Bool
    let newEvaluationURL: String
    let editClientURL: String
    let compareURL: String
    /// The client's goals and progress report (issue 51: the trainer is part of the record).
    let goalsURL: String
    let reportURL: String
    let fhirURL: String

    init(client: ClientPage, reevaluationDays: Int, history: [EvaluationDetails], imported: [ImportedMeasurement] = [], today: String,
         _ t: Translator, _ format: LocalizedFormat) {
        self.client = client
        self.reevaluationDays = reevaluationDays
        newEvaluationURL = BodyCompositionEndpoints.newEvaluation.path(client.id)
        editClientURL = PeopleEndpoints.editClient.path(client.id)
        compareURL = BodyCompositionEndpoints.compare.path(client.id)
        goalsURL = GoalEndpoints.list.path(client.id)
        reportURL = RecordEndpoints.report.path(client.id)
        fhirURL = FHIREndpoints.page.path(client.id)
        let status = Reevaluation.status(lastTakenOn: history.last?.evaluation.takenOn, intervalDays: reevaluationDays, today: today)
        reminder = Self.reminderText(status, t, format)
        reminderIsOverdue = status.status == .overdue
        evaluations = history.enumerated().reversed().map { index, details in
            Row(id: details.id, url: BodyCompositionEndpoints.showEvaluation.path(client.id, details.id),
                date: Self.date(details.evaluation.takenOn, format),
                protocolName: details.skinfolds.isEmpty ? t["evaluation_perimeters_only"] : t["protocol_\(details.skinfoldProtocol.rawValue)"],
                weight: "\(format.decimal(details.weightKg)) kg",
                percentFat: details.result.map { "\(format.decimal($0.percentFat)) %" } ?? "—",
                sumOfSkinfolds: details.result.map { "\(format.decimal($0.sumOfSkinfolds)) mm" } ?? "—",
                isFirst: index == 0, isLast: index == history.count - 1)
        }
        hasEvaluations = !history.isEmpty
        canCompare = history.count >= 2
        self.imported = imported.reversed().map {
            ImportedRow(date: format.shortDate(iso: $0.day), what: FHIRImportPreview.name(of: $0.kind, t),
                        value: FHIRImportPreview.amount($0.value, $0.unit, format), source: $0.sourceLabel(t))
        }
        hasImported = !imported.isEmpty
        hasCharts = !history.isEmpty || !imported.isEmpty
        let takenOn = history.map(\.evaluation.takenOn)
        let labels = takenOn.map { format.shortDate(iso: $0) }
        let days = takenOn.map { ISODate.dayNumber($0) ?? 0 }
        let formatter: @Sendable (Double) -> String = { format.decimal($0) }
        /// The evaluations' series, and beside them the imported measurements of `kinds` (kind, name, colour)
        /// as series of their own on one time axis; drawn as before when nothing of those kinds was imported.
        func chart(_ title: String, unit: String, _ series: [LineChart.Series], imports kinds: [(String, String, String)]) -> LineChart {
            let extra = kinds.map { kind, name, colour in
                DatedSeries(name: t("fhir_imported_series", ["measure": name]), colour: colour,
                            points: imported.filter { $0.kind == kind }.map { ($0.day, $0.value) })
            }.filter { !$0.points.isEmpty }
            guard !extra.isEmpty else { return LineChart(title: title, unit: unit, labels: labels, series: series, days: days, format: formatter) }
            let own = series.map { one in
                DatedSeries(name: one.name, colour: one.colour, points: zip(takenOn, one.values).compactMap { day, value in value.map { (day, $0) } })
            }
            let axis = DatedSeries.axis(own + extra)
            return LineChart(title: title, unit: unit, labels: axis.days.map { format.shortDate(iso: $0) }, series: axis.series,
                             days: axis.days.map { ISODate.dayNumber($0) ?? 0 }, format: formatter)
        }
        if !hasCharts {
            charts = []
            perimeterCharts = []
            hasPerimeterCharts = false
            return
        }
        let weight = t["result_weight"], percentFat = t["result_percent_fat"]
        charts = [
            chart(weight, unit: "kg", history.isEmpty ? [] : [.init(name: weight, values: history.map(\.weightKg), colour: LineChart.palette[0])],
                  imports: [("weight", weight, LineChart.palette[3])]),
            chart(percentFat, unit: "%", Self.percentFatSeries(history, t), imports: [("percent-fat", percentFat, LineChart.palette[3])]),
            chart(t["chart_masses"], unit: "kg", history.isEmpty ? [] : Self.massSeries(history, t),
                  imports: [("fat-mass", t["result_fat_mass"], LineChart.palette[3]), ("lean-mass", t["result_lean_mass"], LineChart.palette[0])]),
        ].filter { $0.series.contains { $0.values.contains { $0 != nil } } }.map { Chart(svg: $0.svg) }
        perimeterCharts = PerimeterSite.allCases.compactMap { site in
            let values = history.map { $0.perimeters[site] }
            let name = t[site.catalogueKey]
            let drawn = chart(name, unit: "cm", values.contains { $0 != nil } ? [.init(name: name, values: values, colour: LineChart.palette[3])] : [],
                              imports: [("perimeter-\(site.rawValue)", name, LineChart.palette[1])])
            guard drawn.series.contains(where: { $0.values.contains { $0 != nil } }) else { return nil }
            return Chart(svg: drawn.svg)
        }
        hasPerimeterCharts = !perimeterCharts.isEmpty
    }

    /// The % fat trend, one line per protocol: JP3 and JP7 estimate differently, so their values are never
    /// joined (the compare page refuses to subtract them for the same reason).
    static func percentFatSeries(_ history: [EvaluationDetails], _ t: Translator) -> [LineChart.Series] {
        SkinfoldProtocol.allCases.enumerated().compactMap { index, chosen in
            let values = history.map { $0.skinfoldProtocol == chosen ? $0.result?.percentFat : nil }
            guard values.contains(where: { $0 != nil }) else { return nil }
            return LineChart.Series(name: t["protocol_short_\(chosen.rawValue)"], values: values,
                                    colour: LineChart.palette[(index + 1) % LineChart.palette.count])
        }
    }

    /// Fat and lean mass, derived from % fat: one line per protocol as well when the history mixes them.
    static func massSeries(_ history: [EvaluationDetails], _ t: Translator) -> [LineChart.Series] {
        let used = SkinfoldProtocol.allCases.filter { chosen in history.contains { $0.skinfoldProtocol == chosen && $0.result != nil } }
        guard used.count > 1 else {
            let results = history.map(\.result)
            return [.init(name: t["result_fat_mass"], values: results.map { $0?.fatMassKg }, colour: LineChart.palette[1]),
                    .init(name: t["result_lean_mass"], values: results.map { $0?.leanMassKg }, colour: LineChart.palette[2])]
        }
        return used.enumerated().flatMap { index, chosen -> [LineChart.Series] in
            let results = history.map { $0.skinfoldProtocol == chosen ? $0.result : nil }
            let suffix = " · " + t["protocol_short_\(chosen.rawValue)"]
            let colours = index == 0 ? (LineChart.palette[1], LineChart.palette[2]) : (LineChart.palette[3], LineChart.palette[0])
            return [.init(name: t["result_fat_mass"] + suffix, values: results.map { $0?.fatMassKg }, colour: colours.0),
                    .init(name: t["result_lean_mass"] + suffix, values: results.map { $0?.leanMassKg }, colour: colours.1)]
        }
    }

    static func date(_ iso: String, _ format: LocalizedFormat) -> String {
        format.shortDate(iso: iso)
    }

    static func reminderText(_ status: (status: Reevaluation.Status, dueOn: String?), _ t: Translator,
                             _ format: LocalizedFormat) -> String? {
        let due = status.dueOn.map { date($0, format) } ?? ""
        switch status.status {
        case .never: return t["reminder_never"]
        case .upToDate: return t("reminder_up_to_date", ["date": due])
        case .due: return t("reminder_due", ["date": due])
        case .overdue: return t("reminder_overdue", ["date": due])
        }
    }
}

/// One evaluation as a printable report.
struct EvaluationReportPage: PageModel {
    struct Measure: PageModel {
        let label: String
        let value: String
    }

    let clientId: Int64
    let clientName: String
    let evaluationId: Int64
    let date: String
    let protocolName: String
    let sexAndAge: String
    let weight: String
    let height: String
    let skinfolds: [Measure]
    let perimeters: [Measure]
    let results: ResultsView?
    /// The client's weight and % fat up to this evaluation.
    let charts: [String]
    /// Set right after saving: the page tells the form's script to drop the draft it kept.
    let savedDraft: String?
    let clientURL: String
    let editURL: String
    let deleteURL: String

    init(clientId: Int64, clientName: String, details: EvaluationDetails, history: [EvaluationDetails],
         savedDraft: String?, _ t: Translator, _ format: LocalizedFormat) {
        self.clientId = clientId
        evaluationId = details.id
        self.savedDraft = savedDraft
        clientURL = BodyCompositionEndpoints.showClient.path(clientId)
        editURL = BodyCompositionEndpoints.editEvaluation.path(clientId, details.id)
        deleteURL = BodyCompositionEndpoints.confirmDeleteEvaluation.path(clientId, details.id)
        self.clientName = clientName
        date = ClientHistoryPage.date(details.evaluation.takenOn, format)
        protocolName = details.skinfolds.isEmpty ? t["evaluation_perimeters_only"] : t["protocol_\(details.skinfoldProtocol.rawValue)"]
        sexAndAge = t["sex_\(details.sex.rawValue)"] + " · " + t("age_years", ["years": "\(Int(details.evaluation.ageYears))"])
        weight = "\(format.decimal(details.weightKg)) kg"
        height = "\(format.decimal(details.heightM, fractionDigits: 2)) m"
        skinfolds = details.skinfolds.isEmpty ? [] : details.skinfoldProtocol.sites(for: details.sex).map { site in
            let readings = details.skinfolds[site] ?? []
            let median = BodyCompositionRules.median(readings).map { "\(format.decimal($0)) mm" } ?? "—"
            let detail = readings.count > 1 ? " (" + readings.map { format.decimal($0) }.joined(separator: " · ") + ")" : ""
            return Measure(label: t["skinfold_\(site.rawValue)"], value: median + detail)
        }
        perimeters = PerimeterSite.allCases.compactMap { site in
            details.perimeters[site].map { Measure(label: t[site.catalogueKey], value: "\(format.decimal($0)) cm") }
        }
        results = ResultsView(details, t, format)
        let upToThis = history.filter { $0.evaluation.takenOn <= details.evaluation.takenOn }
        let labels = upToThis.map { ClientHistoryPage.date($0.evaluation.takenOn, format) }
        let days = upToThis.map { ISODate.dayNumber($0.evaluation.takenOn) ?? 0 }
        let formatter: @Sendable (Double) -> String = { format.decimal($0) }
        let percentFat = ClientHistoryPage.percentFatSeries(upToThis, t)
        charts = [
            LineChart(title: t["result_weight"], unit: "kg", labels: labels,
                      series: [.init(name: t["result_weight"], values: upToThis.map(\.weightKg), colour: LineChart.palette[0])],
                      days: days, format: formatter).svg,
        ] + (percentFat.isEmpty ? [] : [
            LineChart(title: t["result_percent_fat"], unit: "%", labels: labels, series: percentFat, days: days, format: formatter).svg,
        ])
    }
}

/// The confirmation before an evaluation leaves a client's history.
struct EvaluationDeletePage: PageModel {
    let clientId: Int64
    let clientName: String
    let evaluationId: Int64
    let text: String
    let deleteURL: String
    /// Back to the evaluation's report.
    let cancelURL: String

    init(clientId: Int64, clientName: String, details: EvaluationDetails, _ t: Translator, _ format: LocalizedFormat) {
        self.clientId = clientId
        self.clientName = clientName
        evaluationId = details.id
        deleteURL = BodyCompositionEndpoints.deleteEvaluation.path(clientId, details.id)
        cancelURL = BodyCompositionEndpoints.showEvaluation.path(clientId, details.id)
        text = t("records_evaluation_delete_text", [
            "date": format.shortDate(iso: details.evaluation.takenOn),
            "protocol": t["protocol_\(details.skinfoldProtocol.rawValue)"],
            "weight": "\(format.decimal(details.weightKg)) kg",
        ])
    }
}

/// Two evaluations side by side, with the differences and whether each is a real change.
struct ComparisonPage: PageModel {
    struct Line: PageModel {
        let label: String
        let first: String
        let second: String
        let difference: String
        let verdict: String
        let isRealChange: Bool
    }

    let clientId: Int64
    let clientName: String
    let firstDate: String
    let secondDate: String
    let protocolNote: String?
    let lines: [Line]
    let clientURL: String

    init(clientId: Int64, clientName: String, first a: EvaluationDetails, second b: EvaluationDetails,
         _ t: Translator, _ format: LocalizedFormat) {
        self.clientId = clientId
        self.clientName = clientName
        clientURL = BodyCompositionEndpoints.showClient.path(clientId)
        firstDate = ClientHistoryPage.date(a.evaluation.takenOn, format)
        secondDate = ClientHistoryPage.date(b.evaluation.takenOn, format)
        var lines: [Line] = []
        func add(_ label: String, _ x: Double?, _ y: Double?, unit: String, digits: Int = 1,
                 _ change: (Double, Double) -> MeasurementChange) {
            guard let x, let y else { return }
            let delta = y - x
            let sign = delta > 0 ? "+" : ""
            let real = change(x, y).isRealChange
            lines.append(Line(label: label, first: "\(format.decimal(x, fractionDigits: digits)) \(unit)",
                              second: "\(format.decimal(y, fractionDigits: digits)) \(unit)",
                              difference: "\(sign)\(format.decimal(delta, fractionDigits: digits)) \(unit)",
                              verdict: real ? t["change_real"] : t["change_none"], isRealChange: real))
        }
        add(t["result_weight"], a.weightKg, b.weightKg, unit: "kg", MeasurementChange.weight)
        let sameProtocol = a.skinfoldProtocol == b.skinfoldProtocol
        if sameProtocol {
            add(t["result_sum_skinfolds"], a.result?.sumOfSkinfolds, b.result?.sumOfSkinfolds, unit: "mm", MeasurementChange.sumOfSkinfolds)
            add(t["result_percent_fat"], a.result?.percentFat, b.result?.percentFat, unit: "%", MeasurementChange.percentFat)
            add(t["result_fat_mass"], a.result?.fatMassKg, b.result?.fatMassKg, unit: "kg", MeasurementChange.mass)
            add(t["result_lean_mass"], a.result?.leanMassKg, b.result?.leanMassKg, unit: "kg", MeasurementChange.mass)
            protocolNote = nil
        } else {
            protocolNote = t("compare_protocols_differ", ["first": t["protocol_\(a.skinfoldProtocol.rawValue)"],
                                                          "second": t["protocol_\(b.skinfoldProtocol.rawValue)"]])
            for site in SkinfoldSite.allCases {
                // One site has the same relative error as a sum of sites (about 5 %).
                add(t["skinfold_\(site.rawValue)"], a.skinfoldValues[site], b.skinfoldValues[site], unit: "mm",
                    MeasurementChange.sumOfSkinfolds)
            }
        }
        for site in PerimeterSite.allCases {
            add(t[site.catalogueKey], a.perimeters[site], b.perimeters[site], unit: "cm", MeasurementChange.perimeter)
        }
        self.lines = lines
    }
}
