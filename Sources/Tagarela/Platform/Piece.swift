import Foundation
import Mustache
import Synchronization

/// A part of a page rendered from its own template, with its own model as the only context
/// (`RequestContext.piece`), when the page's template prints `{{{html}}}` on it. A piece nested deep in
/// a page (a meal in a day of a week) looks its names up on a stack of two or three objects instead of
/// six or seven, and one whose name is not on its model climbs no further.
///
/// Every part of a page that is not the page's own model is a piece, made by the handler and rendered
/// with the page, after the request's database access: `render` runs when the template first prints
/// the piece, and its text is kept for a second print (a line's food options, shared by the lines
/// that chose the same food). `Templates.render` stops the process if it runs inside an access.
struct Piece: PageModel, MustacheParent {
    private let text: Rendering

    init(render: @escaping @Sendable () -> String) { text = Rendering(render) }

    /// The text, rendered now: only while the page renders, or in a step that holds no transaction.
    var html: String { text.value }

    func child(named name: String) -> Any? { name == "html" ? MustacheText(html) : nil }

    /// The text rendered the first time it is asked for.
    private final class Rendering: Sendable {
        private let render: @Sendable () -> String
        private let made = Mutex<String?>(nil)

        init(_ render: @escaping @Sendable () -> String) { self.render = render }

        var value: String {
            if let text = made.withLock({ $0 }) { return text }
            let text = render()
            made.withLock { $0 = text }
            return text
        }
    }

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
