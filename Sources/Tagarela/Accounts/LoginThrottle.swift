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

    /// Seconds to wait before another attempt for this account or address is considered, or 0.
    func retryAfter(username: String, address: String, now: Date) -> TimeInterval {
        records.withLock { records in
            max(Self.remaining(records["u:" + username.lowercased()], free: Self.freeFailuresPerAccount, now: now),
                Self.remaining(records["a:" + address], free: Self.freeFailuresPerAddress, now: now))
        }
    }

    func recordFailure(username: String, address: String, now: Date) {
        records.withLock { records in
            for key in ["u:" + username.lowercased(), "a:" + address] {
                var record = records[key] ?? Record()
                if now.timeIntervalSince(record.lastFailure) > Self.forgetAfter { record = Record() }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
            if records.count > 100_000 {  // an address sweep must not grow memory without bound
                records = records.filter { now.timeIntervalSince($0.value.lastFailure) <= Self.forgetAfter }
            }
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
