import Foundation
import Synchronization

/// How far each running import is, for the import page to show while the upload's request is still
/// being answered. In memory: an import lives inside one request, and a restart ends it anyway.
/// Keyed by the importing user and a token the form carries, so nobody reads another's progress.
final class OBFImportProgress: Sendable {
    enum Phase: String, Sendable { case reading, converting, saving, done, failed }

    struct State: Sendable, Equatable {
        var phase: Phase
        var done = 0
        var total = 0
        var updatedAt: Date
    }

    static let shared = OBFImportProgress()
    /// Entries not updated for this long are forgotten.
    static let lifetime: TimeInterval = 30 * 60

    private let states = Mutex<[String: State]>([:])

    private static func key(user: Int64, job: String) -> String { "\(user) \(job)" }

    /// A job token as the form sends it: letters, digits and hyphens, 8 to 64 of them; anything else is no job.
    static func job(_ value: String?) -> String? {
        guard let value, (8...64).contains(value.count), value.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" })
        else { return nil }
        return value
    }

    func update(user: Int64, job: String?, _ phase: Phase, done: Int = 0, total: Int = 0, now: Date = Date()) {
        guard let job else { return }
        states.withLock { states in
            states = states.filter { now.timeIntervalSince($0.value.updatedAt) < Self.lifetime }
            var state = states[Self.key(user: user, job: job)] ?? State(phase: phase, updatedAt: now)
            // Counts only grow within a phase: workers report out of order.
            if state.phase == phase { state.done = max(state.done, done) } else { state.done = done }
            state.phase = phase
            state.total = total
            state.updatedAt = now
            states[Self.key(user: user, job: job)] = state
        }
    }

    func state(user: Int64, job: String) -> State? {
        states.withLock { $0[Self.key(user: user, job: job)] }
    }
}

extension OBFImportProgress {
    /// The state as one sentence, e.g. "Converting pictures and sounds: 120 of 663."
    static func text(_ state: State, _ t: Translator) -> String {
        t("obf_progress_\(state.phase.rawValue)", ["done": "\(state.done)", "total": "\(state.total)"])
    }
}
