import Testing
@testable import Tagarela

@Suite struct FragmentCacheTests {
    @Test func aPieceIsMadeOnceAndThenServedFromTheCache() {
        let cache = FragmentCache()
        var made = 0
        for _ in 0..<3 {
            #expect(cache.value(for: "board 1") { made += 1; return "<grid>" } == "<grid>")
        }
        #expect(made == 1)
    }

    @Test func thePiecesInUseStayWhileManyOthersComeAndGo() {
        // Room for about ten 100-byte pieces per generation.
        let cache = FragmentCache(generationBytes: 1_000)
        let piece = String(repeating: "x", count: 90)
        var madeHot = 0
        for n in 0..<500 {
            _ = cache.value(for: "cold \(n)") { piece }
            _ = cache.value(for: "hot") { madeHot += 1; return piece }
        }
        #expect(madeHot == 1)
        // Two generations at most: what is held stays bounded however many pieces passed.
        #expect(cache.count <= 22)
    }

    @Test func aPieceNotAskedForAgainIsDroppedAfterTwoGenerations() {
        let cache = FragmentCache(generationBytes: 1_000)
        _ = cache.value(for: "old") { String(repeating: "o", count: 90) }
        for n in 0..<30 { _ = cache.value(for: "other \(n)") { String(repeating: "y", count: 90) } }
        var remade = false
        _ = cache.value(for: "old") { remade = true; return "new" }
        #expect(remade)
    }
}

@Suite struct PieceCacheTests {
    struct Model: Hashable, Sendable {
        var name: String
        var lines: [String]
        var note: String?
    }

    /// A piece is kept under its template, its language and its whole model: an equal model is served
    /// what was made, and a change in any field, the language or the template makes the piece again.
    @Test func aPieceIsKeptUnderItsWholeModel() {
        let cache = PieceCache(generationBytes: 10_000)
        var made = 0
        func piece(_ model: Model, template: String = "week-meal", locale: String = "pt-BR") -> String {
            cache.value(for: PieceKey(template: template, locale: locale, model: model)) {
                made += 1
                return "\(template) \(locale) \(model.name) \(model.lines.joined(separator: ",")) \(model.note ?? "-")"
            }
        }
        let lunch = Model(name: "Almoço", lines: ["arroz", "feijão"], note: nil)
        #expect(piece(lunch) == "week-meal pt-BR Almoço arroz,feijão -")
        #expect(piece(Model(name: "Almoço", lines: ["arroz", "feijão"], note: nil)) == "week-meal pt-BR Almoço arroz,feijão -")
        #expect(made == 1)
        var changed = lunch
        changed.lines[1] = "lentilha"
        #expect(piece(changed) == "week-meal pt-BR Almoço arroz,lentilha -")
        changed = lunch
        changed.note = "sem sal"
        #expect(piece(changed) == "week-meal pt-BR Almoço arroz,feijão sem sal")
        #expect(piece(lunch, locale: "es") == "week-meal es Almoço arroz,feijão -")
        #expect(piece(lunch, template: "meal") == "meal pt-BR Almoço arroz,feijão -")
        #expect(made == 5)
        #expect(cache.count == 5)
    }

    /// Two kinds of model never answer for each other, even when their fields agree.
    @Test func modelsOfAnotherTypeAreOtherPieces() {
        struct Other: Hashable, Sendable {
            var name: String
            var lines: [String]
            var note: String?
        }
        let cache = PieceCache(generationBytes: 10_000)
        _ = cache.value(for: PieceKey(template: "t", locale: "pt-BR", model: Model(name: "a", lines: [], note: nil))) { "model" }
        let other = cache.value(for: PieceKey(template: "t", locale: "pt-BR", model: Other(name: "a", lines: [], note: nil))) { "other" }
        #expect(other == "other")
    }
}
