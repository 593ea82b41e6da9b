import Foundation
import GRDB
import HTTPServer
import Synchronization

/// How many `refused` audit entries are kept: at most `perKey` a minute for one user (or, signed
/// out, one address) and `total` a minute for everyone, counted in memory, so that an attacker who
/// loops over ids cannot flood the log or the disk. What is over the limit is only counted in the log.
final class RefusalAuditLimit: Sendable {
    let perKey: Int
    let total: Int
    private struct Window {
        var minute: Int64 = .min
        var counts: [String: Int] = [:]
        var total = 0
    }
    private let window = Mutex(Window())

    init(perKey: Int = 10, total: Int = 300) {
        self.perKey = perKey
        self.total = total
    }

    /// Whether one more entry for `key` may be written in the minute of `now`. A new minute starts
    /// from zero, so the memory held is one minute's keys at most.
    func admit(_ key: String, at now: Date) -> Bool {
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        return window.withLock { window in
            if window.minute != minute { window = Window(minute: minute) }
            let count = window.counts[key, default: 0]
            guard count < perKey, window.total < total else { return false }
            window.counts[key] = count + 1
            window.total += 1
            return true
        }
    }
}
