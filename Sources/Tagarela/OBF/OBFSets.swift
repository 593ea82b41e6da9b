import Foundation
import GRDB

/// A board set brought in from an Open Board file: which plans came in together (the child sees only
/// the root; the others are reached through its folders), what was counted, and what was left out.
struct OBFImportRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "obfImport"
    var id: Int64?
    var patientId: Int64
    var clinicianId: Int64?
    var rootPlanId: Int64
    var categoryId: Int64?
    var name: String
    var boards: Int
    var buttons: Int
    var images: Int
    var sounds: Int
    /// Buttons that became one of the clinician's existing symbols (same label and picture).
    var reusedSymbols: Int
    /// Buttons whose picture could not be used and was replaced by a pictogram.
    var placeholders: Int
    /// `[OBFWarning]` as JSON.
    var warnings: String
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var warningList: [OBFWarning] {
        (try? JSONDecoder().decode([OBFWarning].self, from: Data(warnings.utf8))) ?? []
    }
}

/// One plan of an imported set, with the `locale` its board was written in (kept for re-export).
struct OBFImportBoard: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "obfImportBoard"
    var planId: Int64
    var importId: Int64
    var isRoot: Bool
    var locale: String?
}

enum OBFSets {
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.create(table: "obfImport") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().indexed().references("patient", column: "userId", onDelete: .cascade)
            t.column("clinicianId", .integer).references("user", onDelete: .setNull)
            t.column("rootPlanId", .integer).notNull().indexed().references("plan", onDelete: .cascade)
            t.column("categoryId", .integer).references("category", onDelete: .setNull)
            t.column("name", .text).notNull()
            for count in ["boards", "buttons", "images", "sounds", "reusedSymbols", "placeholders"] {
                t.column(count, .integer).notNull()
            }
            t.column("warnings", .text).notNull()
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(table: "obfImportBoard") { t in
            t.primaryKey("planId", .integer).references("plan", onDelete: .cascade)
            t.column("importId", .integer).notNull().indexed().references("obfImport", onDelete: .cascade)
            t.column("isRoot", .boolean).notNull()
            t.column("locale", .text)
        }
    }

    /// An SQL condition on `plan`: true for the plans a child's lists show. The sub-boards of an imported
    /// set are left out: the child reaches them through the folders of the set's root board.
    static let listedToChild = "plan.id NOT IN (SELECT planId FROM obfImportBoard WHERE NOT isRoot)"

    /// The locale each of `planIds` was imported with, when it was.
    static func locales(of planIds: [Int64], _ db: Database) throws -> [Int64: String] {
        guard !planIds.isEmpty else { return [:] }
        let rows = try OBFImportBoard.filter(planIds.contains(Column("planId"))).fetchAll(db)
        return Dictionary(rows.compactMap { row in row.locale.map { (row.planId, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}

/// Something left out of an import that the clinician should know: a button whose `image_id` or
/// `sound_id` names no picture or sound of the file.
struct OBFWarning: Codable, Equatable, Sendable {
    /// `hidden`: a button the other app hides from the child; `action`: one of the spec's specialty actions
    /// (`:clear`, `:backspace`, `:speak`, `:home`, `:back`, `:space`…), which the player's own controls do;
    /// `brokenLink`: a `load_board` naming a board the file does not hold (the button stays, as a word).
    enum Kind: String, Codable, Sendable { case missingImage, missingSound, hidden, action, brokenLink }
    let kind: Kind
    let board: String
    let button: String
    let id: String

    /// Buttons left out or turned into words before pictures and sounds replaced, each group in file order:
    /// the result page shows the first 30, and a set shared without its pictures has hundreds of the latter.
    static func leftOutFirst(_ warnings: [OBFWarning]) -> [OBFWarning] {
        let replaced: Set<Kind> = [.missingImage, .missingSound]
        return warnings.filter { !replaced.contains($0.kind) } + warnings.filter { replaced.contains($0.kind) }
    }
}

/// Where an import's words go: one category per imported set, named after it, and the clinician's own
/// symbols reused when a button has the same label and picture.
enum OBFImportCategory {
    /// The clinician's category named `name` (a set imported again joins its words), else a new one in
    /// a colour none of their categories has yet, after the Fitzgerald ones.
    static func findOrCreate(named name: String, clinicianId: Int64, among categories: [Category], _ db: Database) throws -> Int64 {
        if let same = categories.first(where: { $0.name == name }) { return same.id! }
        let used = Set(categories.map(\.categoryColour))
        let colour = CategoryColour.allCases.dropFirst(Category.defaults.count).first { !used.contains($0) } ?? .teal
        var category = Category(clinicianId: clinicianId, name: name, colour: colour.rawValue,
                                position: (categories.map(\.position).max() ?? -1) + 1)
        try category.insert(db)
        return category.id!
    }

    /// The clinician's symbols this patient's boards may show (their library and this patient's own),
    /// by label ignoring case but not accents: "vovó" is not "vovô", nor "cocô" "coco".
    final class DedupIndex {
        private let byLabel: [String: [Symbol]]
        private let mediaDirectory: String
        private var hashes: [String: String?] = [:]

        init(clinicianId: Int64, patientId: Int64, mediaDirectory: String, _ db: Database) throws {
            let symbols = try Symbol.fetchAll(db, sql: """
                SELECT * FROM symbol WHERE clinicianId = ? AND (patientId IS NULL OR patientId = ?) ORDER BY patientId IS NOT NULL, id
                """, arguments: [clinicianId, patientId])
            byLabel = Dictionary(grouping: symbols) { Self.key($0.name) }
            self.mediaDirectory = mediaDirectory
        }

        /// A symbol with this label and the same picture: the same pictogram, or a picture with the same bytes.
        /// The clinician's library first (one symbol per word across her patients), then the patient's own.
        /// A symbol that speaks another language is another word ("agua" is not Carla's Portuguese "água").
        /// A label of one character is a key of a keyboard, whose case is the point: "i" is not the pronoun "I".
        func symbol(label: String, pictogram: String?, imagePath: String?, voice: String) -> Int64? {
            for candidate in byLabel[Self.key(label)] ?? []
            where (candidate.voice == nil || candidate.voice == voice) && (label.count > 1 || candidate.name == label) {
                if let pictogram, candidate.pictogram == pictogram { return candidate.id }
                if let imagePath, let theirs = candidate.imagePath, let mine = hash(imagePath), hash(theirs) == mine {
                    return candidate.id
                }
            }
            return nil
        }

        private static func key(_ label: String) -> String { label.lowercased().trimmingCharacters(in: .whitespaces) }

        private func hash(_ relative: String) -> String? {
            if let known = hashes[relative] { return known }
            let data = relative.contains("..") ? nil : FileManager.default.contents(atPath: mediaDirectory + "/" + relative)
            let value = data.map(OBFImporter.hash)
            hashes[relative] = value
            return value
        }
    }
}
