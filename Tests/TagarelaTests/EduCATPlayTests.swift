import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The child's side of eduCAT beyond the rules: every pack ends a game in its own language and says it
/// aloud, praise fits a girl as well as a boy, the celebration is made, and a game or lesson carries
/// the patient's access method (switch scanning) as the boards do.
@Suite struct EduCATPlayTests {
    @Test func everyPackEndsAGameInItsOwnLanguageAndSaysItAloud() throws {
        let content = try EduCATContent.shared(resourcesDirectory: TestApp.repositoryRoot)
        var titles = Set<String>()
        for language in EduCATContent.languages {
            let pack = content.pack(language)
            // The seed's words in Catalan (its English title too, seed 002 mostrarMsg); the other packs translate them.
            #expect((pack.label("gameOverTitle") == "GAME OVER!!") == (language == "ca"), "\(language) ends in its own language")
            titles.insert(pack.label("gameOverTitle"))
            #expect(pack.spokenTexts.contains(pack.gameOverSpeech) && pack.spokenTexts.contains(pack.newRecordSpeech))
            #expect(pack.gameOverSpeech.contains(pack.label("gameOverMessage").lowercased()))
            #expect(pack.newRecordSpeech == pack.newRecordSpeech.lowercased(), "the voice reads words, not spelled capitals")
            // Praise a girl can hear too: no "un crac", "campeón", "listo"…
            let masculine = ["crac", "campió", "campeón", "campeão", "listo", "esperto", "espert"]
            #expect(pack.congratulations.allSatisfy { praise in !masculine.contains { praise.lowercased().contains($0) } },
                    "\(language): \(pack.congratulations)")
        }
        #expect(titles.count == 3)
    }

    @Test func theAudioStepMakesTheCelebrationAndTheEndTexts() throws {
        let audio = TestApp.repositoryRoot + "/.build/test-data/audio"
        _ = try EduCATAudio.generate(resourcesDirectory: TestApp.repositoryRoot, audioDirectory: audio)
        #expect(FileManager.default.fileExists(atPath: audio + "/" + EduCATContent.celebrationFile))
        let pack = try EduCATContent.shared(resourcesDirectory: TestApp.repositoryRoot).pack("es")
        #expect(FileManager.default.fileExists(atPath: audio + "/" + SpeechAudio.fileName(text: pack.gameOverSpeech, voice: pack.voice)))
    }

    @Test func aGameAndALessonCarryThePatientsScanningAndTheEndClips() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(carla)/patient-mode")
        let before = try bruno.get("/educat/alphabet/challenge").text
        #expect(before.contains(#"data-access-scan="off""#))
        var settings = AccessSettings.standard
        settings.scanning = .rowColumn
        settings.switches = .two
        try test.write { try settings.save(patientId: carla, by: carla, at: Date(), $0) }
        let pack = try EduCATContent.shared(resourcesDirectory: TestApp.repositoryRoot).pack("ca")
        for page in ["/educat/alphabet/challenge", "/educat/numbers/game", "/educat/conta-cops/lesson"] {
            let text = try bruno.get(page).text
            #expect(text.contains(#"data-access-scan="row-column""#) && text.contains(#"data-access-switches="two""#), "\(page)")
        }
        let game = try bruno.get("/educat/alphabet/challenge").text
        #expect(game.contains(EduCATContent.celebrationURL))
        #expect(game.contains(pack.clipURL(pack.gameOverSpeech)) && game.contains(pack.clipURL(pack.newRecordSpeech)))
    }
}
