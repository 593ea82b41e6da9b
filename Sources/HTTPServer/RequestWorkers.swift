import Foundation

/// The threads that answer requests, taking them from one queue in the order they arrived.
///
/// Dedicated threads rather than an `OperationQueue`: on Linux those run on libdispatch's shared
/// pool, about as wide as the machine has cores, so a handler waiting on the database or a password
/// hash being computed elsewhere would hold up every other request.
final class RequestWorkers: @unchecked Sendable {
    // Unchecked: `waiting`, `head` and `stopping` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var waiting: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false

    /// Starts `count` threads; they run until `stop()`. Linux keeps 15 characters of a thread's name.
    init(name: String, count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in run() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func submit(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        waiting.append(work)
        condition.unlock()
        condition.signal()
    }

    /// The threads finish the work already queued, then end.
    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
        condition.broadcast()
    }

    private func run() {
        while let work = next() { work() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == waiting.count {
            if stopping { return nil }
            condition.wait()
        }
        let work = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return work
    }
}
