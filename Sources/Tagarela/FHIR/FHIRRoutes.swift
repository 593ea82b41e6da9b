import Foundation
import GRDB
import HTTPServer

/// The record leaving as HL7 FHIR R4 (issue 47): the export page and the Bundle.
enum FHIRRoutes {
    static let templates = ["fhir/export", "fhir/import-preview"]
    static let contentType = "application/fhir+json; charset=utf-8"

    static func add(to router: inout Router<Route>) {
        router.read(FHIREndpoints.page, page)
        // One write reads the record and audits the export; the JSON is built after it, holding no transaction.
        router.write(FHIREndpoints.bundle, bundleSource, then: bundle)
        router.read(FHIREndpoints.previewImport, previewImport)
        router.write(FHIREndpoints.saveImport, saveImport)
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

struct FHIRExportPage: PageModel {
    struct Imported: PageModel {
        let what: String
        let value: String
        let date: String
    }

    let patientName: String
    let form: FormState
    let bundleURL: String
    let backURL: String
    let importURL: String?
    let importProblem: String?
    let imported: [Imported]
    let hasImported: Bool
    let csrf: String

    init(_ found: FHIRQueries.Page, form: FormState, importProblem: String?, actor: Actor, context: RequestContext) {
        patientName = found.name
        self.form = form
        self.importProblem = importProblem
        bundleURL = FHIREndpoints.bundle.path(found.id)
        backURL = actor.role == .trainer ? BodyCompositionEndpoints.showClient.path(found.id) : PeopleEndpoints.showPatient.path(found.id)
        let mayImport = actor.role == .trainer || actor.specialties.contains(.nutrition)
        importURL = mayImport ? FHIREndpoints.previewImport.path(found.id) : nil
        imported = found.imported.map { Imported(what: FHIRImportPreview.name(of: $0.kind, context.t), value: FHIRImportPreview.amount($0.value, $0.unit, context),
                                                 date: FHIRImportPreview.date($0.effective, context)) }
        hasImported = !imported.isEmpty
        csrf = context.csrfToken
    }
}

struct FHIRImportPreview: PageModel {
    struct Line: PageModel {
        let what: String
        let value: String
        let date: String
    }

    struct Refused: PageModel {
        let entry: Int
        let what: String
        let reason: String
    }

    let patientName: String
    let fromName: String?
    let new: [Line]
    let seen: [Line]
    let refused: [Refused]
    let skipped: String?
    let hasNew: Bool
    let hasSeen: Bool
    let hasRefused: Bool
    let measurements: String
    let saveURL: String
    let backURL: String
    let csrf: String

    init(id: Int64, patientName: String, reading: FHIRImport.Reading, new: [FHIRImport.Measurement], seen: [FHIRImport.Measurement],
         context: RequestContext) {
        self.patientName = patientName
        fromName = reading.patientName.map { name in reading.patientBirthDate.map { "\(name) (\(Self.date($0, context)))" } ?? name }
        func line(_ measurement: FHIRImport.Measurement) -> Line {
            Line(what: Self.name(of: measurement.kind, context.t), value: Self.amount(measurement.value, measurement.unit, context),
                 date: Self.date(measurement.effective, context))
        }
        self.new = new.map(line)
        self.seen = seen.map(line)
        refused = reading.refusals.map { refusal in
            Refused(entry: refusal.entry, what: refusal.what,
                    reason: context.t("fhir_import_reason_\(refusal.reason.rawValue)", ["detail": refusal.detail]))
        }
        skipped = reading.skipped.isEmpty ? nil
            : context.t("fhir_import_skipped", ["list": reading.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
                .joined(separator: ", ")])
        hasNew = !new.isEmpty
        hasSeen = !seen.isEmpty
        hasRefused = !reading.refusals.isEmpty
        measurements = String(decoding: (try? JSONEncoder().encode(new)) ?? Data("[]".utf8), as: UTF8.self)
        saveURL = FHIREndpoints.saveImport.path(id)
        backURL = FHIREndpoints.page.path(id)
        csrf = context.csrfToken
    }

    /// A kind's name in the reader's language: the catalogue's, else its code's display.
    static func name(of kind: String, _ t: Translator) -> String {
        let text = t["fhir_kind_" + kind.replacingOccurrences(of: "-", with: "_")]
        if !text.hasPrefix("⟦") { return text }
        return FHIRImport.kinds.first { $0.key == kind }?.code.display ?? kind
    }

    static func amount(_ value: Double, _ unit: String, _ context: RequestContext) -> String { amount(value, unit, context.format) }

    static func amount(_ value: Double, _ unit: String, _ format: LocalizedFormat) -> String {
        "\(format.decimal(value, fractionDigits: unit == "g/mL" ? 4 : 1)) \(unit == "kg/m2" ? "kg/m²" : unit)"
    }

    static func date(_ effective: String, _ context: RequestContext) -> String {
        context.format.shortDate(iso: String(effective.prefix(10)))
    }
}
