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
