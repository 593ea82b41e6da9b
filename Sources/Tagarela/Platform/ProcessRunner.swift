import Foundation

/// Runs the command-line tools Tagarela relies on (ffmpeg, ffprobe, espeak-ng, sox), every one with a
/// time limit. A tool that takes longer is killed with its whole process group (a shell's children
/// too), and the files it was making are removed, so a stuck or hostile input never holds the one
/// media worker, and never leaves half a file behind. Blocks the calling thread: use it off the
/// request workers (`app.mediaPool`, a command-line subcommand).
enum ProcessRunner {
    /// How long each kind of run may take. Generous for real work on a slow, shared machine (a word
    /// takes espeak-ng and ffmpeg about 0.1 s; a 50-megapixel JPEG 1.3 s, a PNG 3 s, up to 15 s with
    /// the machine's two cores shared by a dozen compilers), short enough that a
    /// stuck run frees the media worker within half a minute. See docs/decisions/0017-limits-before-work.md, "Limits before work".
    enum TimeLimit {
        static let speech: Duration = .seconds(15)
        static let audioConversion: Duration = .seconds(30)
        static let imageConversion: Duration = .seconds(30)
        static let probe: Duration = .seconds(10)
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        case couldNotStart(tool: String)
        case timedOut(tool: String, after: Duration)
        case exited(tool: String, status: Int32)

        var description: String {
            switch self {
            case .couldNotStart(let tool): "\(tool) could not be started (is it installed?)"
            case .timedOut(let tool, let limit): "\(tool) took longer than \(limit) and was stopped"
            case .exited(let tool, let status): "\(tool) failed with exit status \(status)"
            }
        }
    }

    /// Runs `executable` with `arguments`, stdin empty, stderr discarded; returns what it wrote to
    /// stdout. Throws when it cannot start, exits with a status other than 0 or runs past `timeLimit`;
    /// in every one of those cases each path of `outputs` is removed.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], timeLimit: Duration,
                    outputs: [String] = []) throws -> Data {
        let tool = (executable as NSString).lastPathComponent
        do {
            return try runOnce(executable, arguments, tool: tool, timeLimit: timeLimit)
        } catch {
            for path in outputs { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    /// The same, answering only whether it succeeded.
    static func succeeds(_ executable: String, _ arguments: [String], timeLimit: Duration, outputs: [String] = []) -> Bool {
        (try? run(executable, arguments, timeLimit: timeLimit, outputs: outputs)) != nil
    }

    private static func runOnce(_ executable: String, _ arguments: [String], tool: String, timeLimit: Duration) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        // Foundation starts the child as the leader of a new process group (POSIX_SPAWN_SETPGROUP),
        // which is what lets a timeout reach its children as well.
        do { try process.run() } catch { throw Failure.couldNotStart(tool: tool) }

        // Read stdout while the tool runs, so a chatty tool never blocks on a full pipe.
        let collected = OutputCollector()
        let reading = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        DispatchQueue.global().async {
            collected.data = reader.readDataToEndOfFile()
            reading.signal()
        }
        let (seconds, attoseconds) = timeLimit.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        // A tool that left a child of its own holding stdout is still running, as far as we are concerned.
        let toolExited = exited.wait(timeout: deadline) == .success
        if !toolExited || reading.wait(timeout: deadline) == .timedOut {
            let pid = process.processIdentifier
            kill(-pid, SIGKILL)  // the group: the tool and anything it started
            if !toolExited {
                kill(pid, SIGKILL)  // the tool itself, should it have left the group
                exited.wait()
            }
            _ = reading.wait(timeout: .now() + .seconds(2))
            throw Failure.timedOut(tool: tool, after: timeLimit)
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure.exited(tool: tool, status: process.terminationStatus)
        }
        return collected.data
    }

    /// Written by the reading thread before it signals, read after the wait: never at the same time.
    private final class OutputCollector: @unchecked Sendable {
        var data = Data()
    }
}
