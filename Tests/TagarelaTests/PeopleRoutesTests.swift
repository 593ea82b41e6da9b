import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The people and evaluation pages in odd states: a careless user, a double tap, an attacker; the
/// photo files kept in step with what the database says; one database access per page.
@Suite struct PeopleRoutesTests {
    func storedPhotos(_ test: TestApp) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/photos")) ?? []
    }

    @Test func aRefusedFormWithANewPhotoKeepsNeitherTheNewFileNorLosesTheOldOne() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let photo = (field: "photo", filename: "c.png", contentType: "image/png", content: PhotoTests.png)
        #expect(try ana.postMultipart("/patients/\(carla)", fields: [("displayName", "Carla Costa")], files: [photo]).status == 303)
        let stored = storedPhotos(test)
        let etag = try ana.get("/patients/\(carla)/photo").header("ETag")
        // The name cleared by mistake: the form comes back with what was typed, the photo as it was.
        let refused = try ana.postMultipart("/patients/\(carla)", fields: [("displayName", " "), ("diagnosis", "Apraxia")],
                                            files: [photo])
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"value="Apraxia""#))
        #expect(storedPhotos(test) == stored)
        #expect(try ana.get("/patients/\(carla)/photo").header("ETag") == etag)
    }

    @Test func aPhotoSentForAPatientOneMayNotSeeIsMissingAndLeavesNoFile() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "clinician", username: "rui", name: "Rui Lopes", specialties: ["speech"],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let rui = try test.browser(loggedInAs: "rui")
        let carla = try test.id(of: "Carla Costa")
        let before = try test.snapshot()
        let answer = try rui.postMultipart("/patients/\(carla)", fields: [("displayName", "Carla Costa")],
                                             files: [(field: "photo", filename: "c.png", contentType: "image/png", content: PhotoTests.png)])
        #expect(answer.status == 404)
        #expect(storedPhotos(test).isEmpty)
        #expect(try test.snapshot() == before)
    }

    @Test func aDoubleTapOnUnlinkUnlinksOnceAndTheSecondTapIsMissing() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa"), bruno = try test.id(of: "bruno")
        let page = try ana.get("/patients/\(carla)")
        let unlink = "/patients/\(carla)/tutors/\(bruno)/unlink"
        #expect(page.text.contains(#"action="\#(unlink)""#))
        let first = try ana.post(unlink)
        #expect(first.status == 303 && first.header("Location") == "/patients/\(carla)")
        let before = try test.snapshot()
        #expect(try ana.post(unlink).status == 404)
        #expect(try test.snapshot() == before)
        let unlinks = try test.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE action = 'unlink' AND entityId = ?", arguments: [carla])
        }
        #expect(unlinks == 1)
    }

    @Test func anOldBookmarkToADeletedEvaluationAndAnotherTrainersPreviewAreMissing() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let id = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        let report = "/clients/\(gustavo)/evaluations/\(id)"
        let page = try dani.get(report)
        for link in [report + "/edit", report + "/delete", "/clients/\(gustavo)"] {
            #expect(page.text.contains(#"href="\#(link)""#), "\(link)")
        }
        #expect(try dani.post(report + "/delete").status == 303)
        for path in [report, report + "/edit", report + "/delete"] {
            #expect(try dani.get(path).status == 404, "\(path)")
        }
        #expect(try dani.post(report, BodyCompositionTests.fullEvaluation).status == 404, "a correction sent from an old tab")

        _ = try Accounts.addStaff(test.app.poolForTests, role: "trainer", username: "teo", name: "Teo Ramos", specialties: [],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let teo = try test.browser(loggedInAs: "teo")
        let fragment = try teo.client.postForm("/clients/\(gustavo)/evaluations/preview", [("_csrf", teo.csrf)] + BodyCompositionTests.fullEvaluation,
                                               headers: teo.cookieHeader + [("X-Fragment", "results")])
        #expect(fragment.status == 404)
        #expect(!fragment.text.contains("116,5 mm"))
    }

    @Test func everyPeopleAndEvaluationPageMakesOneDatabaseAccess() async throws {
        let test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        let ana = try test.browser(loggedInAs: "ana"), dani = try test.browser(loggedInAs: "dani")
        let carla = try test.id(of: "Carla Costa"), gustavo = try test.id(of: "Gustavo Pereira")
        let ids = try test.read { try Int64.fetchAll($0, sql: "SELECT id FROM evaluation WHERE patientId = ? ORDER BY takenOn", arguments: [gustavo]) }
        // The first opening of Carla's overview shows Bruno's note as news: the read, then the mark after it.
        let first = try ana.get("/patients/\(carla)")
        #expect(first.header("X-Tagarela-DB-Accesses") == "2" && first.header("X-Tagarela-DB-Nested") == "0")
        var answers: [(String, WireResponse)] = []
        for path in ["/patients/\(carla)", "/patients/\(carla)/edit"] {
            answers.append((path, try ana.get(path)))
        }
        answers.append(("add tutor (refused)", try ana.post("/patients/\(carla)/tutors", [("intent", "create"), ("tutorUsername", "x")])))
        for path in ["/clients/\(gustavo)", "/clients/\(gustavo)/edit", "/clients/\(gustavo)/evaluations/new",
                     "/clients/\(gustavo)/evaluations/\(ids[0])", "/clients/\(gustavo)/evaluations/\(ids[0])/edit",
                     "/clients/\(gustavo)/evaluations/\(ids[0])/delete", "/clients/\(gustavo)/compare?first=\(ids[0])&second=\(ids[1])"] {
            answers.append((path, try dani.get(path)))
        }
        answers.append(("preview", try dani.post("/clients/\(gustavo)/evaluations/preview", BodyCompositionTests.fullEvaluation)))
        answers.append(("create evaluation", try dani.post("/clients/\(gustavo)/evaluations", BodyCompositionTests.fullEvaluation)))
        answers.append(("update client (refused)", try dani.post("/clients/\(gustavo)", [("displayName", "")])))
        for (name, answer) in answers {
            #expect([200, 303, 422].contains(answer.status), "\(name): \(answer.status)")
            #expect(answer.header("X-Tagarela-DB-Accesses") == "1", "\(name)")
            #expect(answer.header("X-Tagarela-DB-Nested") == "0", "\(name)")
        }
    }
}
