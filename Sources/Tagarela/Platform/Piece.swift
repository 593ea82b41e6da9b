import Foundation
import Mustache

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
/// cost a sixth of the nutritionist's week (docs/decisions/README.md); hashing and comparing the fields costs
/// a fraction of that, and an equal key is an equal model, never a likely one.
struct PieceKey: RenderedTextKey {
    let template: String
    let locale: String
    let model: any Hashable & Sendable

    static func == (lhs: PieceKey, rhs: PieceKey) -> Bool {
        lhs.template == rhs.template && lhs.locale == rhs.locale && AnyHashable(lhs.model) == AnyHashable(rhs.model)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(template)
        hasher.combine(locale)
        hasher.combine(model)
    }

    /// A model holds about the text its piece prints: the piece's bytes count twice.
    func cost(with text: String) -> Int { 2 * text.utf8.count }
}

typealias PieceCache = RenderedTexts<PieceKey>
