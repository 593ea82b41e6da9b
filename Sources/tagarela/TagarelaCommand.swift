import ArgumentParser
import Foundation
import Logging
import Tagarela

@main
struct TagarelaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tagarela",
        abstract: "Tagarela: AAC boards, eduCAT games, nutrition and body composition for clinics and families.",
        subcommands: [Serve.self, Migrate.self, Backup.self])
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
        return configuration
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate the database and serve the web application until SIGINT or SIGTERM.",
        discussion: "On SIGINT or SIGTERM it stops accepting connections, lets requests in flight finish (up to 30 s) and exits 0.")

    @OptionGroup var locations: Locations
    @Option(help: "TCP port to listen on.") var port: UInt16 = 8080
    @Option(help: "Worker threads; each handles its connections' requests in turn. Default: the number of cores.")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    func run() async throws {
        let logger = makeLogger()
        var configuration = locations.appConfiguration
        configuration.port = port
        configuration.threads = threads
        let app = try await App.make(configuration, logger: logger)
        let server = app.makeServer()
        try server.start()
        logger.notice("Tagarela serves http://localhost:\(server.port) with data in \(configuration.dataDirectory)")
        await TerminationSignal.wait()
        logger.notice("stopping: finishing requests in flight")
        server.shutdown(gracePeriod: .seconds(30))
        logger.notice("stopped")
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")

    @OptionGroup var locations: Locations

    func run() async throws {
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

func makeLogger() -> Logger {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return handler
    }
    return Logger(label: "tagarela")
}
