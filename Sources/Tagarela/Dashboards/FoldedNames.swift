import Synchronization

/// Names folded for ordering (`WorklistRules.nameKey`), remembered across requests and threads. A name's
/// key never changes, so a renamed patient simply gets a new entry; past `capacity` names the memory
/// starts over rather than growing with every name ever seen.
final class FoldedNames: Sendable {
    private let capacity: Int
    private let keys = Mutex<[String: String]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    func key(_ name: String) -> String {
        if let key = keys.withLock({ $0[name] }) { return key }
        let key = WorklistRules.nameKey(name)
        keys.withLock { keys in
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[name] = key
        }
        return key
    }

    /// How many names are remembered (tests).
    var count: Int { keys.withLock { $0.count } }
}
