import Foundation

/// The progress report: goals, charts and notes of a period on A4 pages (the browser prints it).
struct ReportPage: PageModel {
    let patientName: String
    let about: String
    let periodText: String
    let prepared: String
    let form: FormState
    let actionURL: String
    let backURL: String
    let hasGoals: Bool
    let goals: [PatientOverview.Goal]
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
    let showsNotes: Bool
    let notes: [PatientOverview.Note]
    /// The reader may read notes (tutors and speech therapists): an empty period says so.
    let readsNotes: Bool

    init(_ report: (person: PeopleQueries.Person, record: OverviewQueries.Record), period: ReportPeriod, form: FormState,
         actor: Actor, context: RequestContext) {
        let (t, format) = (context.t, context.format)
        let (person, record) = report
        let id = person.patient.userId
        let sections = OverviewQueries.Sections(actor)
        let overview = PatientOverview(record, patientId: id, sections: sections, t: t, format: format)
        patientName = person.user.displayName
        let today = ISODate.string(context.now, timeZone: context.configuration.timeZone)
        about = [person.patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: today) }.map { t("age_years", ["years": "\($0)"]) },
                 person.patient.diagnosis.isEmpty ? nil : person.patient.diagnosis].compactMap { $0 }.joined(separator: " · ")
        periodText = t("report_progress_period", ["from": format.longDate(iso: period.from), "to": format.longDate(iso: period.to)])
        prepared = t("report_progress_prepared", ["name": actor.displayName, "date": format.longDate(iso: today)])
        var shown = form
        // What was typed stays when it was refused; otherwise the period shown.
        if form.errors.isEmpty { shown.values = ["from": period.from, "to": period.to] }
        self.form = shown
        actionURL = RecordEndpoints.report.path(id)
        backURL = PeopleEndpoints.showPatient.path(id)
        hasGoals = overview.hasGoals
        goals = overview.goals
        showsCommunication = overview.showsCommunication
        let days = RecordTrends.daily(record.taps, from: record.from, to: record.to)
        let sentenceDays = RecordTrends.daily(record.sentences, from: record.from, to: record.to)
        let totalTaps = days.reduce(0) { $0 + $1.count }, totalSentences = sentenceDays.reduce(0) { $0 + $1.count }
        communication = showsCommunication ? [
            .init(label: t["overview_taps"], value: t("report_progress_total", ["count": "\(totalTaps)"])),
            .init(label: t["overview_sentences"], value: t("report_progress_total", ["count": "\(totalSentences)"])),
        ] + (overview.longest.map { [.init(label: t["report_progress_longest"], value: $0)] } ?? []) : []
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
        showsBody = overview.showsBody
        body = overview.body
        readsNotes = sections.speech
        showsNotes = overview.showsNotes
        notes = overview.notes
    }
}
