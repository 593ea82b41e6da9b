import Foundation
import HTTPServer

/// Everything that differs between `tagarela serve`, a test and production.
public struct AppConfiguration: Sendable {
    /// Holds the database (`db/`), generated media and uploads; created on first start.
    public var dataDirectory: String
    /// Holds `Templates/` and `Public/`.
    public var resourcesDirectory: String
    public var port: UInt16
    public var threads: Int
    /// Mark cookies `Secure`: set when served over TLS (behind nginx in production).
    public var secureCookies: Bool
    public var limits: Limits
    /// The clinic's time zone, for dates shown and "today".
    public var timeZone: TimeZone
    /// Take the client address from `X-Real-IP` (set by the nginx in deploy/).
    public var trustProxyHeaders = false
    public var passwordHashing = Argon2Parameters()
    public var sessions = SessionPolicy()

    public init(
        dataDirectory: String = "var",
        resourcesDirectory: String = FileManager.default.currentDirectoryPath,
        port: UInt16 = 8080,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        secureCookies: Bool = false,
        limits: Limits = Limits(),
        timeZone: TimeZone = .current
    ) {
        self.dataDirectory = dataDirectory
        self.resourcesDirectory = resourcesDirectory
        self.port = port
        self.threads = threads
        self.secureCookies = secureCookies
        self.limits = limits
        self.timeZone = timeZone
    }

    public var databasePath: String { dataDirectory + "/db/tagarela.sqlite" }
    public var uploadsDirectory: String { dataDirectory + "/tmp" }
    public var mediaDirectory: String { dataDirectory + "/media" }
    /// The OpenMoji SVGs that scripts/install-pictograms copies; tests may point at a shared copy.
    public var pictogramsDirectory: String?
    var pictogramFolder: String { pictogramsDirectory ?? dataDirectory + "/pictograms" }
    /// Generated clips are content-addressed, so test runs may share one folder of them.
    public var audioDirectory: String?
    public var audioFolder: String { audioDirectory ?? mediaDirectory + "/audio" }
    public var templatesDirectory: String { resourcesDirectory + "/Templates" }
    public var publicDirectory: String { resourcesDirectory + "/Public" }

    /// Creates the data directory layout if it is missing.
    func prepareDirectories() throws {
        for directory in [dataDirectory + "/db", uploadsDirectory, mediaDirectory] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }
}
