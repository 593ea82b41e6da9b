import Foundation
import GRDB
import Logging
import Synchronization

/// Thrown instead of reaching GRDB when code that already holds a `Database` asks for another
/// read or write: GRDB would stop the whole process ("Database methods are not reentrant").
struct NestedDatabaseAccess: Error, CustomStringConvertible {
    let kind: String
    let path: String

    var description: String {
        "nested database \(kind) in \(path): code that received a Database must use it, not open another access"
    }
}

/// How `App.dispatch` reaches the pool for a request: only through `read` and `write`, one
/// access at a time per thread. A nested access throws `NestedDatabaseAccess` (which `App.run`
/// logs and answers 500) instead of stopping the server, and every access of the request is
/// counted so that tests can hold a page to the rule of one access per request.
///
/// One per request; deferred work (`Response.deferred`) uses the same one on its pool thread.
final class DatabaseScope: Sendable {
    private let pool: DatabasePool
    private let path: String
    private let logger: Logger
    private let opened = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)

    init(_ pool: DatabasePool, path: String = "", logger: Logger = Logger(label: "tagarela.database")) {
        self.pool = pool
        self.path = path
        self.logger = logger
    }

    /// Reads and writes this scope opened so far.
    var accessCount: Int { opened.load(ordering: .relaxed) }
    /// Nested accesses refused so far; above zero means a bug, even when the caller swallowed the error.
    var nestedCount: Int { refused.load(ordering: .relaxed) }

    func read<T>(_ block: (Database) throws -> T) throws -> T {
        try admit("read")
        return try pool.read { db in try Self.holdingAccess { try block(db) } }
    }

    func write<T>(_ block: (Database) throws -> T) throws -> T {
        try admit("write")
        return try pool.write { db in try Self.holdingAccess { try block(db) } }
    }

    private func admit(_ kind: String) throws {
        guard !Self.isOpenOnThisThread else {
            refused.add(1, ordering: .relaxed)
            let error = NestedDatabaseAccess(kind: kind, path: path)
            logger.critical("nested database access refused", metadata: ["error": "\(error)"])
            throw error
        }
        opened.add(1, ordering: .relaxed)
    }

    // MARK: Per thread: is an access open?

    /// Set on the thread that runs an access's block (GRDB may run it on a thread of its own): a
    /// nested call is made from there.
    private static let openKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    static var isOpenOnThisThread: Bool { pthread_getspecific(openKey) != nil }

    private static func holdingAccess<T>(_ body: () throws -> T) rethrows -> T {
        let outer = pthread_getspecific(openKey)
        pthread_setspecific(openKey, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(openKey, outer) }
        return try body()
    }
}
