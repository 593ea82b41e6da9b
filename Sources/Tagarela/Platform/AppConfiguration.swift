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
    /// Tests only: every routed answer carries `X-Tagarela-DB-Accesses` (the reads and writes its
    /// handler opened) and `X-Tagarela-DB-Nested` (nested accesses refused; see `DatabaseScope`).
    public var reportsDatabaseAccesses = false
    /// Tests only: every template rendered is rendered again by swift-mustache and any difference is
    /// kept in `Templates.differences` (see `CompiledTemplates`).
    public var comparesTemplates = false
    /// Tests only: the SQL of every statement any connection of the pool runs, as SQLite traces it (the
    /// cache-coverage test reads from it which tables a cached read touched).
    public var statementTrace: (@Sendable (String) -> Void)?
    /// The address people open Tagarela at (`https://clinica.example`), which invitation and reset links
    /// start with; nil: `http://localhost:<port>`. Never the request's `Host` header, which anyone sends.
    public var siteURL: String?
    /// Tests only: voices (`SpeechVoice` names) treated as not installed, as on a machine without them.
    public var voicesLeftOut: Set<String> = []

    /// Set on a node serving a tenant's read-only replica (`Tenants/`): the address of its primary. The
    /// database is opened read-only and never migrated; Litestream keeps it up to date.
    public var primaryURL: String?
    var isReadOnlyReplica: Bool { primaryURL != nil }

    /// Where links sent outside the app (invitations, resets) begin, without a trailing slash.
    var linkBase: String {
        let base = siteURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        return base.isEmpty ? "http://localhost:\(port)" : base
    }

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
    /// Where `scripts/install-password-list` wrote `breached.txt`; tests share one.
    public var passwordsDirectory: String?
    public var breachedPasswordsFile: String {
        URL(fileURLWithPath: passwordsDirectory ?? dataDirectory + "/passwords").appendingPathComponent("breached.txt").path
    }
    public var audioDirectory: String?
    public var audioFolder: String { audioDirectory ?? mediaDirectory + "/audio" }
    public var templatesDirectory: String { resourcesDirectory + "/Templates" }
    public var publicDirectory: String { resourcesDirectory + "/Public" }

    /// Creates the data directory layout if it is missing, and checks that this process may write
    /// every part of it (the database and its journal included): a read-only folder is named at start,
    /// with the fix, instead of surfacing later as a bare SQLite error.
    func prepareDirectories() throws {
        let folders = [dataDirectory, dataDirectory + "/db", uploadsDirectory, mediaDirectory]
        for directory in folders.dropFirst() {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw DataFolderNotWritable(path: DataFolderNotWritable.nearestExisting(directory), dataDirectory: dataDirectory)
            }
        }
        let databaseFiles = ["", "-wal", "-shm"].map { databasePath + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        for path in folders.dropFirst() + databaseFiles where access(path, W_OK) != 0 {
            throw DataFolderNotWritable(path: path, dataDirectory: dataDirectory)
        }
    }
}

/// The data folder, or a file or folder in it, that this process may not write; its description is
/// the one line `tagarela serve` and `migrate` print before exiting non-zero.
public struct DataFolderNotWritable: Error, CustomStringConvertible {
    public let path: String
    public let dataDirectory: String

    init(path: String, dataDirectory: String) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
        self.dataDirectory = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
    }

    public var description: String {
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid \(geteuid())"
        var owner = ""
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           let name = attributes[.ownerAccountName] as? String, let mode = attributes[.posixPermissions] as? Int {
            owner = " (owner \(name), mode \(String(mode, radix: 8)))"
        }
        return "the data folder is not writable: \(path)\(owner) cannot be written by user \(user). "
            + "Fix: give that user write access to \(dataDirectory) (e.g. sudo chown -R \(user) \(dataDirectory)), "
            + "or start with --data pointing at a folder it can write."
    }

    /// The deepest part of `path` that exists: where a folder could not be created.
    static func nearestExisting(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        return url.path
    }
}
