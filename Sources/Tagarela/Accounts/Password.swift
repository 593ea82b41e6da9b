import CArgon2
import Foundation

/// argon2id cost parameters. The defaults are OWASP's recommendation.
public struct Argon2Parameters: Sendable, Equatable {
    public var iterations: UInt32 = 2
    public var memoryKiB: UInt32 = 19_456
    public var parallelism: UInt32 = 1

    public init(iterations: UInt32 = 2, memoryKiB: UInt32 = 19_456, parallelism: UInt32 = 1) {
        self.iterations = iterations
        self.memoryKiB = memoryKiB
        self.parallelism = parallelism
    }

    /// Read back from an encoded hash: `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`.
    init?(encoded: String) {
        let fields = encoded.split(separator: "$")
        guard fields.count == 5, fields[0] == "argon2id" else { return nil }
        var values: [Substring: UInt32] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let value = UInt32(parts[1]) else { return nil }
            values[parts[0]] = value
        }
        guard let m = values["m"], let t = values["t"], let p = values["p"] else { return nil }
        self.init(iterations: t, memoryKiB: m, parallelism: p)
    }

    /// True when a hash made with `self` is weaker than one made with `target` in any respect.
    func isWeaker(than target: Argon2Parameters) -> Bool {
        iterations < target.iterations || memoryKiB < target.memoryKiB || parallelism < target.parallelism
    }
}

/// Hashes and verifies passwords with argon2id (libargon2), each with its own random salt.
public struct PasswordHasher: Sendable {
    public let parameters: Argon2Parameters

    public init(parameters: Argon2Parameters = Argon2Parameters()) {
        self.parameters = parameters
    }

    /// The encoded hash string (algorithm, parameters, salt and hash in one).
    public func hash(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()  // getrandom(2): the system CSPRNG
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let hashLength = 32
        let length = argon2_encodedlen(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                       UInt32(salt.count), UInt32(hashLength), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let bytes = Array(password.utf8)
        let result = argon2id_hash_encoded(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                           bytes, bytes.count, salt, salt.count, hashLength, &encoded, length)
        precondition(result == ARGON2_OK.rawValue, "argon2id_hash_encoded failed: \(result)")
        return encoded.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Compares in constant time (libargon2 does). A malformed hash never verifies.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let bytes = Array(password.utf8)
        return argon2id_verify(encoded, bytes, bytes.count) == ARGON2_OK.rawValue
    }

    /// Whether a stored hash should be redone with the current parameters at the next login.
    public func needsRehash(_ encoded: String) -> Bool {
        guard let stored = Argon2Parameters(encoded: encoded) else { return true }
        return stored.isWeaker(than: parameters)
    }
}

/// What makes a password acceptable. Pure: tested without a database.
enum PasswordPolicy {
    /// OWASP ASVS 2.1.1: at least 12 characters; any character, spaces included, so a phrase will do.
    static let minimumLength = 12
    static let maximumLength = 256

    enum Problem: String, Sendable {
        case tooShort = "password_too_short"
        case tooLong = "password_too_long"
        case tooCommon = "password_too_common"
        case mismatch = "password_mismatch"
    }

    static func problem(with password: String, confirmation: String? = nil, username: String? = nil,
                        breached: BreachedPasswords = .builtIn) -> Problem? {
        if password.count < minimumLength { return .tooShort }
        if password.count > maximumLength { return .tooLong }
        let folded = password.lowercased()
        if breached.contains(folded) || Set(folded).count <= 2
            || username.map({ !$0.isEmpty && folded.contains($0.lowercased()) && folded.count - $0.count < 4 }) == true {
            return .tooCommon
        }
        if let confirmation, confirmation != password { return .mismatch }
        return nil
    }
}

/// Passwords known from breaches, refused as new passwords (ASVS 2.1.7): the list
/// `scripts/install-password-list` installs (30 000 from public breaches), and our own favourites of
/// Portuguese, Spanish and Catalan speakers. Only those long enough to pass the length rule are kept.
public struct BreachedPasswords: Sendable {
    private let entries: Set<String>

    init(_ words: some Sequence<String>) {
        entries = Set(words.lazy.map { $0.lowercased() }.filter { $0.count >= PasswordPolicy.minimumLength })
    }

    func contains(_ folded: String) -> Bool { entries.contains(folded) }
    var count: Int { entries.count }

    public static let builtIn = BreachedPasswords(localFavourites)

    /// The installed list (one per line) with the favourites, or the favourites alone when it is missing.
    public static func load(file path: String) -> (list: BreachedPasswords, loaded: Bool) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (builtIn, false) }
        return (BreachedPasswords(text.split(whereSeparator: \.isNewline).map(String.init) + localFavourites), true)
    }

    /// Frequent passwords from public breach lists, with Portuguese, Spanish and Catalan favourites.
    static let localFavourites: [String] = [
        "1234567890", "0123456789", "12345678910", "123456789a", "a123456789", "1q2w3e4r5t", "1qaz2wsx3edc",
        "qwertyuiop", "asdfghjkl1", "password12", "password123", "password1234", "passw0rd12", "iloveyou12",
        "qwerty1234", "qwerty12345", "abcdefghij", "abc1234567", "abcd123456", "1111111111", "0000000000",
        "9876543210", "zaq12wsx34", "football12", "princesa12", "letmein123", "welcome123", "admin12345",
        "administrator", "changeme123", "senha12345", "senha123456", "minhasenha", "minhasenha1", "mudar12345",
        "brasil2026", "brasil1234", "flamengo12", "corinthians", "palmeiras1", "saopaulo10", "vasco12345",
        "amoreterno", "eusoufeliz", "jesuscristo", "deusefiel1", "contraseña", "contraseña1", "contrasena1",
        "contrasena", "micontraseña", "barcelona1", "realmadrid", "realmadrid1", "teamo12345", "españa1234",
        "contrasenya", "contrasenya1", "barça12345", "visca12345", "tagarela12", "tagarela123", "tagarela2026",
        "123456789012", "1234567890ab", "1q2w3e4r5t6y", "qwertyuiop12", "iloveyou1234", "minhasenha12", "minhasenha123",
        "senha1234567", "senha12345678", "brasil123456", "flamengo1234", "corinthians1", "palmeiras123", "contraseña12",
        "contraseña123", "contrasenya12", "realmadrid12", "barcelona123", "tagarela1234", "eusoufeliz12",
    ]
}
