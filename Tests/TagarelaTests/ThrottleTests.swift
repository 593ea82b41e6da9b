import Foundation
import GRDB
import HTTPTestSupport
import Logging
@testable import Tagarela
import Testing

/// Throttling that cannot be turned against users (issue 14, item 8), and the audit entries it leaves.
@Suite struct ThrottleTests {
    typealias Record = LoginThrottle.Record
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func failures(_ count: Int, secondsAgo: TimeInterval = 1) -> Record {
        Record(failures: count, lastFailure: now.addingTimeInterval(-secondsAgo))
    }

    /// An account waits for its own failures only (issue 49: a busy address made ana wait 840 s); an address
    /// that got twenty accounts wrong (a spray) makes every try from it wait.
    @Test func anAccountWaitsForItsOwnFailuresAndASprayForItsAddress() {
        #expect(LoginThrottle.loginWait(account: Self.failures(3), spray: Self.failures(19), now: Self.now) == 0,
                "three slips of one's own, from an address that got nineteen accounts wrong")
        #expect(LoginThrottle.loginWait(account: nil, spray: Self.failures(20), now: Self.now) == 29, "a spray waits")
        #expect(LoginThrottle.loginWait(account: Self.failures(6), spray: nil, now: Self.now) == 59, "its own sixth failure: 60 s")
    }

    @Test func anAccountUnderAttackWaitsWhereverTheRightPasswordComesFrom() {
        #expect(LoginThrottle.loginWait(account: Self.failures(4), spray: nil, now: Self.now) == 0)
        #expect(LoginThrottle.loginWait(account: Self.failures(5), spray: nil, now: Self.now) == 29)
        #expect(LoginThrottle.loginWait(account: Self.failures(5, secondsAgo: 31), spray: nil, now: Self.now) == 0)
        #expect(LoginThrottle.loginWait(account: Self.failures(9, secondsAgo: LoginThrottle.forgetAfter + 1), spray: nil,
                                        now: Self.now) == 0, "a quiet spell forgets")
    }

    /// The issue's attack: fifty wrong logins for ana spread over the window, then a spray of two tries on 25
    /// other names from the same address. The spray is slowed; ana's wait is her own, from anywhere.
    @Test func aSprayIsSlowedAndAnAccountsLockIsItsOwn() {
        let throttle = LoginThrottle()
        var now = Self.now
        for index in 1...25 {
            for _ in 1...2 {
                let admission = throttle.admit(username: "nome\(index)", address: "attacker", now: now)
                if index < 20 { #expect(admission.wait == 0, "nome\(index)") }
            }
        }
        #expect(throttle.admit(username: "nome26", address: "attacker", now: now).wait > 0, "the spray waits")
        #expect(throttle.admit(username: "ana", address: "clinic", now: now).wait == 0, "ana, elsewhere, is not slowed")
        throttle.recordSuccess(username: "ana", address: "clinic")
        for _ in 1...2 { #expect(throttle.admit(username: "bruno", address: "clinic", now: now).wait == 0) }
        now = now.addingTimeInterval(1)
        #expect(throttle.admit(username: "bruno", address: "home", now: now).wait == 0, "two slips of bruno's lock nothing")
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
        #expect(tenth.locksAddress && !tenth.locksAccount, "the tenth failure is audited as a busy address")
        // ana's own login is admitted and succeeds: the address keeps its ten failures and its ten guessed names.
        #expect(throttle.admit(username: "ana", address: "school", now: Self.now).wait == 0)
        throttle.recordSuccess(username: "ana", address: "school")
        let kept = throttle.records(["a:school", "s:school", "u:ana", "p:ana\u{0}school"], now: Self.now)
        #expect(kept.map { $0.record?.failures } == [10, 10, nil, nil])
        for index in 11...20 { #expect(throttle.admit(username: "guess\(index)", address: "school", now: Self.now).wait == 0) }
        #expect(throttle.admit(username: "guess21", address: "school", now: Self.now).wait == 30, "twenty names wrong: a spray")
        #expect(throttle.admit(username: "guess21", address: "home", now: Self.now).wait == 0, "from elsewhere it may still try")
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

    /// A school behind one router: ten failures there do not stop someone else's right password, and a
    /// few slips of one's own do not lock an account (issue 49: only its own five do).
    @Test func aBusyAddressStillLetsARightPasswordIn() async throws {
        let test = try await TestApp()
        for index in 1...10 { #expect(try test.browser().logIn("aluno\(index)", "chute errado").status == 422) }
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 303)
        #expect(try test.browser().logIn("bruno", DemoClinic.password).status == 303)
        for _ in 1...3 { #expect(try test.browser().logIn("bruno", "quase certo").status == 422) }
        #expect(try test.browser().logIn("bruno", DemoClinic.password).status == 303, "three slips of his own")
        #expect(try test.browser().logIn("nadia", DemoClinic.password).status == 303, "nadia is not under attack")

        let audit = try test.read { try Row.fetchAll($0, sql: "SELECT action, entity, entityId, summary FROM auditEntry WHERE action IN ('login_failed', 'lockout') ORDER BY id") }
        #expect(audit.filter { $0["action"] == "login_failed" }.count == 13)
        #expect(audit.contains { $0["action"] == "lockout" && $0["entity"] == "address" }, "the tenth failure makes the address busy")
        let brunoFailure = try #require(audit.last { $0["action"] == "login_failed" })
        #expect(brunoFailure["entityId"] == (try test.id(of: "bruno")) && brunoFailure["summary"] == "bruno")
    }

    /// The account page's current-password check counts like a login: after five wrong tries it waits (429),
    /// even with the right password, and the wait is the account's everywhere.
    @Test func thePasswordPageIsThrottledLikeALogin() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let change = { (current: String) in
            try ana.post("/account/password", [("current", current), ("password", "uma-senha-bem-longa-9"),
                                               ("confirmation", "uma-senha-bem-longa-9")])
        }
        for _ in 1...5 { #expect(try change("senha errada").status == 422) }
        let throttled = try change(DemoClinic.password)
        #expect(throttled.status == 429 && throttled.header("Retry-After") == "30")
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 429, "the same account, locked everywhere")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM auditEntry WHERE action = 'login_failed'") } == 5)
        test.clock.advance(by: 31)
        #expect(try change(DemoClinic.password).status == 303)
    }

    /// The counts are kept in the database: a server started again on the same data still makes the
    /// locked account wait.
    @Test func theCountsSurviveARestart() async throws {
        let test = try await TestApp()
        for _ in 1...5 { #expect(try test.browser().logIn("ana", "senha errada").status == 422) }
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 429)
        let kept = try test.read { try LoginFailures.live(now: test.clock.now, $0) }
        #expect(kept.first { $0.key == "u:ana" }?.record.failures == 5)
        // The server started again on the same data takes the counts back.
        let clock = test.clock
        let restarted = try await App.make(test.app.configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                           clock: { clock.now })
        #expect(restarted.loginThrottle.admit(username: "ana", address: "elsewhere", now: clock.now).wait > 0, "restarted: still locked")
        test.clock.advance(by: 31)
        #expect(try test.browser().logIn("ana", DemoClinic.password).status == 303)
        #expect(try test.read { try LoginFailures.live(now: test.clock.now, $0) }.first { $0.key == "u:ana" } == nil,
                "a success takes the account's count out of the database")
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
