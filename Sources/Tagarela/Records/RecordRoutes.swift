import Foundation
import GRDB
import HTTPServer

/// The progress report. A write: opening it is an export of health data, audited in the same access.
enum RecordRoutes: Feature {
    static let templates = ["records/report"]

    static func add(to router: inout Router<Route>) {
        router.add(RecordEndpoints.report) { $0.write(report) }
        router.add(RecordEndpoints.mine) { $0.write(mine) }
    }

    @Sendable static func mine(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        guard !actor.isPatientMode else { throw AppError.forbidden }
        return try report(context, db, actor.userId)
    }

    @Sendable static func report(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let zone = context.configuration.timeZone
        let today = ISODate.string(context.now, timeZone: zone)
        var form = FormState(values: ["from": context.request.query["from"] ?? "", "to": context.request.query["to"] ?? ""])
        let period = ReportPeriod.read(from: form["from"], to: form["to"], today: today)
        if let problem = period.problem { form.fail(problem.field, context.t["report_progress_error_\(problem.rawValue)"]) }
        let audience = ReportPage.audience(asked: context.request.query["audience"], by: actor)
        let report = try OverviewQueries.report(id, visibleTo: actor, from: period.from, to: period.to, audience: audience,
                                                timeZone: zone, now: context.now, audit: context.audit, db)
        return .page("records/report", title: "report_progress_title",
                     ReportPage(report, period: period, audience: audience, form: form, actor: actor, context: context),
                     status: period.problem == nil ? .ok : .unprocessableContent)
    }
}

/// The report's period from the query: both days given as ISO dates (what `<input type=date>`
/// sends), the first not after the second, at most a year apart. Nothing given: the last 30 days.
/// A period that cannot be read names its problem and falls back to the last 30 days. Pure.
struct ReportPeriod: Sendable, Equatable {
    enum Problem: String, Sendable {
        case from, to, order, length

        var field: String { self == .from ? "from" : "to" }
    }

    static let longestDays = 366

    let from: String
    let to: String
    let problem: Problem?

    static func read(from fromText: String, to toText: String, today: String) -> ReportPeriod {
        let fallback = (from: ISODate.adding(-29, to: today), to: today)
        let (fromText, toText) = (fromText.trimmingCharacters(in: .whitespaces), toText.trimmingCharacters(in: .whitespaces))
        if fromText.isEmpty && toText.isEmpty { return ReportPeriod(from: fallback.from, to: fallback.to, problem: nil) }
        func day(_ text: String) -> Int? { text.count == 10 ? ISODate.dayNumber(text) : nil }
        guard let first = fromText.isEmpty ? ISODate.dayNumber(fallback.from) : day(fromText) else {
            return ReportPeriod(from: fallback.from, to: fallback.to, problem: .from)
        }
        guard let last = toText.isEmpty ? ISODate.dayNumber(today) : day(toText) else {
            return ReportPeriod(from: fallback.from, to: fallback.to, problem: .to)
        }
        if first > last { return ReportPeriod(from: fallback.from, to: fallback.to, problem: .order) }
        if last - first + 1 > longestDays { return ReportPeriod(from: fallback.from, to: fallback.to, problem: .length) }
        return ReportPeriod(from: ISODate.string(dayNumber: first), to: ISODate.string(dayNumber: last), problem: nil)
    }
}
