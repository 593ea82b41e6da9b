import Foundation
@testable import Tagarela
import Testing

/// RFC 6238's own test vectors (Appendix B, SHA-1, 8 digits), six-digit codes, replays and clock drift.
@Suite struct TOTPTests {
    static let rfcSecret = Array("12345678901234567890".utf8)

    @Test(arguments: [(59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
                      (2_000_000_000, "69279037"), (20_000_000_000, "65353130")])
    func theRFCsVectors(_ time: Int, _ expected: String) {
        let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(time)))
        #expect(TOTP.code(secret: Self.rfcSecret, step: step, digits: 8) == expected)
    }

    @Test func aCodeIsGoodOnceAndOnlyNearItsTime() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let step = TOTP.step(at: now)
        let code = TOTP.code(secret: Self.rfcSecret, step: step)
        #expect(code.count == 6)
        #expect(TOTP.acceptedStep(code, secret: Self.rfcSecret, at: now, after: nil) == step)
        #expect(TOTP.acceptedStep(String(code.prefix(3)) + " " + code.dropFirst(3), secret: Self.rfcSecret, at: now, after: nil) == step,
                "typed with a space")
        #expect(TOTP.acceptedStep(code, secret: Self.rfcSecret, at: now, after: step) == nil, "a used code is refused")
        #expect(TOTP.acceptedStep(code, secret: Self.rfcSecret, at: now.addingTimeInterval(30), after: nil) == step, "a phone 30 s behind")
        #expect(TOTP.acceptedStep(code, secret: Self.rfcSecret, at: now.addingTimeInterval(95), after: nil) == nil, "too old")
        #expect(TOTP.acceptedStep("12345", secret: Self.rfcSecret, at: now, after: nil) == nil)
        #expect(TOTP.acceptedStep("١٢٣٤٥٦", secret: Self.rfcSecret, at: now, after: nil) == nil, "ASCII digits only")
    }

    @Test func theSecretIsBase32AsAppsTypeIt() {
        #expect(TOTP.base32(Array("foobar".utf8)) == "MZXW6YTBOI")  // RFC 4648 §10, unpadded
        #expect(TOTP.base32(Self.rfcSecret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        let uri = TOTP.provisioningURI(secret: Self.rfcSecret, account: "ana", issuer: "Tagarela")
        #expect(uri == "otpauth://totp/Tagarela:ana?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Tagarela&algorithm=SHA1&digits=6&period=30")
    }
}
