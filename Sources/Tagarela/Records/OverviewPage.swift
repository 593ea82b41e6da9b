import Foundation

/// The record at a glance, for the patient page: each part in words, with a link to its full page.
/// A part the actor may not read, or that holds nothing, is left out rather than shown empty.
struct PatientOverview: PageModel {
    struct Count: PageModel {
        let title: String
        let week: String
        let month: String
        let trend: String
        /// `trend-up`, `trend-down`, `trend-steady` or `trend-none`: the arrow's colour.
        let trendClass: String
        let arrow: String
        /// The last 30 days as a polyline (`RecordTrends.sparkline`).
        let points: String
        let chartLabel: String
    }

    struct Word: PageModel {
        let name: String
        let count: String
        /// The word's language when it is not the page's.
        let wordLang: String?
    }

    struct Line: PageModel {
        let label: String
        let value: String
    }

    struct Goal: PageModel {
        let title: String
        let status: String
        /// `goal-onTrack` …: the badge's colour.
        let statusClass: String
        let measure: String
        /// How far the measure is towards the target, 0…100, for the bar.
        let percent: Int
        let review: String?
    }

    struct Note: PageModel {
        let date: String
        let author: String
        let body: String
        let isPrivate: Bool
        /// "On the goal …", for a note written on a goal.
        let goal: String?
    }

    let showsCommunication: Bool
    let counts: [Count]
    let longest: String?
    let newWords: [Word]
    let showsGames: Bool
    let games: [Line]
    let showsMeals: Bool
    let meals: [Line]
    let overdue: String?
    let showsBody: Bool
    let body: [Line]
    let showsNotes: Bool
    let notes: [Note]
    let hasGoals: Bool
    let goals: [Goal]
    /// No part is shown: a record with nothing to show says so instead.
    let isEmpty: Bool
    let usageURL: String
    let educatURL: String
    let nutritionURL: String
    let observationsURL: String
    let reportURL: String

    /// The overview's period: the last 30 days up to `today`, "recent" the last 7.
    static func period(today: String) -> (from: String, recentFrom: String) {
        (ISODate.adding(-29, to: today), ISODate.adding(-6, to: today))
    }

    init(_ record: OverviewQueries.Record, patientId id: Int64, sections: OverviewQueries.Sections, t: Translator,
         format: LocalizedFormat) {
        let taps = RecordTrends.daily(record.taps, from: record.from, to: record.to).map(\.count)
        let sentences = RecordTrends.daily(record.sentences, from: record.from, to: record.to).map(\.count)
        showsCommunication = sections.speech && (record.hasBoards || taps.contains { $0 > 0 } || sentences.contains { $0 > 0 })
        counts = showsCommunication
            ? [Self.count(t["overview_taps"], taps, t), Self.count(t["overview_sentences"], sentences, t)] : []
        longest = showsCommunication ? record.longestSentence.map { t("overview_longest", ["words": "\($0)"]) } : nil
        newWords = showsCommunication ? record.newWords.map {
            Word(name: $0.name, count: t("overview_times", ["count": "\($0.count)"]), wordLang: t.locale.lang(of: $0.voice.flatMap(AppLocale.init)))
        } : []
        showsGames = sections.speech && record.hasGames
        games = showsGames ? record.games.map { Self.game($0, t) } : []
        showsMeals = sections.nutrition && record.hasMeals
        let recentFrom = ISODate.adding(-6, to: record.to)
        let now = (date: record.today, time: record.nowTime)
        let week = NutritionRules.adherence(record.meals, from: recentFrom, to: record.to, nowDate: now.date, nowTime: now.time)
        let month = NutritionRules.adherence(record.meals, from: record.from, to: record.to, nowDate: now.date, nowTime: now.time)
        meals = showsMeals ? [Line(label: t["overview_last_7"], value: Self.adherence(week, t, format)),
                              Line(label: t["overview_last_30"], value: Self.adherence(month, t, format))] : []
        overdue = showsMeals && month.overdue > 0 ? t("overview_overdue", ["count": "\(month.overdue)"]) : nil
        showsBody = sections.body && (!record.weights.isEmpty || !record.evaluations.isEmpty)
        var body: [Line] = []
        if showsBody {
            if let latest = record.weights.first {
                body.append(Line(label: t["overview_weight"],
                                 value: Self.weight(grams: latest.grams, on: latest.measuredOn,
                                                    previous: record.weights.dropFirst().first.map { ($0.grams, $0.measuredOn) }, t, format)))
            }
            if let latest = record.evaluations.first {
                body.append(Line(label: t["overview_evaluation"],
                                 value: Self.weight(grams: latest.weightGrams, on: latest.takenOn,
                                                    previous: record.evaluations.dropFirst().first.map { ($0.weightGrams, $0.takenOn) }, t, format)))
            }
        }
        self.body = body
        showsNotes = sections.speech && !record.notes.isEmpty
        notes = showsNotes ? record.notes.map { note in
            Note(date: format.shortDate(iso: note.day), author: note.authorName, body: note.body, isPrivate: note.isPrivate,
                 goal: note.goal.map { t("overview_note_on_goal", ["goal": $0]) })
        } : []
        hasGoals = !record.goals.isEmpty
        goals = record.goals.map { Self.goal($0, t, format) }
        usageURL = UsageEndpoints.usage.path(id)
        educatURL = EduCATEndpoints.results.path(id)
        nutritionURL = NutritionEndpoints.review.path(id)
        observationsURL = UsageEndpoints.observations.path(id)
        reportURL = RecordEndpoints.report.path(id)
        isEmpty = !showsCommunication && !showsGames && !showsMeals && !showsBody && !showsNotes && !hasGoals
    }


    static func count(_ title: String, _ daily: [Int], _ t: Translator) -> Count {
        let (recent, earlier) = RecordTrends.lastTwoWindows(daily, days: 7)
        let direction = RecordTrends.direction(recent: recent, earlier: earlier)
        let arrows: [RecordTrends.Direction: String] = [.up: "↑", .down: "↓", .steady: "→", .none: "·"]
        return Count(title: title, week: t("overview_in_7", ["count": "\(recent)"]),
                     month: t("overview_in_30", ["count": "\(daily.reduce(0, +))"]),
                     trend: t["overview_trend_\(direction.rawValue)"], trendClass: "trend-\(direction.rawValue)",
                     arrow: arrows[direction] ?? "", points: RecordTrends.sparkline(daily),
                     chartLabel: t("overview_chart_label", ["what": title]))
    }

    static func game(_ game: OverviewQueries.Game, _ t: Translator) -> Line {
        let area = EduCATArea(rawValue: game.area)?.labelKey ?? game.area
        return Line(label: t["educat_area_\(area)"],
                    value: t("overview_game_row", ["played": "\(game.played)", "recent": "\(game.playedRecently)",
                                                    "best": "\(game.bestHits)"]))
    }

    static func adherence(_ figures: NutritionRules.Adherence, _ t: Translator, _ format: LocalizedFormat) -> String {
        guard let rate = figures.rate else { return t["overview_adherence_none"] }
        return t("overview_adherence_value", ["rate": "\(format.decimal(rate * 100, fractionDigits: 0)) %",
                                              "answered": "\(figures.answered)"])
    }

    static func weight(grams: Int, on day: String, previous: (grams: Int, day: String)?, _ t: Translator,
                       _ format: LocalizedFormat) -> String {
        var text = t("overview_weight_value", ["kg": format.decimal(Double(grams) / 1000), "date": format.shortDate(iso: day)])
        if let previous {
            let change = Double(grams - previous.grams) / 1000
            let signed = (change > 0 ? "+" : change < 0 ? "−" : "±") + format.decimal(abs(change))
            text += " · " + t("overview_change", ["change": signed, "date": format.shortDate(iso: previous.day)])
        }
        return text
    }

    /// A goal as the overview shows it, in the reader's language: its status, what was measured of
    /// the target, and how far along the bar is.
    static func goal(_ goal: GoalProgress, _ t: Translator, _ format: LocalizedFormat) -> Goal {
        let unit = t[goal.unitKey]
        let target = format.decimal(goal.target, fractionDigits: goal.target == goal.target.rounded() ? 0 : 1)
        let measure: String
        // The goal's own rule (`GoalRules.fraction`), as on the goal's page: "at most 76 kg" from 82 is not full at 80.4.
        let percent = Int((goal.fraction * 100).rounded())
        if let measured = goal.measured {
            measure = t("overview_goal_measure", ["measured": format.decimal(measured, fractionDigits: measured == measured.rounded() ? 0 : 1),
                                                  "target": target, "unit": unit])
        } else {
            measure = t("overview_goal_unmeasured", ["target": target, "unit": unit])
        }
        return Goal(title: goal.title, status: t["overview_goal_status_\(goal.status.rawValue)"],
                    statusClass: "goal-\(goal.status.rawValue)", measure: measure, percent: percent,
                    review: goal.reviewDate.map { t("overview_goal_review", ["date": format.shortDate(iso: $0)]) })
    }
}
