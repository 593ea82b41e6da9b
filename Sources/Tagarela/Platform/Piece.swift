import Foundation
import Mustache
import Synchronization

/// A part of a page rendered from its own template, with its own model as the only context
/// (`RequestContext.piece`), when the page's template prints `{{{html}}}` on it. A piece nested deep in
/// a page (a meal in a day of a week) looks its names up on a stack of two or three objects instead of
/// six or seven, and one whose name is not on its model climbs no further.
struct Piece: PageModel, MustacheParent {
    private let render: @Sendable () -> String

    init(render: @escaping @Sendable () -> String) { self.render = render }

    func child(named name: String) -> Any? { name == "html" ? MustacheText(render()) : nil }

    /// Read by Mustache as itself (`MustacheParent`): a page model holding it encodes nothing of it.
    func encode(to encoder: any Encoder) throws {}
}

/// Pieces rendered, kept under their template, their language and their model itself: a model equal
/// in every field prints the same text. The model was the key as sorted JSON before, and encoding it
/// cost a sixth of the nutritionist's week (docs/decisions.md); hashing and comparing the fields costs
/// a fraction of that, and an equal key is an equal model, never a likely one.
final class PieceCache: Sendable {
    struct Key: Hashable, Sendable {
        let template: String
        let locale: String
        let model: any Hashable & Sendable

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.template == rhs.template && lhs.locale == rhs.locale && AnyHashable(lhs.model) == AnyHashable(rhs.model)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(template)
            hasher.combine(locale)
            hasher.combine(model)
        }
    }

    private let pieces: Mutex<TwoGenerations<Key, String>>

    init(generationBytes: Int) { pieces = Mutex(TwoGenerations(limit: generationBytes)) }

    func value(for key: Key, make: () -> String) -> String {
        if let found = pieces.withLock({ $0.value(for: key) }) { return found }
        let made = make()
        // A model holds about the text its piece prints: the piece's bytes count twice.
        pieces.withLock { $0.insert(made, for: key, cost: 2 * made.utf8.count) }
        return made
    }

    /// How many pieces are held, in both generations (tests).
    var count: Int { pieces.withLock { $0.count } }
}
