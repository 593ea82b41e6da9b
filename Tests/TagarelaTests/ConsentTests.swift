import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// People are linked with consent (issue 14, item 2): an existing account is only asked, an
/// invitation is only for an account that never had a password, a forgotten password is an admin's
/// audited reset, and no answer tells whether a username exists.
/// Demo: ana → Carla, Davi · nadia → Carla, Elisa · bruno → Carla · beatriz → Davi.
@Suite struct ConsentTests {
    static let newPassword = "uma senha nova e comprida"

    /// What nadia did in the reproduction, step by step: every step now fails, and beatriz keeps her account.
    @Test func theTakeoverSequenceFailsAtEveryStep() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let beatriz = try test.id(of: "beatriz"), carla = try test.id(of: "Carla Costa"), davi = try test.id(of: "Davi Alves")

        // 1. Linking beatriz to her own patient by typing the username only asks beatriz.
        let link = try nadia.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")])
        #expect(link.status == 303)
        #expect(try test.read { try CareLink.tutor.exists(beatriz, carla, $0) } == false)
        #expect(!(try nadia.get("/patients/\(carla)").text.contains("Beatriz Alves")), "nothing shows before she accepts")
        // The same with a name typed (the new-tutor form): a new person under another username, and nothing says so.
        let create = try nadia.post("/patients/\(carla)/tutors", [("intent", "create"), ("tutorUsername", "beatriz"),
                                                                    ("tutorName", "Beatriz Falsa")])
        #expect(create.status == 200)
        #expect(!create.text.contains("beatriz-"))
        #expect(try test.read { try CareLink.tutor.exists(beatriz, carla, $0) } == false)
        let falsa = try test.read { try String.fetchOne($0, sql: "SELECT username FROM user WHERE displayName = 'Beatriz Falsa'") }
        #expect(falsa?.hasPrefix("beatriz-") == true)

        // 2. An invitation for beatriz is refused like a missing person, and none is stored.
        let before = try test.snapshot()
        #expect(try nadia.post("/people/\(beatriz)/invitation").status == 404)
        #expect(try test.snapshot() == before)
        #expect(try test.read { try Invitation.filter(Invitation.Columns.userId == beatriz).fetchCount($0) } == 0)

        // 3. So there is no link to open and no password to set; Davi and his records stay closed to nadia.
        for path in ["/patients/\(davi)", "/patients/\(davi)/observations", "/patients/\(davi)/usage",
                     "/patients/\(davi)/usage.csv"] {
            #expect([403, 404].contains(try nadia.get(path).status), "\(path)")  // 403: usage is speech therapy's
        }
        // 4. beatriz's password still works, and her tutor page still shows Davi.
        let real = try test.browser(loggedInAs: "beatriz")
        #expect(try real.get("/tutor").text.contains("Davi Alves"))
    }

    @Test func anAcceptedRequestLinksTheTutorToThePatient() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let carla = try test.id(of: "Carla Costa"), beatrizId = try test.id(of: "beatriz")
        #expect(try nadia.post("/patients/\(carla)/tutors", [("intent", "ask"), ("tutorUsername", "Beatriz")]).status == 303)

        let beatriz = try test.browser(loggedInAs: "beatriz")
        #expect(try beatriz.get("/patients/\(carla)").status == 404, "asking opens nothing")
        let home = try beatriz.get("/tutor")
        #expect(home.text.contains("Nádia Lima pide vincularle como tutor de Carla Costa."))
        let id = try #require(home.text.firstMatch(of: /\/link-requests\/(\d+)\/accept/)?.1)
        let accepted = try beatriz.post("/link-requests/\(id)/accept")
        #expect(accepted.status == 303 && accepted.header("Location") == "/tutor")
        let after = try beatriz.get("/tutor")
        #expect(after.text.contains("Solicitud aceptada."))
        #expect(!after.text.contains("/link-requests/"), "an answered request leaves the page")
        #expect(after.text.contains("Carla Costa"))
        #expect(try beatriz.get("/patients/\(carla)").status == 200)
        #expect(try nadia.get("/patients/\(carla)").text.contains("Beatriz Alves"), "the clinician sees the tutor once accepted")
        // Linked now, yet she set her own password: nadia still cannot invite her.
        #expect(try nadia.post("/people/\(beatrizId)/invitation").status == 404)
        let actions = try test.read { try String.fetchAll($0, sql: "SELECT action FROM auditEntry WHERE entity = 'linkRequest' ORDER BY id") }
        #expect(actions == ["link_request", "link_accept"])
    }

    @Test func aDeclinedRequestLinksNothingAndCannotBeRepeatedAtOnce() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let carla = try test.id(of: "Carla Costa"), beatrizId = try test.id(of: "beatriz")
        try nadia.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")])
        let beatriz = try test.browser(loggedInAs: "beatriz")
        let id = try #require(try beatriz.get("/tutor").text.firstMatch(of: /\/link-requests\/(\d+)\/decline/)?.1)
        #expect(try beatriz.post("/link-requests/\(id)/decline").status == 303)
        #expect(try beatriz.get("/tutor").text.contains("Solicitud rechazada."))
        #expect(try beatriz.get("/patients/\(carla)").status == 404)
        #expect(!(try nadia.get("/patients/\(carla)").text.contains("Beatriz Alves")))
        #expect(try test.read { try CareLink.tutor.exists(beatrizId, carla, $0) } == false)

        // Asking again at once is answered the same, and beatriz is not asked again.
        #expect(try nadia.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")]).status == 303)
        #expect(!(try beatriz.get("/tutor").text.contains("/link-requests/")))
        let summaries = try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE action = 'link_request' ORDER BY id") }
        #expect(summaries.last?.hasSuffix("(declined recently)") == true)
        // A month later she may be asked again.
        test.clock.advance(by: LinkRequests.quietAfterDecline + 1)
        try nadia.get("/clinician")  // the staff session is idle-timed out by now
        let again = try test.browser(loggedInAs: "nadia")
        #expect(try again.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")]).status == 303)
        let later = try test.browser(loggedInAs: "beatriz")
        #expect(try later.get("/tutor").text.contains("/link-requests/"))
    }

    /// The request's answer must not tell a clinician anything: the same bytes for a tutor, an unknown
    /// name, a tutor already linked, a clinician, a patient, a deactivated trainer, a tutor asked twice.
    @Test func theAnswerIsTheSameWhateverTheUsername() async throws {
        let test = try await TestApp()
        let admin = try test.browser(loggedInAs: "admin")
        #expect(try admin.post("/admin/staff/\(try test.id(of: "dani"))/activation", [("active", "0")]).status == 303)
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")

        func answer(_ username: String, _ path: String, field: String) throws -> (String, String) {
            let response = try ana.post(path, [(field, username)])
            let headers = response.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name): \($0.value)" }
            // Each form's one-time key is new at every page view, whatever was asked.
            let page = try ana.get(try #require(response.header("Location"))).text
                .replacing(/name="_once" value="[^"]+"/, with: "name=\"_once\"")
            return ("\(response.status)\n\(headers.joined(separator: "\n"))\n\(response.text)", page)
        }
        for (path, field) in [("/patients/\(carla)/tutors", "tutorUsername"), ("/link-requests", "askUsername")] {
            let answers = try ["beatriz", "nobody-at-all", "bruno", "ana", "elisa", "dani", "BEATRIZ"].map {
                try answer($0, path, field: field)
            }
            #expect(answers[0].0.hasPrefix("303\n"))
            for (index, other) in answers.enumerated().dropFirst() {
                #expect(other.0 == answers[0].0, "\(path) answer \(index)")
                #expect(other.1 == answers[0].1, "\(path) page after answer \(index)")
            }
        }
        // Only the admin's audit log says what happened.
        let outcomes = try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE action = 'link_request' ORDER BY id") }
        #expect(outcomes.count == 14)
        #expect(outcomes[0].hasSuffix("(asked)") && outcomes[1].hasSuffix("(no such account)") && outcomes[2].hasSuffix("(already linked)"))
        #expect(outcomes[6].hasSuffix("(already asked)"), "BEATRIZ is beatriz, asked once")
        #expect(outcomes[7 + 4].hasSuffix("(asked)") && outcomes[7 + 4].contains("elisa"),
                "elisa, a patient with a login, is asked to accept ana")
        #expect(outcomes.filter { $0.hasSuffix("(asked)") }.count == 2)
    }

    @Test func aSecondTabOrADoubleTapAnswersOnce() async throws {
        let test = try await TestApp()
        let nadia = try test.browser(loggedInAs: "nadia")
        let carla = try test.id(of: "Carla Costa")
        try nadia.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")])
        try nadia.post("/patients/\(carla)/tutors", [("tutorUsername", "beatriz")])  // a double tap asks once
        #expect(try test.read { try LinkRequest.fetchCount($0) } == 1)

        let laptop = try test.browser(loggedInAs: "beatriz"), phone = try test.browser(loggedInAs: "beatriz")
        let id = try #require(try laptop.get("/tutor").text.firstMatch(of: /\/link-requests\/(\d+)\/accept/)?.1)
        _ = try phone.get("/tutor")
        // Someone else's request is missing for them, in patient mode it is not the child's to answer.
        let others = [try test.browser(loggedInAs: "bruno"), try test.patientMode(of: "Carla Costa", openedBy: "bruno"),
                      try test.browser(loggedInAs: "elisa"), try test.browser(loggedInAs: "ana")]
        let before = try test.snapshot()
        for (browser, status) in zip(others, [404, 403, 404, 403]) {
            #expect(try browser.post("/link-requests/\(id)/accept").status == status)
            #expect(try browser.post("/link-requests/\(id)/decline").status == status)
        }
        #expect(try test.snapshot() == before)
        #expect(try test.read { try LinkRequest.filter(Column("decidedAt") == nil).fetchCount($0) } == 1)

        #expect(try laptop.post("/link-requests/\(id)/accept").status == 303)
        #expect(try laptop.post("/link-requests/\(id)/accept").status == 303)
        #expect(try laptop.get("/tutor").text.contains("Esa solicitud ya fue respondida"))
        #expect(try phone.post("/link-requests/\(id)/decline").status == 303, "the older tab's decline comes too late")
        #expect(try phone.get("/tutor").text.contains("Esa solicitud ya fue respondida"))
        let beatriz = try test.id(of: "beatriz")
        #expect(try test.read { try CareLink.tutor.exists(beatriz, carla, $0) })
        let decisions = try test.read { try String.fetchAll($0, sql: "SELECT action FROM auditEntry WHERE action IN ('link_accept', 'link_decline')") }
        #expect(decisions == ["link_accept"])
        #expect(try laptop.post("/link-requests/999999/accept").status == 404)
        #expect(try laptop.post("/link-requests/abc/accept").status == 404)
    }

    @Test func aPatientWithALoginAcceptsAClinicianFromTheirHome() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let elisaId = try test.id(of: "Elisa Martins")
        let invalid = try ana.post("/link-requests", [("askUsername", "a b")])
        #expect(invalid.status == 422)
        #expect(invalid.text.contains(#"value="a b""#), "what was typed is kept")
        #expect(try ana.post("/link-requests", [("askUsername", "elisa")]).status == 303)
        #expect(try ana.get("/patients/\(elisaId)").status == 404)

        // Patient mode (nadia's device handed to Elisa) shows no requests: consent is not given on a lent device.
        let tablet = try test.patientMode(of: "Elisa Martins", openedBy: "nadia")
        #expect(try tablet.get("/patient").status == 200)
        #expect(!(try tablet.get("/patient").text.contains("/link-requests/")))
        let elisa = try test.browser(loggedInAs: "elisa")
        let home = try elisa.get("/patient")
        #expect(home.text.contains("Ana Souza pede para acompanhar você como profissional no Tagarela."))
        let id = try #require(home.text.firstMatch(of: /\/link-requests\/(\d+)\/accept/)?.1)
        #expect(try elisa.post("/link-requests/\(id)/accept").status == 303)
        #expect(try ana.get("/patients/\(elisaId)").status == 200)
        #expect(try ana.get("/clinician").text.contains("Elisa Martins"))
    }

    /// Invitations made before a password was set die with it, and no one makes a new one but an admin.
    @Test func anOldInvitationLinkStopsOnceAPasswordWasSet() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let created = try ana.post("/patients/\(carla)/tutors", [("intent", "create"), ("tutorUsername", "vovo.rosa"), ("tutorName", "Rosa Costa")])
        #expect(created.status == 200)
        let link = String(try #require(created.text.firstMatch(of: /value="http:\/\/[^"]+(\/invitations\/[A-Za-z0-9_-]{43})"/)?.1))
        let rosaId = try test.id(of: "vovo.rosa")
        // Before she uses it the clinician may make a new one (which cancels this one) …
        test.clock.advance(by: 60)
        let second = try ana.post("/people/\(rosaId)/invitation")
        #expect(second.status == 200)
        #expect(try test.browser().get(link).status == 410)
        let fresh = String(try #require(second.text.firstMatch(of: /value="http:\/\/[^"]+(\/invitations\/[A-Za-z0-9_-]{43})"/)?.1))
        let rosa = try test.browser()
        try rosa.get(fresh)
        #expect(try rosa.post(fresh, [("password", Self.newPassword), ("confirmation", Self.newPassword)]).status == 303)
        // … but once she chose a password, neither link works and no clinician can make another.
        #expect(try test.browser().get(fresh).status == 410)
        let before = try test.snapshot()
        #expect(try ana.post("/people/\(rosaId)/invitation").status == 404)
        #expect(try test.snapshot() == before)
        #expect(!(try ana.get("/patients/\(carla)").text.contains("/people/\(rosaId)/invitation")), "no button for it either")

        // A link stored before the password was changed on the account page dies too.
        let bruno = try test.id(of: "bruno"), issuedAt = test.clock.now
        let stale = try test.write { db in try Invitation.issue(for: bruno, by: nil, at: issuedAt, db) }
        test.clock.advance(by: 60)
        let brunoBrowser = try test.browser(loggedInAs: "bruno")
        #expect(try brunoBrowser.post("/account/password", [("current", DemoClinic.password), ("password", Self.newPassword),
                                                             ("confirmation", Self.newPassword)]).status == 303)
        let intruder = try test.browser()
        try intruder.get("/login")  // for a form token
        #expect(try intruder.get("/invitations/\(stale)").status == 410)
        let attempt = try intruder.post("/invitations/\(stale)", [("password", "a senha do intruso"), ("confirmation", "a senha do intruso")])
        #expect(attempt.status == 410)
        #expect(try test.browser().logIn("bruno", Self.newPassword).status == 303)
    }

    @Test func onlyAnAdminResetsAForgottenPasswordAndItIsAudited() async throws {
        let test = try await TestApp()
        let beatrizId = try test.id(of: "beatriz"), adminId = try test.id(of: "admin")
        let beatrizTablet = try test.browser(loggedInAs: "beatriz")
        let admin = try test.browser(loggedInAs: "admin")
        let list = try admin.get("/admin/accounts?q=beatr")
        #expect(list.status == 200)
        #expect(list.text.contains("Beatriz Alves") && !list.text.contains("Bruno Costa"))
        #expect(list.text.contains("/admin/accounts/\(beatrizId)/password-reset"))
        #expect(!(try admin.get("/admin/accounts").text.contains("/admin/accounts/\(adminId)/password-reset")), "not one's own")

        for persona in ["ana", "nadia", "beatriz", "bruno"] {
            let browser = try test.browser(loggedInAs: persona)
            let before = try test.snapshot()
            #expect(try browser.post("/admin/accounts/\(beatrizId)/password-reset").status == 403, "\(persona)")
            #expect(try test.snapshot() == before)
        }
        #expect(try admin.post("/admin/accounts/\(adminId)/password-reset").status == 403)
        #expect(try admin.post("/admin/accounts/\(try test.id(of: "Davi Alves"))/password-reset").status == 404, "no login to reset")

        let reset = try admin.post("/admin/accounts/\(beatrizId)/password-reset")
        #expect(reset.status == 200)
        #expect(reset.text.contains("Link para nova senha"))
        let link = String(try #require(reset.text.firstMatch(of: /value="http:\/\/[^"]+(\/invitations\/[A-Za-z0-9_-]{43})"/)?.1))
        #expect(try beatrizTablet.get("/tutor").status == 303, "her sessions end")
        #expect(try test.browser().logIn("beatriz", DemoClinic.password).status == 422, "and so does the old password")
        // Even with no password now, she is no account a clinician may invite.
        #expect(try test.browser(loggedInAs: "ana").post("/people/\(beatrizId)/invitation").status == 404)

        let owner = try test.browser()
        try owner.get(link)
        #expect(try owner.post(link, [("password", Self.newPassword), ("confirmation", Self.newPassword)]).status == 303)
        #expect(try owner.get("/tutor").text.contains("Davi Alves"))
        #expect(try test.browser().get(link).status == 410)
        let log = try admin.get("/admin/audit?action=password_reset")
        #expect(log.text.contains("Beatriz Alves (beatriz)"))
        #expect(log.text.contains("redefiniu uma senha"))
        // The link lasts a day.
        let again = try admin.post("/admin/accounts/\(beatrizId)/password-reset")
        let late = String(try #require(again.text.firstMatch(of: /value="http:\/\/[^"]+(\/invitations\/[A-Za-z0-9_-]{43})"/)?.1))
        test.clock.advance(by: Invitation.resetLifetime + 1)
        #expect(try test.browser().get(late).status == 410)
    }

    @Test func theAskingRuleIsPure() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(LinkRequests.outcome(accountExists: false, alreadyLinked: false, openRequest: false, lastDeclinedAt: nil, now: now) == .noSuchAccount)
        #expect(LinkRequests.outcome(accountExists: true, alreadyLinked: true, openRequest: false, lastDeclinedAt: nil, now: now) == .alreadyLinked)
        #expect(LinkRequests.outcome(accountExists: true, alreadyLinked: false, openRequest: true, lastDeclinedAt: nil, now: now) == .alreadyAsked)
        #expect(LinkRequests.outcome(accountExists: true, alreadyLinked: false, openRequest: false,
                                     lastDeclinedAt: now.addingTimeInterval(-60), now: now) == .recentlyDeclined)
        #expect(LinkRequests.outcome(accountExists: true, alreadyLinked: false, openRequest: false,
                                     lastDeclinedAt: now.addingTimeInterval(-LinkRequests.quietAfterDecline - 1), now: now) == .asked)
    }
}

/// DESIGN: no form reveals whether a username exists (issue 49, item 5). A clinician proposes a username
/// for a new login; taken or not, the answer is the same, and the owner chooses on the invitation page.
@Suite struct UsernameDisclosureTests {
    /// The page a clinician gets, with what varies by person taken out.
    static func shape(_ page: String, name: String) -> String {
        page.replacingOccurrences(of: name, with: "NAME")
            .replacingOccurrences(of: #"/invitations/[A-Za-z0-9_-]+"#, with: "/invitations/TOKEN", options: .regularExpression)
            .replacingOccurrences(of: #"name="_csrf" value="[^"]*""#, with: "", options: .regularExpression)
    }

    @Test func aTakenUsernameAnswersLikeAFreeOneAndTheOwnerChoosesTheirOwn() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let taken = try ana.post("/patients/\(carla)/tutors", [("intent", "create"), ("tutorUsername", "bruno"), ("tutorName", "Rosa Costa")])
        let free = try ana.post("/patients/\(carla)/tutors", [("intent", "create"), ("tutorUsername", "tio.paulo"), ("tutorName", "Paulo Costa")])
        #expect(taken.status == 200 && free.status == 200)
        #expect(Self.shape(taken.text, name: "Rosa Costa") == Self.shape(free.text, name: "Paulo Costa"))
        let patientPage = try ana.get("/patients/\(carla)").text
        #expect(!patientPage.contains("tio.paulo") && !patientPage.contains("bruno-"))
        // The new-patient form answers alike too.
        let patient = try ana.post("/patients", [("displayName", "Elisa Outra"), ("username", "elisa")])
        #expect(patient.status == 303)
        let edit = try ana.get(try #require(patient.header("Location")) + "/edit").text
        #expect(!edit.contains("elisa-") && !edit.contains(#"name="username""#))

        // Rosa opens her link: her proposed username is shown to her alone; a taken one is refused there, a free one kept.
        let found = try #require(taken.text.range(of: #"/invitations/[A-Za-z0-9_-]+"#, options: .regularExpression))
        let link = String(taken.text[found])
        let rosa = try test.browser()
        let invitation = try rosa.get(link)
        #expect(invitation.text.contains(#"value="bruno-"#))
        let refused = try rosa.post(link, [("username", "Beatriz"), ("password", "netinha querida 2026"), ("confirmation", "netinha querida 2026")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Este nome de usuário já está em uso"))
        #expect(refused.text.contains(#"value="Beatriz""#))
        let accepted = try rosa.post(link, [("username", "vovo.rosa"), ("password", "netinha querida 2026"), ("confirmation", "netinha querida 2026")])
        #expect(accepted.status == 303)
        #expect(try test.browser().logIn("vovo.rosa", "netinha querida 2026").status == 303)
        #expect(try ana.get("/patients/\(carla)").text.contains("vovo.rosa"))
    }
}
