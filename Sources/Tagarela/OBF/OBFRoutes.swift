import Foundation
import GRDB
import HTTPServer

/// Open Board Format: boards out as `.obz`/`.obf`, boards in from either, and the usage history out as `.obl`.
enum OBFRoutes: Feature {
    static let templates = ["obf/import", "obf/imported"]

    static func add(to router: inout Router<Route>) {
        // Exports are audited, so writes; the files are built after the transaction.
        router.add(OBFEndpoints.exportPackage) { $0.write(exportSource(followLinks: true, as: "obz")).finish(exportPackage) }
        router.add(OBFEndpoints.exportBoard) { $0.write(exportSource(followLinks: false, as: "obf")).finish(exportBoard) }
        router.add(OBFEndpoints.importForm) { $0.read(importForm) }
        router.add(OBFEndpoints.importBoards) { $0.slow(.media, prepareImport).write(importBoards) }
        router.add(OBFEndpoints.importProgress) { $0.reply(importProgress) }
        router.add(OBFEndpoints.importResult) { $0.read(importResult) }
        router.add(OBFEndpoints.usageLog) { $0.write(usageLog).finish(usageLogFile) }
    }

    static func exporter(_ context: RequestContext) -> OBFExporter {
        let configuration = context.configuration
        return OBFExporter(pictogramFolder: configuration.pictogramFolder, mediaDirectory: configuration.mediaDirectory,
                           audioFolder: configuration.audioFolder)
    }

    /// The plan (and with `followLinks` every board its folder cells lead to), read and audited.
    static func exportSource(followLinks: Bool, as fileExtension: String)
        -> @Sendable (RequestContext, Database, Int64) throws -> Step<OBFExportSource> {
        { context, db, planId in
            .next(try OBFQueries.exportSource(planId: planId, editableBy: try context.requireActor(), followLinks: followLinks,
                                              as: fileExtension, t: context.t, audit: context.audit, db))
        }
    }

    /// The plan and every board its folder cells lead to, as one package.
    @Sendable static func exportPackage(_ context: RequestContext, _ source: OBFExportSource, _: Int64) throws -> Reply {
        Reply(.download(try exporter(context).package(source), type: "application/zip",
                        name: OBFExporter.fileName(source.screens[0].plan.name, extension: "obz")))
    }

    /// The plan alone, with its pictures and sounds inside the JSON.
    @Sendable static func exportBoard(_ context: RequestContext, _ source: OBFExportSource, _: Int64) throws -> Reply {
        Reply(.download(exporter(context).single(source), type: "application/json",
                        name: OBFExporter.fileName(source.screens[0].plan.name, extension: "obf")))
    }

    @Sendable static func usageLog(_ context: RequestContext, _ db: Database, _ patientId: Int64)
        throws -> Step<(UsageRoutes.Filter, OBFQueries.UsageLog)> {
        let filter = UsageRoutes.Filter(context.request.query, context: context, unnamed: .both)
        return .next((filter, try OBFQueries.usageLog(patientId: patientId, visibleTo: context.requireActor(), filter,
                                                      timeZone: context.configuration.timeZone, audit: context.audit, db)))
    }

    @Sendable static func usageLogFile(_ context: RequestContext, _ found: (UsageRoutes.Filter, OBFQueries.UsageLog), _: Int64) -> Reply {
        let (filter, data) = found
        let log = OBLBuilder.log(patientId: data.patientId, locale: (data.locale ?? context.locale).rawValue, taps: data.taps,
                                 sentences: data.sentences, timeZone: context.configuration.timeZone)
        return Reply(.download(OBFFile.json(log), type: "application/json", name: "usage-\(filter.from)-\(filter.to).obl"))
    }

    // MARK: - Import

    @Sendable static func importForm(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        importPage(try OBFQueries.importTarget(patientId: patientId, visibleTo: context.requireActor(), db), error: nil)
    }

    static func importPage(_ patient: (id: Int64, name: String), error: String?, status: Status = .ok) -> Reply {
        .page("obf/import", title: "obf_import_title", OBFImportPage(patientId: patient.id, patientName: patient.name, error: error,
                                                                     job: UUID().uuidString.lowercased()),
              status: status)
    }

    /// The progress of the signed-in clinician's import `job`: `{phase, done, total, text}`; 404 for a job
    /// they do not have (or that ended long ago).
    @Sendable static func importProgress(_ context: RequestContext) throws -> Reply {
        let actor = try context.requireActor()
        guard let job = OBFImportProgress.job(context.request.query["job"]),
              let state = OBFImportProgress.shared.state(user: actor.userId, job: job) else { throw AppError.notFound }
        return Reply(try .json(["phase": state.phase.rawValue, "done": "\(state.done)", "total": "\(state.total)",
                                "text": OBFImportProgress.text(state, context.t)]))
    }

    @Sendable static func importResult(_ context: RequestContext, _ db: Database, _ importId: Int64) throws -> Reply {
        let found = try OBFQueries.importResult(importId, visibleTo: context.requireActor(), db)
        return .page("obf/imported", title: "obf_imported_title", OBFImportedPage(found, t: context.t))
    }

    /// The uploaded file, read and its media converted on the media pool; or the first problem found,
    /// naming the board and the field, for the form to show again.
    enum Upload: Sendable {
        case boards(OBFImporter.Prepared)
        case refused(String)
    }

    static func importer(_ context: RequestContext) -> OBFImporter {
        OBFImporter(media: context.media, speech: context.speech, pictograms: context.pictograms,
                    temporaryDirectory: context.configuration.uploadsDirectory)
    }

    @Sendable static func prepareImport(_ context: RequestContext, _ patientId: Int64) throws -> Step<Upload> {
        let progress = OBFImportProgress.shared, user = try context.requireActor().userId
        let job = OBFImportProgress.job(context.request.form["job"])
        guard let upload = context.request.file(named: "file"), upload.size > 0 else {
            progress.update(user: user, job: job, .failed)
            return .next(.refused(context.t["obf_import_choose_file"]))
        }
        do {
            progress.update(user: user, job: job, .reading)
            let boards = try OBFReader.read(file: upload.temporaryPath, name: upload.filename)
            let prepared = try importer(context).prepare(boards, fallbackLocale: context.signedIn?.user.appLocale ?? context.locale) {
                done, total in progress.update(user: user, job: job, .converting, done: done, total: total)
            }
            progress.update(user: user, job: job, .saving)
            return .next(.boards(prepared))
        } catch let error as OBFError {
            progress.update(user: user, job: job, .failed)
            return .next(.refused(error.message(context.t)))
        }
    }

    /// Stores the prepared boards (the patient checked again inside the transaction, the files made
    /// deleted if anything fails), or shows the form again with the problem.
    @Sendable static func importBoards(_ context: RequestContext, _ db: Database, _ upload: Upload, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        switch upload {
        case .refused(let message):
            return importPage(try OBFQueries.importTarget(patientId: patientId, visibleTo: actor, db), error: message,
                              status: .unprocessableContent)
        case .boards(let prepared):
            let result = try importer(context).store(prepared, patientId: patientId, actor: actor, now: context.now,
                                                     timeZone: context.configuration.timeZone, audit: context.audit, t: context.t, db)
            OBFImportProgress.shared.update(user: actor.userId, job: OBFImportProgress.job(context.request.form["job"]), .done)
            return .redirect(to: OBFEndpoints.importResult.path(result.importId),
                             flash: result.placeholders > 0 ? "obf_imported_with_placeholders" : "obf_imported")
        }
    }
}
