import Foundation
import GRDB
import HTTPServer

/// The record leaving as HL7 FHIR R4 (issue 47): the export page and the Bundle.
enum FHIRRoutes {
    static let templates = ["fhir/export"]
    static let contentType = "application/fhir+json; charset=utf-8"

    static func add(to router: inout Router<Route>) {
        router.read(FHIREndpoints.page, page)
        // One write reads the record and audits the export; the JSON is built after it, holding no transaction.
        router.write(FHIREndpoints.bundle, bundleSource, then: bundle)
    }

    @Sendable static func page(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let name = try FHIRQueries.patientName(id, visibleTo: actor, db)
        return .page("fhir/export", title: "fhir_export_title", FHIRExportPage(id: id, patientName: name, form: FormState(), actor: actor))
    }

    @Sendable static func bundleSource(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Step<FHIRRecord> {
        let actor = try context.requireActor()
        var form = FormState(values: ["from": context.request.query["from"] ?? "", "to": context.request.query["to"] ?? ""])
        let period = FHIRPeriod.read(from: form["from"], to: form["to"])
        guard case .success(let range) = period else {
            if case .failure(let problem) = period { form.fail(problem.field, context.t["fhir_error_\(problem.rawValue)"]) }
            let name = try FHIRQueries.patientName(id, visibleTo: actor, db)
            return .reply(.page("fhir/export", title: "fhir_export_title",
                                FHIRExportPage(id: id, patientName: name, form: form, actor: actor), status: .unprocessableContent))
        }
        return .next(try FHIRQueries.export(id, visibleTo: actor, period: range, locale: context.locale,
                                            timeZone: context.configuration.timeZone, audit: context.audit, db))
    }

    @Sendable static func bundle(_ context: RequestContext, _ record: FHIRRecord) throws -> Reply {
        let mapper = FHIRMapper(base: context.configuration.linkBase, timeZone: context.configuration.timeZone)
        let json = mapper.bundle(record).serialized()
        let day = ISODate.string(record.exportedAt, timeZone: context.configuration.timeZone)
        return Reply(.download(json.utf8, type: contentType, name: "tagarela-\(record.patient.id)-\(day).fhir.json"))
    }
}

/// The export's period from the query: each end optional, an ISO date (what `<input type=date>` sends),
/// the first not after the second. Pure.
enum FHIRPeriod {
    enum Problem: String, Error, Sendable {
        case from, to, order

        var field: String { self == .from ? "from" : "to" }
    }

    static func read(from fromText: String, to toText: String) -> Result<FHIRQueries.Period, Problem> {
        func day(_ text: String) -> String?? {
            let text = text.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return .some(nil) }
            guard text.count == 10, let number = ISODate.dayNumber(text) else { return nil }
            return .some(ISODate.string(dayNumber: number))
        }
        guard let from = day(fromText) else { return .failure(.from) }
        guard let to = day(toText) else { return .failure(.to) }
        if let from, let to, from > to { return .failure(.order) }
        return .success(FHIRQueries.Period(from: from, to: to))
    }
}

struct FHIRExportPage: PageModel {
    let patientName: String
    let form: FormState
    let bundleURL: String
    let backURL: String

    init(id: Int64, patientName: String, form: FormState, actor: Actor) {
        self.patientName = patientName
        self.form = form
        bundleURL = FHIREndpoints.bundle.path(id)
        backURL = actor.role == .trainer ? BodyCompositionEndpoints.showClient.path(id) : PeopleEndpoints.showPatient.path(id)
    }
}
