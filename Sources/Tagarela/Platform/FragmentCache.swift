import Synchronization

/// Rendered pieces of pages that change rarely (a board's grid), keyed by everything that can change
/// them, so a stale entry is simply never asked for again.
///
/// Bounded by bytes, in two generations: new pieces go into the current one; when it holds
/// `generationBytes`, it becomes the previous one and the older pieces are dropped. A piece found in
/// the previous generation moves back into the current one, so the pieces in use stay (an approximate
/// least-recently-used cache) and the memory held stays under twice `generationBytes`. A clinic of
/// 5 000 children has 10 000 boards: a count limit that started over at 1 000 entries rendered most
/// boards again on every load (`bench/mixed --scale 10`).
final class FragmentCache: Sendable {
    private struct Generations {
        var current: [String: String] = [:]
        var currentBytes = 0
        var previous: [String: String] = [:]

        mutating func insert(_ value: String, for key: String, limit: Int) {
            let size = key.utf8.count + value.utf8.count
            if currentBytes + size > limit {
                previous = current
                current = [:]
                currentBytes = 0
            }
            current[key] = value
            currentBytes += size
        }
    }

    private let generations = Mutex(Generations())
    private let generationBytes: Int

    init(generationBytes: Int = 24 << 20) { self.generationBytes = generationBytes }

    func value(for key: String, make: () throws -> String) rethrows -> String {
        let found: String? = generations.withLock { cache in
            if let value = cache.current[key] { return value }
            guard let value = cache.previous.removeValue(forKey: key) else { return nil }
            cache.insert(value, for: key, limit: generationBytes)
            return value
        }
        if let found { return found }
        let made = try make()
        generations.withLock { $0.insert(made, for: key, limit: generationBytes) }
        return made
    }

    /// How many pieces are held, in both generations (tests).
    var count: Int { generations.withLock { $0.current.count + $0.previous.count } }
}
