import Foundation

/// What Tagarela holds about a patient, the download, and the erasure request with its state.
struct PrivacyPage: PageModel {
    struct Held: PageModel {
        let title: String
        let count: String
    }

    let name: String
    let intro: String
    let held: [Held]
    let privateNotes: String?
    let downloadURL: String
    let requestURL: String
    let withdrawURL: String
    /// nil: no request, or the last one was withdrawn; the form is shown.
    let request: RequestState?
    let mayRequest: Bool
    let form: FormState

    struct RequestState: PageModel {
        let isOpen: Bool
        let text: String
        let note: String?
    }

    init(patientId: Int64, name: String, isSelf: Bool, counts: [(section: String, count: Int)], privateNotes: Int,
         request: Erasures.Request?, form: FormState, context: RequestContext) {
        let t = context.t, format = context.format
        self.name = name
        intro = isSelf ? t["privacy_intro_self"] : t("privacy_intro_tutor", ["name": name])
        held = counts.filter { $0.count > 0 }.map {
            Held(title: t["privacy_section_\($0.section)"], count: format.decimal(Double($0.count), fractionDigits: 0))
        }
        self.privateNotes = privateNotes > 0 ? t("privacy_private_notes", ["count": "\(privateNotes)"]) : nil
        downloadURL = PrivacyEndpoints.download.path(patientId)
        requestURL = PrivacyEndpoints.requestErasure.path(patientId)
        withdrawURL = PrivacyEndpoints.withdrawErasure.path(patientId)
        self.request = request.flatMap { request in
            let day = format.shortDate(request.requestedAt), decided = request.decidedAt.map(format.shortDate) ?? ""
            switch request.state {
            case .open:
                return RequestState(isOpen: true, text: t("privacy_erasure_open", ["date": day, "name": request.requestedByName]), note: nil)
            case .declined:
                return RequestState(isOpen: false, text: t("privacy_erasure_declined_on", ["date": decided]), note: request.decisionNote)
            case .withdrawn, .erased:
                return nil
            }
        }
        mayRequest = self.request?.isOpen != true
        self.form = form
    }
}

/// `index.html` inside the archive: every section as a table a person reads in any browser, offline.
struct ArchivePage: PageModel {
    struct Section: PageModel {
        let id: String
        let title: String
        let count: String
        let csv: String
        let columns: [String]
        let rows: [Row]
        let more: String?
    }

    struct Row: PageModel { let cells: [String] }

    struct MediaLink: PageModel {
        let path: String
        let isImage: Bool
    }

    /// Rows shown in the page per section; all of them are in the CSV and JSON files.
    static let rowsShown = 500

    let lang: String
    let title: String
    let exported: String
    let leftOut: String?
    let sections: [Section]
    let media: [MediaLink]
    let hasMedia: Bool

    init(_ source: PrivacyRoutes.ArchiveSource, media: [PatientArchive.MediaFile], context: RequestContext) {
        let t = context.t, format = context.format
        lang = context.locale.rawValue
        title = t("privacy_archive_title", ["name": source.name])
        exported = t("privacy_archive_exported", ["date": format.longDate(context.now)])
        leftOut = source.privateNotes > 0 ? t("privacy_private_notes", ["count": "\(source.privateNotes)"]) : nil
        sections = source.tables.map { table in
            Section(id: table.section, title: t["privacy_section_\(table.section)"],
                    count: format.decimal(Double(table.rows.count), fractionDigits: 0), csv: "csv/\(table.section).csv",
                    columns: table.columns, rows: table.rows.prefix(Self.rowsShown).map { Row(cells: $0.map { $0 ?? "" }) },
                    more: table.rows.count > Self.rowsShown
                        ? t("privacy_archive_more", ["shown": "\(Self.rowsShown)", "count": "\(table.rows.count)"]) : nil)
        }
        self.media = media.map { MediaLink(path: $0.name, isImage: !$0.name.hasSuffix(".mp3")) }
        hasMedia = !media.isEmpty
    }
}

/// The administrator's list of erasure requests, the open ones first, each with its decision form.
struct ErasuresPage: PageModel {
    struct Item: PageModel {
        let id: Int64
        let patient: String
        let requested: String
        let reason: String?
        let clinicians: String?
        let isOpen: Bool
        let outcome: String
        let note: String?
        let eraseURL: String
        let declineURL: String
        let form: FormState
    }

    let items: [Item]
    let isEmpty: Bool

    init(_ requests: [Erasures.Request], careTeams: [Int64: [String]], form: FormState, formFor: Int64?, context: RequestContext) {
        let t = context.t, format = context.format
        items = requests.map { request in
            let decided = request.decidedAt.map(format.shortDate) ?? ""
            let outcome = switch request.state {
            case .open: t["privacy_status_open"]
            case .declined: t("privacy_status_declined", ["date": decided, "name": request.decidedByName ?? ""])
            case .withdrawn: t("privacy_status_withdrawn", ["date": decided])
            case .erased: t("privacy_status_erased", ["date": decided, "name": request.decidedByName ?? "",
                                                      "rows": "\(request.erasedRows ?? 0)", "files": "\(request.erasedFiles ?? 0)"])
            }
            return Item(id: request.id, patient: request.patientName,
                        requested: t("privacy_requested_by", ["date": format.shortDate(request.requestedAt), "name": request.requestedByName]),
                        reason: request.reason.isEmpty ? nil : request.reason,
                        clinicians: request.patientId.flatMap { careTeams[$0] }.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") },
                        isOpen: request.state == .open, outcome: outcome, note: request.decisionNote.flatMap { $0.isEmpty ? nil : $0 },
                        eraseURL: PrivacyEndpoints.erase.path(request.id), declineURL: PrivacyEndpoints.decline.path(request.id),
                        form: formFor == request.id ? form : FormState())
        }
        isEmpty = requests.isEmpty
    }
}
