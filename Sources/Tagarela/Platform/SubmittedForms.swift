import Foundation
import HTTPServer

/// Create forms carry a one-time key (`<input type="hidden" name="_once" value="{{once}}">`), so a
/// double tap, a second tab or the back button followed by "submit" stores once: the first request
/// with a key runs, a concurrent one waits for it, and every later one is answered with the first
/// one's redirect, which shows what was stored.
///
/// Kept in memory, per session (the key is prefixed with the session's CSRF token): a repeat is a matter
/// of seconds or minutes, and a restart in between only lets a form be stored again by hand.
final class SubmittedForms: @unchecked Sendable {
    enum Turn {
        /// No request with this key ran before: run it, then call `finish`.
        case first
        /// The answer to give instead of running the handler again.
        case repeated(Response)
        /// The first request with this key is still running after the wait: answer 409.
        case stillRunning
    }

    private enum Entry {
        case running
        case stored(Response, at: Date)
    }

    /// Guards `entries`; waited on while the first request with a key is still running.
    private let condition = NSCondition()
    private var entries: [String: Entry] = [:]
    private let capacity: Int
    private let keepFor: TimeInterval

    init(capacity: Int = 20_000, keepFor: TimeInterval = 24 * 60 * 60) {
        self.capacity = capacity
        self.keepFor = keepFor
    }

    /// A key as `{{once}}` prints it: 43 URL-safe characters; anything else is ignored (the form then
    /// simply has no protection, as before).
    static func isWellFormed(_ once: String) -> Bool {
        once.utf8.count == 43 && once.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }

    /// Whether the request with `key` runs, or what it answers instead. Waits up to `timeout` for a
    /// request with the same key that is still running; past that, 409.
    func begin(_ key: String, now: Date, timeout: TimeInterval = 30) -> Turn {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            switch entries[key] {
            case nil:
                entries[key] = .running
                return .first
            case .stored(let response, let at) where now.timeIntervalSince(at) <= keepFor:
                return .repeated(response)
            case .stored:
                entries[key] = .running
                return .first
            case .running:
                guard condition.wait(until: deadline) else { return .stillRunning }
            }
        }
    }

    /// Records the answer of the first request with `key`. Only a redirect (a stored form) is kept: a
    /// form refused for a typing error must run again once corrected, with the same key.
    func finish(_ key: String, with response: Response, now: Date) {
        condition.lock()
        defer { condition.unlock(); condition.broadcast() }
        if response.status.code == 303 || response.status.code == 302 {
            if entries.count >= capacity { prune(now: now) }
            entries[key] = .stored(response, at: now)
        } else {
            entries[key] = nil
        }
    }

    /// Forgets stored answers older than an hour, and all of them if that is not enough: memory stays bounded
    /// however many forms are sent.
    private func prune(now: Date) {
        entries = entries.filter { _, entry in
            if case .stored(_, let at) = entry { return now.timeIntervalSince(at) <= 60 * 60 }
            return true
        }
        if entries.count >= capacity {
            entries = entries.filter { _, entry in if case .running = entry { true } else { false } }
        }
    }
}
