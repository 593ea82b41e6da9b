import Foundation
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The report prints masses, percentages and the BMI with two decimals, as seed 004 asks ("%.2f").
@Suite struct BodyCompositionPrecisionTests {
    @Test func theReportShowsTheBMIAndPercentagesWithTwoDecimals() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let saved = try dani.post("/clients/\(gustavo)/evaluations", BodyCompositionTests.fullEvaluation)
        let report = try dani.get(try #require(saved.header("Location")))
        #expect(report.status == 200)
        // 85,4 kg ÷ 1,78 m² = 26,953…
        #expect(report.text.contains("26,95"), "the BMI with two decimals")
        #expect(report.text.range(of: #"\d,\d\d %"#, options: .regularExpression) != nil, "a percentage with two decimals")
    }
}
