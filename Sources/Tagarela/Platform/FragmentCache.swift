import Synchronization

/// What rendered text is kept under, and what keeping the two costs in bytes.
protocol RenderedTextKey: Hashable, Sendable {
    func cost(with text: String) -> Int
}

extension String: RenderedTextKey {
    func cost(with text: String) -> Int { utf8.count + text.utf8.count }
}

/// Rendered pieces of pages that change rarely (a board's grid), keyed by everything that can change
/// them, so a stale entry is simply never asked for again.
///
/// Bounded by bytes, in two generations of `generationBytes` (`TwoGenerations`). A clinic of
/// 5 000 children has 10 000 boards: a count limit that started over at 1 000 entries rendered most
/// boards again on every load (`bench/mixed --scale 10`).
final class RenderedTexts<Key: RenderedTextKey>: Sendable {
    private let pieces: Mutex<TwoGenerations<Key, String>>

    init(generationBytes: Int = 24 << 20) { pieces = Mutex(TwoGenerations(limit: generationBytes)) }

    func value(for key: Key, make: () throws -> String) rethrows -> String {
        if let found = pieces.withLock({ $0.value(for: key) }) { return found }
        let made = try make()
        pieces.withLock { $0.insert(made, for: key, cost: key.cost(with: made)) }
        return made
    }

    /// The piece kept under `key`, if any; nothing is stored on a miss.
    func cached(_ key: Key) -> String? { pieces.withLock { $0.value(for: key) } }

    /// How many pieces are held, in both generations (tests).
    var count: Int { pieces.withLock { $0.count } }
}

/// Texts kept under a text naming everything they show (boards' grids, cells, usage rows).
typealias FragmentCache = RenderedTexts<String>
