import Synchronization

/// Rendered pieces of pages that change rarely (a board's grid), keyed by everything that can change
/// them, so a stale entry is simply never asked for again. Bounded: past `limit` entries it starts over.
final class FragmentCache: Sendable {
    private let entries = Mutex<[String: String]>([:])
    private let limit: Int

    init(limit: Int = 1000) { self.limit = limit }

    func value(for key: String, make: () throws -> String) rethrows -> String {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let made = try make()
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = made
        }
        return made
    }
}
