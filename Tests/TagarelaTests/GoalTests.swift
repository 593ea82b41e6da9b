import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Goals over HTTP: who may see and change them (clinicians by specialty, linked tutors, the patient),
/// tutors' notes and clinicians' private ones, bad input, a double tap, a second tab.
@Suite struct GoalTests {
    /// 2026-11-18 in the test clinic.
    let today = "2026-11-18"

    func onceKey(_ page: String) throws -> String {
        try #require(page.firstMatch(of: /name="_once" value="([^"]+)"/).map { String($0.1) })
    }

    func goalCount(_ test: TestApp, titled title: String) throws -> Int {
        try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM goal WHERE title = ?", arguments: [title]) ?? 0 }
    }

    func goal(_ test: TestApp, titled title: String) throws -> Goal {
        try #require(try test.read { try Goal.filter(Column("title") == title).fetchOne($0) })
    }

    /// A demo goal of `patient` with a given kind.
    func demoGoal(_ test: TestApp, of patient: String, kind: GoalKind) throws -> Goal {
        let id = try test.id(of: patient)
        return try #require(try test.read {
            try Goal.filter(Column("patientId") == id && Column("kind") == kind.rawValue && Column("closedAt") == nil).fetchOne($0)
        })
    }

    func sentenceGoal(_ title: String, once: String? = nil) -> [(String, String)] {
        (once.map { [("_once", $0)] } ?? []) + [("kind", "sentences"), ("title", title), ("minWords", "3"), ("target", "4"),
                                                ("startsOn", "2026-11-10"), ("endsOn", "2026-12-10"), ("reviewOn", "2026-11-30")]
    }

    @Test func aSpeechTherapistSetsAGoalThatTheTutorAndThePatientSee() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let kinds = try ana.get("/patients/\(carla)/goals/new")
        #expect(kinds.status == 200)
        #expect(kinds.text.contains("kind=sentences") && kinds.text.contains("kind=gameHits"))
        #expect(!kinds.text.contains("kind=adherence") && !kinds.text.contains("kind=bodyMeasure"), "nutrition is not speech therapy's")
        let form = try ana.get("/patients/\(carla)/goals/new?kind=sentences")
        #expect(form.status == 200)
        let created = try ana.post("/patients/\(carla)/goals", sentenceGoal("Frases de três palavras", once: try onceKey(form.text)))
        #expect(created.status == 303)
        let saved = try goal(test, titled: "Frases de três palavras")
        let anaId = try test.id(of: "ana")
        #expect(saved.minWords == 3 && saved.target == 4 && saved.reviewOn == "2026-11-30" && saved.createdBy == anaId)
        #expect(created.header("Location") == "/patients/\(carla)/goals/\(saved.id!)")
        let page = try ana.get("/patients/\(carla)/goals/\(saved.id!)").text
        #expect(page.contains("Frases de três palavras") && page.contains("/goals/\(saved.id!)/edit"))

        let bruno = try test.browser(loggedInAs: "bruno")
        let list = try bruno.get("/patients/\(carla)/goals")
        #expect(list.status == 200 && list.text.contains("Frases de três palavras"))
        let tutorPage = try bruno.get("/patients/\(carla)/goals/\(saved.id!)").text
        #expect(!tutorPage.contains("/edit") && !tutorPage.contains("/close"), "tutors follow goals, they do not change them")
        #expect(try bruno.get("/patients/\(carla)").text.contains("/patients/\(carla)/goals"), "the patient page links the goals")

        let tablet = try test.browser(loggedInAs: "bruno")
        #expect(try tablet.post("/patients/\(carla)/patient-mode").status == 303)
        let home = try tablet.get("/patient").text
        #expect(home.contains("href=\"/my-goals\""))
        let mine = try tablet.get("/my-goals")
        #expect(mine.status == 200 && mine.text.contains("Frases de três palavras"))
        #expect(mine.text.contains("Agora:") && mine.text.contains("Até "), "plain words: now, goal, until")
        #expect(!mine.text.contains("/edit"))
    }

    @Test func badInputGetsNamedErrorsAndKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let once = try onceKey(try ana.get("/patients/\(carla)/goals/new?kind=symbolTaps").text)
        let refused = try ana.post("/patients/\(carla)/goals", [
            ("_once", once), ("kind", "symbolTaps"), ("title", "  "), ("symbolId", "999999"), ("target", "dez"),
            ("startsOn", "2026-11-20"), ("endsOn", "2026-11-10"), ("reviewOn", "31/02/2026"),
        ])
        #expect(refused.status == 422)
        let page = refused.text
        #expect(page.contains("Meta: preencha este campo."))
        #expect(page.contains("Símbolo: escolha um item da lista."), "a symbol not on Carla's boards is refused")
        #expect(page.contains("Alvo: informe um número"))
        #expect(page.contains("Último dia: deve ser igual ou posterior ao primeiro dia."))
        #expect(page.contains("Revisar em: não é uma data válida"))
        #expect(page.contains("value=\"dez\""), "what was typed is kept")
        #expect(try test.read { try Goal.filter(Column("patientId") == carla && Column("kind") == "symbolTaps"
                                                && Column("title") == "  ").fetchCount($0) } == 0)
        // An unknown kind is a bad request; nothing is stored.
        #expect(try ana.post("/patients/\(carla)/goals", [("kind", "telepathy"), ("title", "x")]).status == 400)
    }

    @Test func aDoubleTappedCreateMakesOneGoal() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let once = try onceKey(try ana.get("/patients/\(carla)/goals/new?kind=sentences").text)
        let (client, fields, cookies) = (ana.client, [("_csrf", ana.csrf)] + sentenceGoal("Uma só vez", once: once), ana.cookieHeader)
        async let first = client.postForm("/patients/\(carla)/goals", fields, headers: cookies)
        async let second = client.postForm("/patients/\(carla)/goals", fields, headers: cookies)
        let answers = try await [first, second]
        let again = try ana.post("/patients/\(carla)/goals", sentenceGoal("Uma só vez", once: once))
        #expect(answers.map(\.status) == [303, 303] && again.status == 303)
        #expect(try goalCount(test, titled: "Uma só vez") == 1)
    }

    @Test func anEditOfAGoalClosedOrChangedInAnotherTabSaysSoAndKeepsTheTyping() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        #expect(try ana.post("/patients/\(carla)/goals", sentenceGoal("Duas abas")).status == 303)
        let saved = try goal(test, titled: "Duas abas")
        let editPage = try ana.get("/patients/\(carla)/goals/\(saved.id!)/edit").text
        #expect(editPage.contains("name=\"version\" value=\"1\""))
        var edit = sentenceGoal("Duas abas, editada")
        edit.append(("version", "1"))

        // Tab 2 closes the goal; tab 1 saves its edit.
        #expect(try ana.post("/patients/\(carla)/goals/\(saved.id!)/close", [("reason", "achieved")]).status == 303)
        let refused = try ana.post("/patients/\(carla)/goals/\(saved.id!)", edit)
        #expect(refused.status == 409)
        #expect(refused.text.contains("Esta meta foi encerrada") && refused.text.contains("value=\"Duas abas, editada\""))
        #expect(try goal(test, titled: "Duas abas").version == 2, "only the close happened")

        // Reopened (version 3), then tab 1 saves an edit made on version 1: refused, then saved knowingly.
        #expect(try ana.post("/patients/\(carla)/goals/\(saved.id!)/reopen").status == 303)
        let stale = try ana.post("/patients/\(carla)/goals/\(saved.id!)", edit)
        #expect(stale.status == 409 && stale.text.contains("Alguém alterou esta meta"))
        #expect(stale.text.contains("name=\"version\" value=\"3\""))
        var again = sentenceGoal("Duas abas, editada")
        again.append(("version", "3"))
        #expect(try ana.post("/patients/\(carla)/goals/\(saved.id!)", again).status == 303)
        let history = try ana.get("/patients/\(carla)/goals/\(saved.id!)").text
        for word in ["Criada", "Encerrada", "Reaberta", "Alterada", "Duas abas → Duas abas, editada"] {
            #expect(history.contains(word), "\(word)")
        }
    }

    @Test func eachSpecialtySetsItsOwnKindsAndReadsTheOthers() async throws {
        let test = try await TestApp()
        let (ana, nadia) = (try test.browser(loggedInAs: "ana"), try test.browser(loggedInAs: "nadia"))
        let carla = try test.id(of: "Carla Costa")
        #expect(try nadia.get("/patients/\(carla)/goals/new?kind=sentences").status == 403)
        #expect(try ana.get("/patients/\(carla)/goals/new?kind=adherence").status == 403)
        #expect(try nadia.get("/patients/\(carla)/goals/new?kind=bodyMeasure").status == 200)
        let before = try test.snapshot()
        #expect(try nadia.post("/patients/\(carla)/goals", sentenceGoal("Da nutricionista")).status == 403)
        #expect(try goalCount(test, titled: "Da nutricionista") == 0)
        #expect(try test.snapshot() == before)

        // Nádia reads Ana's goal on Carla, without the means to change it.
        let speech = try demoGoal(test, of: "Carla Costa", kind: .independentTaps)
        let page = try nadia.get("/patients/\(carla)/goals/\(speech.id!)")
        #expect(page.status == 200 && !page.text.contains("/goals/\(speech.id!)/edit"))
        #expect(try nadia.get("/patients/\(carla)/goals/\(speech.id!)/edit").status == 403)
        #expect(try nadia.post("/patients/\(carla)/goals/\(speech.id!)/close", [("reason", "achieved")]).status == 403)
        #expect(try test.read { try Goal.fetchOne($0, key: speech.id!)?.closedAt } == nil)

        // A nutrition goal: Nádia sets it with a protocol; a % fat goal needs one.
        let once = try onceKey(try nadia.get("/patients/\(carla)/goals/new?kind=bodyMeasure").text)
        let missing = try nadia.post("/patients/\(carla)/goals", [("_once", once), ("kind", "bodyMeasure"), ("title", "Gordura"),
                                                                  ("measure", "percentFat"), ("direction", "atMost"), ("target", "22"),
                                                                  ("startsOn", "2026-11-01"), ("endsOn", "2027-02-01")])
        #expect(missing.status == 422 && missing.text.contains("Protocolo de dobras (para % de gordura): escolha um item da lista."))
        let created = try nadia.post("/patients/\(carla)/goals", [("_once", once), ("kind", "bodyMeasure"), ("title", "Gordura"),
                                                                  ("measure", "percentFat"), ("skinfoldProtocol", "jp3"), ("direction", "atMost"),
                                                                  ("target", "22,5"), ("startsOn", "2026-11-01"), ("endsOn", "2027-02-01")])
        #expect(created.status == 303)
        let fat = try goal(test, titled: "Gordura")
        #expect(fat.skinfoldProtocol == "jp3" && fat.target == 22.5 && fat.direction == "atMost" && fat.perimeterSite == nil)
    }

    @Test func tutorsAddNotesAndNeverReadTheCliniciansPrivateOnes() async throws {
        let test = try await TestApp()
        let (ana, bruno, beatriz) = (try test.browser(loggedInAs: "ana"), try test.browser(loggedInAs: "bruno"),
                                     try test.browser(loggedInAs: "beatriz"))
        let carla = try test.id(of: "Carla Costa")
        let target = try demoGoal(test, of: "Carla Costa", kind: .independentTaps)
        let path = "/patients/\(carla)/goals/\(target.id!)"
        let form = try bruno.get(path).text
        #expect(try bruno.post(path + "/notes", [("_once", try onceKey(form)), ("body", "Hoje tocou sozinha no recreio")]).status == 303)
        #expect(try ana.post(path + "/notes", [("body", "Observação clínica reservada")]).status == 303)
        let empty = try bruno.post(path + "/notes", [("body", "   ")])
        #expect(empty.status == 422 && empty.text.contains("Nota: preencha este campo."))

        let clinician = try ana.get(path).text
        #expect(clinician.contains("Hoje tocou sozinha no recreio") && clinician.contains("Observação clínica reservada"))
        let tutor = try bruno.get(path).text
        #expect(tutor.contains("Hoje tocou sozinha no recreio") && !tutor.contains("Observação clínica reservada"))
        // The demo's private note on Carla's goal stays with the clinicians too.
        let demo = try #require(try test.read { try GoalNote.filter(Column("isPrivate") == true).fetchOne($0) })
        let demoGoalId = demo.goalId
        let demoPatient = try #require(try test.read { try Goal.fetchOne($0, key: demoGoalId)?.patientId })
        let demoPath = "/patients/\(demoPatient)/goals/\(demoGoalId)"
        let anaId = try test.id(of: "ana")
        let author = demo.authorId == anaId ? ana : try test.browser(loggedInAs: "nadia")
        let clinicianSees = try author.get(demoPath).text.contains(demo.body)
        let tutorSees = try bruno.get(demoPath).text.contains(demo.body)
        #expect(clinicianSees && !tutorSees)

        // Beatriz is Davi's tutor, not Carla's: Carla's goals do not exist for her.
        let before = try test.snapshot()
        #expect(try beatriz.get(path).status == 404)
        #expect(try beatriz.get("/patients/\(carla)/goals").status == 404)
        #expect(try beatriz.post(path + "/notes", [("body", "Intrusa")]).status == 404)
        #expect(try test.snapshot() == before)
    }

    @Test func anotherCliniciansPatientAndAGoalOfAnotherPatientAreNotFound() async throws {
        let test = try await TestApp()
        let (ana, nadia) = (try test.browser(loggedInAs: "ana"), try test.browser(loggedInAs: "nadia"))
        let (carla, davi) = (try test.id(of: "Carla Costa"), try test.id(of: "Davi Alves"))
        let daviGoal = try demoGoal(test, of: "Davi Alves", kind: .sentences)
        let before = try test.snapshot()
        #expect(try nadia.get("/patients/\(davi)/goals").status == 404)
        #expect(try nadia.get("/patients/\(davi)/goals/\(daviGoal.id!)").status == 404)
        #expect(try nadia.post("/patients/\(davi)/goals/\(daviGoal.id!)/close", [("reason", "discontinued")]).status == 404)
        #expect(try ana.get("/patients/\(carla)/goals/\(daviGoal.id!)").status == 404, "Davi's goal under Carla's record")
        #expect(try ana.post("/patients/\(carla)/goals/\(daviGoal.id!)/close", [("reason", "discontinued")]).status == 404)
        #expect(try ana.get("/patients/\(carla)/goals/999999").status == 404)
        #expect(try test.snapshot() == before)
        #expect(try test.read { try Goal.fetchOne($0, key: daviGoal.id!)?.closedAt } == nil)
    }

    @Test func thePatientSeesOnlyTheirOwnGoalsInPlainWords() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let mine = try elisa.get("/my-goals")
        #expect(mine.status == 200)
        #expect(mine.text.contains("Chegar a 76 kg") && mine.text.contains("Seguir o plano alimentar"))
        #expect(!mine.text.contains("Fala das coisas"), "Carla's goals are not Elisa's")
        for words in ["Conseguiu! Parabéns!", "Indo bem!", "Falta um pouco mais", "Vai começar"] {
            #expect(mine.text.contains(words), "\(words)")
        }
        #expect(!mine.text.contains("Atrasada"), "plain words, not the clinician's status names")
        let elisaId = try test.id(of: "Elisa Martins")
        #expect(try elisa.get("/patients/\(elisaId)/goals").status == 403)
        #expect(try elisa.get("/patient").text.contains("href=\"/my-goals\""))
    }

    /// The demo shows every state for each demo patient, read as the overview and the worklist read it;
    /// "first week" lasts a week only and is held by `GoalRulesTests`.
    @Test func theDemoHasGoalsInEveryStateForCarlaDaviAndElisa() async throws {
        let test = try await TestApp()
        let ids = try ["Carla Costa", "Davi Alves", "Elisa Martins"].map { try test.id(of: $0) }
        let progress = try test.read { try GoalQueries.progress(ofPatients: ids, today: today, $0) }
        for (name, id) in zip(["Carla", "Davi", "Elisa"], ids) {
            let states = Set((progress[id] ?? []).map(\.status))
            #expect(states == Set(GoalStatus.allCases).subtracting([.early]), "\(name): \(states)")
        }
        #expect(try test.read { try GoalEvent.filter(Column("action") == "edit").fetchCount($0) } >= 1)
        #expect(try test.read { try Goal.filter(Column("closedAt") != nil).fetchCount($0) } >= 1)
    }
}
