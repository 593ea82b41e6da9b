import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct AccessRulesTests {
    let standardForm = ["cellSize": "small", "labelPosition": "below", "selectOn": "press", "holdMs": "0",
                        "scanning": "off", "scanSeconds": "1,5", "switches": "one", "dwellSeconds": "0",
                        "theme": "auto", "textSize": "standard", "voice": "espeak"]

    func read(_ changes: [String: String]) -> Result<AccessSettings, AccessRules.Problems> {
        AccessRules.read(standardForm.merging(changes) { $1 }, voices: SpeechVoice.installed)
    }

    @Test func theStandardFormGivesTheStandardSettings() {
        #expect(read([:]) == .success(.standard))
        let format = LocalizedFormat(locale: .ptBR, timeZone: .gmt)
        #expect(AccessRules.formValues(.standard, format) == standardForm)
        #expect(AccessRules.formValues(.standard, LocalizedFormat(locale: .en, timeZone: .gmt))["scanSeconds"] == "1.5")
    }

    @Test func everyChoiceIsRead() {
        let settings = read(["cellSize": "xlarge", "labelPosition": "hidden", "selectOn": "release", "holdMs": " 300 ",
                             "scanning": "row-column", "scanSeconds": "2.25", "switches": "two", "dwellSeconds": "1,2"])
        var expected = AccessSettings.standard
        expected.cellSize = .xlarge
        expected.labelPosition = .hidden
        expected.selectOn = .release
        expected.holdMs = 300
        expected.scanning = .rowColumn
        expected.scanMs = 2250
        expected.switches = .two
        expected.dwellMs = 1200
        #expect(settings == .success(expected))
        #expect(AccessSettings.CellSize.allCases.allSatisfy { $0.minimumPixels >= 64 }, "patient targets never below 64 px")
    }

    @Test func emptyTimesMeanOffOrTheStandardSpeed() {
        guard case .success(let settings) = read(["holdMs": "", "scanSeconds": " ", "dwellSeconds": ""]) else {
            Issue.record("empty times are accepted"); return
        }
        #expect(settings.holdMs == 0)
        #expect(settings.scanMs == AccessSettings.standard.scanMs)
        #expect(settings.dwellMs == 0)
    }

    @Test func timesOutsideTheirBoundsAreRefusedFieldByField() {
        #expect(read(["holdMs": "3001"]) == .failure(["holdMs": .hold]))
        #expect(read(["holdMs": "-1"]) == .failure(["holdMs": .hold]))
        #expect(read(["holdMs": "2,5"]) == .failure(["holdMs": .hold]))
        #expect(read(["scanSeconds": "0,4"]) == .failure(["scanSeconds": .scanSpeed]))
        #expect(read(["scanSeconds": "10,1"]) == .failure(["scanSeconds": .scanSpeed]))
        #expect(read(["scanSeconds": "rápido"]) == .failure(["scanSeconds": .scanSpeed]))
        #expect(read(["scanSeconds": "0,5"]).isSuccess && read(["scanSeconds": "10"]).isSuccess)
        #expect(read(["dwellSeconds": "0,3"]) == .failure(["dwellSeconds": .dwell]))
        #expect(read(["dwellSeconds": "6"]) == .failure(["dwellSeconds": .dwell]))
        #expect(read(["dwellSeconds": "0,5"]).isSuccess && read(["dwellSeconds": "5"]).isSuccess)
    }

    @Test func unknownChoicesAreRefused() {
        let problems = read(["cellSize": "huge", "labelPosition": "", "selectOn": "tap", "scanning": "rowColumn", "switches": "3"])
        #expect(problems == .failure(["cellSize": .choose, "labelPosition": .choose, "selectOn": .choose,
                                      "scanning": .choose, "switches": .choose]))
    }

    @Test func thePageAttributesCarryEverySetting() {
        var settings = AccessSettings.standard
        settings.scanning = .linear
        settings.dwellMs = 800
        settings.labelPosition = .above
        let view = AccessView(settings)
        #expect(view.attributes == #"data-access-select="press" data-access-hold="0" data-access-scan="linear" data-access-scan-ms="1500" data-access-switches="one" data-access-dwell="800""#)
        #expect(view.classes == "access-cells-small access-labels-above")
    }
}

private extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}

@Suite struct AccessPageTests {
    let fields = [("cellSize", "large"), ("labelPosition", "hidden"), ("selectOn", "release"), ("holdMs", "250"),
                  ("scanning", "row-column"), ("scanSeconds", "2,5"), ("switches", "two"), ("dwellSeconds", "0")]

    func saved(_ test: TestApp, _ patientId: Int64) throws -> Row? {
        try test.read { try Row.fetchOne($0, sql: "SELECT * FROM accessSetting WHERE patientId = ?", arguments: [patientId]) }
    }

    @Test func theLinkedClinicianSavesAndThePatientsBoardCarriesTheSettings() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/patients/\(carla)").text.contains(#"href="/patients/\#(carla)/access""#))
        let form = try ana.get("/patients/\(carla)/access")
        #expect(form.status == 200)
        #expect(form.text.contains(#"value="small" checked"#))
        #expect(form.text.contains(#"name="scanSeconds" inputmode="decimal" autocomplete="off" value="1,5""#))

        let response = try ana.post("/patients/\(carla)/access", fields)
        #expect(response.status == 303)
        #expect(response.header("Location") == "/patients/\(carla)/access")
        let row = try #require(try saved(test, carla))
        #expect(row["scanning"] as String == "row-column")
        #expect(row["scanMs"] as Int == 2500)
        #expect(row["holdMs"] as Int == 250)
        #expect(row["updatedBy"] as Int64? == (try test.id(of: "ana")))
        let reread = try ana.get("/patients/\(carla)/access")
        #expect(reread.text.contains("Formas de acesso salvas."))
        #expect(reread.text.contains(#"value="2,5""#))
        #expect(reread.text.contains(#"value="hidden" checked"#))

        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(carla)/patient-mode")
        let plan = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? ORDER BY id", arguments: [carla])! }
        let player = try bruno.get("/play/\(plan)")
        #expect(player.status == 200)
        #expect(player.text.contains(#"access-cells-large access-labels-hidden" id="player" data-access-select="release" data-access-hold="250" data-access-scan="row-column" data-access-scan-ms="2500" data-access-switches="two" data-access-dwell="0""#))
    }

    @Test func badInputIsRefusedWithWhatWasTyped() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.get("/patients/\(carla)/access")
        let bad = fields.map { $0.0 == "scanSeconds" ? ("scanSeconds", "0,2") : $0.0 == "holdMs" ? ("holdMs", "muito") : $0 }
        let response = try bruno.post("/patients/\(carla)/access", bad)
        #expect(response.status == 422)
        #expect(response.text.contains("Informe de 0,5 a 10 segundos."))
        #expect(response.text.contains("Informe um número inteiro de 0 a 3000."))
        #expect(response.text.contains(#"value="0,2""#))
        #expect(response.text.contains(#"value="muito""#))
        #expect(response.text.contains(#"value="large" checked"#), "the choices made are kept")
        #expect(try saved(test, carla) == nil)

        let choice = try bruno.post("/patients/\(carla)/access", [("cellSize", "gigante")] + fields.dropFirst())
        #expect(choice.status == 422)
        #expect(choice.text.contains("Escolha uma das opções."))
        #expect(try bruno.post("/patients/\(carla)/access", fields).status == 303, "a linked tutor may save")
    }

    @Test func onlyLinkedClinicianAndTutorsReachTheSettings() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        // nadia is a clinician of Carla and Elisa, not Davi's; bruno is Carla's tutor, not Davi's.
        for (person, status) in [("nadia", 403), ("bruno", 404), ("dani", 403), ("admin", 403)] {  // nadia: no speech
            let browser = try test.browser(loggedInAs: person)
            _ = try browser.get("/account")
            #expect(try browser.get("/patients/\(davi)/access").status == status, "\(person) reads")
            #expect(try browser.post("/patients/\(davi)/access", fields).status == status, "\(person) writes")
        }
        let elisa = try test.browser(loggedInAs: "elisa")
        #expect(try elisa.get("/patients/\(try test.id(of: "elisa"))/access").status == 403, "a patient does not set their own")
        #expect(try test.browser().post("/patients/\(davi)/access", fields).status == 403)
        // Without the token nothing is written either.
        #expect(try test.browser(loggedInAs: "ana").post("/patients/\(davi)/access", fields, csrf: "wrong").status == 403)
        #expect(try test.read { try Row.fetchAll($0, sql: "SELECT * FROM accessSetting") }.isEmpty)
        let beatriz = try test.browser(loggedInAs: "beatriz")
        #expect(try beatriz.get("/patients/\(davi)/access").text.contains("Formas de acceso"), "Davi's tutor, in her language")
        #expect(try beatriz.post("/patients/\(davi)/access", fields).status == 303)
    }
}
