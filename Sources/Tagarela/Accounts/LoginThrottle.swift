import Foundation
import Synchronization

/// Failed password tries, counted in memory and kept in the database by the requests that change them
/// (`LoginFailures`), so a restart forgets nothing. Two separate counts that never touch each other:
/// - logins (and the current password on the account page), per account, per address, per account at
///   an address, and the accounts an address got wrong (a spray);
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
    /// An account under attack is locked wherever the right password comes from, for as long as its own
    /// failures say: never longer because of what its address did to other accounts.
    static let freeFailuresPerAccount = 5
    /// Failures at one address (any account) before it is audited as busy; a busy address locks no one.
    static let freeFailuresPerAddress = 10
    /// Accounts one address may get wrong before every try from it waits: a spray of a few guesses on
    /// many names. A school's or a clinic's router, where people mistype their own, stays far below.
    static let freeAccountsPerAddress = 20
    /// Wrong passwords at one tablet's patient-mode exit before that exit waits.
    static let freeFailuresPerPatientModeExit = 5

    /// Pure rule: seconds before a login may be tried, from the failures of the account (anywhere) and
    /// the accounts its address got wrong (`spray`, one failure counted per account).
    static func loginWait(account: Record?, spray: Record?, now: Date) -> TimeInterval {
        max(remaining(account, free: freeFailuresPerAccount, now: now), remaining(spray, free: freeAccountsPerAddress, now: now))
    }

    /// Pure rule: seconds before the patient-mode exit of one session may be tried again.
    static func exitWait(_ record: Record?, now: Date) -> TimeInterval {
        remaining(record, free: freeFailuresPerPatientModeExit, now: now)
    }

    private let records = Mutex<[String: Record]>([:])

    struct Keys: Sendable {
        let account: String, address: String, pair: String, spray: String
        var all: [String] { [account, address, pair, spray] }
    }

    static func keys(username: String, address: String) -> Keys {
        let account = username.lowercased()
        return Keys(account: "u:" + account, address: "a:" + address, pair: "p:" + account + "\u{0}" + address, spray: "s:" + address)
    }

    /// Either a wait, or the attempt is counted as a failure at once, in the same lock: logins sent
    /// in parallel cannot all pass the check while their passwords are still being hashed. A success
    /// takes the count back (`recordSuccess`).
    func admit(username: String, address: String, now: Date) -> Admission {
        let keys = Self.keys(username: username, address: address)
        return records.withLock { records in
            let wait = Self.loginWait(account: records[keys.account], spray: records[keys.spray], now: now)
            guard wait == 0 else { return Admission(wait: wait) }
            let account = Self.count(keys.account, in: &records, now: now)
            let address = Self.count(keys.address, in: &records, now: now)
            // The first failure of an account at this address is one more account the address got wrong.
            if Self.count(keys.pair, in: &records, now: now) == 1 { _ = Self.count(keys.spray, in: &records, now: now) }
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
            if records[keys.pair]?.failures == 1, var spray = records[keys.spray] {
                // Only this attempt counted the account against its address: it was no guess.
                spray.failures = max(0, spray.failures - 1)
                records[keys.spray] = spray
            }
            records[keys.pair] = nil
            if var record = records[keys.address] {
                record.failures = max(0, record.failures - 1)
                records[keys.address] = record
            }
        }
    }

    /// The current records of `keys` (nil: none, or forgotten), to be kept in the database.
    func records(_ keys: [String], now: Date) -> [(key: String, record: Record?)] {
        records.withLock { records in keys.map { ($0, Self.live(records[$0], now: now)) } }
    }

    /// Records kept in the database before a restart, taken back at start.
    func restore(_ kept: [(key: String, record: Record)], now: Date) {
        records.withLock { records in
            for (key, record) in kept where Self.live(record, now: now) != nil { records[key] = record }
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
