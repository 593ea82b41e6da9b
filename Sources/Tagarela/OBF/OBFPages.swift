import Foundation
import GRDB
import HTTPServer

struct OBFImportPage: PageModel {
    let patientId: Int64
    let patientName: String
    let error: String?
    /// Names this upload's progress (`OBFImportProgress`).
    let job: String
    let importURL: String
    let progressURL: String
    let cancelURL: String

    init(patientId: Int64, patientName: String, error: String?, job: String) {
        self.patientId = patientId
        self.patientName = patientName
        self.error = error
        self.job = job
        importURL = OBFEndpoints.importBoards.path(patientId)
        progressURL = OBFEndpoints.importProgress.path()
        cancelURL = PlanEndpoints.list.path(patientId)
    }
}

/// What an import brought in, counted as it was stored, and what it left out.
struct OBFImportedPage: PageModel {
    struct Count: PageModel {
        let label: String
        let value: Int
    }

    let name: String
    let patientName: String
    let counts: [Count]
    let summary: String
    /// Buttons whose picture or sound named nothing in the file, a sentence each (the first `shownWarnings`).
    let warnings: [String]
    let hasWarnings: Bool
    let warningsTitle: String
    let moreWarnings: String?
    let editorURL: String
    let plansURL: String

    static let shownWarnings = 30
    static let warningKey: [OBFWarning.Kind: String] = [
        .missingImage: "obf_warning_missing_image", .missingSound: "obf_warning_missing_sound",
        .hidden: "obf_warning_hidden", .action: "obf_warning_action", .brokenLink: "obf_warning_link",
    ]

    init(_ found: OBFQueries.ImportResult, t: Translator) {
        let record = found.record
        name = record.name
        patientName = found.patientName
        counts = [Count(label: t["obf_count_boards"], value: record.boards), Count(label: t["obf_count_buttons"], value: record.buttons),
                  Count(label: t["obf_count_images"], value: record.images), Count(label: t["obf_count_sounds"], value: record.sounds),
                  Count(label: t["obf_count_reused"], value: record.reusedSymbols),
                  Count(label: t["obf_count_placeholders"], value: record.placeholders)]
        summary = t("obf_imported_summary", ["name": record.name, "category": found.categoryName ?? record.name])
        let all = record.warningList
        warnings = all.prefix(Self.shownWarnings).map { warning in
            t(Self.warningKey[warning.kind] ?? "obf_warning_missing_image",
              ["board": warning.board, "button": warning.button, "id": warning.id])
        }
        hasWarnings = !all.isEmpty
        warningsTitle = t("obf_warnings_title", ["count": "\(all.count)"])
        moreWarnings = all.count > Self.shownWarnings ? t("obf_warnings_more", ["count": "\(all.count - Self.shownWarnings)"]) : nil
        editorURL = PlanEndpoints.editor.path(record.rootPlanId)
        plansURL = PlanEndpoints.list.path(record.patientId)
    }
}
