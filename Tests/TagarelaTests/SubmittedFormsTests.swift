import Foundation
import GRDB
import HTTPServer
import Synchronization
@testable import Tagarela
import Testing

@Suite struct SubmittedFormsTests {
    static let key = String(repeating: "a", count: 43)

    @Test func aRedirectIsRepeatedAndARefusedFormRunsAgain() {
        let forms = SubmittedForms()
        let now = Date()
        guard case .first = forms.begin(Self.key, now: now) else { Issue.record("a new key runs"); return }
        forms.finish(Self.key, with: .html("typing error", status: .unprocessableContent), now: now)
        guard case .first = forms.begin(Self.key, now: now) else { Issue.record("a refused form runs again"); return }
        forms.finish(Self.key, with: .redirect(to: "/plans/7/edit"), now: now)
        guard case .repeated(let answer) = forms.begin(Self.key, now: now.addingTimeInterval(60)) else {
            Issue.record("a stored form is answered, not run"); return
        }
        #expect(answer.headers["Location"] == "/plans/7/edit")
        guard case .first = forms.begin(Self.key, now: now.addingTimeInterval(25 * 60 * 60)) else {
            Issue.record("a day later the key is forgotten"); return
        }
    }

    @Test func aRepeatWaitsForTheFirstRequestStillRunning() throws {
        let forms = SubmittedForms()
        let now = Date()
        guard case .first = forms.begin(Self.key, now: now) else { Issue.record("a new key runs"); return }
        let answered = DispatchSemaphore(value: 0)
        let location = Mutex<String?>(nil)
        Thread.detachNewThread {
            if case .repeated(let answer) = forms.begin(Self.key, now: now) { location.withLock { $0 = answer.headers["Location"] } }
            answered.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(location.withLock { $0 } == nil, "the second request waits while the first runs")
        forms.finish(Self.key, with: .redirect(to: "/done"), now: now)
        #expect(answered.wait(timeout: .now() + 5) == .success)
        #expect(location.withLock { $0 } == "/done")
        #expect(SubmittedForms.isWellFormed(Token.make()))
        #expect(!SubmittedForms.isWellFormed("short"))
        #expect(!SubmittedForms.isWellFormed(String(repeating: "é", count: 43)))
    }

    @Test func tokensAreURLSafeBase64WithoutPadding() {
        // RFC 4648's alphabet of section 5: 0xfb 0xff 0xbf is "+/+/" in the standard one.
        #expect(Token.base64URL(Data([0xfb, 0xff, 0xbf])) == "-_-_")
        #expect(Token.base64URL(Data([0xfb, 0xff])) == "-_8", "no padding")
        #expect(Token.base64URL(Data("Tagarela".utf8)) == "VGFnYXJlbGE")
        let tokens = (0..<200).map { _ in Token.make() }
        #expect(Set(tokens).count == 200)
        #expect(tokens.allSatisfy { $0.utf8.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }

    func onceKey(_ page: String) throws -> String {
        try #require(page.firstMatch(of: /name="_once" value="([^"]+)"/).map { String($0.1) })
    }

    func plans(_ test: TestApp, named name: String) throws -> Int {
        try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM plan WHERE name = ?", arguments: [name]) ?? 0 }
    }

    @Test func aDoubleSubmittedPlanIsStoredOnceAndBothAnswersShowIt() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let once = try onceKey(try ana.get("/patients/\(carla)/plans/new").text)
        #expect(try onceKey(try ana.get("/patients/\(carla)/plans/new").text) != once, "every form rendered has its own key")
        let fields = [("_once", once), ("name", "Praia"), ("type", "board"), ("rows", "2"), ("columns", "3")]

        // Two taps at once, then the back button and "send" again.
        let (client, form, cookies) = (ana.client, [("_csrf", ana.csrf)] + fields, ana.cookieHeader)
        async let first = client.postForm("/patients/\(carla)/plans", form, headers: cookies)
        async let second = client.postForm("/patients/\(carla)/plans", form, headers: cookies)
        let answers = try await [first, second]
        let again = try ana.post("/patients/\(carla)/plans", fields)

        #expect(answers.map(\.status) == [303, 303])
        #expect(again.status == 303)
        #expect(Set(answers.map { $0.header("Location") } + [again.header("Location")]).count == 1)
        #expect(try plans(test, named: "Praia") == 1)

        // Another session (another device) with the same key is another submission.
        let other = try test.browser(loggedInAs: "ana")
        #expect(try other.post("/patients/\(carla)/plans", fields).status == 303)
        #expect(try plans(test, named: "Praia") == 2)
    }

    @Test func aFormCorrectedAfterAnErrorIsStoredWithTheSameKey() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let once = try onceKey(try ana.get("/patients/\(carla)/plans/new").text)
        let wrong = try ana.post("/patients/\(carla)/plans", [("_once", once), ("name", "Praia"), ("type", "board"),
                                                               ("rows", "17"), ("columns", "3")])
        #expect(wrong.status == 422)
        let corrected = try ana.post("/patients/\(carla)/plans", [("_once", once), ("name", "Praia"), ("type", "board"),
                                                                   ("rows", "2"), ("columns", "3")])
        #expect(corrected.status == 303)
        #expect(try plans(test, named: "Praia") == 1)
    }
}
