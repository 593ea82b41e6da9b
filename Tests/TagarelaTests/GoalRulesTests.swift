import Foundation
@testable import Tagarela
import Testing

/// The pure rules of goals: windows, measures and status, for every kind's style, at the boundaries.
@Suite struct GoalRulesTests {
    let november = GoalRules.Period(startsOn: "2026-11-01", endsOn: "2026-11-30")

    // MARK: Phases and windows

    @Test func theFirstAndLastDayBelongToThePeriod() {
        #expect(GoalRules.phase(november, today: "2026-10-31") == .before)
        #expect(GoalRules.phase(november, today: "2026-11-01") == .during(elapsed: 1, total: 30))
        #expect(GoalRules.phase(november, today: "2026-11-30") == .during(elapsed: 30, total: 30))
        #expect(GoalRules.phase(november, today: "2026-12-01") == .after)
    }

    @Test func aWeekWindowIsTheLastSevenDaysNeverBeforeTheStartNorAfterTheEnd() {
        #expect(GoalRules.weekWindow(november, today: "2026-10-31") == nil)
        #expect(GoalRules.weekWindow(november, today: "2026-11-01") == "2026-11-01"..."2026-11-01")
        #expect(GoalRules.weekWindow(november, today: "2026-11-03") == "2026-11-01"..."2026-11-03")
        #expect(GoalRules.weekWindow(november, today: "2026-11-20") == "2026-11-14"..."2026-11-20")
        #expect(GoalRules.weekWindow(november, today: "2027-01-15") == "2026-11-24"..."2026-11-30", "the period's last week once over")
        let short = GoalRules.Period(startsOn: "2026-11-10", endsOn: "2026-11-12")
        #expect(GoalRules.weekWindow(short, today: "2026-11-20") == "2026-11-10"..."2026-11-12")
    }

    @Test func aPeriodWindowRunsFromTheFirstDayToTodayOrTheEnd() {
        #expect(GoalRules.periodWindow(november, today: "2026-10-01") == nil)
        #expect(GoalRules.periodWindow(november, today: "2026-11-15") == "2026-11-01"..."2026-11-15")
        #expect(GoalRules.periodWindow(november, today: "2026-12-15") == "2026-11-01"..."2026-11-30")
    }

    /// A clinic day in São Paulo (UTC−3) runs from 03:00 UTC to 03:00 UTC the next day: a tap at 23:30
    /// local time, stored as 02:30 UTC the next day, belongs to the local day.
    @Test func dayBoundsFollowTheClinicsTimeZone() throws {
        let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!
        let bounds = GoalRules.instants(of: "2026-11-20"..."2026-11-20", timeZone: saoPaulo)
        let utc = ISO8601DateFormatter()
        #expect(bounds.from == utc.date(from: "2026-11-20T03:00:00Z"))
        #expect(bounds.until == utc.date(from: "2026-11-21T03:00:00Z"))
        let lateTap = try #require(utc.date(from: "2026-11-21T02:30:00Z"))
        #expect(lateTap >= bounds.from && lateTap < bounds.until)
        #expect(ISODate.string(lateTap, timeZone: saoPaulo) == "2026-11-20")
        // East of UTC the day starts the evening before, in UTC.
        let tokyo = GoalRules.instants(of: "2026-11-20"..."2026-11-21", timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.from == utc.date(from: "2026-11-19T15:00:00Z"))
        #expect(tokyo.until == utc.date(from: "2026-11-21T15:00:00Z"))
    }

    /// Around each midnight the bounds agree, to the second, with the day the app gives an instant
    /// (`ISODate.dayNumber(of:timeZone:)`, which decides "today" everywhere).
    @Test(arguments: ["America/Sao_Paulo", "Asia/Tokyo", "Europe/Madrid", "UTC"])
    func everyBoundIsTheFirstSecondOfTheAppsDay(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        for day in ["2026-11-18", "2026-03-29", "2026-10-25", "2018-11-04", "2019-02-16", "2019-02-17", "2024-02-29"] {
            let start = GoalRules.instants(of: day...day, timeZone: zone).from
            #expect(ISODate.string(start, timeZone: zone) == day, "\(zoneName) \(day)")
            #expect(ISODate.string(start.addingTimeInterval(-1), timeZone: zone) == ISODate.adding(-1, to: day), "\(zoneName) \(day)")
        }
    }

    /// Summer time: São Paulo skipped the midnight of 4 Nov 2018 (00:00 became 01:00) and lived the last
    /// hour of 16 Feb 2019 twice; Madrid's days of change are 23 and 25 hours long.
    @Test func aDayOfAClockChangeIsShorterOrLonger() throws {
        let utc = ISO8601DateFormatter()
        let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!
        #expect(GoalRules.instants(of: "2018-11-04"..."2018-11-04", timeZone: saoPaulo).from == utc.date(from: "2018-11-04T03:00:00Z"))
        let long = GoalRules.instants(of: "2019-02-16"..."2019-02-16", timeZone: saoPaulo)
        #expect(long.from == utc.date(from: "2019-02-16T02:00:00Z") && long.until == utc.date(from: "2019-02-17T03:00:00Z"))
        let madrid = TimeZone(identifier: "Europe/Madrid")!
        let spring = GoalRules.instants(of: "2026-03-29"..."2026-03-29", timeZone: madrid)
        #expect(spring.until.timeIntervalSince(spring.from) == 23 * 3600)
        let autumn = GoalRules.instants(of: "2026-10-25"..."2026-10-25", timeZone: madrid)
        #expect(autumn.until.timeIntervalSince(autumn.from) == 25 * 3600)
    }

    // MARK: Measures

    /// A weekly goal's first days are counted as they are, never scaled up to a week (issue 51: a first
    /// day's 3 taps read as 21), and short of the target they are "first week", not "behind".
    @Test func aGoalsFirstWeekIsNeitherScaledNorBehind() {
        let period = GoalRules.Period(startsOn: "2026-11-02", endsOn: "2026-11-29")
        #expect(GoalRules.status(.weekly, period: period, today: "2026-11-02", measured: 3, target: 5) == .early)
        #expect(GoalRules.status(.weekly, period: period, today: "2026-11-02", measured: 0, target: 5) == .notStarted)
        #expect(GoalRules.status(.weekly, period: period, today: "2026-11-02", measured: 5, target: 5) == .onTrack)
        #expect(GoalRules.status(.weekly, period: period, today: "2026-11-09", measured: 3, target: 5) == .behind)
        #expect(GoalRules.status(.average, period: period, today: "2026-11-03", measured: 50, target: 80) == .early)
        #expect(GoalRules.status(.average, period: period, today: "2026-11-20", measured: 50, target: 80) == .behind)
        #expect(GoalRules.status(.reach, period: period, today: "2026-11-02", measured: 82, target: 76, direction: .atMost,
                                 baseline: 82) == .early)
        #expect(GoalRules.status(.reach, period: period, today: "2026-11-25", measured: 82, target: 76, direction: .atMost,
                                 baseline: 82) == .behind)
    }

    @Test func sharesNeedSomethingToDivide() {
        #expect(GoalRules.percent(1, of: 4) == 25)
        #expect(GoalRules.percent(0, of: 0) == nil, "no taps: nothing measured, not 0 %")
        #expect(GoalRules.percent(3, of: 3) == 100)
    }

    @Test func gameValuesAreTheBestOrTheAverage() {
        #expect(GoalRules.gameValue(hits: [], .best) == nil)
        #expect(GoalRules.gameValue(hits: [3, 9, 6], .best) == 9)
        #expect(GoalRules.gameValue(hits: [3, 9, 6], .average) == 6)
    }

    /// A % fat goal reads only its protocol: a 7-site evaluation after 3-site ones is not progress.
    @Test func percentFatNeverMixesProtocols() {
        let readings: [GoalRules.BodyReading] = [
            .init(takenOn: "2026-10-01", skinfoldProtocol: "jp3", value: 30),
            .init(takenOn: "2026-11-05", skinfoldProtocol: "jp3", value: 29),
            .init(takenOn: "2026-11-20", skinfoldProtocol: "jp7", value: 24),
        ]
        let jp3 = GoalRules.bodyValues(readings, protocol: "jp3", period: november, today: "2026-11-25")
        #expect(jp3.baseline == 30 && jp3.latest == 29)
        let jp7 = GoalRules.bodyValues(readings, protocol: "jp7", period: november, today: "2026-11-25")
        #expect(jp7.baseline == 24 && jp7.latest == 24, "no 7-site value before: the first in the period is the baseline")
        let status3 = GoalRules.status(.reach, period: november, today: "2026-11-25", measured: jp3.latest, target: 25,
                                       direction: .atMost, baseline: jp3.baseline)
        #expect(status3 == .behind, "the 7-site 24 % does not meet a 3-site goal of 25 %")
        let jp7Alternate = GoalRules.bodyValues(readings, protocol: "jp3Alternate", period: november, today: "2026-11-25")
        #expect(jp7Alternate.baseline == nil && jp7Alternate.latest == nil)
    }

    @Test func bodyValuesIgnoreTheFutureAndUseTheLatestBeforeTheStartAsBaseline() {
        let weights: [GoalRules.BodyReading] = [
            .init(takenOn: "2026-09-01", skinfoldProtocol: nil, value: 84),
            .init(takenOn: "2026-10-25", skinfoldProtocol: nil, value: 83),
            .init(takenOn: "2026-11-10", skinfoldProtocol: nil, value: 81),
            .init(takenOn: "2026-12-10", skinfoldProtocol: nil, value: 78),
        ]
        let values = GoalRules.bodyValues(weights, protocol: nil, period: november, today: "2026-11-20")
        #expect(values.baseline == 83 && values.latest == 81)
        let over = GoalRules.bodyValues(weights, protocol: nil, period: november, today: "2027-01-01")
        #expect(over.latest == 81, "a weighing after the last day does not count for the goal")
    }

    // MARK: Status, by style

    @Test func everyStyleIsNotStartedBeforeItsFirstDay() {
        for style in [GoalRules.Style.weekly, .average, .reach] {
            #expect(GoalRules.status(style, period: november, today: "2026-10-31", measured: 100, target: 1) == .notStarted)
        }
    }

    @Test func weeklyGoals() {
        func status(_ today: String, _ measured: Double?) -> GoalStatus {
            GoalRules.status(.weekly, period: november, today: today, measured: measured, target: 10)
        }
        #expect(status("2026-11-01", 0) == .notStarted, "day one, nothing yet: grace")
        #expect(status("2026-11-07", 0) == .notStarted, "the seventh day is still within the first week")
        #expect(status("2026-11-08", 0) == .behind)
        #expect(status("2026-11-03", 4) == .early, "something measured in the first week, below the target: early, not behind")
        #expect(status("2026-11-09", 4) == .behind, "something measured, below the target")
        #expect(status("2026-11-02", 10) == .onTrack)
        #expect(status("2026-11-30", 10) == .onTrack, "the last day is still during")
        #expect(status("2026-11-30", 9.9) == .behind)
        #expect(status("2026-12-01", 10) == .met)
        #expect(status("2026-12-01", 9) == .missed)
        #expect(status("2026-12-01", nil) == .missed)
    }

    @Test func averageGoals() {
        func status(_ today: String, _ measured: Double?) -> GoalStatus {
            GoalRules.status(.average, period: november, today: today, measured: measured, target: 80)
        }
        #expect(status("2026-11-03", nil) == .notStarted, "no meal answered yet, within the first week")
        #expect(status("2026-11-10", nil) == .behind, "an empty period past the first week")
        #expect(status("2026-11-10", 80) == .onTrack)
        #expect(status("2026-11-10", 79.5) == .behind)
        #expect(status("2026-12-01", 85) == .met)
        #expect(status("2026-12-01", 50) == .missed)
        #expect(status("2026-12-01", nil) == .missed)
    }

    @Test func reachGoalsAreMetEarlyAndComparedWithAStraightLine() {
        func status(_ today: String, _ measured: Double?, baseline: Double? = 80, direction: GoalDirection = .atMost) -> GoalStatus {
            GoalRules.status(.reach, period: november, today: today, measured: measured, target: 77, direction: direction, baseline: baseline)
        }
        #expect(status("2026-11-20", nil) == .notStarted, "no measure in the period yet")
        #expect(status("2026-11-05", 77) == .met, "reached before the end")
        #expect(status("2026-11-15", 78.4) == .onTrack, "halfway, more than half the way down")
        #expect(status("2026-11-15", 79.5) == .behind)
        #expect(status("2026-12-01", 77.5) == .missed)
        #expect(status("2026-12-01", 76) == .met)
        // Games: best hits up from 0.
        #expect(GoalRules.status(.reach, period: november, today: "2026-11-15", measured: 5, target: 8) == .onTrack)
        #expect(GoalRules.status(.reach, period: november, today: "2026-11-29", measured: 5, target: 8) == .behind)
        #expect(GoalRules.status(.reach, period: november, today: "2026-11-29", measured: 8, target: 8) == .met)
    }

    @Test func aMeasureGoalMayAimUp() {
        let status = GoalRules.status(.reach, period: november, today: "2026-11-20", measured: 36, target: 35,
                                      direction: .atLeast, baseline: 33)
        #expect(status == .met)
        #expect(GoalRules.fraction(.reach, measured: 34, target: 35, direction: .atLeast, baseline: 33) == 0.5)
    }

    @Test func progressBarsStayBetweenZeroAndOne() {
        #expect(GoalRules.fraction(.weekly, measured: 5, target: 10, direction: .atLeast, baseline: nil) == 0.5)
        #expect(GoalRules.fraction(.weekly, measured: 50, target: 10, direction: .atLeast, baseline: nil) == 1)
        #expect(GoalRules.fraction(.weekly, measured: nil, target: 10, direction: .atLeast, baseline: nil) == 0)
        #expect(GoalRules.fraction(.reach, measured: 78.5, target: 77, direction: .atMost, baseline: 80) == 0.5)
        #expect(GoalRules.fraction(.reach, measured: 82, target: 77, direction: .atMost, baseline: 80) == 0)
    }

    // MARK: Kinds

    @Test func eachKindHasItsStyleUnitAndSpecialty() {
        func goal(_ kind: GoalKind, aggregate: String? = nil, measure: String? = nil) -> Goal {
            Goal(patientId: 1, kind: kind.rawValue, title: "x", aggregate: aggregate, measure: measure, direction: "atLeast", target: 1,
                 startsOn: "2026-11-01", endsOn: "2026-11-30", createdAt: Date(), updatedAt: Date(), version: 1)
        }
        #expect(goal(.symbolTaps).style == .weekly && goal(.sentences).style == .weekly && goal(.independentTaps).style == .weekly)
        #expect(goal(.gameHits, aggregate: "best").style == .reach && goal(.gameHits, aggregate: "average").style == .average)
        #expect(goal(.adherence).style == .average && goal(.bodyMeasure, measure: "weight").style == .reach)
        #expect(goal(.bodyMeasure, measure: "percentFat").unitKey == "goal_unit_percent_fat")
        #expect(goal(.bodyMeasure, measure: "perimeter").unitKey == "goal_unit_cm")
        #expect(GoalKind.allCases.filter { $0.area.specialty == .speech } == [.symbolTaps, .categoryTaps, .sentences, .independentTaps, .gameHits,
                                                                               .gameAccuracy])
        #expect(GoalKind.allCases.filter { $0.area.specialty == .nutrition } == [.adherence, .bodyMeasure])
    }
}
