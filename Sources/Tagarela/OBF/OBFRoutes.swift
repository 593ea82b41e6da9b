import Foundation
import GRDB
import HTTPServer

/// Open Board Format: boards out as `.obz`/`.obf`, boards in from either, and the usage history out as `.obl`.
enum OBFRoutes {
    static let templates = ["obf/import"]

    static func add(to router: inout Router<Route>) {
        router.legacy(OBFEndpoints.exportPackage, exportPackage)
        router.legacy(OBFEndpoints.exportBoard, exportBoard)
        router.legacy(OBFEndpoints.importForm, importForm)
        router.legacy(OBFEndpoints.importBoards, importBoards)
        router.legacy(OBFEndpoints.usageLog, usageLog)
    }

    static func exporter(_ app: App) -> OBFExporter {
        OBFExporter(pictogramFolder: app.configuration.pictogramFolder, mediaDirectory: app.configuration.mediaDirectory,
                    audioFolder: app.configuration.audioFolder)
    }

    /// The plan and every board its folder cells lead to, as one package.
    @Sendable static func exportPackage(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let source = try context.database.write { db in
            let source = try OBFExportSource.fetch(root: PlanScope.editable(context.id("plan"), by: actor, db), followLinks: true, db)
            try audit(context, exported: source, as: "obz", db)
            return source
        }
        let package = try exporter(context.app).package(source)
        return .download(package, type: "application/zip",
                        name: OBFExporter.fileName(source.screens[0].plan.name, extension: "obz"))
    }

    /// The plan alone, with its pictures and sounds inside the JSON.
    @Sendable static func exportBoard(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let source = try context.database.write { db in
            let source = try OBFExportSource.fetch(root: PlanScope.editable(context.id("plan"), by: actor, db), followLinks: false, db)
            try audit(context, exported: source, as: "obf", db)
            return source
        }
        return .download(exporter(context.app).single(source), type: "application/json",
                        name: OBFExporter.fileName(source.screens[0].plan.name, extension: "obf"))
    }

    /// One audit row per export, naming the patient and the plans that left.
    static func audit(_ context: RequestContext, exported source: OBFExportSource, as fileExtension: String, _ db: Database) throws {
        let root = source.screens[0].plan
        try context.audit.record(.export, "patient", root.patientId,
                                 "plan \(root.id ?? 0) '\(root.name)' .\(fileExtension), \(source.screens.count) board(s)", db)
    }

    @Sendable static func usageLog(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let filter = UsageRoutes.Filter(context.request.query, context: context)
        let zone = context.app.configuration.timeZone
        let log = try context.database.write { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            try context.audit.record(.export, "patient", patient.userId, "usage.obl \(filter.from)…\(filter.to)", db)
            let (taps, sentences) = try OBLBuilder.fetch(filter, patientId: patient.userId, timeZone: zone, db)
            let locale = try User.fetchOne(db, key: patient.userId)?.appLocale ?? context.locale
            return OBLBuilder.log(patientId: patient.userId, locale: locale.rawValue, taps: taps, sentences: sentences, timeZone: zone)
        }
        return .download(OBFFile.json(log), type: "application/json", name: "usage-\(filter.from)-\(filter.to).obl")
    }

    // MARK: - Import

    @Sendable static func importForm(_ context: RequestContext) throws -> Response {
        try importPage(context, error: nil, status: .ok)
    }

    static func importPage(_ context: RequestContext, error: String?, status: Status) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            return OBFImportPage(patientId: patient.userId, patientName: try User.fetchOne(db, key: patient.userId)!.displayName,
                                 error: error)
        }
        return context.render("obf/import", title: "obf_import_title", page, status: status)
    }

    /// Reads the uploaded file, converts its media and stores its boards, all on the media pool; a
    /// malformed file re-shows the form with the first problem found, naming the board and the field.
    @Sendable static func importBoards(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let patientId = try context.database.read { try PatientScope.find(context.id("id"), visibleTo: actor, $0).userId }
        guard let upload = context.request.file(named: "file"), upload.size > 0 else {
            return try importPage(context, error: context.t["obf_import_choose_file"], status: .unprocessableContent)
        }
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in
                let app = context.app
                let importer = OBFImporter(media: app.media, speech: app.speech, pictograms: app.pictograms,
                                           temporaryDirectory: app.configuration.uploadsDirectory)
                do {
                    let boards = try OBFReader.read(file: upload.temporaryPath, name: upload.filename)
                    let result = try importer.run(boards, patientId: patientId, actor: actor,
                                                  fallbackLocale: context.signedIn?.user.appLocale ?? context.locale,
                                                  now: context.now, timeZone: app.configuration.timeZone,
                                                  database: context.database, audit: context.audit, t: context.t)
                    return context.redirect(to: "/plans/\(result.rootPlanId)/edit",
                                            flash: result.placeholders > 0 ? "obf_imported_with_placeholders" : "obf_imported")
                } catch let error as OBFError {
                    return try importPage(context, error: error.message(context.t), status: .unprocessableContent)
                }
            }, context)
        }
    }
}

struct OBFImportPage: Sendable {
    let patientId: Int64
    let patientName: String
    let error: String?
}
