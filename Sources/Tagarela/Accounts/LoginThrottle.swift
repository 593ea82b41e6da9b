import Foundation
import Synchronization

/// Failed password tries, counted in memory (a restart forgets them, which only gives an attacker
/// back a handful of tries). Two separate counts that never touch each other:
/// - logins, per account, per address and per account at an address;
/// - the patient-mode exit, per session: a child pressing keys on the tablet slows that tablet only,
///   never the adult's logins anywhere else.
final class LoginThrottle: Sendable {
    struct Record: Sendable, Equatable {
        var failures = 0
        var lastFailure = Date.distantPast
    }

    /// What an attempt may do, decided before its password is checked.
    struct Admission: Sendable, Equatable {
        /// Seconds to wait before trying again; 0 means the attempt goes ahead.
        var wait: TimeInterval = 0
        /// If this attempt fails, it is the one that locks the account (or the session's exit).
        var locksAccount = false
        /// If this attempt fails, it is the one that makes the address busy.
        var locksAddress = false
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
    /// An account under attack is locked wherever the right password comes from.
    static let freeFailuresPerAccount = 5
    /// Many people share a clinic's or a school's address, so it gets more tries than an account...
    static let freeFailuresPerAddress = 10
    /// ...and once busy it slows only the accounts it keeps getting wrong: this many failures of one
    /// account from that address. Everyone else behind the same router still logs in.
    static let freeFailuresPerAccountAtBusyAddress = 3
    /// Wrong passwords at one tablet's patient-mode exit before that exit waits.
    static let freeFailuresPerPatientModeExit = 5

    /// Pure rule: seconds before a login may be tried, from the failures of the account (anywhere),
    /// of the address (any account), and of this account at this address.
    static func loginWait(account: Record?, address: Record?, pair: Record?, now: Date) -> TimeInterval {
        let accountWait = remaining(account, free: freeFailuresPerAccount, now: now)
        let pairFailures = live(pair, now: now)?.failures ?? 0
        let addressWait = pairFailures >= freeFailuresPerAccountAtBusyAddress
            ? remaining(address, free: freeFailuresPerAddress, now: now) : 0
        return max(accountWait, addressWait)
    }

    /// Pure rule: seconds before the patient-mode exit of one session may be tried again.
    static func exitWait(_ record: Record?, now: Date) -> TimeInterval {
        remaining(record, free: freeFailuresPerPatientModeExit, now: now)
    }

    private let records = Mutex<[String: Record]>([:])

    private static func keys(username: String, address: String) -> (account: String, address: String, pair: String) {
        let account = username.lowercased()
        return ("u:" + account, "a:" + address, "p:" + account + "\u{0}" + address)
    }

    /// Either a wait, or the attempt is counted as a failure at once, in the same lock: logins sent
    /// in parallel cannot all pass the check while their passwords are still being hashed. A success
    /// takes the count back (`recordSuccess`).
    func admit(username: String, address: String, now: Date) -> Admission {
        let keys = Self.keys(username: username, address: address)
        return records.withLock { records in
            let wait = Self.loginWait(account: records[keys.account], address: records[keys.address],
                                      pair: records[keys.pair], now: now)
            guard wait == 0 else { return Admission(wait: wait) }
            let account = Self.count(keys.account, in: &records, now: now)
            let address = Self.count(keys.address, in: &records, now: now)
            _ = Self.count(keys.pair, in: &records, now: now)
            return Admission(wait: 0, locksAccount: account == Self.freeFailuresPerAccount,
                             locksAddress: address == Self.freeFailuresPerAddress)
        }
    }

    /// The right password: the account's counts are cleared, and the address's loses the one this
    /// attempt added (a valid login of one's own does not wipe an address's record of other failures).
    func recordSuccess(username: String, address: String) {
        let keys = Self.keys(username: username, address: address)
        records.withLock { records in
            records[keys.account] = nil
            records[keys.pair] = nil
            if var record = records[keys.address] {
                record.failures = max(0, record.failures - 1)
                records[keys.address] = record
            }
        }
    }

    /// The same for the patient-mode exit of one session; it never counts against a login.
    func admitPatientModeExit(session: Int64, now: Date) -> Admission {
        let key = "x:\(session)"
        return records.withLock { records in
            let wait = Self.exitWait(records[key], now: now)
            guard wait == 0 else { return Admission(wait: wait) }
            let failures = Self.count(key, in: &records, now: now)
            return Admission(wait: 0, locksAccount: failures == Self.freeFailuresPerPatientModeExit)
        }
    }

    func recordPatientModeExitSuccess(session: Int64) {
        records.withLock { $0["x:\(session)"] = nil }
    }

    /// Counts one failure under `key` and returns the key's count.
    private static func count(_ key: String, in records: inout [String: Record], now: Date) -> Int {
        var record = live(records[key], now: now) ?? Record()
        record.failures += 1
        record.lastFailure = now
        records[key] = record
        if records.count > 100_000 {  // an address sweep must not grow memory without bound
            records = records.filter { now.timeIntervalSince($0.value.lastFailure) <= forgetAfter }
        }
        return record.failures
    }

    /// The record, unless a quiet spell has made it forgotten.
    private static func live(_ record: Record?, now: Date) -> Record? {
        guard let record, now.timeIntervalSince(record.lastFailure) <= forgetAfter else { return nil }
        return record
    }

    private static func remaining(_ record: Record?, free: Int, now: Date) -> TimeInterval {
        guard let record = live(record, now: now) else { return 0 }
        let until = record.lastFailure.addingTimeInterval(lockout(afterFailures: record.failures, freeFailures: free))
        return max(0, until.timeIntervalSince(now))
    }
}
