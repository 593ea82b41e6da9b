import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The voices a clinician may choose per patient (issue 54, item 5; docs/voices.md).
@Suite struct SpeechVoiceTests {
    @Test func aVoiceSpeaksOnlyItsLanguageAndOnlyWhenInstalled() {
        let all = Set(SpeechVoice.allCases)
        #expect(SpeechVoice.engineVoice(for: .ca, chosen: .festivalCa, installed: all) == "festival:voice_upc_ca_ona_hts")
        #expect(SpeechVoice.engineVoice(for: .ptBR, chosen: .rhvoicePtBR, installed: all) == "rhvoice:Leticia-F123")
        #expect(SpeechVoice.engineVoice(for: .es, chosen: .picoEs, installed: all) == "pico:es-ES")
        #expect(SpeechVoice.engineVoice(for: .es, chosen: .festivalCa, installed: all) == "es", "a Spanish word keeps espeak-ng")
        #expect(SpeechVoice.engineVoice(for: .ca, chosen: .festivalCa, installed: [.espeak]) == "ca", "a voice gone falls back")
        #expect(SpeechVoice.engineVoice(for: .en, chosen: .espeak, installed: all) == "en")
        #expect(PatientVoice(chosen: .festivalCa, installed: [.espeak]).key == "espeak")
    }

    @Test func eachInstalledVoiceMakesAClipOfItsOwn() throws {
        // `make test` installs Festival's Catalan voice (scripts/install-voices --free): never only espeak-ng here.
        #expect(SpeechVoice.installed.contains(.festivalCa))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voices-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let speech = SpeechAudio(directory: folder)
        var names: Set<String> = []
        for voice in SpeechVoice.allCases where SpeechVoice.installed.contains(voice) {
            let language = voice.language ?? .ca
            let engine = SpeechVoice.engineVoice(for: language, chosen: voice, installed: SpeechVoice.installed)
            let name = try speech.clip(text: "bon dia", voice: engine)
            let seconds = try #require(SpeechAudio.duration(ofFileAt: folder + "/" + name), "\(voice)")
            #expect(seconds > 0.3 && seconds < 5, "\(voice): \(seconds) s")
            names.insert(name)
        }
        #expect(names.count == SpeechVoice.installed.count, "one clip per voice, cached apart")
    }
}

@Suite struct VoiceChoiceTests {
    let fields = [("cellSize", "small"), ("labelPosition", "below"), ("selectOn", "press"), ("holdMs", "0"),
                  ("scanning", "off"), ("scanSeconds", "1,5"), ("switches", "one"), ("dwellSeconds", "0")]

    func savedVoice(_ test: TestApp, _ patientId: Int64) throws -> String? {
        try test.read { try String.fetchOne($0, sql: "SELECT voice FROM accessSetting WHERE patientId = ?", arguments: [patientId]) }
    }

    @Test func theClinicianChoosesTheTutorKeepsItAndTheBoardSaysIt() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let ana = try test.browser(loggedInAs: "ana")
        let form = try ana.get("/patients/\(davi)/access")
        #expect(form.text.contains(#"name="voice" value="espeak" checked"#))
        #expect(form.text.contains(#"name="voice" value="festival-ca""#))

        let refused = try ana.post("/patients/\(davi)/access", fields + [("voice", "mbrola-br1")])
        #expect(refused.status == 422)
        #expect(try savedVoice(test, davi) == nil, "nothing saved")

        #expect(try ana.post("/patients/\(davi)/access", fields + [("voice", "pico-es")]).status == (SpeechVoice.installed.contains(.picoEs) ? 303 : 422))
        #expect(try ana.post("/patients/\(davi)/access", fields + [("voice", "festival-ca")]).status == 303)
        #expect(try savedVoice(test, davi) == "festival-ca")
        #expect(try ana.get("/patients/\(davi)/access").text.contains(#"name="voice" value="festival-ca" checked"#))

        // The tutor sees no voice and her save keeps the clinician's choice.
        let beatriz = try test.browser(loggedInAs: "beatriz")
        #expect(!(try beatriz.get("/patients/\(davi)/access").text.contains(#"name="voice""#)))
        #expect(try beatriz.post("/patients/\(davi)/access", fields + [("voice", "espeak")]).status == 303)
        #expect(try savedVoice(test, davi) == "festival-ca")
    }

    @Test func aVoiceNoLongerInstalledFallsBackAndThePageSaysSo() async throws {
        let test = try await TestApp { $0.voicesLeftOut = ["festival-ca"] }
        let davi = try test.id(of: "Davi Alves")
        try test.write { db in
            var settings = AccessSettings.standard
            settings.voice = .festivalCa
            try settings.save(patientId: davi, by: davi, at: Date(), db)
        }
        let ana = try test.browser(loggedInAs: "ana")
        let page = try ana.get("/patients/\(davi)/access")
        #expect(page.text.contains(#"id="voice-gone""#))
        #expect(page.text.contains("Ona, Festival"))
        #expect(!page.text.contains(#"value="festival-ca""#), "only installed voices are offered")
        // Saving the rest of the form keeps the choice, for when the voice is back.
        #expect(try ana.post("/patients/\(davi)/access", fields).status == 303)
        #expect(try savedVoice(test, davi) == "festival-ca")
    }
}

@Suite struct VoicedBoardTests {
    /// Davi's first board with two of its symbols made Catalan: one generated, one recorded by his clinician.
    func catalanWords(_ test: TestApp, _ davi: Int64) throws -> (plan: Int64, generated: Symbol, recorded: Symbol) {
        try test.write { db in
            let plan = try Int64.fetchOne(db, sql: """
                SELECT p.id FROM plan p WHERE p.patientId = ? AND p.type = 'board'
                  AND (SELECT count(*) FROM planCell c WHERE c.planId = p.id AND c.symbolId IS NOT NULL) >= 2 ORDER BY p.id
                """, arguments: [davi])!
            let ids = try Int64.fetchAll(db, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position LIMIT 2",
                                         arguments: [plan])
            try db.execute(sql: "UPDATE symbol SET voice = 'ca', spokenText = 'bon dia', audioKind = 'generated' WHERE id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE symbol SET voice = 'ca', audioKind = 'recorded', audioFile = 'rec-voices-test.mp3' WHERE id = ?",
                           arguments: [ids[1]])
            return (plan, try Symbol.fetchOne(db, key: ids[0])!, try Symbol.fetchOne(db, key: ids[1])!)
        }
    }

    @Test func theBoardAndTheOfflinePackSayTheChosenVoiceAndARecordingStaysFirst() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let (plan, generated, recorded) = try catalanWords(test, davi)
        let voiced = PlanEndpoints.audio.path(SpeechAudio.fileName(text: "bon dia", voice: "festival:voice_upc_ca_ona_hts"))
        let plain = PlanEndpoints.audio.path(SpeechAudio.fileName(text: "bon dia", voice: "ca"))

        let beatriz = try test.browser(loggedInAs: "beatriz")
        _ = try beatriz.post("/patients/\(davi)/patient-mode")
        let before = try beatriz.get("/play/\(plan)").text
        #expect(!before.contains(voiced), "espeak-ng until a voice is chosen")

        let ana = try test.browser(loggedInAs: "ana")
        _ = try ana.get("/patients/\(davi)/access")
        let fields = [("cellSize", "small"), ("labelPosition", "below"), ("selectOn", "press"), ("holdMs", "0"), ("scanning", "off"),
                      ("scanSeconds", "1,5"), ("switches", "one"), ("dwellSeconds", "0"), ("voice", "festival-ca")]
        #expect(try ana.post("/patients/\(davi)/access", fields).status == 303)

        let board = try beatriz.get("/play/\(plan)")
        #expect(board.status == 200)
        #expect(board.text.contains(#"data-symbol="\#(generated.id!)" data-label="\#(generated.name)""#))
        #expect(board.text.contains(#"data-audio="\#(voiced)""#), "the generated word in Festival's Catalan voice")
        #expect(!board.text.contains(plain))
        #expect(board.text.contains(#"data-audio="/media/audio/\#(recorded.audioFile!)""#), "a recording stays first")
        #expect(FileManager.default.fileExists(atPath: test.app.configuration.audioFolder + "/" + voiced.split(separator: "/").last!))
        #expect(try beatriz.get(voiced).header("Content-Type") == "audio/mpeg")

        let offline = try beatriz.get("/play/offline").text
        #expect(offline.contains(voiced), "kept for the tablet with no network")
    }
}
