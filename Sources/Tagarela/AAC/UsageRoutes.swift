import Foundation
import GRDB
import HTTPServer

/// Usage history (taps) and observations, for the patient's clinicians and tutors.
enum UsageRoutes: Feature {
    static let templates = ["aac/usage", "aac/usage-row", "aac/observations", "aac/observations-print"]

    static func add(to router: inout Router<Route>) {
        router.add(UsageEndpoints.usage) { $0.read(usage) }
        // A write: the export is audited.
        router.add(UsageEndpoints.usageCSV) { $0.write(usageCSV) }
        router.add(UsageEndpoints.observations) { $0.read(observations) }
        router.add(UsageEndpoints.addObservation) { $0.write(addObservation) }
        router.add(UsageEndpoints.printObservations) { $0.write(printObservations) }
    }

    @Sendable static func usage(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let filter = Filter(context.request.query, context: context)
        let data = try UsageQueries.history(patientId: patientId, visibleTo: actor, filter, timeZone: context.configuration.timeZone, db)
        return .page("aac/usage", title: "usage_title", UsagePage(
            patientId: data.patientId, patientName: data.patientName, patientLocale: data.patientLocale, filter: filter, total: data.total, perDay: data.perDay,
            top: data.top, longest: data.longest, rows: data.rows, plans: data.plans, people: data.people, context: context))
    }

    @Sendable static func usageCSV(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let filter = Filter(context.request.query, context: context, unnamed: .both)
        let zone = context.configuration.timeZone
        let rows = try UsageQueries.exportTaps(patientId: patientId, visibleTo: actor, filter, timeZone: zone, audit: context.audit, db)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        let header = [context.t["usage_when"], context.t["usage_plan"], context.t["usage_symbol"], context.t["usage_assisted"],
                      context.t["usage_csv_modeling"]]
        // A modeled tap is the adult's: marked, so that a spreadsheet never counts it as the child's word.
        let lines = [header] + rows.map { [formatter.string(from: $0.at), $0.planName ?? "", $0.symbolName ?? "", $0.assistedName ?? "",
                                           $0.modeling ? context.t["usage_csv_modeled"] : ""] }
        let csv = lines.map { $0.map(CSV.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        return Reply(.download(csv.utf8, type: "text/csv; charset=utf-8", name: "usage-\(filter.from)-\(filter.to).csv"))
    }

    // MARK: - Observations

    @Sendable static func observations(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let form = FormState(values: ["observedOn": context.today])
        return observationsPage(try Observations.visible(patientId: patientId, to: actor, db), form: form, context: context)
    }

    static func observationsPage(_ notes: Observations.Notes, form: FormState, status: Status = .ok, context: RequestContext) -> Reply {
        .page("aac/observations", title: "observations_title", ObservationsPage(
            patientId: notes.patientId, patientName: notes.patientName, notes: notes.notes, form: form,
            isClinician: context.actor?.role == .clinician, context: context), status: status)
    }

    /// The notes alone, for paper: an export of health data, so audited.
    @Sendable static func printObservations(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let notes = try Observations.printed(patientId: patientId, for: actor, audit: context.audit, db)
        return .page("aac/observations-print", title: "observations_title", ObservationsPage(
            patientId: notes.patientId, patientName: notes.patientName, notes: notes.notes, form: FormState(),
            isClinician: actor.role == .clinician, context: context))
    }

    @Sendable static func addObservation(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["body", "observedOn"])
        let body = form.required("body", context.t["error_observation_required"])
        let date = context.format.parseDate(form["observedOn"])
        if date == nil || date! > context.now { form.fail("observedOn", context.t["error_date_invalid"]) }
        guard let body, let date, !form.hasErrors else {
            return observationsPage(try Observations.visible(patientId: patientId, to: actor, db), form: form,
                                    status: .unprocessableContent, context: context)
        }
        let note = try Observations.add(patientId: patientId, by: actor, observedOn: ISODate.string(date, timeZone: context.format.timeZone),
                                        body: body, audit: context.audit, db)
        return .redirect(to: UsageEndpoints.observations.path(note.patientId), flash: "observation_saved")
    }
}

/// RFC 4180 fields; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula.
enum CSV {
    static func field(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
