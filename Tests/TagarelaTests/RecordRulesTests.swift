import Foundation
import Testing
@testable import Tagarela

/// The patient record's pure rules: trends, the worklist's reasons and order, the report's period,
/// and goals as the overview shows them (from hand-made `GoalProgress` values).
@Suite struct RecordRulesTests {
    @Test func trendsCompareTheLastWeekWithTheOneBefore() {
        #expect(RecordTrends.direction(recent: 0, earlier: 0) == .none)
        #expect(RecordTrends.direction(recent: 3, earlier: 0) == .up)
        #expect(RecordTrends.direction(recent: 0, earlier: 5) == .down)
        #expect(RecordTrends.direction(recent: 11, earlier: 10) == .steady)
        #expect(RecordTrends.direction(recent: 9, earlier: 10) == .steady)
        #expect(RecordTrends.direction(recent: 120, earlier: 100) == .up, "a fifth more is up (boundary)")
        #expect(RecordTrends.direction(recent: 80, earlier: 100) == .down, "a fifth less is down (boundary)")
        #expect(RecordTrends.direction(recent: 81, earlier: 100) == .steady)
    }

    @Test func dailySeriesFillsTheDaysWithoutData() {
        let days = RecordTrends.daily(["2026-02-27": 4, "2026-03-01": 2, "2026-03-05": 9], from: "2026-02-27", to: "2026-03-02")
        #expect(days.map(\.day) == ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"], "across a month end")
        #expect(days.map(\.count) == [4, 0, 2, 0], "a day outside the period is left out")
        #expect(RecordTrends.daily([:], from: "2026-03-02", to: "2026-03-01").isEmpty)
        #expect(RecordTrends.daily([:], from: "nonsense", to: "2026-03-01").isEmpty)
        let windows = RecordTrends.lastTwoWindows(Array(1...30), days: 7)
        #expect(windows.recent == (24...30).reduce(0, +))
        #expect(windows.earlier == (17...23).reduce(0, +))
        #expect(RecordTrends.lastTwoWindows([5, 5], days: 7) == (10, 0), "fewer days than a week")
    }

    @Test func sparklineSpansTheBoxWithZeroAtTheBottom() {
        let points = RecordTrends.sparkline([0, 5, 10], width: 120, height: 32)
        #expect(points == "2,30 60,16 118,2")
        #expect(RecordTrends.sparkline([0, 0]) == "2,30 118,30", "nothing used: a flat line at the bottom")
        #expect(RecordTrends.sparkline([]) == "")
        #expect(RecordTrends.sparkline([7]) == "2,2")
    }

    static let today = "2026-11-24"
    static let both = WorklistRules.Scope(speech: true, nutrition: true)

    @Test func idleBoardsAreAReasonFromTheSeventhDay() {
        var signals = WorklistRules.Signals(hasBoards: true, lastBoardUse: "2026-11-18")
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: Self.both).isEmpty, "6 days: not yet")
        signals.lastBoardUse = "2026-11-17"
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: Self.both) == [.noBoardUse(days: 7)])
        signals.lastBoardUse = nil
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: Self.both) == [.noBoardUse(days: nil)])
        signals.hasBoards = false
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: Self.both).isEmpty, "an adult without boards is not idle")
        let speechOnly = WorklistRules.Signals(hasBoards: true, lastBoardUse: nil)
        #expect(WorklistRules.reasons(speechOnly, today: Self.today, scope: .init(speech: false, nutrition: true)).isEmpty,
                "a nutritionist is not told about boards")
    }

    @Test func mealsAndEvaluationsAreANutritionistsReasons() {
        let signals = WorklistRules.Signals(overdueMeals: 2, adherence: 0.69, lastEvaluation: "2026-08-01", newTutorNotes: 1)
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: .init(speech: false, nutrition: true))
                == [.overdueMeals(2), .lowAdherence(0.69), .reevaluation(overdue: true, dueOn: "2026-10-30")])
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: .init(speech: true, nutrition: false)) == [.newTutorNotes(1)],
                "a speech therapist hears of the notes, not the meals")
        let fine = WorklistRules.Signals(adherence: 0.7, lastEvaluation: "2026-11-01")
        #expect(WorklistRules.reasons(fine, today: Self.today, scope: Self.both).isEmpty, "70 % is not low; evaluated 23 days ago")
        let due = WorklistRules.Signals(lastEvaluation: "2026-09-05")
        #expect(WorklistRules.reasons(due, today: Self.today, scope: Self.both) == [.reevaluation(overdue: false, dueOn: "2026-12-04")])
        #expect(WorklistRules.reasons(WorklistRules.Signals(), today: Self.today, scope: Self.both).isEmpty, "never evaluated: nothing due")
    }

    @Test func goalsBehindCountForEveryClinician() {
        let signals = WorklistRules.Signals(goalsBehind: 2)
        #expect(WorklistRules.reasons(signals, today: Self.today, scope: .init(speech: false, nutrition: false)) == [.goalsBehind(2)])
    }

    @Test func theHeaviestReasonsComeFirstThenNames() {
        let ordered = WorklistRules.order([
            (item: 1, name: "Zoe", reasons: []),
            (item: 2, name: "bruno", reasons: [.newTutorNotes(1)]),
            (item: 3, name: "Ana", reasons: [.newTutorNotes(3)]),
            (item: 4, name: "Carla", reasons: [.overdueMeals(1), .lowAdherence(0.5)]),
            (item: 5, name: "Davi", reasons: [.goalsBehind(1)]),
            (item: 6, name: "Elisa", reasons: []),
        ])
        #expect(ordered.map(\.item) == [4, 5, 3, 2, 6, 1])
    }

    @Test func reportPeriodIsReadOrNamedAsAProblem() {
        let today = Self.today
        #expect(ReportPeriod.read(from: "", to: "", today: today) == ReportPeriod(from: "2026-10-26", to: today, problem: nil))
        #expect(ReportPeriod.read(from: "2026-01-01", to: "2026-03-31", today: today)
                == ReportPeriod(from: "2026-01-01", to: "2026-03-31", problem: nil))
        #expect(ReportPeriod.read(from: " 2026-11-01 ", to: "", today: today) == ReportPeriod(from: "2026-11-01", to: today, problem: nil))
        #expect(ReportPeriod.read(from: "2026-02-30", to: "", today: today).problem == .from)
        #expect(ReportPeriod.read(from: "2026-11-01", to: "tomorrow", today: today).problem == .to)
        #expect(ReportPeriod.read(from: "2026-11-10", to: "2026-11-01", today: today).problem == .order)
        #expect(ReportPeriod.read(from: "2025-01-01", to: "2026-01-02", today: today).problem == .length)
        #expect(ReportPeriod.read(from: "2025-01-01", to: "2026-01-01", today: today).problem == nil, "366 days is allowed")
        let refused = ReportPeriod.read(from: "x", to: "y", today: today)
        #expect((refused.from, refused.to) == ("2026-10-26", today), "a refused period shows the last 30 days")
    }

    static let t = Translator(locale: .en, texts: [
        "goal_unit_taps_per_week": "taps a week",
        "overview_goal_measure": "{measured} of {target} {unit}",
        "overview_goal_unmeasured": "Not measured yet · target {target} {unit}",
        "overview_goal_review": "Review on {date}",
        "overview_goal_status_behind": "Behind", "overview_goal_status_met": "Met", "overview_goal_status_notStarted": "Not started",
    ])

    /// A goal as `GoalQueries` measures it for every page that draws one.
    static func progress(_ kind: GoalKind, direction: GoalDirection = .atLeast, target: Double, measured: Double?,
                         baseline: Double? = nil, review: String? = "2026-12-15") -> GoalProgress {
        let goal = Goal(id: 1, patientId: 7, kind: kind.rawValue, title: "Asks for water", measure: kind == .bodyMeasure ? "weight" : nil,
                        direction: direction.rawValue, target: target, startsOn: "2026-10-01", endsOn: "2026-12-31", reviewOn: review,
                        createdAt: .now, updatedAt: .now, version: 1)
        return GoalQueries.progress(of: goal, measured: measured, baseline: baseline, today: Self.today)
    }

    @Test func goalsShowTheirMeasureStatusAndBar() {
        let format = LocalizedFormat(locale: .en, timeZone: .gmt)
        let shown = PatientOverview.goal(Self.progress(.symbolTaps, target: 40, measured: 12), Self.t, format)
        #expect(shown.title == "Asks for water")
        #expect(shown.status == "Behind")
        #expect(shown.statusClass == "goal-behind")
        #expect(shown.measure == "12 of 40 taps a week")
        #expect(shown.percent == 30)
        #expect(shown.review?.hasPrefix("Review on ") == true)
        let over = Self.progress(.symbolTaps, target: 50, measured: 55.5, review: nil)
        #expect(PatientOverview.goal(over, Self.t, format).percent == 100, "beyond the target the bar is full")
        #expect(PatientOverview.goal(over, Self.t, format).measure == "55.5 of 50 taps a week")
        #expect(PatientOverview.goal(over, Self.t, format).review == nil)
        let fresh = Self.progress(.symbolTaps, target: 3, measured: nil)
        #expect(PatientOverview.goal(fresh, Self.t, format).measure == "Not measured yet · target 3 taps a week")
        #expect(PatientOverview.goal(fresh, Self.t, format).percent == 0)
    }

    /// "Reach 76 kg" (at most 76) from 82, now 80.4: the bar is the goal's own rule, 27 %, on the overview and
    /// the report as on the goal's page, never measured ÷ target (a full bar, issue 51).
    @Test func anAtMostGoalsBarFollowsTheGoalsRule() {
        let format = LocalizedFormat(locale: .en, timeZone: .gmt)
        let weight = Self.progress(.bodyMeasure, direction: .atMost, target: 76, measured: 80.4, baseline: 82)
        #expect(weight.fraction > 0.26 && weight.fraction < 0.27)
        #expect(PatientOverview.goal(weight, Self.t, format).percent == Int((weight.fraction * 100).rounded()))
        #expect(PatientOverview.goal(weight, Self.t, format).percent == 27)
        let fewer = Self.progress(.symbolTaps, direction: .atMost, target: 10, measured: 20)
        #expect(PatientOverview.goal(fewer, Self.t, format).percent == 50, "at most 10, now 20: halfway, not full")
    }

    @Test func overviewShowsGoalsOnlyWhenThereAreSome() {
        let format = LocalizedFormat(locale: .en, timeZone: .gmt)
        var record = OverviewQueries.Record(from: "2026-10-26", to: Self.today)
        let sections = OverviewQueries.Sections(speech: true, nutrition: true)
        let empty = PatientOverview(record, patientId: 7, sections: sections, t: Self.t, format: format)
        #expect(!empty.hasGoals && empty.isEmpty && !empty.showsCommunication && !empty.showsMeals)
        record.goals = [GoalProgress(goalId: 1, patientId: 7, title: "Asks for water", status: .behind, measured: 1, target: 4,
                                     unitKey: "goal_unit_taps_per_week", reviewDate: nil)]
        let withGoal = PatientOverview(record, patientId: 7, sections: sections, t: Self.t, format: format)
        #expect(withGoal.hasGoals && !withGoal.isEmpty && withGoal.goals.map(\.title) == ["Asks for water"])
        record.hasBoards = true
        record.hasMeals = true
        let tutorLike = PatientOverview(record, patientId: 7, sections: .init(speech: true, nutrition: false), t: Self.t, format: format)
        #expect(tutorLike.showsCommunication && !tutorLike.showsMeals, "meals only for a nutritionist")
        let nutritionist = PatientOverview(record, patientId: 7, sections: .init(speech: false, nutrition: true), t: Self.t, format: format)
        #expect(!nutritionist.showsCommunication && nutritionist.showsMeals, "boards only for tutors and speech therapists")
    }
}
