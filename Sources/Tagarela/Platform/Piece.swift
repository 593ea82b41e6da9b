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

    /// A piece's model as its key in the cache: every field, in a fixed order.
    static var keyEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Read by Mustache as itself (`MustacheParent`): a page model holding it encodes nothing of it.
    func encode(to encoder: any Encoder) throws {}
}
