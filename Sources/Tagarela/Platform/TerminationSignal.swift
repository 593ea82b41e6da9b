import Dispatch
import Foundation

public enum TerminationSignal {
    /// Returns when the process receives SIGINT or SIGTERM.
    ///
    /// NB: the signal handlers live here, not in `main.swift`, so that they are not isolated to
    /// the main actor: Dispatch calls them on its own queue.
    public static func wait() async {
        signal(SIGPIPE, SIG_IGN)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once(continuation)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.resume() }
                source.resume()
                Once.keepAlive.withLock { $0.append(source) }
            }
        }
    }

    private final class Once: @unchecked Sendable {
        static let keepAlive = LockedSources()
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

        func resume() {
            lock.withLock {
                continuation?.resume()
                continuation = nil
            }
        }
    }

    private final class LockedSources: @unchecked Sendable {
        private let lock = NSLock()
        private var sources: [any DispatchSourceSignal] = []
        func withLock(_ body: (inout [any DispatchSourceSignal]) -> Void) { lock.withLock { body(&sources) } }
    }
}
