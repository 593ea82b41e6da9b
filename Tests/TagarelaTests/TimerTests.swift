import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct TimerTests {

    @Test func aZeroDurationIsRefusedWithTheChoicesKept() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let form = try carla.get("/timer")
        #expect(form.status == 200)
        let symbol = try #require(form.text.firstMatch(of: /<option value="(\d+)" data-image="[^"]+" >comer<\/option>/)?.1)
        let refused = try carla.get("/timer?start=1&symbol=\(symbol)&hours=0&minutes=0")
        #expect(refused.status == 422)
        #expect(refused.text.contains("Escolha um tempo maior que zero."))
        #expect(refused.text.firstMatch(of: /<option value="(\d+)" data-image="[^"]+" selected>comer<\/option>/)?.1 == symbol)
        #expect(try carla.get("/timer?start=1&symbol=\(symbol)&hours=1&minutes=75").status == 422)
    }

    @Test func aTimerShowsItsActivityAndStartsAtTheChosenDuration() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let symbol = try #require(try carla.get("/timer").text.firstMatch(of: /<option value="(\d+)" data-image="[^"]+" >dormir<\/option>/)?.1)
        let started = try carla.get("/timer?start=1&symbol=\(symbol)&hours=1&minutes=5")
        #expect(started.status == 303)
        let location = try #require(started.header("Location"))
        #expect(location.hasPrefix("/timer?start=1&symbol=\(symbol)&hours=1&minutes=5&at="), "each start gets its own moment")
        let page = try carla.get(location)
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-seconds="3900""#))
        #expect(page.text.contains(">01:05:00<"))
        #expect(page.text.contains("dormir"))
        #expect(page.text.contains(#"class="timer-alarm" src="/media/audio/"#))
    }

    @Test func onlyThePatientsOwnSymbolsAndOnlyPatientsUseTheTimer() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let davisOwn = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM symbol WHERE patientId IS NOT NULL")! }
        let refused = try carla.get("/timer?start=1&symbol=\(davisOwn)&minutes=5")
        #expect(refused.status == 422)
        #expect(refused.text.contains("Escolha uma das opções."))
        #expect(try test.browser(loggedInAs: "ana").get("/timer").status == 403)
    }

    @Test func durationsAndTheClockFace() {
        #expect(TimerRules.seconds(hours: "", minutes: "5") == .success(300))
        #expect(TimerRules.seconds(hours: "2", minutes: "") == .success(7200))
        #expect(TimerRules.seconds(hours: "0", minutes: "0") == .failure(.zero))
        #expect(TimerRules.seconds(hours: "13", minutes: "0") == .failure(.invalid))
        #expect(TimerRules.seconds(hours: "1", minutes: "-5") == .failure(.invalid))
        #expect(TimerRules.seconds(hours: "um", minutes: "5") == .failure(.invalid))
        #expect(TimerRules.clock(3900) == "01:05:00")
        #expect(TimerRules.clock(59) == "00:00:59")
    }
}
