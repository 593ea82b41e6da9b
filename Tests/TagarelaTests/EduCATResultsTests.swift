import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// eduCAT's levels, per-item answers, believable results, the clinician's settings page and the
/// pack's language over HTTP, with the demo clinic.
@Suite struct EduCATResultsTests {
    func inPatientMode(_ test: TestApp, _ tutor: String = "bruno", _ patient: String = "Carla Costa") throws -> Browser {
        let browser = try test.browser(loggedInAs: tutor)
        _ = try browser.post("/patients/\(try test.id(of: patient))/patient-mode")
        return browser
    }

    func answers(key: String = "game-key-0001", area: String = "alphabet", level: Int = 1, _ json: String) -> [(String, String)] {
        [("key", key), ("area", area), ("mode", "normal"), ("level", "\(level)"), ("answers", json)]
    }

    /// Carla's answers (the demo stores some of Davi's for his accuracy goal).
    func answerCount(_ test: TestApp) throws -> Int {
        let carla = try test.id(of: "Carla Costa")
        return try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatAnswer WHERE patientId = ?", arguments: [carla])! }
    }
    func resultCount(_ test: TestApp) throws -> Int { try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatResult")! } }

    static let mixUps = #"[{"seq":1,"item":"b","tapped":"d","outcome":"miss","ms":1800},{"seq":2,"item":"d","tapped":"b","outcome":"miss","ms":2100},{"seq":3,"item":"a","tapped":"a","outcome":"hit","ms":900}]"#

    @Test func everyAnswerIsStoredOnceAndTheResultsPageSaysWhatItShows() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)
        let stored = try carla.post("/educat/answers", answers(Self.mixUps))
        #expect(stored.status == 200)
        #expect(stored.text == #"{"level":"2","levelKey":"capitals"}"#, "the alphabet starts at capitals a–z, as before levels")
        #expect(try carla.post("/educat/answers", answers(Self.mixUps)).status == 200, "a batch sent again (sendBeacon after fetch)")
        #expect(try answerCount(test) == 3)
        let row = try test.read { try Row.fetchOne($0, sql: "SELECT * FROM educatAnswer WHERE asked = 'b'")! }
        #expect(row["tapped"] as String == "d" && row["correct"] as Bool == false && row["milliseconds"] as Int == 1800 && row["level"] as Int == 1,
                "answers keep the level their page had")

        #expect(try carla.post("/educat/answers", answers(key: "game-key-0002", #"[{"seq":1,"item":"🦄","tapped":"a","outcome":"miss","ms":5}]"#)).status == 422)
        #expect(try carla.post("/educat/answers", answers(key: "game-key-0002", "[{]")).status == 400)
        #expect(try carla.post("/educat/answers", answers(key: "game-key-0002", level: 9, Self.mixUps)).status == 400)
        #expect(try carla.post("/educat/answers", answers(key: "game-key-0003", Self.mixUps), csrf: "forged").status == 403)
        #expect(try answerCount(test) == 3)

        let page = try test.browser(loggedInAs: "ana").get("/patients/\(try test.id(of: "Carla Costa"))/educat")
        #expect(page.status == 200)
        #expect(page.text.contains(#"Confunde (2 vezes): <strong lang="ca">b – d</strong>"#), "the page is Portuguese, the letters Catalan")
        #expect(page.text.contains(#"<td lang="ca">b</td><td lang="ca">d</td><td>✗ errado</td><td>1,8</td>"#))
        #expect(page.text.contains("Respostas certas por dia (%)"))
        #expect(page.text.contains(">50<") && page.text.contains(">100<") && !page.text.contains(">2,5<"), "the % axis reads 0, 50, 100")
        #expect(page.text.contains("2 · Letra de forma maiúscula"), "the level of each area")
    }

    /// Issue 46, 5: the server has the game's answers, and a result must count what they count.
    @Test func aForgedResultThatDisagreesWithTheGamesAnswersIsRefusedAndStoresNothing() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)
        #expect(try carla.post("/educat/answers", answers(key: "game-key-forged", Self.mixUps)).status == 200)
        func result(hits: Int, errors: Int) -> [(String, String)] {
            [("area", "alphabet"), ("mode", "normal"), ("hits", "\(hits)"), ("errors", "\(errors)"), ("duration", "200"),
             ("key", "game-key-forged"), ("level", "1")]
        }
        let before = try resultCount(test)
        let forged = try carla.post("/educat/results", result(hits: 40, errors: 0))
        #expect(forged.status == 422)
        #expect(forged.text.contains(#""reason":"answers""#))
        #expect(try carla.post("/educat/results", result(hits: 2, errors: 1)).status == 422, "hits and errors swapped")
        #expect(try resultCount(test) == before, "nothing stored")
        #expect(try carla.post("/educat/results", result(hits: 1, errors: 2)).status == 200, "the game as played")
        #expect(try carla.post("/educat/results", result(hits: 1, errors: 2)).status == 200, "sent again from the queue")
        #expect(try resultCount(test) == before + 1, "stored exactly once")
    }

    @Test func aResultNoGameCouldProduceIs422AndAReplayedOneCountsOnce() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)
        func challenge(hits: Int, duration: Int, key: String) -> [(String, String)] {
            [("area", "numbers"), ("mode", "challenge"), ("hits", "\(hits)"), ("errors", "3"), ("duration", "\(duration)"),
             ("lives", "3"), ("livesLeft", "0"), ("seconds", "9"), ("key", key), ("level", "1")]
        }
        let refused = try carla.postGame(challenge(hits: 500, duration: 20, key: "game-key-fast"))
        #expect(refused.status == 422)
        #expect(refused.text.contains("tooFast"))
        #expect(try carla.postGame(challenge(hits: 2, duration: 20, key: "game-key-lvl").map {
            $0.0 == "level" ? ("level", "7") : $0 }).status == 422)
        #expect(try resultCount(test) == 0)

        let first = try carla.postGame(challenge(hits: 6, duration: 60, key: "game-key-once"))
        #expect(first.text == #"{"newRecord":"true","record":"6"}"#)
        let again = try carla.postGame(challenge(hits: 6, duration: 60, key: "game-key-once"))
        #expect(again.status == 200 && again.text == #"{"newRecord":"false","record":"6"}"#)
        #expect(try resultCount(test) == 1)
        #expect(try carla.postGame(challenge(hits: 6, duration: 60, key: "bad key!")).status == 400)

        // Left half-way (lives remain): stored, never a record the child did not see.
        let half = [("area", "numbers"), ("mode", "challenge"), ("hits", "9"), ("errors", "1"), ("duration", "90"),
                    ("lives", "3"), ("livesLeft", "2"), ("seconds", "9"), ("key", "game-key-half"), ("level", "1")]
        #expect(try carla.postGame(half).text == #"{"newRecord":"false","record":"6"}"#)
        #expect(try resultCount(test) == 2)
    }

    @Test func theClinicianSetsLevelsAndTheChildPassesOneOnTheirOwn() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let settings = try ana.get("/patients/\(carlaId)/educat/settings")
        #expect(settings.status == 200)
        #expect(settings.text.contains(#"<select id="level-numbers" name="level-numbers""#))
        let carla = try inPatientMode(test)
        let first = try carla.get("/educat/numbers/game").text
        #expect(first.contains(#"data-level="2" data-level-key="digits-0-9""#) && first.contains(#"data-untimed="false""#),
                "0–9 until the clinician chooses, as before levels")
        #expect(first.components(separatedBy: "class=\"educat-item\"").count == 11)
        #expect(first.contains(#"data-item="3" data-clip="#) && first.contains(#"data-quantity="3"><span class="educat-upper">3</span>"#))

        let refused = try ana.post("/patients/\(carlaId)/educat/settings", [
            ("seconds", "9"), ("lives", "3"), ("language", ""), ("level-numbers", "2"), ("promotion", "streak"), ("streak", "1"),
            ("items", "99"), ("speed", "slow")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("entre 2 e 30") && refused.text.contains("entre 2 e 40") && refused.text.contains(#"value="99""#))
        let saved = try ana.post("/patients/\(carlaId)/educat/settings", [
            ("seconds", "9"), ("lives", "3"), ("language", ""), ("level-numbers", "1"), ("promotion", "streak"), ("streak", "2"),
            ("items", "6"), ("speed", "slow"), ("untimed", "1")])
        #expect(saved.status == 303)
        let second = try carla.get("/educat/numbers/game").text
        #expect(second.contains(#"data-level="1" data-level-key="digits-0-5" data-items="6" data-speed="0.5""#))
        #expect(second.contains(#"data-untimed="true""#))
        #expect(second.components(separatedBy: "class=\"educat-item\"").count == 7, "digits 0–5")

        let right = #"[{"seq":1,"item":"3","tapped":"3","outcome":"hit","ms":1000},{"seq":2,"item":"5","tapped":"5","outcome":"hit","ms":1000}]"#
        let promoted = try carla.post("/educat/answers", answers(area: "numbers", level: 1, right))
        #expect(promoted.text == #"{"level":"2","levelKey":"digits-0-9"}"#, "two right in a row")
        #expect(try carla.get("/educat/numbers/game").text.contains(#"data-level="2" data-level-key="digits-0-9""#))
        #expect(try ana.get("/patients/\(carlaId)/educat").text.contains("2 · Algarismos 0 a 9"))
        // The numbers lesson pairs each digit with as many dots.
        #expect(try carla.get("/educat/numbers/lesson").text.contains(#"<span class="educat-upper">3</span><span class="educat-lower">3</span><span class="educat-dots" aria-hidden="true">●●●</span>"#))
    }

    @Test func onlyTheLinkedSpeechClinicianReachesTheSettings() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "Elisa Martins"), carla = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        #expect(try ana.get("/patients/\(elisa)/educat/settings").status == 404, "another clinician's patient")
        #expect(try ana.post("/patients/\(elisa)/educat/settings", [("seconds", "9"), ("lives", "3")]).status == 404)
        #expect(try ana.post("/patients/\(elisa)/educat/items", [("area", "alphabet"), ("text", "ny"), ("language", "ca")]).status == 404)
        #expect(try test.browser(loggedInAs: "bruno").get("/patients/\(carla)/educat/settings").status == 403, "a tutor")
        #expect(try test.browser(loggedInAs: "nadia").get("/patients/\(elisa)/educat/settings").status == 403, "not speech therapy")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatSettings")! } == 0)
    }

    @Test func theClinicianAddsAWordWithItsPictureAndVoiceToTheChildsSet() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let ana = try test.browser(loggedInAs: "ana")
        let form = try ana.get("/patients/\(carlaId)/educat/settings").text
        #expect(form.contains(#"name="_once""#))
        let bad = try ana.post("/patients/\(carlaId)/educat/items", [("area", "conta-cops"), ("text", "gronxador"), ("syllables", "gron-xa"),
                                                                     ("picture", "casa"), ("language", "ca"), ("spoken", "")])
        #expect(bad.status == 422)
        #expect(bad.text.contains(#"value="gronxador""#) && bad.text.contains("ca-sa"))
        let added = try ana.post("/patients/\(carlaId)/educat/items", [("area", "conta-cops"), ("text", "Gronxador"), ("syllables", "gron-xa-dor"),
                                                                       ("picture", "casa"), ("language", "ca"), ("spoken", "")])
        #expect(added.status == 303)
        #expect(try ana.post("/patients/\(carlaId)/educat/items", [("area", "alphabet"), ("text", "ll"), ("spoken", "ela doble"),
                                                                   ("language", "ca")]).status == 303)
        let twice = try ana.post("/patients/\(carlaId)/educat/items", [("area", "alphabet"), ("text", "ll"), ("language", "ca")])
        #expect(twice.status == 422)
        let page = try ana.get("/patients/\(carlaId)/educat/settings").text
        #expect(page.contains(#"<strong lang="ca">gronxador</strong> <span lang="ca">GRON - XA - DOR</span>"#))

        _ = try ana.post("/patients/\(carlaId)/educat/settings", [("seconds", "9"), ("lives", "3"), ("level-conta-cops", "2"),
                                                                  ("level-alphabet", "3")])
        let carla = try inPatientMode(test)
        let game = try carla.get("/educat/conta-cops/game").text
        #expect(game.contains(#"data-word="gronxador""#) && game.contains(#"data-syllables="GRON - XA - DOR""#), "3 syllables: level 2")
        let clip = try test.read { try String.fetchOne($0, sql: "SELECT clip FROM educatItem WHERE text = 'gronxador'")! }
        #expect(try carla.get(PlanEndpoints.audio.path(clip)).status == 200, "the generated clip is served")
        #expect(try carla.get("/educat/alphabet/game").text.contains(#"data-item="ll""#))
        #expect(try carla.post("/educat/answers", answers(area: "conta-cops", level: 2,
                                                          #"[{"seq":1,"item":"gronxador","tapped":"3","outcome":"hit","ms":4000}]"#)).status == 200)

        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM educatItem WHERE text = 'll'")! }
        #expect(try ana.post("/patients/\(carlaId)/educat/items/\(id)/delete").status == 303)
        #expect(try ana.post("/patients/\(carlaId)/educat/items/\(id)/delete").status == 404, "a second tap")
        #expect(try !carla.get("/educat/alphabet/game").text.contains(#"data-item="ll""#))
    }

    /// Issue 46, 8: the teacher illustrates "gronxador" with her own picture (checked as a symbol's
    /// upload), which only the child and the adults linked to them can fetch; a word the game already
    /// has is added only once she confirms, her picture kept meanwhile.
    @Test func theTeacherGivesAWordHerOwnPictureSeenOnlyByTheChildsAdults() async throws {
        let test = try await TestApp()
        let carlaId = try test.id(of: "Carla Costa")
        let path = "/patients/\(carlaId)/educat/items"
        let ana = try test.browser(loggedInAs: "ana")
        _ = try ana.get("/patients/\(carlaId)/educat/settings")
        func word(_ text: String, _ syllables: String) -> [(String, String)] {
            [("area", "conta-cops"), ("text", text), ("syllables", syllables), ("picture", ""), ("language", "ca"), ("spoken", "")]
        }
        let svg = try ana.postMultipart(path, fields: word("gronxador", "gron-xa-dor"),
                                        files: [("image", "gronxador.svg", "image/svg+xml", Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8))])
        #expect(svg.status == 422 && svg.text.contains(#"value="gronxador""#) && svg.text.contains(#"id="item-image-error""#))
        #expect(try ana.postMultipart(path, fields: word("gronxador", "gron-xa-dor"),
                                      files: [("image", "gronxador.png", "image/png", PhotoTests.png)]).status == 303)
        let row = try test.read { try Row.fetchOne($0, sql: "SELECT id, picture, pictogram FROM educatItem WHERE text = 'gronxador'")! }
        let (id, picture): (Int64, String) = (row["id"], row["picture"])
        #expect(MediaStore.isEduCATPicture(picture) && (row["pictogram"] as String?) == nil)
        let url = "/patients/\(carlaId)/educat/items/\(id)/picture"
        let seen = try ana.get(url)
        #expect(seen.status == 200 && seen.header("Content-Type") == "image/png")
        #expect(try ana.get("/patients/\(carlaId)/educat/settings").text.contains(#"<img src="\#(url)""#))
        let carla = try inPatientMode(test)
        #expect(try carla.get(url).status == 200, "the child, in patient mode")
        #expect(try carla.get("/educat/conta-cops/game").text.contains(#"data-word="gronxador" data-picture="\#(url)""#))
        #expect(try test.browser(loggedInAs: "beatriz").get(url).status == 404, "an adult not linked to Carla")
        let davi = try inPatientMode(test, "beatriz", "Davi Alves")
        #expect(try davi.get(url).status == 404, "another child")
        #expect(try ana.get("/media/images/" + picture.dropFirst("educat/".count)).status == 404, "not among the symbols' pictures")

        // "casa" is the game's own word: a warning, what was typed and the picture kept; confirmed, hers.
        let warned = try ana.postMultipart(path, fields: word("casa", "ca-sa"), files: [("image", "casa.png", "image/png", PhotoTests.png)])
        #expect(warned.status == 422 && warned.text.contains("O jogo já tem “casa”") && warned.text.contains(#"value="casa""#))
        let kept = try #require(warned.text.firstMatch(of: /name="keptPicture" value="([^"]+)"/)?.1).description
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatItem WHERE text = 'casa'") } == 0)
        #expect(try ana.postMultipart(path, fields: word("casa", "ca-sa") + [("confirm", "1"), ("keptPicture", kept)], files: []).status == 303)
        let casa = try test.read { try Row.fetchOne($0, sql: "SELECT id, picture FROM educatItem WHERE text = 'casa'")! }
        #expect((casa["picture"] as String) == kept)
        let game = try carla.get("/educat/conta-cops/game").text
        #expect(game.components(separatedBy: #"data-word="casa""#).count == 2, "once: hers replaces the game's")
        #expect(game.contains(#"data-word="casa" data-picture="/patients/\#(carlaId)/educat/items/\#(casa["id"] as Int64)/picture""#))
        // Removed: the picture goes with it.
        #expect(try ana.post("/patients/\(carlaId)/educat/items/\(id)/delete").status == 303)
        #expect(try ana.get(url).status == 404)
    }

    @Test func thePackIsTheChildsLanguageThenATutorsThenTheInterfaces() async throws {
        let test = try await TestApp()
        #expect(try inPatientMode(test).get("/educat/numbers/game").text.contains(#"id="educat" lang="ca""#), "the demo sets Carla's language")
        let davi = try inPatientMode(test, "beatriz", "Davi Alves")
        #expect(try davi.get("/educat/numbers/game").text.contains(#"id="educat" lang="es""#))
        let daviId = try test.id(of: "Davi Alves")
        try test.write { try $0.execute(sql: "UPDATE user SET locale = NULL WHERE id = ?", arguments: [daviId]) }
        #expect(try davi.get("/educat/numbers/game").text.contains(#"id="educat" lang="es""#), "Beatriz, his tutor, speaks Spanish")
        try test.write { try $0.execute(sql: "UPDATE user SET locale = NULL WHERE username = 'beatriz'") }
        let page = try davi.get("/educat/numbers/game").text
        #expect(page.contains(#"id="educat" lang="pt-BR""#) && page.contains("Pergunta"), "the interface's language, never Catalan by default")
    }

    /// A believable forged result (issue 46): 40 hits in 200 s with no answers behind it, or a result that
    /// claims more than its game's stored answers, is refused with 422 and stores nothing; the true one is kept.
    @Test func aResultThatDisagreesWithItsAnswersIsRefused() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)
        func result(hits: Int, errors: Int, key: String) -> [(String, String)] {
            [("area", "vowels"), ("mode", "challenge"), ("hits", "\(hits)"), ("errors", "\(errors)"), ("duration", "200"),
             ("lives", "3"), ("livesLeft", "0"), ("seconds", "9"), ("key", key), ("level", "1")]
        }
        let forged = try carla.post("/educat/results", result(hits: 40, errors: 3, key: "forged-game-0001"))
        #expect(forged.status == 422 && forged.text.contains(#""reason":"answers""#))
        #expect(try carla.post("/educat/results", result(hits: 40, errors: 3, key: "").filter { $0.0 != "key" }).status == 400,
                "a result without its game's key")
        #expect(try resultCount(test) == 0)
        // A real game of 2 right and 3 timed out; a second POST under its key claiming 5 right is refused.
        #expect(try carla.postGame(result(hits: 2, errors: 3, key: "true-game-0001")).status == 200)
        #expect(try carla.post("/educat/results", result(hits: 5, errors: 0, key: "true-game-0002").map {
            $0.0 == "key" ? ("key", "true-game-0001") : $0 }).text.contains(#""reason":"answers""#) == false, "a replay of the stored key answers as before")
        #expect(try carla.post("/educat/answers", [("key", "lying-game-01"), ("area", "vowels"), ("mode", "challenge"), ("level", "1"),
                                                    ("answers", #"[{"seq":1,"item":"a","tapped":"a","outcome":"hit","ms":900}]"#)]).status == 200)
        let lie = try carla.post("/educat/results", result(hits: 5, errors: 3, key: "lying-game-01"))
        #expect(lie.status == 422)
        #expect(try resultCount(test) == 1)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT best FROM educatLevelRecord WHERE area = 'vowels' AND level = 1") } == 2)
    }

    /// Records per game and level (issue 46, 6): a record at one level is not the one to beat at another,
    /// the game page offers the record of the level played, and the adults' page shows each game and level.
    @Test func aRecordIsKeptPerGameAndLevel() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)
        let carlaId = try test.id(of: "Carla Costa")
        func challenge(hits: Int, level: Int, area: String = "numbers") -> [(String, String)] {
            [("area", area), ("mode", "challenge"), ("hits", "\(hits)"), ("errors", "3"), ("duration", "60"),
             ("lives", "3"), ("livesLeft", "0"), ("seconds", "9"), ("level", "\(level)")]
        }
        #expect(try carla.postGame(challenge(hits: 5, level: 1)).text == #"{"newRecord":"true","record":"5"}"#)
        #expect(try carla.postGame(challenge(hits: 2, level: 2)).text == #"{"newRecord":"true","record":"2"}"#,
                "level 2's first result is a record, whatever level 1's record")
        #expect(try carla.postGame(challenge(hits: 4, level: 1)).text == #"{"newRecord":"false","record":"5"}"#)
        #expect(try carla.postGame(challenge(hits: 3, level: 2)).text == #"{"newRecord":"true","record":"3"}"#)
        #expect(try carla.postGame(challenge(hits: 1, level: 1, area: "vowels")).text == #"{"newRecord":"true","record":"1"}"#)
        // Carla plays numbers at level 2 (the standard): her game and her Rècords show level 2's record.
        #expect(try carla.get("/educat/numbers/challenge").text.contains(#"data-record="3""#))
        #expect(try carla.get("/educat/records").text.contains(
            #"<span class="educat-record-label">Números</span> <strong class="educat-record-value">3</strong>"#))
        try test.write { try EduCATStore.setLevel(1, area: .numbers, patientId: carlaId, by: nil, at: Date(), $0) }
        #expect(try carla.get("/educat/numbers/challenge").text.contains(#"data-record="5""#))
        let page = try test.browser(loggedInAs: "ana").get("/patients/\(carlaId)/educat").text
        #expect(page.contains("<td>Números</td><td>1 · Algarismos 0 a 5</td><td>5</td>"))
        #expect(page.contains("<td>Números</td><td>2 · Algarismos 0 a 9</td><td>3</td>"))
        #expect(page.contains("<td>Números</td><td>3 · "))
        let levelCount: Int = EduCATArea.allCases.map { EduCATLevel.levels($0).count }.reduce(0, +)
        let recordRows: Int = page.components(separatedBy: "<tr").count - 1
        #expect(recordRows >= 1 + levelCount, "a row per game and level")
        let kept: Int? = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM educatLevelRecord WHERE patientId = ?", arguments: [carlaId]) }
        #expect(kept == 3)
    }

    /// Records kept per area before levels move to the level of the result that set them, else the area's level.
    @Test func theOldRecordsMoveToTheirLevel() throws {
        let queue = try DatabaseQueue()
        var migrator = Migrations.migrator
        try migrator.migrate(queue, upTo: "2026-11 bodycomp: evaluation versions")
        try queue.write { db in
            for id in [1, 2] as [Int64] {
                try db.execute(sql: "INSERT INTO user (id, username, displayName, role, createdAt, updatedAt) VALUES (?, ?, ?, 'patient', ?, ?)",
                               arguments: [id, "child\(id)", "Child \(id)", Date(), Date()])
                try db.execute(sql: "INSERT INTO patient (userId) VALUES (?)", arguments: [id])
            }
            try db.execute(sql: """
                INSERT INTO educatResult (patientId, area, mode, hits, errors, durationSeconds, language, playedAt, gameKey, level)
                VALUES (1, 'numbers', 'challenge', 4, 3, 60, 'ca', ?, 'old-game-0001', 3)
                """, arguments: [Date()])
            try db.execute(sql: "INSERT INTO educatRecord (patientId, area, best, updatedAt) VALUES (1, 'numbers', 4, ?), (1, 'vowels', 2, ?), (2, 'alphabet', 7, ?)",
                           arguments: [Date(), Date(), Date()])
            try db.execute(sql: "INSERT INTO educatLevel (patientId, area, level, updatedAt) VALUES (1, 'vowels', 3, ?)", arguments: [Date()])
        }
        migrator = Migrations.migrator
        try migrator.migrate(queue)
        let moved = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT patientId, area, level, best FROM educatLevelRecord ORDER BY patientId, area").map {
                "\($0["patientId"] as Int64) \($0["area"] as String) \($0["level"] as Int) \($0["best"] as Int)"
            }
        }
        #expect(moved == ["1 numbers 3 4", "1 vowels 3 2", "2 alphabet \(EduCATLevel.standard(.alphabet)) 7"])
        #expect(try queue.read { try $0.tableExists("educatRecord") } == false)
    }

    /// Patient mode's header over a game speaks the game's language, not the tutor's (issue 46, 7); the
    /// home and the boards keep the page's language, which is theirs.
    @Test func theHeaderOverAGameSpeaksTheGamesLanguage() async throws {
        let test = try await TestApp()
        let carla = try inPatientMode(test)  // Bruno's interface is Portuguese; Carla's games are Catalan
        let game = try carla.get("/educat/vowels/game").text
        #expect(game.contains(#"class="inline-form modeling-switch" lang="ca""#))
        #expect(game.contains(">Adult modelant</button>") && game.contains(">Sense ajuda</button>"))
        #expect(game.contains(#"lang="ca">Surt del mode pacient</a>"#))
        #expect(!game.contains("Adulto modelando") && !game.contains("Sair do modo paciente"))
        let home = try carla.get("/patient").text
        #expect(home.contains(">Adulto modelando</button>") && home.contains(#"lang="pt-BR">Sair do modo paciente</a>"#))
        // Spanish games under the same Portuguese tutor: Spanish words.
        var spanishPack = EduCATSettings.standard
        spanishPack.language = "es"
        let (carlaId, anaId) = (try test.id(of: "Carla Costa"), try test.id(of: "ana"))
        try test.write { try EduCATStore.save(spanishPack, patientId: carlaId, by: anaId, at: Date(), $0) }
        let spanish = try carla.get("/educat/numbers/challenge").text
        #expect(spanish.contains(">Salir del modo paciente</a>") && spanish.contains(">Adulto modelando</button>")
                && spanish.contains(">Sin ayuda</button>"))
    }

    @Test func theAgreementRule() {
        let result = EduCATResult(area: .vowels, mode: .normal, hits: 3, errors: 2, durationSeconds: 60, livesAtStart: nil, livesLeft: nil,
                                  secondsPerQuestion: nil)
        #expect(EduCATPlausibility.agrees(result, answered: 5, right: 3))
        #expect(!EduCATPlausibility.agrees(result, answered: 5, right: 4))
        #expect(!EduCATPlausibility.agrees(result, answered: 4, right: 3))
        #expect(!EduCATPlausibility.agrees(result, answered: 0, right: 0))
    }
}
