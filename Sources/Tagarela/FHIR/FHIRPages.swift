import Foundation
import GRDB
import HTTPServer

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
