import DequeModule
import Foundation

/// The threads that answer requests, taking them from one queue in the order they arrived.
///
/// Dedicated threads rather than an `OperationQueue`: on Linux those run on libdispatch's shared
/// pool, about as wide as the machine has cores, so a handler waiting on the database or a password
/// hash being computed elsewhere would hold up every other request.
///
/// Requests that wait for a writer (`Responder.waitsForWriter`) take at most all threads but one
/// (`writerLimit`; with a single thread, that one); the others wait aside, in their own order, and go first when one ends. A writer
/// that waits for the disk (a slow sync, a backup, a checkpoint) then holds up the writes alone: with
/// one queue, enough writes took every thread and every page waited behind them. The writes still share
/// the threads with the pages, in arrival order, so neither gets a core of its own.
final class RequestWorkers: @unchecked Sendable {
    private struct Job {
        let work: @Sendable () -> Void
        let waitsForWriter: Bool
    }

    // Unchecked: everything below but `writerLimit` is only touched with `condition` locked.
    private let condition = NSCondition()
    /// Deques, so that a job taken is let go at once with what it holds (the request, its connection's
    /// state). An array read from a moving head was emptied only when every job had been taken, which
    /// under steady load is never: every request stayed in memory, about 2 MB a second at ten times
    /// the clinic.
    private var waiting: Deque<Job> = []
    /// Writes taken from `waiting` while `writerLimit` of them were running, oldest first.
    private var asideWrites: Deque<Job> = []
    private var writesRunning = 0
    private var stopping = false
    private let writerLimit: Int

    /// Starts `count` threads; they run until `stop()`. Linux keeps 15 characters of a thread's name.
    init(name: String, count: Int) {
        let count = max(1, count)
        writerLimit = max(1, count - 1)
        for index in 0..<count {
            let thread = Thread { [self] in run() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func submit(waitsForWriter: Bool = false, _ work: @escaping @Sendable () -> Void) {
        condition.lock()
        waiting.append(Job(work: work, waitsForWriter: waitsForWriter))
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
        while let job = next() {
            job.work()
            if job.waitsForWriter { writeEnded() }
        }
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if writesRunning < writerLimit, !asideWrites.isEmpty {
                writesRunning += 1
                return asideWrites.removeFirst()
            }
            if let job = waiting.popFirst() {
                guard job.waitsForWriter else { return job }
                if writesRunning < writerLimit {
                    writesRunning += 1
                    return job
                }
                asideWrites.append(job)
                continue
            }
            // Writes set aside are run before stopping: the write running ends and lets the next one go.
            if stopping && asideWrites.isEmpty { return nil }
            condition.wait()
        }
    }

    private func writeEnded() {
        condition.lock()
        writesRunning -= 1
        let hasAside = !asideWrites.isEmpty
        condition.unlock()
        if hasAside { condition.signal() }
    }
}
