import Foundation
import GRDB
import HTTPServer
import Synchronization

/// How many `refused` audit entries are kept: at most `perKey` a minute for one user (or, signed
/// out, one address) and `total` a minute for everyone, counted in memory, so that an attacker who
/// loops over ids cannot flood the log or the disk. What is over the limit is only counted in the log.
final class RefusalAuditLimit: Sendable {
    let perKey: Int
    let total: Int
    private struct Window {
        var minute: Int64 = .min
        var counts: [String: Int] = [:]
        var total = 0
    }
    private let window = Mutex(Window())

    init(perKey: Int = 10, total: Int = 300) {
        self.perKey = perKey
        self.total = total
    }

    /// Whether one more entry for `key` may be written in the minute of `now`. A new minute starts
    /// from zero, so the memory held is one minute's keys at most.
    func admit(_ key: String, at now: Date) -> Bool {
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        return window.withLock { window in
            if window.minute != minute { window = Window(minute: minute) }
            let count = window.counts[key, default: 0]
            guard count < perKey, window.total < total else { return false }
            window.counts[key] = count + 1
            window.total += 1
            return true
        }
    }
}

extension App {
    /// Path parameters that name a file or a screen, not a record: a missing pictogram is not a probe.
    static let nonRecordParameters: Set<String> = ["file", "screen", "mode"]

    /// Whether `status` for this request is a refusal worth an audit entry: every 403, and a 404 on a
    /// route with a record id for a signed-in user (the answer to "not yours" as much as to "missing").
    static func isAuditedRefusal(_ status: Status, _ request: Request, signedIn: Bool) -> Bool {
        switch status {
        case .forbidden: true
        case .notFound: signedIn && request.pathParameters.keys.contains { !nonRecordParameters.contains($0) }
        default: false
        }
    }

    /// Writes a `refused` entry for `response` when it is a refusal (see `isAuditedRefusal`), once per
    /// request, within `refusalLimit`, and never inside another database access; returns `response`.
    func recordingRefusal(_ response: Response, _ context: RequestContext) -> Response {
        guard response.deferred == nil,
              Self.isAuditedRefusal(response.status, context.request, signedIn: context.actor != nil),
              !DatabaseScope.isOpenOnThisThread,
              context.refusalRecord.claim() else { return response }
        let audit = context.audit
        let key = audit.actorId.map { "user \($0)" } ?? "address \(audit.clientAddress)"
        guard refusalLimit.admit(key, at: audit.now) else {
            logger.warning("refused request not audited: limit reached",
                           metadata: ["who": "\(key)", "path": "\(context.request.path.prefix(200))"])
            return response
        }
        let summary = "\(context.request.method) \(context.request.path.prefix(200)) → \(response.status.code)"
        do {
            try database.write { db in try audit.record(.refused, "request", nil, summary, db) }
        } catch {
            logger.error("refused request not audited", metadata: ["error": "\(error)", "summary": "\(summary)"])
        }
        return response
    }
}
