import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The pages of Accounts, the administrator and access settings as routes as values: every link they
/// print names a registered route with that method, and each request makes the database accesses its
/// route declares and no more.
@Suite struct AccountsPagesTests {
    /// Every internal `href`, `action` and `formaction` of a page, with the method it is followed with.
    static func links(in html: String) -> [(method: HTTPServer.Method, path: String)] {
        var found: [(HTTPServer.Method, String)] = []
        for match in html.matches(of: /<form\b[^>]*>/) {
            let tag = String(match.output)
            let method: HTTPServer.Method = tag.contains(#"method="post""#) ? .post : .get
            if let action = tag.firstMatch(of: /action="([^"]*)"/)?.1 { found.append((method, String(action))) }
        }
        for match in html.matches(of: /formaction="([^"]*)"/) { found.append((.post, String(match.1))) }
        for match in html.matches(of: /<a\b[^>]*href="([^"]*)"/) { found.append((.get, String(match.1))) }
        return found.map { ($0.0, $0.1.replacingOccurrences(of: "&amp;", with: "&")) }
            .filter { $0.1.hasPrefix("/") && !["/css/", "/js/", "/img/"].contains(where: $0.1.hasPrefix) }
    }

    func expectResolves(_ html: String, on page: String, _ test: TestApp, sourceLocation: SourceLocation = #_sourceLocation) {
        let links = Self.links(in: html)
        #expect(!links.isEmpty, "\(page) prints links", sourceLocation: sourceLocation)
        for link in links {
            let path = String(link.path.split(separator: "?", maxSplits: 1).first ?? "")
            guard case .found = test.app.router.match(link.method, path) else {
                Issue.record("\(page): \(link.method) \(link.path) names no route", sourceLocation: sourceLocation)
                continue
            }
        }
    }

    /// Issue 53: before signing in, the language was the browser's alone; `?lang=` was ignored.
    @Test func aLanguageChosenOnTheLoginPageStaysUntilSignedIn() async throws {
        let test = try await TestApp()
        let browser = Browser(client: test.client)
        let login = try browser.get("/login")
        #expect(login.text.contains(#"<a href="/login?lang=es" lang="es" hreflang="es">Español</a>"#))
        let spanish = try browser.get("/login?lang=es")
        #expect(spanish.text.contains(#"<html lang="es""#))
        #expect(spanish.header("Set-Cookie")?.contains("tagarela_lang=es") == true || spanish.headers("Set-Cookie").contains { $0.hasPrefix("tagarela_lang=es") })
        #expect(try browser.get("/about").text.contains(#"<html lang="es""#), "the choice is kept")
        #expect(try browser.get("/login?lang=xx").text.contains(#"<html lang="es""#), "an unknown language changes nothing")
        #expect(try browser.get("/login?lang=ca").text.contains(#"<html lang="ca""#))
    }

    @Test func everyLinkOfThesePagesNamesARegisteredRoute() async throws {
        let test = try await TestApp()
        let anonymous = try test.browser()
        expectResolves(try anonymous.get("/login").text, on: "login", test)

        let admin = try test.browser(loggedInAs: "admin")
        for page in ["/admin", "/admin/staff/new", "/admin/audit", "/admin/accounts", "/admin/accounts?q=a", "/account"] {
            let response = try admin.get(page)
            #expect(response.status == 200, "\(page)")
            expectResolves(response.text, on: page, test)
        }
        let dashboard = try admin.get("/admin").text
        #expect(dashboard.contains(#"action="/admin/staff/\#(try test.id(of: "ana"))/activation""#))
        #expect(dashboard.contains(#"action="/admin/accounts/\#(try test.id(of: "ana"))/password-reset""#))

        // The invitation link an admin hands out, and the page it opens.
        let created = try admin.post("/admin/staff", [("displayName", "Rita Reis"), ("username", "rita"), ("role", "trainer"),
                                                      ("_once", Token.make())])
        #expect(created.status == 200)
        let link = try #require(created.text.firstMatch(of: /value="https?:\/\/[^\/"]+(\/invitations\/[^"]+)"/)?.1)
        let invitation = try test.browser().get(String(link))
        #expect(invitation.status == 200)
        #expect(invitation.text.contains(#"action="\#(link)""#), "the form posts to its own link")
        expectResolves(invitation.text, on: "invitation", test)
        expectResolves(try test.browser().get("/invitations/no-such-token").text, on: "a used link", test)

        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let access = try ana.get("/patients/\(carla)/access")
        #expect(access.status == 200)
        #expect(access.text.contains(#"href="/patients/\#(carla)""#) && access.text.contains(#"action="/patients/\#(carla)/access""#))
        expectResolves(access.text, on: "access settings", test)

        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let exit = try child.get("/patient-mode/exit")
        #expect(exit.status == 200)
        expectResolves(exit.text, on: "patient mode exit", test)
    }

    @Test func theAuditLogPagerKeepsTheFilterAndWalksBothWays() async throws {
        let test = try await TestApp()
        try test.write { db in
            let audit = AuditContext(actorId: nil, actorName: "Pager Probe", clientAddress: "t", now: test.clock.now)
            for index in 0..<(AuditPage.pageSize + 5) { try audit.record(.lockout, "user", nil, "probe \(index)", db) }
        }
        let admin = try test.browser(loggedInAs: "admin")
        let first = try admin.get("/admin/audit?action=lockout&actor=Pager+Probe")
        let next = try #require(first.text.firstMatch(of: /href="([^"]*page=2[^"]*)"/)?.1).replacingOccurrences(of: "&amp;", with: "&")
        #expect(next.hasPrefix("/admin/audit?") && next.contains("action=lockout") && next.contains("actor=Pager%20Probe"))
        let second = try admin.get(next)
        #expect(second.status == 200)
        #expect(second.text.contains("probe 0") && !second.text.contains("probe 10<"), "the oldest five on page 2")
        #expect(second.text.contains("page=1"), "and a way back")
        #expect(!second.text.contains("page=3"))
    }

    @Test func eachRequestMakesTheAccessesItsRouteDeclares() async throws {
        let test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        func accesses(_ response: WireResponse) -> Int? { response.header("X-Tagarela-DB-Accesses").flatMap(Int.init) }

        let browser = try test.browser()
        #expect(accesses(try browser.get("/login")) == 0)
        let wrong = try browser.post("/login", [("username", "ana"), ("password", "not-it-at-all")])
        // Work on the hashing pool answers later: the header counts what ran before it (the read), and the
        // write after the check is not seen by it, so only the statuses are checked for these.
        #expect(wrong.status == 422)
        let login = try browser.post("/login", [("username", "ana"), ("password", DemoClinic.password)])
        #expect(login.status == 303)
        try browser.get(login.header("Location") ?? "/home")

        #expect(accesses(try browser.get("/account")) == 0, "the account page shows what the session read")
        let ana = try test.id(of: "ana")
        let hashBefore = try test.read { try User.fetchOne($0, key: ana)?.passwordHash }
        let mismatch = try browser.post("/account/password", [("current", DemoClinic.password), ("password", "a-long-new-one-1"),
                                                              ("confirmation", "something-else-2")])
        #expect(mismatch.status == 422)
        let wrongCurrent = try browser.post("/account/password", [("current", "not-it"), ("password", "a-long-new-one-1"),
                                                                  ("confirmation", "a-long-new-one-1")])
        #expect(wrongCurrent.status == 422 && wrongCurrent.text.contains(#"id="current-error""#))
        #expect(try test.read { try User.fetchOne($0, key: ana)?.passwordHash } == hashBefore, "refused: nothing written")
        #expect(try test.read { try AuditEntry.filter(Column("action") == "set_password").fetchCount($0) } == 0)
        let language = try browser.post("/account/language", [("locale", "en")])
        #expect(language.status == 303 && accesses(language) == 1)

        let carla = try test.id(of: "Carla Costa")
        let refused = try browser.post("/patients/\(carla)/access", [("cellSize", "huge")])
        #expect(refused.status == 422 && accesses(refused) == 1, "the page shown again is read in the same transaction")
        #expect(refused.text.contains("Carla"), "with the patient's name")
        #expect(accesses(try browser.get("/patients/\(carla)/access")) == 1)

        let admin = try test.browser(loggedInAs: "admin")
        for page in ["/admin", "/admin/audit", "/admin/accounts"] { #expect(accesses(try admin.get(page)) == 1, "\(page)") }
        #expect(accesses(try admin.get("/admin/staff/new")) == 0)

        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let wrongExit = try child.post("/patient-mode/exit", [("password", "nope")])
        #expect(wrongExit.status == 422)
        #expect(try test.read { try Session.filter(Column("patientModeFor") != nil).fetchCount($0) } == 1, "still a child's tablet")
        let exit = try child.post("/patient-mode/exit", [("password", DemoClinic.password)])
        #expect(exit.status == 303)
    }

    /// A bookmark of the exit page kept after patient mode ended, or a second tab that already left it.
    @Test func leavingPatientModeTwiceIsRefusedAndChangesNothing() async throws {
        let test = try await TestApp()
        let child = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let secondTab = Browser(client: test.client)
        secondTab.cookies = child.cookies
        secondTab.csrf = child.csrf
        #expect(try child.post("/patient-mode/exit", [("password", DemoClinic.password)]).status == 303)
        let before = try test.read { try Session.filter(Column("patientModeFor") != nil).fetchCount($0) }
        let again = try secondTab.post("/patient-mode/exit", [("password", DemoClinic.password)])
        #expect(again.status == 403)
        #expect(try test.read { try Session.filter(Column("patientModeFor") != nil).fetchCount($0) } == before)
        #expect(try child.get("/account").status == 200, "the adult's session is theirs again")
    }
}
