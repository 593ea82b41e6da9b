/// Values kept under keys in two generations, an approximate least-recently-used store whose size
/// stays bounded. New values go into the current generation; when its cost would pass `limit`, it
/// becomes the previous one and the older previous is dropped whole. A value found in the previous
/// generation moves back into the current one, so the values in use stay however many others pass
/// through, and what is held never costs more than twice `limit`.
///
/// The caches started over when full, which at ten times the clinic meant never: 8 000 signed-in
/// people and 5 000 boards cycled through room for 2 000, and every request read its session again.
/// Not thread-safe: the caches hold it in a `Mutex`.
struct TwoGenerations<Key: Hashable, Value> {
    /// A value with the cost it was stored at, so that replacing it gives that cost back: a worklist's
    /// caseload of 500 stored again at every load counted 500 more each time, and turned the generations
    /// over every second and a half at ten times the clinic, taking every small caseload with them.
    private struct Entry {
        var value: Value
        let cost: Int
    }

    private var current: [Key: Entry] = [:]
    private var currentCost = 0
    private var previous: [Key: Entry] = [:]
    /// The cost one generation may hold: a count when each value costs 1, bytes for pieces of text.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value under `key`, kept in use.
    mutating func value(for key: Key) -> Value? {
        if let entry = current[key] { return entry.value }
        guard let entry = previous.removeValue(forKey: key) else { return nil }
        insert(entry.value, for: key, cost: entry.cost)
        return entry.value
    }

    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        if let replaced = current.removeValue(forKey: key) { currentCost -= replaced.cost }
        if currentCost + cost > limit, !current.isEmpty {
            previous = current
            current = [:]
            currentCost = 0
        }
        previous.removeValue(forKey: key)
        current[key] = Entry(value: value, cost: cost)
        currentCost += cost
    }

    /// Changes the value under `key` where it is, if it is held; its cost stays what it was stored at.
    mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        if current[key] != nil { change(&current[key]!.value) } else if previous[key] != nil { change(&previous[key]!.value) }
    }

    mutating func removeAll() {
        current.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        currentCost = 0
    }

    /// How many values are held, in both generations.
    var count: Int { current.count + previous.count }
}
