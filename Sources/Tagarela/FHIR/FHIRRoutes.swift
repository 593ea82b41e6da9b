import Foundation
import GRDB
import HTTPServer

/// The record leaving as HL7 FHIR R4 (issue 47): the export page and the Bundle.
enum FHIRRoutes: Feature {
    static let templates = ["fhir/export", "fhir/import-preview"]
    static let contentType = "application/fhir+json; charset=utf-8"

    static func add(to router: inout Router<Route>) {
        router.add(FHIREndpoints.page) { $0.read(page) }
        // One write reads the record and audits the export; the JSON is built after it, holding no transaction.
        router.add(FHIREndpoints.bundle) { $0.write(bundleSource).finish(bundle) }
        router.add(FHIREndpoints.previewImport) { $0.read(previewImport) }
        router.add(FHIREndpoints.saveImport) { $0.write(saveImport) }
    }

    @Sendable static func page(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        return exportPage(try FHIRQueries.page(id, visibleTo: actor, db), form: FormState(), actor: actor, context: context)
    }

    static func exportPage(_ found: FHIRQueries.Page, form: FormState, importProblem: String? = nil, status: Status = .ok,
                           actor: Actor, context: RequestContext) -> Reply {
        .page("fhir/export", title: "fhir_export_title",
              FHIRExportPage(found, form: form, importProblem: importProblem, actor: actor, context: context), status: status)
    }

    @Sendable static func bundleSource(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Step<FHIRRecord> {
        let actor = try context.requireActor()
        var form = FormState(values: ["from": context.request.query["from"] ?? "", "to": context.request.query["to"] ?? ""])
        let period = FHIRPeriod.read(from: form["from"], to: form["to"])
        guard case .success(let range) = period else {
            if case .failure(let problem) = period { form.fail(problem.field, context.t["fhir_error_\(problem.rawValue)"]) }
            return .reply(exportPage(try FHIRQueries.page(id, visibleTo: actor, db), form: form, status: .unprocessableContent,
                                     actor: actor, context: context))
        }
        return .next(try FHIRQueries.export(id, visibleTo: actor, period: range, locale: context.locale,
                                            timeZone: context.configuration.timeZone, audit: context.audit, db))
    }

    @Sendable static func bundle(_ context: RequestContext, _ record: FHIRRecord, _: Int64) throws -> Reply {
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

extension FHIRRoutes {
    // MARK: - Import

    static func ownSystems(_ context: RequestContext) -> (patients: String, observations: String) {
        let base = context.configuration.linkBase
        return (FHIRCodes.patientIdentifier(base: base), FHIRCodes.observationIdentifier(base: base))
    }

    /// The uploaded file read, and what it would add shown; nothing stored.
    @Sendable static func previewImport(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let found = try FHIRQueries.page(id, visibleTo: actor, db)
        let systems = ownSystems(context)
        let bytes: [UInt8]
        if let upload = context.request.file(named: "file"), upload.size > 0 {
            guard upload.size <= FHIRImport.largestFile else {
                return refused(.tooLarge, found, actor: actor, context: context)
            }
            bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: upload.temporaryPath))) ?? Data())
        } else {
            bytes = []
        }
        switch FHIRImport.read(bytes, patientId: id, birthDate: found.birthDate, ownSystem: systems.patients) {
        case .failure(let problem): return refused(problem, found, actor: actor, context: context)
        case .success(let reading):
            let sorted = try FHIRMeasurements.sort(reading.measurements, patientId: id, ownObservations: systems.observations, db)
            return .page("fhir/import-preview", title: "fhir_import_preview_title",
                         FHIRImportPreview(id: id, patientName: found.name, reading: reading, new: sorted.new, seen: sorted.seen, context: context))
        }
    }

    static func refused(_ problem: FHIRImport.FileProblem, _ found: FHIRQueries.Page, actor: Actor, context: RequestContext) -> Reply {
        exportPage(found, form: FormState(), importProblem: context.t["fhir_import_error_\(problem.rawValue)"], status: .unprocessableContent,
                   actor: actor, context: context)
    }

    /// Stores what the preview showed: the measurements travel back in the form, and are checked again
    /// by the same rules (range, unit, duplicates), so a changed form can add nothing a file could not.
    @Sendable static func saveImport(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let found = try FHIRQueries.page(id, visibleTo: actor, db)
        let text = context.request.form["measurements"] ?? ""
        guard text.utf8.count <= FHIRImport.largestFile,
              let measurements = try? JSONDecoder().decode([FHIRImport.Measurement].self, from: Data(text.utf8)),
              measurements.allSatisfy(FHIRImport.isValid)
        else { return refused(.notJSON, found, actor: actor, context: context) }
        let added = try FHIRMeasurements.add(measurements, patientId: id, ownObservations: ownSystems(context).observations,
                                             audit: context.audit, db)
        return .redirect(to: FHIREndpoints.page.path(id), flash: added == 0 ? "fhir_import_nothing_new" : "fhir_import_saved")
    }
}
