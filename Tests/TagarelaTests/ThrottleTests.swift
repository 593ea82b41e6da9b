import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Throttling that cannot be turned against users (issue 14, item 8), and the audit entries it leaves.
@Suite struct ThrottleTests {
    typealias Record = LoginThrottle.Record
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func failures(_ count: Int, secondsAgo: TimeInterval = 1) -> Record {
        Record(failures: count, lastFailure: now.addingTimeInterval(-secondsAgo))
    }

    @Test func aBusyAddressSlowsOnlyTheAccountsItKeepsGettingWrong() {
        let busy = Self.failures(40)
        #expect(LoginThrottle.loginWait(account: nil, address: busy, pair: nil, now: Self.now) == 0,
                "another account from a busy address")
        #expect(LoginThrottle.loginWait(account: Self.failures(2), address: busy, pair: Self.failures(2), now: Self.now) == 0,
                "two slips of one's own still leave a try")
        #expect(LoginThrottle.loginWait(account: Self.failures(3), address: busy, pair: Self.failures(3), now: Self.now) > 0,
                "an account this address keeps getting wrong waits for the address")
        #expect(LoginThrottle.loginWait(account: nil, address: Self.failures(9), pair: Self.failures(4), now: Self.now) == 0,
                "an address that is not busy locks no one")
    }

    @Test func anAccountUnderAttackWaitsWhereverTheRightPasswordComesFrom() {
        #expect(LoginThrottle.loginWait(account: Self.failures(4), address: nil, pair: nil, now: Self.now) == 0)
        #expect(LoginThrottle.loginWait(account: Self.failures(5), address: nil, pair: nil, now: Self.now) == 29)
        #expect(LoginThrottle.loginWait(account: Self.failures(5, secondsAgo: 31), address: nil, pair: nil, now: Self.now) == 0)
        #expect(LoginThrottle.loginWait(account: Self.failures(9, secondsAgo: LoginThrottle.forgetAfter + 1), address: nil,
                                        pair: nil, now: Self.now) == 0, "a quiet spell forgets")
    }

    @Test func thePatientModeExitHasItsOwnCountThatNeverTouchesTheLogin() {
        let throttle = LoginThrottle()
        for attempt in 1...5 {
            let admission = throttle.admitPatientModeExit(session: 7, now: Self.now)
            #expect(admission.wait == 0)
            #expect(admission.locksAccount == (attempt == 5), "the fifth wrong try is the one that locks the exit")
        }
        #expect(throttle.admitPatientModeExit(session: 7, now: Self.now).wait == 30)
        #expect(throttle.admitPatientModeExit(session: 8, now: Self.now).wait == 0, "another tablet of the same adult")
        #expect(throttle.admit(username: "bruno", address: "10.0.0.1", now: Self.now).wait == 0, "the adult's login")
        throttle.recordSuccess(username: "bruno", address: "10.0.0.1")
        throttle.recordPatientModeExitSuccess(session: 7)
        #expect(throttle.admitPatientModeExit(session: 7, now: Self.now).wait == 0)
    }

    @Test func aSuccessClearsTheAccountButNotTheAddresssOtherFailures() {
        let throttle = LoginThrottle()
        for index in 1...9 { #expect(throttle.admit(username: "guess\(index)", address: "school", now: Self.now).wait == 0) }
        let tenth = throttle.admit(username: "guess10", address: "school", now: Self.now)
        #expect(tenth.locksAddress && !tenth.locksAccount)
        // ana's own login is admitted and succeeds: the address keeps its ten failures, not eleven.
        #expect(throttle.admit(username: "ana", address: "school", now: Self.now).wait == 0)
        throttle.recordSuccess(username: "ana", address: "school")
        for _ in 1...2 { #expect(throttle.admit(username: "guess1", address: "school", now: Self.now).wait == 0) }
        // guess1 has failed three times from the busy address (12 failures): it waits for the address, 30 s doubled twice.
        #expect(throttle.admit(username: "guess1", address: "school", now: Self.now).wait == 120)
        #expect(throttle.admit(username: "guess1", address: "home", now: Self.now).wait == 0, "from elsewhere it may still try")
    }

    // MARK: - Over HTTP

    /// Five wrong passwords at the exit lock that tablet's exit, never the tutor's account.
    @Test func aChildAtTheExitDoesNotLockTheTutorOut() async throws {
        let test = try await TestApp()
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        for _ in 1...5 { #expect(try tablet.post("/patient-mode/exit", [("password", "banana")]).status == 422) }
        let locked = try tablet.post("/patient-mode/exit", [("password", DemoClinic.password)])
        #expect(locked.status == 429)
        #expect(locked.header("Retry-After") == "30")
        #expect(locked.text.contains("Muitas tentativas"))
        #expect(try tablet.get("/patient").status == 200, "still in patient mode")

        // The same address, the same tutor: his phone logs in, and another tablet of his leaves patient mode.
        #expect(try test.browser().logIn("bruno", DemoClinic.password).status == 303)
        let other = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try other.post("/patient-mode/exit", [("password", DemoClinic.password)]).status == 303)

        test.clock.advance(by: 31)
        let exit = try tablet.post("/patient-mode/exit", [("password", DemoClinic.password)])
        #expect(exit.status == 303 && exit.header("Location") == "/tutor")
        let actions = try test.read { try String.fetchAll($0, sql: "SELECT action || ' ' || entity FROM auditEntry WHERE action LIKE 'patient_mode%' OR action = 'lockout' ORDER BY id") }
        #expect(actions == ["patient_mode_open patient", "lockout session", "patient_mode_open patient", "patient_mode_exit patient",
                            "patient_mode_exit patient"])
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE action = 'login_failed'") } == 0,
                "the exit is not a login")
    }

    /// A school behind one router: ten failures there do not stop someone else's right password.
    @Test func aBusyAddressStillLetsARightPasswordIn() async throws {
        let test = try await TestApp()
        for index in 1...10 { #expect(try test.browser().logIn("aluno\(index)", "chute errado").status == 422) }
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 303)
        #expect(try test.browser().logIn("bruno", DemoClinic.password).status == 303)
        // bruno mistypes three times at the busy address: that account now waits there.
        for _ in 1...3 { #expect(try test.browser().logIn("bruno", "quase certo").status == 422) }
        let waiting = try test.browser().logIn("bruno", DemoClinic.password)
        #expect(waiting.status == 429)
        #expect(try test.browser().logIn("nadia", DemoClinic.password).status == 303, "nadia is not under attack")

        let audit = try test.read { try Row.fetchAll($0, sql: "SELECT action, entity, entityId, summary FROM auditEntry WHERE action IN ('login_failed', 'lockout') ORDER BY id") }
        #expect(audit.filter { $0["action"] == "login_failed" }.count == 13)
        #expect(audit.contains { $0["action"] == "lockout" && $0["entity"] == "address" }, "the tenth failure makes the address busy")
        let brunoFailure = try #require(audit.last { $0["action"] == "login_failed" })
        #expect(brunoFailure["entityId"] == (try test.id(of: "bruno")) && brunoFailure["summary"] == "bruno")
    }

    @Test func anAccountLockoutIsAuditedOnceAndShownToTheAdmin() async throws {
        let test = try await TestApp()
        for _ in 1...5 { #expect(try test.browser().logIn("ana", "senha errada").status == 422) }
        #expect(try test.browser().logIn("ana", "senha errada").status == 429)
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 429)
        let lockouts = try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE action = 'lockout'") }
        #expect(lockouts == ["account: ana"])
        let admin = try test.browser(loggedInAs: "admin")
        let failed = try admin.get("/admin/audit?action=login_failed")
        #expect(failed.text.contains("errou a senha"))
        #expect(failed.text.contains("5 registros"))
        #expect(!failed.text.contains("<td>bloqueio temporário</td>"))
        let filtered = try admin.get("/admin/audit?action=lockout")
        #expect(filtered.text.contains("account: ana") && filtered.text.contains("<td>bloqueio temporário</td>"))
        for action in ["patient_mode_open", "patient_mode_exit", "password_reset", "link_request", "link_accept", "link_decline"] {
            #expect(filtered.text.contains(#"<option value="\#(action)""#), "\(action) is a filter")
        }
    }
}
