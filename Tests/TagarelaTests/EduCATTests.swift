import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// eduCAT over HTTP: the child's pages, posted results, records, the adults' page and settings.
@Suite struct EduCATTests {
    func carlaInPatientMode(_ test: TestApp) throws -> Browser {
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode")
        return bruno
    }

    func challenge(_ area: String = "numbers", hits: Int, errors: Int = 3, lives: Int = 3) -> [(String, String)] {
        [("area", area), ("mode", "challenge"), ("hits", "\(hits)"), ("errors", "\(errors)"), ("duration", "30"),
         ("lives", "\(lives)"), ("livesLeft", "\(lives - errors)"), ("seconds", "9")]
    }

    func count(_ test: TestApp) throws -> Int { try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatResult")! } }

    @Test func everyChildScreenRendersInCatalanWithTornarAndHelp() async throws {
        let test = try await TestApp()
        let carla = try carlaInPatientMode(test)
        let menu = try carla.get("/educat")
        #expect(menu.status == 200)
        for label in ["Números", "Lletres", "Conta-Cops", "Rècords", "Informació", "Tornar", "Ajuda"] {
            #expect(menu.text.contains(label), "menu shows \(label)")
        }
        #expect(try carla.get("/patient").text.contains(#"href="/educat""#), "the dashboard links the games")
        let letters = try carla.get("/educat/letters").text
        #expect(letters.contains("Vocals") && letters.contains("Abecedari") && letters.contains(#"href="/educat""#))
        for area in ["numbers", "vowels", "alphabet", "conta-cops"] {
            let screen = try carla.get("/educat/\(area)").text
            #expect(screen.contains("Lliçó") && screen.contains("Joc") && screen.contains("educat-help"))
            let game = try carla.get("/educat/\(area)/game")
            #expect(game.status == 200 && game.text.contains("Repte") && game.text.contains("Pregunta"))
            let challenge = try carla.get("/educat/\(area)/challenge").text
            #expect(challenge.contains("* * *") && challenge.contains(#"data-seconds="9""#))
            #expect(challenge.contains("NOU RECORD!!") && challenge.contains("GAME OVER!!") && challenge.contains("Fi de partida!!"))
            #expect(try carla.get("/educat/\(area)/lesson").status == 200)
        }
        let alphabet = try carla.get("/educat/alphabet/lesson").text
        #expect(alphabet.components(separatedBy: "class=\"educat-key\"").count == 27)
        #expect(alphabet.contains("Lletra lligada"))
        let cops = try carla.get("/educat/conta-cops/lesson").text
        #expect(cops.contains(#"data-word="casa""#) && cops.contains(#"data-syllables="CA - SA""#) && cops.contains(#"data-count="2""#))
        #expect(try carla.get("/educat/information").text.contains("eduCAT és una aplicació"))
        #expect(try carla.get("/educat/colours").status == 404)
        #expect(try carla.get("/educat/numbers/exam").status == 404)
        #expect(try test.browser(loggedInAs: "bruno").get("/educat").status == 403, "adults play in patient mode")
    }

    @Test func resultsAreStoredAndTheRecordIsKeptPerPatientAndArea() async throws {
        let test = try await TestApp()
        let carla = try carlaInPatientMode(test)
        let first = try carla.postGame(challenge(hits: 2))
        #expect(first.status == 200)
        #expect(first.text == #"{"newRecord":"true","record":"2"}"#)
        #expect(try carla.postGame(challenge(hits: 2)).text == #"{"newRecord":"false","record":"2"}"#, "a tie is no record")
        #expect(try carla.postGame(challenge(hits: 1)).text.contains(#""record":"2""#))
        #expect(try carla.postGame(challenge(hits: 3)).text == #"{"newRecord":"true","record":"3"}"#)
        // A normal game never sets a record; another area has its own.
        _ = try carla.postGame([("area", "numbers"), ("mode", "normal"), ("hits", "50"), ("errors", "1"), ("duration", "60")])
        _ = try carla.postGame(challenge("vowels", hits: 1))
        let records = try carla.get("/educat/records").text
        #expect(records.contains("<span class=\"educat-record-label\">Números</span> <strong class=\"educat-record-value\">3</strong>"))
        #expect(records.contains("<span class=\"educat-record-label\">Vocals</span> <strong class=\"educat-record-value\">1</strong>"))
        #expect(records.contains("<span class=\"educat-record-label\">Abecedari</span> <strong class=\"educat-record-value\">0</strong>") && records.contains("<span class=\"educat-record-label\">Conta-Cops</span> <strong class=\"educat-record-value\">0</strong>"))
        #expect(try count(test) == 6)
        let stored = try test.read { try Row.fetchOne($0, sql: "SELECT * FROM educatResult ORDER BY id LIMIT 1")! }
        #expect(stored["assistedBy"] as Int64? == (try test.id(of: "bruno")), "the adult who opened patient mode")
        #expect(stored["language"] as String == "ca")

        // Davi's records are his own.
        let beatriz = try test.browser(loggedInAs: "beatriz")
        _ = try beatriz.post("/patients/\(try test.id(of: "Davi Alves"))/patient-mode")
        #expect(try beatriz.get("/educat/records").text.contains("<span class=\"educat-record-label\">Números</span> <strong class=\"educat-record-value\">0</strong>"))
        #expect(try beatriz.get("/educat/numbers/challenge").text.contains(#"data-record="0""#))
        #expect(try carla.get("/educat/numbers/challenge").text.contains(#"data-record="3""#))
    }

    @Test func impossibleResultsAnswer400AndStoreNothing() async throws {
        let test = try await TestApp()
        let carla = try carlaInPatientMode(test)
        for fields in [challenge(hits: -1), challenge(hits: 2, errors: 2, lives: 3).map { $0 == ("livesLeft", "1") ? ("livesLeft", "0") : $0 },
                       challenge(hits: 0, errors: 0), challenge(hits: 2, lives: 12), [("area", "numbers")],
                       challenge("music", hits: 2)] {
            let response = try carla.postGame(fields)
            #expect(response.status == 400)
        }
        #expect(try count(test) == 0)
        #expect(try carla.postGame(challenge(hits: 2), csrf: "forged").status == 403)
        #expect(try count(test) == 0)
    }

    @Test func tutorsAndCliniciansSeeResultsAndOnlyTheClinicianChangesSettings() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let carla = try carlaInPatientMode(test)
        _ = try carla.postGame(challenge(hits: 4))
        _ = try carla.postGame(challenge("conta-cops", hits: 1, errors: 1))
        _ = try carla.post("/educat/answers", [("key", "game-key-0001"), ("area", "numbers"), ("mode", "challenge"), ("level", "1"),
                                              ("answers", #"[{"seq":1,"item":"4","tapped":"4","outcome":"hit","ms":1500}]"#)])

        let bruno = try test.browser(loggedInAs: "bruno")
        let page = try bruno.get("/patients/\(carlaId)/educat")
        #expect(page.status == 200)
        #expect(page.text.contains("<svg class=\"chart\""))
        #expect(page.text.contains("<td>4</td>"))
        #expect(!page.text.contains("name=\"seconds\""), "a tutor does not change the settings")
        #expect(try bruno.get("/patients/\(carlaId)").text.contains("/patients/\(carlaId)/educat"))
        #expect(try bruno.post("/patients/\(carlaId)/educat/settings", [("seconds", "20"), ("lives", "5"), ("language", "")]).status == 403)

        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/patients/\(carlaId)/educat/settings").text.contains("name=\"seconds\" type=\"number\" min=\"3\" max=\"60\" inputmode=\"numeric\" value=\"9\""))
        let refused = try ana.post("/patients/\(carlaId)/educat/settings", [("seconds", "61"), ("lives", "0"), ("language", "")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("value=\"61\"") && refused.text.contains("entre 3 e 60") && refused.text.contains("entre 1 e 9"))
        let saved = try ana.post("/patients/\(carlaId)/educat/settings", [("seconds", "20"), ("lives", "5"), ("language", "pt-BR")])
        #expect(saved.status == 303)
        let game = try carla.get("/educat/numbers/challenge").text
        #expect(game.contains(#"data-seconds="20""#) && game.contains(#"data-lives="5""#) && game.contains("* * * * *"))
        #expect(game.contains("NOVO RECORDE!!"), "the clinician chose the pt-BR pack")
        #expect(try carla.postGame(challenge(hits: 1, errors: 5, lives: 5)).status == 200)

        // Not linked: 404; not a clinician or tutor, or a clinician without speech therapy: 403.
        let davi = try test.id(of: "Davi Alves")
        #expect(try test.browser(loggedInAs: "beatriz").get("/patients/\(carlaId)/educat").status == 404)
        #expect(try test.browser(loggedInAs: "nadia").get("/patients/\(davi)/educat").status == 403)
        #expect(try test.browser(loggedInAs: "dani").get("/patients/\(carlaId)/educat").status == 403)
        #expect(try test.browser(loggedInAs: "nadia").post("/patients/\(davi)/educat/settings", [("seconds", "5"), ("lives", "2")]).status == 403)
    }

    @Test func theAudioStepMakesEveryClipOnceAndIsQuickTheSecondTime() async throws {
        let audio = TestApp.repositoryRoot + "/.build/test-data/audio"
        _ = try EduCATAudio.generate(resourcesDirectory: TestApp.repositoryRoot, audioDirectory: audio)
        let started = Date()
        let again = try EduCATAudio.generate(resourcesDirectory: TestApp.repositoryRoot, audioDirectory: audio)
        #expect(again.generated == 0)
        #expect(Date().timeIntervalSince(started) < 2)
        let content = try EduCATContent.shared(resourcesDirectory: TestApp.repositoryRoot)
        for language in EduCATContent.languages {
            let pack = content.pack(language)
            for text in pack.spokenTexts {
                #expect(FileManager.default.fileExists(atPath: audio + "/" + SpeechAudio.fileName(text: text, voice: pack.voice)))
            }
            #expect(pack.spokenTexts.count >= 10 + 26 + 16 + 12 + 1 + 2 * pack.words.count - 10)
        }
        #expect(FileManager.default.fileExists(atPath: audio + "/" + EduCATContent.tuneFile))
    }

    /// The authorization matrix's personas on eduCAT's pages: children's pages for patients only,
    /// the results of linked patients for their tutors and clinicians, settings for clinicians.
    @Test func everyRoleReachesOnlyItsEduCATPages() async throws {
        let world = try await AuthorizationTests.World()
        let child = ["elisa": 200, "carla-mode": 200]
        let pages: [(String, [String: Int])] = [
            ("/educat", child), ("/educat/letters", child), ("/educat/conta-cops/challenge", child), ("/educat/records", child),
            // nadia is a nutritionist: eduCAT is speech therapy's (403 before any record is looked at).
            ("/patients/{Carla Costa}/educat", ["ana": 200, "bruno": 200, "beatriz": 404]),
            ("/patients/{Davi Alves}/educat", ["ana": 200, "bruno": 404, "beatriz": 200]),
            ("/patients/{Elisa Martins}/educat", ["ana": 404, "bruno": 404, "beatriz": 404]),
        ]
        for (template, allowed) in pages {
            for persona in AuthorizationTests.personas {
                let expected = persona == "anonymous" ? 303 : allowed[persona] ?? 403
                #expect(try world.browsers[persona]!.get(world.path(template)).status == expected, "\(persona) GET \(template)")
            }
        }
        func stored() throws -> String {
            try world.test.read { db in
                try ["educatResult", "educatLevelRecord", "educatSettings"].map {
                    try Row.fetchAll(db, sql: "SELECT * FROM \($0)").map(\.description).joined(separator: "\n")
                }.joined(separator: "\n--\n")
            }
        }
        let result = challenge(hits: 1)
        let settings = [("seconds", "12"), ("lives", "4"), ("language", "")]
        for persona in AuthorizationTests.personas where !["elisa", "carla-mode"].contains(persona) {
            let before = try stored()
            #expect(try world.browsers[persona]!.postGame(result).status == 403, "\(persona) posts a result")
            #expect(try stored() == before)
        }
        for (persona, template, expected) in [("bruno", "/patients/{Carla Costa}/educat/settings", 403),
                                              ("carla-mode", "/patients/{Carla Costa}/educat/settings", 403),
                                              ("nadia", "/patients/{Carla Costa}/educat/settings", 403),
                                              ("ana", "/patients/{Elisa Martins}/educat/settings", 404),
                                              ("dani", "/patients/{Carla Costa}/educat/settings", 403),
                                              ("anonymous", "/patients/{Carla Costa}/educat/settings", 403)] {
            let before = try stored()
            #expect(try world.browsers[persona]!.post(world.path(template), settings).status == expected, "\(persona) POST \(template)")
            #expect(try stored() == before)
        }
        #expect(try world.browsers["elisa"]!.postGame(result).status == 200)
        #expect(try world.browsers["ana"]!.post(world.path("/patients/{Carla Costa}/educat/settings"), settings).status == 303)
    }
}
