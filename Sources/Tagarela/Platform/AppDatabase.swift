import Foundation
import GRDB

/// The one SQLite database of a Tagarela instance.
public enum AppDatabase {
    /// Opens the database in WAL mode with foreign keys on, and brings its schema up to date.
    /// `trace` (tests) is given the SQL of every statement run.
    /// `readOnly`: a replica restored by Litestream (deploy/region/replica-refresh), opened without migrating.
    public static func open(at path: String, migrate: Bool = true, readOnly: Bool = false,
                            trace: (@Sendable (String) -> Void)? = nil) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.readonly = readOnly
        // A concurrent `tagarela migrate` or `backup` must wait for a writer, not fail.
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            // FULL: a commit survives a power cut, not only a killed process.
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = FULL") }
            // Pages kept per connection, 5 MiB where SQLite's default is 2: a worklist of 500 patients
            // touches more index pages than that, and read them from the file again on every load (pread
            // was 8 % of that page). 16 MiB ran no faster and, at ten times the clinic, took resident
            // memory past 150 MB. In three alternating 10× mixes, memory after the second run was 136–148 MB
            // with 8 MiB and 128–146 MB with 6 MiB, at the same speed. With the tap summaries' three tables
            // (2026-11-27) one 10× mix each ended at 153.7 MB with 6 MiB, 147.2 with 5 and 145.2 with 4, at
            // 1 188, 1 046 and 1 062 requests/s in run 2 (runs differ by a tenth): 5 MiB.
            // Readers are opened on demand, as many as reads run at once.
            try db.execute(sql: "PRAGMA cache_size = -5120")
            if let trace {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { trace(statement.sql) }
                }
            }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        if migrate && !readOnly { try Migrations.migrator.migrate(pool) }
        return pool
    }

    /// Copies the database into a new file at `destination`, consistently even while other
    /// connections write (SQLite's online backup reads one snapshot).
    public static func backup(_ pool: DatabasePool, to destination: String) throws {
        let temporary = destination + ".partial"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let target = try DatabaseQueue(path: temporary)
            try pool.backup(to: target)
            try target.close()
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        // rename(2) replaces atomically: a reader never sees half a backup.
        guard rename(temporary, destination) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination])
        }
    }
}

extension AppDatabase {
    /// Runs the pending migrations of the configured database; returns their names.
    public static func migrate(_ configuration: AppConfiguration) throws -> [String] {
        try configuration.prepareDirectories()
        let pool = try open(at: configuration.databasePath, migrate: false)
        let pending = try pool.read { db in
            try Migrations.migrator.migrations.filter { try !Migrations.migrator.appliedIdentifiers(db).contains($0) }
        }
        try Migrations.migrator.migrate(pool)
        return pending
    }
}
