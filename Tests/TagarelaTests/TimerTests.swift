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
        let symbol = try #require(form.text.firstMatch(of: /name="symbol" value="(\d+)" data-activity data-image="[^"]+" data-label="comer" >/)?.1)
        let refused = try carla.get("/timer?start=1&symbol=\(symbol)&hours=0&minutes=0")
        #expect(refused.status == 422)
        #expect(refused.text.contains("Escolha um tempo maior que zero."))
        #expect(refused.text.firstMatch(of: /name="symbol" value="(\d+)" data-activity data-image="[^"]+" data-label="comer" checked>/)?.1 == symbol)
        #expect(try carla.get("/timer?start=1&symbol=\(symbol)&hours=1&minutes=75").status == 422)
    }

    @Test func aTimerShowsItsActivityAndStartsAtTheChosenDuration() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let symbol = try #require(try carla.get("/timer").text.firstMatch(of: /name="symbol" value="(\d+)" data-activity data-image="[^"]+" data-label="dormir" >/)?.1)
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

    @Test func theChildChoosesFromPresetsAndAnOddDurationComesBackAsItsOwnChoice() async throws {
        let test = try await TestApp()
        let carla = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let form = try carla.get("/timer").text
        for minutes in TimerActivities.presetMinutes {
            #expect(form.contains(#"name="minutes" value="\#(minutes)" "#), "a preset of \(minutes) min")
        }
        #expect(form.contains(#"name="minutes" value="5" checked>"#), "five minutes until the child chooses")
        #expect(form.contains(#"<select id="symbol" name="symbol">"#), "the adult's form keeps its list")
        // Seven minutes (5, then +1 twice) refused for want of an activity: it comes back chosen, as its own tile.
        let refused = try carla.get("/timer?start=1&symbol=&hours=0&minutes=7")
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"name="minutes" value="7" checked>"#))
        #expect(refused.text.contains(">7 min<"))
        #expect(!refused.text.contains(#"name="minutes" value="5" checked>"#))
    }

    @Test func davisSpanishTimerOffersEachPictureOnceInSpanish() async throws {
        let test = try await TestApp()
        let davi = try test.patientMode(of: "Davi Alves", openedBy: "beatriz")
        let form = try davi.get("/timer").text
        let labels = form.matches(of: /name="symbol" value="\d+" data-activity data-image="[^"]+" data-label="([^"]+)"/).map { String($0.1) }
        #expect(labels.contains("escuela") && !labels.contains("escola"), "\(labels)")
        #expect(labels.filter { $0 == "casa" }.count == 1)
        #expect(Set(labels).count == labels.count)
        // Davi's boards are all in Spanish, the page's language: no label needs a language of its own
        // (one in another language is marked: see the next test).
        #expect(!form.contains(#"<span class="timer-choice-label" lang="pt-BR">"#))
        #expect(!form.contains(#"<span class="timer-choice-label" lang="es">"#))
        #expect(labels.contains("pelota") && labels.contains("manzana"))
    }

    @Test func activitiesPreferThePagesLanguageForEachPicture() {
        func symbol(_ id: Int64, _ name: String, _ pictogram: String?, _ voice: String) -> Symbol {
            Symbol(id: id, clinicianId: 1, patientId: nil, categoryId: 1, name: name, spokenText: name, pictogram: pictogram,
                   imagePath: pictogram == nil ? "images/\(id).png" : nil, audioFile: nil, audioKind: "generated", voice: voice,
                   createdAt: .distantPast, updatedAt: .distantPast)
        }
        let symbols = [symbol(1, "escola", "1F3EB", "pt-BR"), symbol(2, "escuela", "1F3EB", "es"), symbol(3, "leite", "1F95B", "pt-BR"),
                       symbol(4, "foto", nil, "pt-BR"), symbol(5, "foto", nil, "es")]
        #expect(TimerActivities.choose(symbols, locale: .es).map(\.id) == [2, 4, 5, 3])
        #expect(TimerActivities.choose(symbols, locale: .ptBR).map(\.id) == [1, 4, 5, 3])
    }
}
