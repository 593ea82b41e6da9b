import Synchronization

/// Rendered pieces of pages that change rarely (a board's grid), keyed by everything that can change
/// them, so a stale entry is simply never asked for again.
///
/// Bounded by bytes, in two generations of `generationBytes` (`TwoGenerations`). A clinic of
/// 5 000 children has 10 000 boards: a count limit that started over at 1 000 entries rendered most
/// boards again on every load (`bench/mixed --scale 10`).
final class FragmentCache: Sendable {
    private let pieces: Mutex<TwoGenerations<String, String>>

    init(generationBytes: Int = 24 << 20) { pieces = Mutex(TwoGenerations(limit: generationBytes)) }

    func value(for key: String, make: () throws -> String) rethrows -> String {
        if let found = pieces.withLock({ $0.value(for: key) }) { return found }
        let made = try make()
        pieces.withLock { $0.insert(made, for: key, cost: Self.cost(key, made)) }
        return made
    }

    private static func cost(_ key: String, _ piece: String) -> Int { key.utf8.count + piece.utf8.count }

    /// How many pieces are held, in both generations (tests).
    var count: Int { pieces.withLock { $0.count } }
}
