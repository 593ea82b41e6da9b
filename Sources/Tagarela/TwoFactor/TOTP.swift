import Crypto
import Foundation

/// Time-based one-time passwords as RFC 6238 defines them and every authenticator app computes them:
/// HMAC-SHA-1 (swift-crypto) of the 30-second step, dynamically truncated to six digits. Pure.
enum TOTP {
    static let period: TimeInterval = 30
    static let digits = 6
    /// A secret of 20 random bytes, the size of SHA-1's output that RFC 4226 recommends.
    static let secretBytes = 20

    /// The 30-second step `date` falls in.
    static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The code of `step`, zero-padded to `digits` (RFC 4226 §5.3).
    static func code(secret: [UInt8], step: Int64, digits: Int = TOTP.digits) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let truncated = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(truncated % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The step a typed code belongs to: the current one or one either side (a phone's clock a little off),
    /// and only a step after `used` (a code is good once: a code seen over a shoulder cannot be replayed).
    static func acceptedStep(_ typed: String, secret: [UInt8], at date: Date, after used: Int64?) -> Int64? {
        let code = typed.filter { !$0.isWhitespace }
        guard code.count == digits, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: date)
        for candidate in [now - 1, now, now + 1] where candidate > (used ?? Int64.min) {
            if constantTimeEquals(Self.code(secret: secret, step: candidate), code) { return candidate }
        }
        return nil
    }

    /// RFC 4648 base32 without padding: how authenticator apps take a secret typed by hand.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var output = "", buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return output
    }

    /// The `otpauth://` address an authenticator app reads (the Key Uri Format every app accepts).
    static func provisioningURI(secret: [UInt8], account: String, issuer: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let label = (issuer + ":" + account).addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: ":"))) ?? account
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? issuer
        return "otpauth://totp/\(label)?secret=\(base32(secret))&issuer=\(issuerParameter)&algorithm=SHA1&digits=\(digits)&period=\(Int(period))"
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
