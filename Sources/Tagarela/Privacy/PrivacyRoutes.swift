import Foundation
import GRDB
import HTTPServer

/// The patient's rights over their data: see what is held, download it all, ask for its erasure; and
/// the administrator's decision on each request.
enum PrivacyRoutes: Feature {
    static let templates = ["privacy/show", "privacy/archive", "privacy/erasures"]

    static func add(to router: inout Router<Route>) {
        router.add(PrivacyEndpoints.show) { $0.read(show) }
        router.add(PrivacyEndpoints.download) { $0.write(archiveSource).finish(archive) }
        router.add(PrivacyEndpoints.requestErasure) { $0.write(requestErasure) }
        router.add(PrivacyEndpoints.withdrawErasure) { $0.write(withdrawErasure) }
        router.add(PrivacyEndpoints.erasures) { $0.read(erasures) }
        router.add(PrivacyEndpoints.erase) { $0.write(erase).finish(removeErasedFiles) }
        router.add(PrivacyEndpoints.decline) { $0.write(decline) }
    }

    // MARK: - The patient's side

    @Sendable static func show(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        try page(context, db, id, form: FormState())
    }

    static func page(_ context: RequestContext, _ db: Database, _ id: Int64, form: FormState, status: Status = .ok) throws -> Reply {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        let name = try PlanQueries.displayName(of: patient.userId, db)
        let model = PrivacyPage(patientId: id, name: name, isSelf: actor.userId == id,
                                counts: try PatientArchive.counts(patientId: id, db),
                                privateNotes: try PatientArchive.privateNotes(patientId: id, db),
                                request: try Erasures.latest(patientId: id, db), form: form, context: context)
        return .page("privacy/show", title: "privacy_title", model, status: status)
    }

    struct ArchiveSource: Sendable {
        let name: String
        let tables: [PatientArchive.Table]
        let media: [PatientArchive.MediaFile]
        let privateNotes: Int
    }

    /// Everything, read in one access and audited as an export.
    @Sendable static func archiveSource(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Step<ArchiveSource> {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        let source = ArchiveSource(name: try PlanQueries.displayName(of: patient.userId, db),
                                   tables: try PatientArchive.read(patientId: id, locale: context.locale, db),
                                   media: try PatientArchive.mediaFiles(patientId: id, db),
                                   privateNotes: try PatientArchive.privateNotes(patientId: id, db))
        try context.audit.record(.export, "patient", id, "privacy archive", db)
        return .next(source)
    }

    /// The zip, built holding no transaction: a page to read (`index.html`), the same as data (`data.json`,
    /// one CSV per section) and the pictures and recordings.
    @Sendable static func archive(_ context: RequestContext, _ source: ArchiveSource, _: Int64) throws -> Reply {
        let configuration = context.configuration
        let files = source.media.compactMap { file -> (PatientArchive.MediaFile, Data)? in
            let folder = file.location == .audio ? configuration.audioFolder : configuration.mediaDirectory
            guard !file.relativePath.contains(".."), let data = FileManager.default.contents(atPath: folder + "/" + file.relativePath)
            else { return nil }
            return (file, data)
        }
        let page = ArchivePage(source, media: files.map(\.0), context: context)
        let zip = try OBZWriter()
        try zip.add("index.html", Data(context.renderFragmentHTML("privacy/archive", page).utf8))
        try zip.add("data.json", ArchiveFiles.json(source.tables, exportedAt: context.now))
        for table in source.tables { try zip.add("csv/\(table.section).csv", ArchiveFiles.csv(table)) }
        for (file, data) in files { try zip.add(file.name, data) }
        let day = ISODate.string(context.now, timeZone: configuration.timeZone)
        return Reply(.download(zip.data, type: "application/zip", name: "tagarela-\(PatientArchive.fileSafe(source.name))-\(day).zip"))
    }

    @Sendable static func requestErasure(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        let form = FormState(context.request.form, fields: ["reason", "confirm"], limits: ["reason": .note("privacy_erasure_reason")])
        guard !form.hasErrors else { return try page(context, db, id, form: form, status: .unprocessableContent) }
        guard form["confirm"] == "1" else {
            var form = form
            form.fail("confirm", context.t["privacy_erasure_confirm_missing"])
            return try page(context, db, id, form: form, status: .unprocessableContent)
        }
        try Erasures.request(patientId: id, patientName: try PlanQueries.displayName(of: patient.userId, db), by: actor,
                             reason: form["reason"].trimmingCharacters(in: .whitespacesAndNewlines), audit: context.audit, db)
        return .redirect(to: PrivacyEndpoints.show.path(id), flash: "privacy_erasure_requested")
    }

    @Sendable static func withdrawErasure(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        _ = try PatientScope.find(id, visibleTo: try context.requireActor(), db)
        try Erasures.withdraw(patientId: id, audit: context.audit, db)
        return .redirect(to: PrivacyEndpoints.show.path(id), flash: "privacy_erasure_withdrawn")
    }

    // MARK: - The administrator's decision

    @Sendable static func erasures(_ context: RequestContext, _ db: Database) throws -> Reply {
        try erasuresPage(context, db, form: FormState(), formFor: nil)
    }

    static func erasuresPage(_ context: RequestContext, _ db: Database, form: FormState, formFor: Int64?,
                             status: Status = .ok) throws -> Reply {
        let requests = try Erasures.all(db)
        let teams = try Dictionary(uniqueKeysWithValues: requests.compactMap(\.patientId).map {
            ($0, try PrivacyQueries.clinicianNames(of: $0, db))
        })
        return .page("privacy/erasures", title: "privacy_erasures_title",
                     ErasuresPage(requests, careTeams: teams, form: form, formFor: formFor, context: context), status: status)
    }

    /// The administrator types the decision's grounds (kept with the request) and ticks that the clinic decided.
    static func decision(_ context: RequestContext) -> FormState {
        var form = FormState(context.request.form, fields: ["note", "confirm"], limits: ["note": .note("privacy_decision_note")])
        if form.required("note", context.t["privacy_decision_note_missing"]) == nil { return form }
        if form["confirm"] != "1" { form.fail("confirm", context.t["privacy_decision_confirm_missing"]) }
        return form
    }

    @Sendable static func erase(_ context: RequestContext, _ db: Database, _ requestId: Int64) throws -> Step<(Int64, Erasures.Outcome)> {
        let form = decision(context)
        guard !form.hasErrors else {
            return .reply(try erasuresPage(context, db, form: form, formFor: requestId, status: .unprocessableContent))
        }
        guard try Erasures.find(requestId, db).state == .open else {
            return .reply(.redirect(to: PrivacyEndpoints.erasures.path(), flash: "privacy_erasure_already_decided"))
        }
        let outcome = try Erasures.erase(requestId, note: form["note"].trimmingCharacters(in: .whitespacesAndNewlines),
                                         audit: context.audit, db)
        return .next((requestId, outcome))
    }

    @Sendable static func removeErasedFiles(_ context: RequestContext, _ done: (Int64, Erasures.Outcome), _: Int64) -> Reply {
        Erasures.removeFiles(done.1.files, requestId: done.0, mediaDirectory: context.configuration.mediaDirectory,
                             audioFolder: context.configuration.audioFolder)
        context.caches.pages.invalidateAll()
        return .redirect(to: PrivacyEndpoints.erasures.path(), flash: "privacy_erasure_done")
    }

    @Sendable static func decline(_ context: RequestContext, _ db: Database, _ requestId: Int64) throws -> Reply {
        let form = decision(context)
        guard !form.hasErrors else { return try erasuresPage(context, db, form: form, formFor: requestId, status: .unprocessableContent) }
        guard try Erasures.find(requestId, db).state == .open else {
            return .redirect(to: PrivacyEndpoints.erasures.path(), flash: "privacy_erasure_already_decided")
        }
        try Erasures.decline(requestId, note: form["note"].trimmingCharacters(in: .whitespacesAndNewlines), audit: context.audit, db)
        return .redirect(to: PrivacyEndpoints.erasures.path(), flash: "privacy_erasure_declined")
    }
}

/// The archive's data files. Pure.
enum ArchiveFiles {
    /// `{"format", "exportedAt", "sections": {name: [{column: value}]}}`; values as stored, as text.
    static func json(_ tables: [PatientArchive.Table], exportedAt: Date) throws -> Data {
        struct Document: Encodable {
            let format = "tagarela-patient-archive/1"
            let exportedAt: String
            let sections: [String: [[String: String?]]]
        }
        var sections: [String: [[String: String?]]] = [:]
        for table in tables {
            sections[table.section] = table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.columns, $0)) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(exportedAt: ISO8601DateFormatter().string(from: exportedAt), sections: sections))
    }

    static func csv(_ table: PatientArchive.Table) -> Data {
        var text = table.columns.map(CSV.field).joined(separator: ",") + "\r\n"
        for row in table.rows { text += row.map { CSV.field($0 ?? "") }.joined(separator: ",") + "\r\n" }
        return Data(text.utf8)
    }
}
