import Testing
@testable import Tagarela

/// The store under the session, page and fragment caches: what is in use stays, however many other
/// values pass, and what is held stays bounded.
@Suite struct TwoGenerationsTests {
    @Test func aValueInUseStaysWhileManyOthersPass() {
        var store = TwoGenerations<String, Int>(limit: 10)
        store.insert(0, for: "hot", cost: 1)
        for n in 1...1_000 {
            store.insert(n, for: "cold \(n)", cost: 1)
            #expect(store.value(for: "hot") == 0, "lost after \(n) others")
        }
        #expect(store.count <= 20)
    }

    @Test func aValueNotAskedForIsDroppedAfterTwoGenerations() {
        var store = TwoGenerations<String, Int>(limit: 10)
        store.insert(0, for: "old", cost: 1)
        for n in 1...10 { store.insert(n, for: "other \(n)", cost: 1) }
        #expect(store.value(for: "old") == 0, "still in the previous generation")
        for n in 11...40 { store.insert(n, for: "other \(n)", cost: 1) }
        #expect(store.value(for: "old") == nil)
    }

    @Test func costsBoundWhatIsHeld() {
        var store = TwoGenerations<String, String>(limit: 100)
        for n in 0..<100 { store.insert(String(repeating: "x", count: 30), for: "\(n)", cost: 30) }
        // Three 30-byte values fit a generation of 100: at most six are held.
        #expect(store.count <= 6)
        // One value over the limit is still kept, alone in its generation.
        store.insert(String(repeating: "y", count: 500), for: "big", cost: 500)
        #expect(store.value(for: "big")?.count == 500)
    }

    @Test func aValueStoredAgainCostsOnce() {
        var store = TwoGenerations<String, Int>(limit: 10)
        store.insert(0, for: "small", cost: 1)
        // A worklist's caseload, stored again at every load: counted each time, it turned the
        // generations over and took "small" with them.
        for n in 1...100 { store.insert(n, for: "caseload", cost: 8) }
        #expect(store.value(for: "small") == 0)
        #expect(store.value(for: "caseload") == 100)
        #expect(store.count == 2)
    }

    @Test func anUpdateChangesTheValueWhereItIs() {
        var store = TwoGenerations<String, Int>(limit: 2)
        store.insert(1, for: "a", cost: 1)
        store.insert(2, for: "b", cost: 1)
        store.insert(3, for: "c", cost: 1)   // "a" and "b" are now the previous generation
        store.update("a") { $0 += 10 }
        store.update("missing") { $0 += 10 }
        #expect(store.value(for: "a") == 11)
        #expect(store.value(for: "missing") == nil)
        store.removeAll()
        #expect(store.count == 0)
    }
}
