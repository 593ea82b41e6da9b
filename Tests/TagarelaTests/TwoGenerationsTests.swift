import Testing
@testable import Tagarela

/// The store under the session, page and fragment caches: what is in use stays, however many other
/// values pass, and what is held stays bounded.
@Suite struct TwoGenerationsTests {
    @Test func aValueInUseStaysWhileManyOthersPass() {
        var store = TwoGenerations<Int>(limit: 10)
        store.insert(0, for: "hot", cost: 1)
        for n in 1...1_000 {
            store.insert(n, for: "cold \(n)", cost: 1)
            #expect(store.value(for: "hot", cost: { _ in 1 }) == 0, "lost after \(n) others")
        }
        #expect(store.count <= 20)
    }

    @Test func aValueNotAskedForIsDroppedAfterTwoGenerations() {
        var store = TwoGenerations<Int>(limit: 10)
        store.insert(0, for: "old", cost: 1)
        for n in 1...10 { store.insert(n, for: "other \(n)", cost: 1) }
        #expect(store.value(for: "old", cost: { _ in 1 }) == 0, "still in the previous generation")
        for n in 11...40 { store.insert(n, for: "other \(n)", cost: 1) }
        #expect(store.value(for: "old", cost: { _ in 1 }) == nil)
    }

    @Test func costsBoundWhatIsHeld() {
        var store = TwoGenerations<String>(limit: 100)
        for n in 0..<100 { store.insert(String(repeating: "x", count: 30), for: "\(n)", cost: 30) }
        // Three 30-byte values fit a generation of 100: at most six are held.
        #expect(store.count <= 6)
        // One value over the limit is still kept, alone in its generation.
        store.insert(String(repeating: "y", count: 500), for: "big", cost: 500)
        #expect(store.value(for: "big", cost: { $0.utf8.count })?.count == 500)
    }

    @Test func anUpdateChangesTheValueWhereItIs() {
        var store = TwoGenerations<Int>(limit: 2)
        store.insert(1, for: "a", cost: 1)
        store.insert(2, for: "b", cost: 1)
        store.insert(3, for: "c", cost: 1)   // "a" and "b" are now the previous generation
        store.update("a") { $0 += 10 }
        store.update("missing") { $0 += 10 }
        #expect(store.value(for: "a", cost: { _ in 1 }) == 11)
        #expect(store.value(for: "missing", cost: { _ in 1 }) == nil)
        store.removeAll()
        #expect(store.count == 0)
    }
}
