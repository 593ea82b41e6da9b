import ArgumentParser
import Foundation
import Logging
import Tagarela

@main
struct TagarelaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tagarela",
        abstract: "Tagarela: AAC boards, eduCAT games, nutrition and body composition for clinics and families.",
        subcommands: [Serve.self, Migrate.self, Backup.self, Restore.self, SeedDemo.self, UserCommand.self, TenantCommand.self, EduCATAudioCommand.self])
}

/// Where the data and the templates are; shared by every subcommand.
struct Locations: ParsableArguments {
    @Option(help: "Data directory: SQLite database, generated media, uploads. Default: $TAGARELA_DATA or ./var")
    var data = ProcessInfo.processInfo.environment["TAGARELA_DATA"] ?? "var"

    @Option(help: "Folder holding Templates/ and Public/. Default: $TAGARELA_RESOURCES or the current directory")
    var resources = ProcessInfo.processInfo.environment["TAGARELA_RESOURCES"] ?? FileManager.default.currentDirectoryPath

    var appConfiguration: AppConfiguration {
        var configuration = AppConfiguration(dataDirectory: data, resourcesDirectory: resources)
        configuration.secureCookies = ProcessInfo.processInfo.environment["TAGARELA_SECURE_COOKIES"] == "1"
        configuration.trustProxyHeaders = ProcessInfo.processInfo.environment["TAGARELA_TRUST_PROXY"] == "1"
        configuration.siteURL = ProcessInfo.processInfo.environment["TAGARELA_SITE_URL"]
        // Shared folders for test runs: pictograms installed once, clips generated once.
        configuration.pictogramsDirectory = ProcessInfo.processInfo.environment["TAGARELA_PICTOGRAMS"]
        configuration.audioDirectory = ProcessInfo.processInfo.environment["TAGARELA_AUDIO"]
        configuration.passwordsDirectory = ProcessInfo.processInfo.environment["TAGARELA_PASSWORDS"]
        return configuration
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate the database and serve the web application until SIGINT or SIGTERM.",
        discussion: "On SIGINT or SIGTERM it stops accepting connections, lets requests in flight finish (up to 30 s) and exits 0.")

    @OptionGroup var locations: Locations
    @Option(help: "TCP port to listen on.") var port: UInt16 = 8080
    @Option(help: "Connection threads, and as many request workers answering requests in arrival order (requests that write take all but one at most). Default: the number of cores.")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    func run() async throws {
        let logger = makeLogger()
        var configuration = locations.appConfiguration
        configuration.port = port
        configuration.threads = threads
        if TenantFile(nodeDataDirectory: configuration.dataDirectory).exists {
            try await serveTenants(configuration, logger: logger)
            return
        }
        try Restoring.refuseIfInProgress(configuration)
        FreedMemory.limitArenas()
        let app = try await App.make(configuration, logger: logger)
        let server = app.makeServer()
        try server.start()
        FreedMemory.startReturning()
        logger.notice("Tagarela serves http://localhost:\(server.port) with data in \(configuration.dataDirectory)")
        await TerminationSignal.wait()
        logger.notice("stopping: finishing requests in flight")
        server.shutdown(gracePeriod: .seconds(30))
        app.saveBeforeExit()
        logger.notice("stopped")
    }

    /// A node with `tenants.conf` in its data folder: every tenant it names, chosen by host (`TenantNode`).
    func serveTenants(_ configuration: AppConfiguration, logger: Logger) async throws {
        FreedMemory.limitArenas()
        let node = try await TenantNode.make(configuration, logger: logger)
        node.startWatching()
        let server = node.makeServer()
        try server.start()
        FreedMemory.startReturning()
        logger.notice("Tagarela serves \(node.apps.count) tenants on port \(server.port), listed in \(node.file.path)")
        await TerminationSignal.wait()
        logger.notice("stopping: finishing requests in flight")
        node.stopWatching()
        server.shutdown(gracePeriod: .seconds(30))
        node.saveBeforeExit()
        logger.notice("stopped")
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")

    @OptionGroup var locations: Locations

    func run() async throws {
        try Restoring.refuseIfInProgress(locations.appConfiguration)
        let migrated = try AppDatabase.migrate(locations.appConfiguration)
        print(migrated.isEmpty ? "The database is up to date." : "Applied: \(migrated.joined(separator: ", "))")
    }
}

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a consistent copy of the database to FILE, safe to run while the server writes.")

    @OptionGroup var locations: Locations
    @Argument(help: "The backup file to write (replaced if it exists).") var file: String

    func run() async throws {
        let configuration = locations.appConfiguration
        let pool = try AppDatabase.open(at: configuration.databasePath, migrate: false)
        try AppDatabase.backup(pool, to: file)
        print("Backup written to \(file)")
    }
}

struct SeedDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo",
        abstract: "Load the demo clinic (admin, clinicians, trainer, tutors, patients, clients) once, and print its logins.")

    @OptionGroup var locations: Locations

    func run() async throws {
        let configuration = locations.appConfiguration
        _ = try AppDatabase.migrate(configuration)
        let pool = try AppDatabase.open(at: configuration.databasePath, migrate: false)
        try FoodCatalogue.load(from: configuration.resourcesDirectory + "/Data/foods.json", into: pool)
        print("Loading the demo clinic (generating its speech clips takes a few seconds the first time)…")
        let resources = try DemoClinic.DemoResources(resourcesDirectory: configuration.resourcesDirectory,
                                                     audioDirectory: configuration.audioFolder)
        guard let logins = try DemoClinic.seed(pool, hasher: PasswordHasher(parameters: configuration.passwordHashing),
                                               resources: resources) else {
            print("The demo clinic is already loaded. Logins: admin, ana, nadia, dani, bruno, beatriz, elisa; password: \(DemoClinic.password)")
            return
        }
        print("Demo clinic loaded. Every login below uses the password: \(DemoClinic.password)")
        for login in logins {
            print("  \(login.username.padding(toLength: 10, withPad: " ", startingAt: 0)) \(login.role.padding(toLength: 10, withPad: " ", startingAt: 0)) \(login.name)")
        }
    }
}

struct EduCATAudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "educat-audio",
        abstract: "Generate the eduCAT games' clips (espeak-ng) and background tune (sox) once; fast when already done.")

    @OptionGroup var locations: Locations

    func run() async throws {
        let configuration = locations.appConfiguration
        let terminal = isatty(STDOUT_FILENO) == 1
        let summary = try EduCATAudio.generate(
            resourcesDirectory: configuration.resourcesDirectory, audioDirectory: configuration.audioFolder,
            progress: { step in
                // On a terminal one line that updates; in a log one line per finished language.
                if terminal {
                    print("\r\u{1B}[Keducat audio: \(step)", terminator: "")
                    fflush(nil)
                } else if let counts = step.split(separator: " ").last?.split(separator: "/"), counts.count == 2, counts[0] == counts[1] {
                    print("educat audio: \(step)")
                }
            })
        if terminal { print("\r\u{1B}[K", terminator: "") }
        print("educat audio: \(summary.total) clips in \(configuration.audioFolder) (\(summary.generated) new)")
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts from the command line.", subcommands: [AddUser.self])
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create a staff account (admin, clinician or trainer).",
        discussion: "Asks for the password twice on a terminal; with --invite, prints a one-time link instead.")

    @OptionGroup var locations: Locations
    @Option(help: "admin, clinician or trainer.") var role: String
    @Option(help: "The login name (letters, digits, . - _ @).") var username: String
    @Option(help: "The name shown in pages. Default: the username.") var name: String?
    @Option(help: "For clinicians: speech, nutrition or both (comma-separated).") var specialties = "speech"
    @Flag(help: "Print an invitation link instead of asking for a password.") var invite = false
    @Option(help: "The address the invitation link starts with.") var baseURL = "http://localhost:8080"

    func run() async throws {
        let configuration = locations.appConfiguration
        _ = try AppDatabase.migrate(configuration)
        let pool = try AppDatabase.open(at: configuration.databasePath, migrate: false)
        let password = invite ? nil : try readPassword()
        let result = try Accounts.addStaff(
            pool, role: role, username: username, name: name ?? username,
            specialties: specialties.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) },
            password: password, hasher: PasswordHasher(parameters: configuration.passwordHashing),
            breached: BreachedPasswords.load(file: configuration.breachedPasswordsFile).list)
        switch result {
        case .created(let token):
            print("Created \(role) \(username).")
            if let token { print("Invitation (valid 7 days, once): \(baseURL)/invitations/\(token)") }
        case .refused(let reason):
            throw ValidationError(reason)
        }
    }

    func readPassword() throws -> String {
        guard let first = getpass("Password (12 characters or more): ").map({ String(cString: $0) }),
              let second = getpass("Repeat the password: ").map({ String(cString: $0) })
        else { throw ValidationError("No password given.") }
        guard first == second else { throw ValidationError("The two passwords differ.") }
        return first
    }
}

func makeLogger() -> Logger {
    // Each log line's time is the C library's local time; with TZ unset, glibc looks at /etc/localtime
    // again for every line (a `stat`, 3 % of a board's load). The zone Foundation already found is named
    // once instead, before the server starts.
    if getenv("TZ") == nil { setenv("TZ", TimeZone.current.identifier, 0) }
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return handler
    }
    return Logger(label: "tagarela")
}
