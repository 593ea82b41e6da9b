import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// A clinician's word can carry a recorded voice: uploaded with the word or later, converted by
/// ffmpeg on the media pool, played instead of the generated clip, replaced, given up, and refused
/// clearly when the file is not a sound. Only the patient's linked speech therapist may do it.
@Suite struct EduCATClipTests {
    static let word: [(String, String)] = [("area", "conta-cops"), ("text", "gronxador"),
                                           ("syllables", "gron-xa-dor"), ("picture", "casa"), ("language", "ca"), ("spoken", "")]

    static func wav(_ name: String = "veu.wav") -> (field: String, filename: String, contentType: String, content: [UInt8]) {
        (field: "audio", filename: name, contentType: "audio/wav", content: AACTests.toneWAV())
    }

    static let notASound = (field: "audio", filename: "veu.mp3", contentType: "audio/mpeg",
                            content: Array("this is a shopping list, not a sound\n".utf8))

    /// A clips folder of this test's own: the shared generated clips linked in (nothing is synthesised
    /// again), other tests' recordings left out, so the recordings in it are this test's alone.
    static func ownAudioFolder() throws -> String {
        let shared = TestApp.repositoryRoot + "/.build/test-data/audio"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tagarela-clips-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? [] where !name.hasPrefix("rec-") && !name.hasPrefix(".") {
            try? FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: shared + "/" + name)
        }
        return folder
    }

    func makeApp() async throws -> TestApp {
        let folder = try Self.ownAudioFolder()
        return try await TestApp(configure: { $0.audioDirectory = folder })
    }

    func recordings(_ test: TestApp) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: test.app.speech.directory)) ?? []).filter { $0.hasPrefix("rec-") })
    }

    func clip(_ test: TestApp) throws -> String? {
        try test.read { try String.fetchOne($0, sql: "SELECT clip FROM educatItem WHERE text = 'gronxador'") }
    }

    func inPatientMode(_ test: TestApp) throws -> Browser {
        let browser = try test.browser(loggedInAs: "bruno")
        _ = try browser.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode")
        return browser
    }

    @Test func aRecordedVoiceIsUploadedWithTheWordPlaysInTheGamesAndCanBeReplacedOrGivenUp() async throws {
        let test = try await makeApp()
        let carlaId = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let form = try ana.get("/patients/\(carlaId)/educat/settings").text
        #expect(form.contains(#"enctype="multipart/form-data""#) && form.contains(#"name="audio" type="file" accept="audio/*""#))
        #expect(form.contains(#"name="_once""#))

        let added = try ana.postMultipart("/patients/\(carlaId)/educat/items", fields: Self.word, files: [Self.wav()])
        #expect(added.status == 303)
        let recorded = try #require(try clip(test))
        #expect(recorded.hasPrefix("rec-") && recorded.hasSuffix(".mp3"))
        #expect(recordings(test) == [recorded])
        let settings = try ana.get("/patients/\(carlaId)/educat/settings").text
        #expect(settings.contains("veu gravada") || settings.contains("voz gravada"), "the row says the voice is recorded")
        #expect(settings.contains(#"src="/media/audio/\#(recorded)""#))

        // The child's conta-cops (every word at the standard level) plays the recording for that word.
        let carla = try inPatientMode(test)
        let game = try carla.get("/educat/conta-cops/game").text
        #expect(game.contains(#"data-word="gronxador""#) && game.contains(#"data-clip="/media/audio/\#(recorded)""#))
        let lesson = try carla.get("/educat/conta-cops/lesson").text
        #expect(lesson.contains(#"data-clip="/media/audio/\#(recorded)""#))
        let served = try carla.get("/media/audio/\(recorded)")
        #expect(served.status == 200 && served.header("Content-Type") == "audio/mpeg")

        // Replaced by a new recording: the old file goes.
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM educatItem WHERE text = 'gronxador'")! }
        let replaced = try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav("nova.webm")])
        #expect(replaced.status == 303)
        let second = try #require(try clip(test))
        #expect(second != recorded && second.hasPrefix("rec-"))
        #expect(recordings(test) == [second], "the replaced recording is deleted")
        #expect(try carla.get("/educat/conta-cops/game").text.contains(#"data-clip="/media/audio/\#(second)""#))

        // Back to the generated voice: the recording goes, the word says the pack's clip again.
        let generated = try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [("voice", "generated")], files: [])
        #expect(generated.status == 303)
        let voice = try #require(try clip(test))
        #expect(voice == SpeechAudio.fileName(text: "gronxador", voice: "ca"))
        #expect(recordings(test).isEmpty)
        #expect(try carla.get("/media/audio/\(voice)").status == 200)

        // A recording again, then the word removed: its file goes with it.
        #expect(try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav()]).status == 303)
        #expect(recordings(test).count == 1)
        #expect(try ana.post("/patients/\(carlaId)/educat/items/\(id)/delete").status == 303)
        #expect(recordings(test).isEmpty, "a removed word leaves no recording behind")
    }

    @Test func aFileThatIsNotASoundIsRefusedInTheClinicianLanguageKeepingWhatWasTyped() async throws {
        let test = try await makeApp()
        let carlaId = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        _ = try ana.get("/patients/\(carlaId)/educat/settings")
        let before = try test.snapshot()
        let refused = try ana.postMultipart("/patients/\(carlaId)/educat/items", fields: Self.word, files: [Self.notASound])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Não foi possível ler este som."), "Ana reads Portuguese")
        #expect(refused.text.contains(#"id="audio-error""#) && refused.text.contains(#"value="gronxador""#)
                && refused.text.contains(#"value="gron-xa-dor""#))
        #expect(try test.snapshot() == before)
        #expect(try clip(test) == nil && recordings(test).isEmpty)

        // A form refused for another reason says the sound must be chosen again (a file input cannot keep it).
        let typo = Self.word.map { $0.0 == "syllables" ? ("syllables", "gron-xa") : $0 }
        let again = try ana.postMultipart("/patients/\(carlaId)/educat/items", fields: typo, files: [Self.wav()])
        #expect(again.status == 422 && again.text.contains("escolha-o de novo"))
        #expect(recordings(test).isEmpty, "nothing converted for a form that is refused anyway")

        // Replacing with a bad file, or with nothing: refused on the word's own row, the voice unchanged.
        #expect(try ana.postMultipart("/patients/\(carlaId)/educat/items", fields: Self.word, files: []).status == 303)
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM educatItem WHERE text = 'gronxador'")! }
        let voice = try clip(test)
        let bad = try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.notASound])
        #expect(bad.status == 422 && bad.text.contains(#"id="clip-\#(id)-error""#) && bad.text.contains("Não foi possível ler este som."))
        let empty = try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [])
        #expect(empty.status == 422 && empty.text.contains("Escolha um arquivo de som"))
        #expect(try clip(test) == voice && recordings(test).isEmpty)
    }

    @Test func onlyThePatientsSpeechTherapistChangesAVoiceAndARefusalLeavesNoFile() async throws {
        let test = try await makeApp()
        let carlaId = try test.id(of: "Carla Costa"), elisaId = try test.id(of: "Elisa Martins")
        let ana = try test.browser(loggedInAs: "ana")
        _ = try ana.get("/patients/\(carlaId)/educat/settings")
        #expect(try ana.postMultipart("/patients/\(carlaId)/educat/items", fields: Self.word, files: []).status == 303)
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM educatItem WHERE text = 'gronxador'")! }
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.get("/tutor")
        let nadia = try test.browser(loggedInAs: "nadia")
        _ = try nadia.get("/clinician")
        func items() throws -> String { try test.read { try Row.fetchAll($0, sql: "SELECT * FROM educatItem").map(\.description).joined() } }
        let before = try test.snapshot(), itemsBefore = try items()

        #expect(try bruno.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav()]).status == 403,
                "a tutor")
        #expect(try bruno.postMultipart("/patients/\(carlaId)/educat/items", fields: Self.word, files: [Self.wav()]).status == 403)
        #expect(try nadia.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav()]).status == 403,
                "a clinician without speech therapy")
        // Another clinician's patient, or Carla's word addressed through her: records Ana may not know of.
        #expect(try ana.postMultipart("/patients/\(elisaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav()]).status == 404)
        #expect(try ana.postMultipart("/patients/\(elisaId)/educat/items", fields: Self.word, files: [Self.wav()]).status == 404)
        #expect(try ana.postMultipart("/patients/\(carlaId)/educat/items/999999/clip", fields: [], files: [Self.wav()]).status == 404)
        #expect(try test.snapshot() == before && items() == itemsBefore, "nothing changed")
        #expect(recordings(test).isEmpty, "the recordings made for refused requests were deleted")
        #expect(try ana.postMultipart("/patients/\(carlaId)/educat/items/\(id)/clip", fields: [], files: [Self.wav()]).status == 303,
                "the same request from the right person works")
        #expect(recordings(test).count == 1)
    }
}

/// A record is celebrated the moment it is beaten (game.js); a challenge left half-way keeps the record
/// only when the child was told of it (`announced=1`), never otherwise.
@Suite struct EduCATAnnouncedRecordTests {
    static func halfWay(hits: Int, key: String, announced: Bool) -> [(String, String)] {
        [("area", "vowels"), ("mode", "challenge"), ("hits", "\(hits)"), ("errors", "1"), ("duration", "60"),
         ("lives", "3"), ("livesLeft", "2"), ("seconds", "9"), ("key", key), ("level", "1")] + (announced ? [("announced", "1")] : [])
    }

    @Test func theRuleKeepsOnlyARecordTheChildWasShown() {
        func parsed(_ fields: [(String, String)]) -> EduCATResult? {
            guard case .success(let result) = EduCATResult.parse(Dictionary(fields, uniquingKeysWith: { a, _ in a })) else { return nil }
            return result
        }
        let told = parsed(Self.halfWay(hits: 4, key: "k", announced: true)), untold = parsed(Self.halfWay(hits: 4, key: "k", announced: false))
        #expect(told?.recordAnnounced == true && untold?.recordAnnounced == false)
        #expect(told.map(EduCATPlausibility.maySetRecord) == true)
        #expect(untold.map(EduCATPlausibility.maySetRecord) == false)
        let normal = parsed([("area", "vowels"), ("mode", "normal"), ("hits", "4"), ("errors", "0"), ("duration", "60"), ("announced", "1")])
        #expect(normal.map(EduCATPlausibility.maySetRecord) == false, "a normal game has no record")
    }

    @Test func aChallengeLeftHalfWayKeepsTheRecordItCelebratedAndNoOther() async throws {
        let test = try await TestApp()
        let carla = try test.browser(loggedInAs: "bruno")
        _ = try carla.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode")
        let untold = try carla.postGame(Self.halfWay(hits: 5, key: "game-key-untold", announced: false))
        #expect(untold.text == #"{"newRecord":"false","record":"0"}"#, "an old page that never celebrated: no record")
        let told = try carla.postGame(Self.halfWay(hits: 4, key: "game-key-told", announced: true))
        #expect(told.text == #"{"newRecord":"true","record":"4"}"#)
        #expect(try carla.postGame(Self.halfWay(hits: 4, key: "game-key-told", announced: true)).text
                == #"{"newRecord":"false","record":"4"}"#, "sent twice (fetch, then the beacon): once")
        #expect(try carla.postGame(Self.halfWay(hits: 3, key: "game-key-less", announced: true)).text
                == #"{"newRecord":"false","record":"4"}"#, "only strictly more beats it")
        #expect(try carla.postGame(Self.halfWay(hits: 500, key: "game-key-lie", announced: true)).status == 422,
                "the flag does not make an impossible game believable")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT best FROM educatLevelRecord WHERE area = 'vowels' AND level = 1") } == 4)
    }
}
