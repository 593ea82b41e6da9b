import Foundation
import HTTPTestSupport
@testable import Tagarela
import Testing

/// An invitation link begins with the configured site address, never with the request's `Host` header,
/// which anyone can send (issue 49): a forged host must not turn a clinician's link into a phishing one.
@Suite struct InvitationLinkTests {
    @Test func theLinkBeginsWithTheSiteAddressWhateverTheHostSays() async throws {
        let test = try await TestApp { $0.siteURL = "https://clinica.example/" }
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        // The request as a forger sends it: its only Host is theirs.
        let body = Array("_csrf=\(ana.csrf)&tutorUsername=vovo.rosa&tutorName=Rosa+Costa".utf8)
        let cookies = ana.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let head = "POST /patients/\(carla)/tutors HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\nCookie: \(cookies)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n"
        let created = try ana.client.sendRaw(Array(head.utf8) + body)
        #expect(created.status == 200)
        #expect(created.text.contains(#"value="https://clinica.example/invitations/"#))
        #expect(!created.text.contains("evil.example"))
    }

    @Test func withoutASiteAddressTheLinkIsLocal() {
        var configuration = AppConfiguration(port: 9000)
        #expect(configuration.linkBase == "http://localhost:9000")
        configuration.siteURL = "https://tagarela.example.org"
        #expect(configuration.linkBase == "https://tagarela.example.org")
    }
}
