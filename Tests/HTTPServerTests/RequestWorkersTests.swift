import Foundation
@testable import HTTPServer
import Synchronization
import Testing

/// The request workers' queue holds what each request's work captures (the request, its connection's
/// state) until a worker takes it, and no longer.
@Suite struct RequestWorkersTests {
    final class Departures: Sendable {
        let count = Mutex(0)
    }

    /// What a job captures, counted when it is let go.
    final class Payload: Sendable {
        let departures: Departures
        init(_ departures: Departures) { self.departures = departures }
        deinit { departures.count.withLock { $0 += 1 } }
    }

    @Test func aJobTakenIsLetGoWhileOthersStillWait() {
        let workers = RequestWorkers(name: "tg-test-queue", count: 1)
        defer { workers.stop() }
        let departures = Departures()
        let firstGate = DispatchSemaphore(value: 0), secondGate = DispatchSemaphore(value: 0)
        let insideSecond = DispatchSemaphore(value: 0)
        workers.submit { firstGate.wait() }
        for _ in 0..<100 {
            let payload = Payload(departures)
            workers.submit { _ = payload }
        }
        workers.submit { insideSecond.signal(); secondGate.wait() }
        // Under steady load the queue is never empty: one job always waits behind the running one.
        workers.submit {}
        firstGate.signal()
        insideSecond.wait()
        #expect(departures.count.withLock { $0 } == 100)
        secondGate.signal()
    }
}
