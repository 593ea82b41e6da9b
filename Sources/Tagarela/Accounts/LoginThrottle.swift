import Foundation
import Synchronization

/// Failed logins counted per account and per client address, in memory (a restart forgets
/// them, which only gives an attacker back a handful of tries).
final class LoginThrottle: Sendable {
    struct Record: Sendable {
        var failures = 0
        var lastFailure = Date.distantPast
    }

    /// Pure rule: how long a key stays locked after `failures` failures. Nothing for the first
    /// four; 30 s at the fifth, doubling with each further one, at most 15 minutes.
    static func lockout(afterFailures failures: Int, freeFailures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        let doublings = min(failures - freeFailures, 5)
        return min(30 * pow(2, Double(doublings)), 15 * 60)
    }

    /// A quiet spell this long forgets earlier failures.
    static let forgetAfter: TimeInterval = 15 * 60
    /// Many people share a clinic's or a school's address, so it gets more tries than an account.
    static let freeFailuresPerAccount = 5
    static let freeFailuresPerAddress = 10

    private let records = Mutex<[String: Record]>([:])

    /// Either the seconds to wait before another attempt for this account or address, or 0 and the
    /// attempt is counted as a failure at once, in the same lock: logins sent in parallel cannot all
    /// pass the check while their passwords are still being hashed. A success clears the count.
    func admit(username: String, address: String, now: Date) -> TimeInterval {
        records.withLock { records in
            let keys = ["u:" + username.lowercased(), "a:" + address]
            let wait = max(Self.remaining(records[keys[0]], free: Self.freeFailuresPerAccount, now: now),
                           Self.remaining(records[keys[1]], free: Self.freeFailuresPerAddress, now: now))
            guard wait == 0 else { return wait }
            for key in keys {
                var record = records[key] ?? Record()
                if now.timeIntervalSince(record.lastFailure) > Self.forgetAfter { record = Record() }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
            if records.count > 100_000 {  // an address sweep must not grow memory without bound
                records = records.filter { now.timeIntervalSince($0.value.lastFailure) <= Self.forgetAfter }
            }
            return 0
        }
    }

    func recordSuccess(username: String, address: String) {
        records.withLock { records in
            records["u:" + username.lowercased()] = nil
            records["a:" + address] = nil
        }
    }

    private static func remaining(_ record: Record?, free: Int, now: Date) -> TimeInterval {
        guard let record, now.timeIntervalSince(record.lastFailure) <= forgetAfter else { return 0 }
        let until = record.lastFailure.addingTimeInterval(lockout(afterFailures: record.failures, freeFailures: free))
        return max(0, until.timeIntervalSince(now))
    }
}
