/// Values kept under keys in two generations, an approximate least-recently-used store whose size
/// stays bounded. New values go into the current generation; when its cost would pass `limit`, it
/// becomes the previous one and the older previous is dropped whole. A value found in the previous
/// generation moves back into the current one, so the values in use stay however many others pass
/// through, and what is held never costs more than twice `limit`.
///
/// The caches started over when full, which at ten times the clinic meant never: 8 000 signed-in
/// people and 5 000 boards cycled through room for 2 000, and every request read its session again.
/// Not thread-safe: the caches hold it in a `Mutex`.
struct TwoGenerations<Value> {
    private var current: [String: Value] = [:]
    private var currentCost = 0
    private var previous: [String: Value] = [:]
    /// The cost one generation may hold: a count when each value costs 1, bytes for pieces of text.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value under `key`, kept in use.
    mutating func value(for key: String, cost: (Value) -> Int) -> Value? {
        if let value = current[key] { return value }
        guard let value = previous.removeValue(forKey: key) else { return nil }
        insert(value, for: key, cost: cost(value))
        return value
    }

    mutating func insert(_ value: Value, for key: String, cost: Int) {
        if currentCost + cost > limit, !current.isEmpty {
            previous = current
            current = [:]
            currentCost = 0
        }
        previous.removeValue(forKey: key)
        current[key] = value
        currentCost += cost
    }

    /// Changes the value under `key` where it is, if it is held.
    mutating func update(_ key: String, _ change: (inout Value) -> Void) {
        if current[key] != nil { change(&current[key]!) } else if previous[key] != nil { change(&previous[key]!) }
    }

    mutating func removeAll() {
        current.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        currentCost = 0
    }

    /// How many values are held, in both generations.
    var count: Int { current.count + previous.count }
}
