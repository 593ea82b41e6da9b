import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Staff's second factor over HTTP (issue 49, item 3): set up with a code the test computes as any app
/// would, then every login asks for a code; a wrong or reused code and a used recovery code are refused;
/// the administrator can require it per role; families and patient mode are never asked.
@Suite struct TwoFactorTests {
    static let en = [("Accept-Language", "en")]

    func secret(_ test: TestApp, _ username: String) throws -> [UInt8] {
        let id = try test.id(of: username)
        return try test.read { Array(try Data.fetchOne($0, sql: "SELECT secret FROM twoFactor WHERE userId = ?", arguments: [id])!) }
    }

    func code(_ test: TestApp, _ username: String) throws -> String {
        TOTP.code(secret: try secret(test, username), step: TOTP.step(at: test.clock.now))
    }

    /// Sets up ana's second factor through the pages; returns her recovery codes.
    func enrol(_ test: TestApp, _ browser: Browser, _ username: String) throws -> [String] {
        let page = try browser.get("/account/two-factor", headers: Self.en)
        #expect(page.status == 200 && page.text.contains("Set up two-step login"))
        #expect(try browser.post("/account/two-factor/start").status == 303)
        let setup = try browser.get("/account/two-factor", headers: Self.en)
        let base32 = TOTP.base32(try secret(test, username))
        #expect(setup.text.contains("otpauth://totp/Tagarela:\(username)?secret=\(base32)"))
        #expect(try browser.post("/account/two-factor", [("code", "000000")]).status == 422, "a wrong first code turns nothing on")
        let confirmed = try browser.post("/account/two-factor", [("code", try code(test, username))])
        #expect(confirmed.status == 200)
        let codes = confirmed.text.matches(of: /<code>([a-z0-9]{5}-[a-z0-9]{5})<\/code>/).map { String($0.1) }
        #expect(codes.count == 10)
        return codes
    }

    @Test func aClinicianLogsInWithACodeOnceSetUp() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let recovery = try enrol(test, ana, "ana")
        #expect(try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE entity = 'user' AND summary LIKE 'second factor%'") }
                == ["second factor on"])

        // The password alone opens no session: the code page does, with a code of the next step.
        let browser = try test.browser()
        let password = try browser.logIn("ana", DemoClinic.password)
        #expect(password.status == 303 && password.header("Location") == "/login/code")
        #expect(browser.cookies["tagarela_session"] == nil)
        #expect(try browser.get("/clinician").status == 303, "no session yet")
        #expect(try browser.post("/login/code", [("code", try code(test, "ana"))]).status == 422, "the code used to set it up is spent")
        test.clock.advance(by: 30)
        let used = try code(test, "ana")
        let done = try browser.post("/login/code", [("code", used)])
        #expect(done.status == 303 && done.header("Location") == "/clinician")
        #expect(try browser.get("/clinician").status == 200)

        // The same code again, on another login: refused. A recovery code works once.
        let other = try test.browser()
        _ = try other.logIn("ana", DemoClinic.password)
        #expect(try other.post("/login/code", [("code", used)]).status == 422)
        #expect(try other.post("/login/code", [("code", recovery[0].uppercased())]).status == 303)
        let again = try test.browser()
        _ = try again.logIn("ana", DemoClinic.password)
        #expect(try again.post("/login/code", [("code", recovery[0])]).status == 422, "a recovery code is good once")
        #expect(try again.get("/account/two-factor", headers: Self.en).status == 303)
    }

    @Test func wrongCodesAreThrottledLikePasswords() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        _ = try enrol(test, ana, "ana")
        let browser = try test.browser()
        _ = try browser.logIn("ana", DemoClinic.password)
        for guess in ["111111", "222222", "333333", "444444"] { #expect(try browser.post("/login/code", [("code", guess)]).status == 422) }
        let locked = try browser.post("/login/code", [("code", "555555")])
        #expect(locked.status == 422)
        // The next step's code (a phone a little ahead), which the setup did not use: still refused, locked.
        let next = TOTP.code(secret: try secret(test, "ana"), step: TOTP.step(at: test.clock.now) + 1)
        let throttled = try browser.post("/login/code", [("code", next)])
        #expect(throttled.status == 429 && throttled.header("Retry-After") != nil, "five wrong codes lock the account like five passwords")
    }

    @Test func theAdministratorRequiresItForARole() async throws {
        let test = try await TestApp()
        let admin = try test.browser(loggedInAs: "admin")
        #expect(try test.browser(loggedInAs: "ana").get("/admin/two-factor").status == 403)
        #expect(try admin.post("/admin/two-factor", [("role_clinician", "on")]).status == 303)
        #expect(try admin.get("/admin/two-factor").text.contains(#"name="role_clinician" checked"#))

        // Nádia's next login goes to the setup; nothing else answers until it is done.
        let nadia = try test.browser()
        let login = try nadia.logIn("nadia", DemoClinic.password)
        #expect(login.header("Location") == "/account/two-factor")
        #expect(try nadia.get("/clinician").header("Location") == "/account/two-factor")
        #expect(try nadia.post("/patients", [("displayName", "X")]).status == 403)
        _ = try enrol(test, nadia, "nadia")
        #expect(try nadia.get("/clinician").status == 200, "set up: the session goes on")
        test.clock.advance(by: 30)
        let off = try nadia.post("/account/two-factor/disable", [("code", try code(test, "nadia"))])
        #expect(off.status == 409, "required: it cannot be turned off")

        // A trainer is not required, and families are never asked, patient mode included.
        #expect(try test.browser().logIn("dani", DemoClinic.password).header("Location") == "/trainer")
        #expect(try test.browser().logIn("bruno", DemoClinic.password).header("Location") == "/tutor")
        #expect(try test.browser(loggedInAs: "bruno").get("/account/two-factor").status == 403)
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try tablet.get("/patient").status == 200)
    }
}
