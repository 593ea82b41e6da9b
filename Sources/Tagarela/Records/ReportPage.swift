import Foundation

/// The progress report: goals, charts and notes of a period on A4 pages (the browser prints it).
struct ReportPage: PageModel {
    /// A goal as the report prints it: the overview's line, why it was closed, and its weeks drawn.
    struct Goal: PageModel {
        let line: PatientOverview.Goal
        /// "Closed: achieved"; nil for an open goal.
        let closing: String?
        let chart: String?
    }

    let patientName: String
    /// Who the report is for, in words ("For the family or the school").
    let audienceText: String
    /// The clinician's choice of audience; empty for readers who have one only.
    let choosesAudience: Bool
    let audiences: [SelectOption]
    let about: String
    let periodText: String
    let prepared: String
    let form: FormState
    let actionURL: String
    let backURL: String
    let hasGoals: Bool
    let goals: [Goal]
    let showsCommunication: Bool
    let communication: [PatientOverview.Line]
    let newWords: [PatientOverview.Word]
    /// Server-drawn SVG charts (`LineChart`): taps and sentences per day.
    let charts: [String]
    let showsGames: Bool
    let games: [PatientOverview.Line]
    let showsMeals: Bool
    let meals: [PatientOverview.Line]
    let showsBody: Bool
    let body: [PatientOverview.Line]
    /// The period's weights, drawn when there are two or more.
    let bodyCharts: [String]
    let showsNotes: Bool
    let notes: [PatientOverview.Note]
    /// The reader may read notes (tutors and speech therapists): an empty period says so.
    let readsNotes: Bool

    /// The audience of a report: a clinician may ask for the clinical team's; everyone else, and any
    /// report not asked otherwise, is the family's, which prints no private note.
    static func audience(asked: String?, by actor: Actor) -> OverviewQueries.Audience {
        guard actor.role == .clinician, let asked = asked.flatMap(OverviewQueries.Audience.init(rawValue:)) else { return .family }
        return asked
    }

    init(_ report: OverviewQueries.Report, period: ReportPeriod, audience: OverviewQueries.Audience, form: FormState,
         actor: Actor, context: RequestContext) {
        let (t, format) = (context.t, context.format)
        let (person, record) = (report.person, report.record)
        let id = person.patient.userId
        let sections = OverviewQueries.Sections(actor)
        let overview = PatientOverview(record, patientId: id, sections: sections, t: t, format: format)
        patientName = person.user.displayName
        audienceText = t["report_audience_\(audience.rawValue)"]
        choosesAudience = actor.role == .clinician
        audiences = choosesAudience ? OverviewQueries.Audience.allCases.map {
            SelectOption(value: $0.rawValue, label: t["report_audience_choice_\($0.rawValue)"], isSelected: $0 == audience)
        } : []
        let today = context.today
        about = [person.patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: today) }.map { t("age_years", ["years": "\($0)"]) },
                 person.patient.diagnosis.isEmpty ? nil : person.patient.diagnosis].compactMap { $0 }.joined(separator: " · ")
        periodText = t("report_progress_period", ["from": format.longDate(iso: period.from), "to": format.longDate(iso: period.to)])
        prepared = t("report_progress_prepared", ["name": actor.displayName, "date": format.longDate(iso: today)])
        var shown = form
        // What was typed stays when it was refused; otherwise the period shown.
        if form.errors.isEmpty { shown.values = ["from": period.from, "to": period.to] }
        self.form = shown
        switch actor.role {
        case .patient:
            actionURL = RecordEndpoints.mine.path()
            backURL = DashboardEndpoints.patient.path()
        case .trainer:
            actionURL = RecordEndpoints.report.path(id)
            backURL = BodyCompositionEndpoints.showClient.path(id)
        default:
            actionURL = RecordEndpoints.report.path(id)
            backURL = PeopleEndpoints.showPatient.path(id)
        }
        goals = report.goals.map { goal in
            Goal(line: PatientOverview.goal(goal.progress, t, format),
                 closing: goal.goal.isClosed
                     ? goal.goal.closedReason.flatMap(GoalClosing.init(rawValue:)).map { t["goal_closing_\($0.rawValue)"] } ?? t["goal_closed_badge"]
                     : nil,
                 chart: GoalChart.svg(goal.goal, history: goal.history, t, format, compact: true))
        }
        hasGoals = !goals.isEmpty
        showsCommunication = overview.showsCommunication
        let days = RecordTrends.daily(record.taps, from: record.from, to: record.to)
        let sentenceDays = RecordTrends.daily(record.sentences, from: record.from, to: record.to)
        let totalTaps = days.reduce(0) { $0 + $1.count }, totalSentences = sentenceDays.reduce(0) { $0 + $1.count }
        communication = showsCommunication ? [
            .init(label: t["overview_taps"], value: t("report_progress_total", ["count": "\(totalTaps)"])),
            .init(label: t["overview_sentences"], value: t("report_progress_total", ["count": "\(totalSentences)"])),
        ] + (record.longestSentence.map { [.init(label: t["report_progress_longest"], value: t("report_progress_words", ["count": "\($0)"]))] }
             ?? []) : []
        newWords = overview.newWords
        let labels = days.map { format.shortDate(iso: $0.day) }
        let decimal: @Sendable (Double) -> String = { value in format.decimal(value, fractionDigits: 0) }
        charts = showsCommunication ? [
            LineChart(title: t["overview_taps"], unit: t["report_progress_per_day"], labels: labels,
                      series: [.init(name: t["overview_taps"], values: days.map { Double($0.count) }, colour: LineChart.palette[0])],
                      format: decimal).svg,
            LineChart(title: t["overview_sentences"], unit: t["report_progress_per_day"], labels: labels,
                      series: [.init(name: t["overview_sentences"], values: sentenceDays.map { Double($0.count) }, colour: LineChart.palette[2])],
                      format: decimal).svg,
        ] : []
        showsGames = overview.showsGames
        games = overview.games
        showsMeals = overview.showsMeals
        let adherence = NutritionRules.adherence(record.meals, from: record.from, to: record.to, nowDate: record.today,
                                                 nowTime: record.nowTime)
        meals = showsMeals ? [.init(label: t["report_progress_adherence"], value: PatientOverview.adherence(adherence, t, format))]
            + (adherence.overdue > 0 ? [.init(label: t["report_progress_overdue"], value: "\(adherence.overdue)")] : []) : []
        // The period's weights from the last one before it (or its first) to its last: not the last two alone.
        var body: [PatientOverview.Line] = []
        var bodyCharts: [String] = []
        if sections.body, let last = report.weights.last {
            let first = report.weightBefore ?? report.weights.first!
            body.append(.init(label: t["report_progress_weight"],
                              value: PatientOverview.weight(grams: last.grams, on: last.day,
                                                            previous: first.day == last.day ? nil : (first.grams, first.day), t, format)))
            if report.weights.count >= 2 {
                bodyCharts.append(LineChart(title: t["overview_weight"], unit: "kg",
                                            labels: report.weights.map { format.shortDate(iso: $0.day) },
                                            series: [.init(name: t["overview_weight"], values: report.weights.map { Double($0.grams) / 1000 },
                                                           colour: LineChart.palette[2])],
                                            days: report.weights.map { ISODate.dayNumber($0.day) ?? 0 },
                                            format: { format.decimal($0, fractionDigits: 1) }).svg)
            }
        }
        // No weight in the period: the latest readings, with their dates, rather than an empty section.
        self.body = body.isEmpty ? overview.body : body
        self.bodyCharts = bodyCharts
        showsBody = !self.body.isEmpty
        readsNotes = sections.speech
        showsNotes = overview.showsNotes
        notes = overview.notes
    }
}
