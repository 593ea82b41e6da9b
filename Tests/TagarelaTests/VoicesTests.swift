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

/// The rest of patient mode in the chosen voice, as the board: the sentence builder (its words, the NO word, the
/// sentence being built and the whole clip kept on the sentence row), the timer's alarm and the games.
@Suite struct VoicedPatientModeTests {
    let festival = "festival:voice_upc_ca_ona_hts"

    func url(_ text: String, _ voice: String) -> String {
        PlanEndpoints.audio.path(SpeechAudio.fileName(text: SpeechAudio.trimmed(text), voice: voice))
    }

    func choose(_ voice: SpeechVoice, for patient: Int64, _ test: TestApp) throws {
        try test.write { db in
            var settings = try AccessSettings.load(patientId: patient, db)
            settings.voice = voice
            try settings.save(patientId: patient, by: patient, at: Date(), db)
        }
    }

    @Test func theSentenceBuilderItsWholeClipAndTheOfflinePackSayTheChosenVoice() async throws {
        #expect(SpeechVoice.installed.contains(.festivalCa))
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let plan = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [carla])! }
        // Three of its words made Catalan; the first word's language is the plan's.
        let words: [(id: Int64, spoken: String)] = try test.write { db in
            try ["eu", "quero", "brincar"].map { name in
                let row = try Row.fetchOne(db, sql: """
                    SELECT sentenceWord.id, symbol.id AS symbolId, symbol.spokenText FROM sentenceWord JOIN symbol ON symbol.id = sentenceWord.symbolId
                    WHERE sentenceWord.planId = ? AND symbol.name = ?
                    """, arguments: [plan, name])!
                try db.execute(sql: "UPDATE symbol SET voice = 'ca', audioKind = 'generated' WHERE id = ?", arguments: [row["symbolId"] as Int64])
                return (row["id"], row["spokenText"])
            }
        }
        let no = SentenceRules.negation(.ca)
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let before = try child.get("/play/\(plan)").text
        #expect(before.contains(#"data-negation-audio="\#(url(no, "ca"))""#), "espeak-ng until a voice is chosen")

        // Her clinician chooses Festival's Catalan voice: the builder (kept whole by the read cache) says it at once.
        let ana = try test.browser(loggedInAs: "ana")
        _ = try ana.get("/patients/\(carla)/access")
        let fields = [("cellSize", "small"), ("labelPosition", "below"), ("selectOn", "press"), ("holdMs", "0"), ("scanning", "off"),
                      ("scanSeconds", "1,5"), ("switches", "one"), ("dwellSeconds", "0"), ("voice", "festival-ca")]
        #expect(try ana.post("/patients/\(carla)/access", fields).status == 303)
        let page = try child.get("/play/\(plan)")
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-negation-audio="\#(url(no, festival))""#))
        for word in words {
            #expect(page.text.contains(#"data-audio="\#(url(word.spoken, festival))""#), "\(word.spoken) in the voice")
            #expect(!page.text.contains(url(word.spoken, "ca")))
        }
        #expect(try child.get(url(no, festival)).header("Content-Type") == "audio/mpeg")

        // The sentence being built: its ways of being said, made in the voice.
        let ids = words.map { String($0.id) }.joined(separator: ",")
        let grammar = try test.read { try SentenceGrammar.fetch(planId: plan, $0) }
        let variants = SentenceClips.Sentence.variants(words.map(\.id), grammar, locale: .ca,
                                                       voice: PatientVoice(chosen: .festivalCa, installed: SpeechVoice.installed))
        #expect(!variants.isEmpty && variants.allSatisfy { $0.voice == festival })
        let built = try child.get("/play/\(plan)/sentence-clips?words=\(ids)")
        #expect(built.status == 200)
        for variant in variants { #expect(built.text.contains(url(variant.text, festival)), "\(variant.text)") }

        // Said: the whole clip in the voice, kept on the sentence row and in the offline pack.
        let said = try child.post("/taps", [("key", "voices-sentence-01"), ("plan", "\(plan)"), ("words", ids), ("negated", "0"), ("question", "0")])
        #expect(said.status == 200)
        let row = try #require(try test.read { try Row.fetchOne($0, sql: "SELECT text, clip FROM sentence WHERE key = 'voices-sentence-01'") })
        let clip: String = try #require(row["clip"])
        #expect(clip == SpeechAudio.fileName(text: SpeechAudio.spoken(row["text"], question: false), voice: festival))
        #expect(said.text.contains(PlanEndpoints.audio.path(clip)))
        let offline = try child.get("/play/offline").text
        #expect(offline.contains(PlanEndpoints.audio.path(clip)))
        #expect(offline.contains(url(no, festival)))
        #expect(offline.contains(url(words[0].spoken, festival)))
    }

    @Test func theTimersAlarmSaysTheChosenVoice() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        try choose(.festivalCa, for: carla, test)
        // Her tutor's tablet speaks Portuguese: a Catalan voice leaves its alarm to espeak-ng.
        let portuguese = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let symbol = try #require(try portuguese.get("/timer").text.firstMatch(of: /name="symbol" value="(\d+)"/)?.1)
        let alarmPt = test.app.catalogues.translator(for: .ptBR)["timer_alarm_spoken"]
        let runPt = try portuguese.get(try #require(try portuguese.get("/timer?start=1&symbol=\(symbol)&hours=0&minutes=5").header("Location")))
        #expect(runPt.text.contains(#"class="timer-alarm" src="\#(url(alarmPt, "pt-br"))""#))

        // In Catalan, the alarm is the voice's.
        try test.write { try $0.execute(sql: "UPDATE user SET locale = 'ca' WHERE username = 'bruno'") }
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let alarm = test.app.catalogues.translator(for: .ca)["timer_alarm_spoken"]
        let started = try child.get("/timer?start=1&symbol=\(symbol)&hours=0&minutes=5")
        let run = try child.get(try #require(started.header("Location")))
        #expect(run.status == 200)
        #expect(run.text.contains(#"class="timer-alarm" src="\#(url(alarm, festival))""#), "made in the voice for the run")
        #expect(try child.get("/timer").text.contains(url(alarm, festival)), "the form carries it for a run drawn offline")
        #expect(try child.get("/play/offline").text.contains(url(alarm, festival)))
    }

    @Test func aGameSaysTheChosenVoiceOnceItsWholePackIsMadeInIt() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        try choose(.festivalCa, for: carla, test)
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let pack = try EduCATContent.shared(resourcesDirectory: test.app.configuration.resourcesDirectory).pack("ca")
        let folder = test.app.configuration.audioFolder
        let game = EduCATEndpoints.activity.path(EduCATArea.numbers.rawValue, "game")
        let file = { (text: String, voice: String) in folder + "/" + SpeechAudio.fileName(text: SpeechAudio.trimmed(text), voice: voice) }

        // A pack is hundreds of clips (Festival takes seconds each): stand-ins for all but one, which is made for real.
        let left = pack.gameOverSpeech
        try? FileManager.default.removeItem(atPath: file(left, festival))
        var standIns: [String] = []
        defer { for path in standIns { try? FileManager.default.removeItem(atPath: path) } }
        for text in Set(pack.textsSaid.map(SpeechAudio.trimmed)) where text != SpeechAudio.trimmed(left) {
            let path = file(text, festival)
            if FileManager.default.fileExists(atPath: path) { continue }
            #expect(FileManager.default.createFile(atPath: path, contents: FileManager.default.contents(atPath: file(text, "ca")) ?? Data([0])))
            standIns.append(path)
        }

        let first = try child.get(game)
        #expect(first.status == 200)
        #expect(first.text.contains(url(left, "ca")), "espeak-ng's clips while one of the voice's is missing: never two voices in a game")
        #expect(!first.text.contains(url(pack.congratulations[0], festival)))
        let deadline = Date().addingTimeInterval(90)
        while !FileManager.default.fileExists(atPath: file(left, festival)), Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        #expect(FileManager.default.fileExists(atPath: file(left, festival)), "made in the background")

        let voiced = try child.get(game).text
        #expect(voiced.contains(url(left, festival)))
        #expect(voiced.contains(url(pack.congratulations[0], festival)))
        #expect(voiced.contains(url(pack.numbers[7].spoken, festival)))
        #expect(!voiced.contains(url(pack.congratulations[0], "ca")))
    }
}
