import ArgumentParser
import Foundation
import Tagarela

/// `tagarela restore`: a fresh data folder rebuilt from the Litestream replica, and its media from their copy.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a fresh data folder from a Litestream replica, optionally as it was at a point in time.",
        discussion: """
            Runs `litestream restore` into --data (which must hold no database yet), then copies the media files \
            (clips, pictures, meal photos) from --media. The server refuses to start on the folder until this has \
            finished. Example: tagarela restore --data /var/lib/tagarela-new --replica s3://clinic-backups/tagarela \
            --media /mnt/replica/media --timestamp 2026-11-23T17:00:00Z
            """)

    @OptionGroup var locations: Locations
    @Option(help: "The replica's URL, as in litestream.yml: file:///path, sftp://user@host/path, s3://bucket/path.")
    var replica: String
    @Option(help: "Restore the database as it was at this time (RFC 3339, e.g. 2026-11-23T17:00:00Z).")
    var timestamp: String?
    @Option(help: "The folder the media sync copies to; its files are copied into the new data folder.")
    var media: String?
    @Option(help: "The litestream binary. Default: $TAGARELA_LITESTREAM or litestream on the PATH.")
    var litestream = ProcessInfo.processInfo.environment["TAGARELA_LITESTREAM"] ?? "litestream"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run() async throws {
        let configuration = locations.appConfiguration
        let files = FileManager.default
        guard !files.fileExists(atPath: configuration.databasePath) else {
            throw Failure(description: "\(configuration.databasePath) already exists: restore into a fresh data folder "
                          + "(--data), then point the service at it")
        }
        try files.createDirectory(atPath: configuration.dataDirectory + "/db", withIntermediateDirectories: true)
        let marker = Restoring.markerPath(configuration)
        try "\(ProcessInfo.processInfo.processIdentifier)\n".write(toFile: marker, atomically: true, encoding: .utf8)
        let started = Date()

        var arguments = ["restore", "-o", configuration.databasePath, "-integrity-check", "quick"]
        if let timestamp { arguments += ["-timestamp", timestamp] }
        print("Restoring the database from \(replica)…")
        try run(litestream, arguments + [replica], what: "litestream restore")

        if let media {
            print("Copying media from \(media)…")
            try files.createDirectory(atPath: configuration.mediaDirectory, withIntermediateDirectories: true)
            // -a keeps times; content-addressed files never differ, so existing ones are skipped.
            try run("rsync", ["-a", "--ignore-existing", media.hasSuffix("/") ? media : media + "/",
                              configuration.mediaDirectory + "/"], what: "rsync")
        }
        try files.removeItem(atPath: marker)
        let seconds = Date().timeIntervalSince(started)
        print("Restored into \(configuration.dataDirectory) in \(String(format: "%.1f", seconds)) s. "
              + "Start it with: tagarela serve --data \(configuration.dataDirectory)")
    }

    /// Runs a tool with this terminal's output, failing with one line that names it.
    private func run(_ executable: String, _ arguments: [String], what: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        do { try process.run() } catch {
            throw Failure(description: "\(what) could not start (\(error)); is \(executable) installed? "
                          + "scripts/install-litestream installs litestream")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(what) failed with status \(process.terminationStatus); the folder "
                          + "\(locations.appConfiguration.dataDirectory) is incomplete: delete it and restore again")
        }
    }
}
