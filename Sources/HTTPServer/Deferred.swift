import Foundation

/// A bounded pool of threads for work too slow for a server worker thread (password hashing).
public final class WorkPool: Sendable {
    private let queue: OperationQueue

    public init(name: String, maxConcurrent: Int) {
        let queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = max(1, maxConcurrent)
        self.queue = queue
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        queue.addOperation(work)
    }
}

/// Work whose result is the response, run on a `WorkPool` while the connection waits.
public struct Deferred: Sendable {
    let pool: WorkPool
    let work: @Sendable () -> Response
}

extension Response {
    /// A response computed on `pool`. The server thread that read the request goes back to
    /// other connections meanwhile (libmicrohttpd suspends this one), so slow work such as
    /// hashing a password never holds up the pages of other users. Headers set on the returned
    /// placeholder (security headers, cookies) are added to the response the work produces.
    public static func deferred(on pool: WorkPool, _ work: @escaping @Sendable () -> Response) -> Response {
        var response = Response()
        response.deferred = Deferred(pool: pool, work: work)
        return response
    }
}

extension Response {
    /// This response with `transform` applied to what it finally is: at once, or, for a deferred
    /// response, when its work has produced the real one (itself perhaps deferred again).
    public func whenFinished(_ transform: @escaping @Sendable (Response) -> Response) -> Response {
        guard let deferred else { return transform(self) }
        var placeholder = self
        placeholder.deferred = Deferred(pool: deferred.pool) { deferred.work().whenFinished(transform) }
        return placeholder
    }
}
