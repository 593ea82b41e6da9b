import Foundation
import GRDB

/// The 16 fixed category colours; the first six follow the Fitzgerald key.
enum CategoryColour: String, Sendable, CaseIterable {
    case yellow, green, blue, pink, orange, white, purple, brown, red, grey, black, teal, navy, lime, gold, magenta

    var cssClass: String { "cat-\(rawValue)" }
}

struct Category: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "category"
    var id: Int64?
    var clinicianId: Int64
    var name: String
    var colour: String
    var position: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    var categoryColour: CategoryColour { CategoryColour(rawValue: colour) ?? .white }

    /// Fitzgerald-key categories every clinician starts with (catalogue keys and colours).
    static let defaults: [(key: String, colour: CategoryColour)] = [
        ("category_people", .yellow), ("category_actions", .green), ("category_descriptors", .blue),
        ("category_social", .pink), ("category_nouns", .orange), ("category_misc", .white),
    ]

    /// The clinician's categories, creating the defaults (in their language) the first time. Only for
    /// requests that change something (POST); pages use `offered(to:)`.
    static func forClinician(_ clinicianId: Int64, _ t: Translator, _ db: Database) throws -> [Category] {
        let existing = try forClinicianReadOnly(clinicianId, db)
        guard existing.isEmpty else { return existing }
        return try unsavedDefaults(for: clinicianId, t).map { category in
            var category = category
            try category.insert(db)
            return category
        }
    }

    /// `defaults` in the clinician's language, not saved yet (`position` is the index in `defaults`).
    static func unsavedDefaults(for clinicianId: Int64, _ t: Translator) -> [Category] {
        defaults.enumerated().map { index, entry in
            Category(clinicianId: clinicianId, name: t[entry.key], colour: entry.colour.rawValue, position: index)
        }
    }
}

extension Category {
    /// The clinician's categories without creating defaults (for pages that only read).
    static func forClinicianReadOnly(_ clinicianId: Int64, _ db: Database) throws -> [Category] {
        try Category.filter(Column("clinicianId") == clinicianId).order(Column("position"), Column("id")).fetchAll(db)
    }

    /// What a page offers the clinician: their categories, or, before they have any, the defaults
    /// unsaved (no id; `position` is their index in `defaults`). A page never writes: the defaults are
    /// created by the first symbol saved in one of them (`Choice.resolve`).
    static func offered(to clinicianId: Int64, _ t: Translator, _ db: Database) throws -> [Category] {
        let existing = try forClinicianReadOnly(clinicianId, db)
        return existing.isEmpty ? unsavedDefaults(for: clinicianId, t) : existing
    }

    /// The form value of an offered category: its id, or `default-N` for a default not created yet.
    var formValue: String { id.map { "\($0)" } ?? "default-\(position)" }

    /// A category chosen in a form.
    enum Choice: Sendable, Equatable {
        case existing(Int64)
        /// One of `defaults`, by index, for a clinician who had no categories when the form was shown.
        case standard(Int)

        /// Reads a form value; nil when it is neither a category of the clinician nor a default.
        static func read(_ value: String, clinicianId: Int64, _ db: Database) throws -> Choice? {
            if let id = Int64(value) {
                return try Category.filter(Column("clinicianId") == clinicianId).filter(key: id).fetchCount(db) > 0 ? .existing(id) : nil
            }
            guard value.hasPrefix("default-"), let index = Int(value.dropFirst("default-".count)),
                  defaults.indices.contains(index) else { return nil }
            return .standard(index)
        }

        /// The category's id, creating the defaults first when the clinician has no categories yet.
        func resolve(clinicianId: Int64, _ t: Translator, _ db: Database) throws -> Int64 {
            switch self {
            case .existing(let id): return id
            case .standard(let index):
                let categories = try Category.forClinician(clinicianId, t, db)
                let name = t[Category.defaults[index].key]
                // Created meanwhile in another tab, maybe with other categories too: match by name.
                return (categories.first { $0.name == name } ?? categories[0]).id!
            }
        }
    }
}

struct Symbol: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "symbol"
    var id: Int64?
    var clinicianId: Int64
    var patientId: Int64?
    var categoryId: Int64
    var name: String
    var spokenText: String
    var pictogram: String?
    var imagePath: String?
    var audioFile: String?
    var audioKind: String
    var voice: String?
    var createdAt: Date
    var updatedAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var imageURL: String {
        if let pictogram { return PlanEndpoints.pictogram.path("\(pictogram).svg") }
        // Stored as "images/<file>" (`MediaStore.storeSymbolImage`).
        return PlanEndpoints.image.path(String((imagePath ?? "").split(separator: "/").last ?? ""))
    }

    var audioURL: String? { audioFile.map { PlanEndpoints.audio.path($0) } }
}

extension Symbol {
    /// Read by column, not through `Decodable`: boards, the timer and the symbol library read hundreds
    /// of symbols a page, and decoding them was a tenth of the library's time.
    init(row: Row) throws {
        id = row["id"]
        clinicianId = row["clinicianId"]
        patientId = row["patientId"]
        categoryId = row["categoryId"]
        name = row["name"]
        spokenText = row["spokenText"]
        pictogram = row["pictogram"]
        imagePath = row["imagePath"]
        audioFile = row["audioFile"]
        audioKind = row["audioKind"]
        voice = row["voice"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
    }
}

extension Symbol {
    /// The symbol's columns of table alias `s` in the order `init(row:from:)` reads them.
    static let columnsOfS = "s.id, s.clinicianId, s.patientId, s.categoryId, s.name, s.spokenText, s.pictogram, s.imagePath, "
        + "s.audioFile, s.audioKind, s.voice, s.createdAt, s.updatedAt"

    /// Read by position, from `first` on (`columnsOfS`): a board not rendered yet reads twenty symbols,
    /// and finding each column by its name was a seventh of the load.
    init(row: Row, from first: Int) {
        id = row[first]
        clinicianId = row[first + 1]
        patientId = row[first + 2]
        categoryId = row[first + 3]
        name = row[first + 4]
        spokenText = row[first + 5]
        pictogram = row[first + 6]
        imagePath = row[first + 7]
        audioFile = row[first + 8]
        audioKind = row[first + 9]
        voice = row[first + 10]
        createdAt = row[first + 11]
        updatedAt = row[first + 12]
    }
}

enum PlanType: String, Sendable, CaseIterable {
    case board
    case bigSymbol = "big_symbol"
    /// Subject → verb → complement, from a vocabulary and its links (seed 001).
    case sentence
}

struct Plan: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "plan"
    var id: Int64?
    var patientId: Int64
    var clinicianId: Int64
    var tutorId: Int64?
    var name: String
    var description: String
    var startsOn: String
    var type: String
    var rows: Int
    var columns: Int
    var createdAt: Date
    var updatedAt: Date
    /// The picture on the board's tile, chosen from its own cells (`BoardCovers`); nil: its first picture.
    var coverSymbolId: Int64? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    var planType: PlanType { PlanType(rawValue: type) ?? .board }
    var cellCount: Int { rows * columns }
}

extension Plan {
    /// Read by column, not through `Decodable`: every tap and board load finds its plan, and decoding it
    /// was 6 % of a tap. A value of the wrong type throws, as decoding did.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        patientId = try row.decode(forColumn: "patientId")
        clinicianId = try row.decode(forColumn: "clinicianId")
        tutorId = try row.decode(forColumn: "tutorId")
        name = try row.decode(forColumn: "name")
        description = try row.decode(forColumn: "description")
        startsOn = try row.decode(forColumn: "startsOn")
        type = try row.decode(forColumn: "type")
        rows = try row.decode(forColumn: "rows")
        columns = try row.decode(forColumn: "columns")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
        coverSymbolId = row["coverSymbolId"]
    }
}

struct PlanCell: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "planCell"
    var planId: Int64
    var position: Int
    var symbolId: Int64?
    var linkPlanId: Int64?
    /// The cell's own colours, from an imported Open Board button (`CellColours`); nil: its category's.
    var backgroundColour: String? = nil
    var borderColour: String? = nil
}

struct Tap: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tap"
    var id: Int64?
    var key: String
    var patientId: Int64
    var planId: Int64?
    var symbolId: Int64?
    var assistedBy: Int64?
    var at: Date
    var receivedAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct Observation: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "observation"
    var id: Int64?
    var patientId: Int64
    var authorId: Int64?
    var authorName: String
    var authorRole: String
    var observedOn: String
    var body: String
    var isPrivate: Bool
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The symbols on a patient's plans: in board cells and among sentence plans' words.
enum PlanSymbols {
    static func of(patient patientId: Int64, orderedBy order: String = "name COLLATE NOCASE", _ db: Database) throws -> [Symbol] {
        try Symbol.fetchAll(db, sql: """
            SELECT * FROM symbol WHERE id IN (
                SELECT planCell.symbolId FROM planCell JOIN plan ON plan.id = planCell.planId WHERE plan.patientId = ?
                UNION SELECT sentenceWord.symbolId FROM sentenceWord JOIN plan ON plan.id = sentenceWord.planId WHERE plan.patientId = ?)
            ORDER BY \(order)
            """, arguments: [patientId, patientId])
    }
}

/// Which symbols a clinician may put on a patient's board: their general ones and that patient's own.
enum SymbolScope {
    static func usable(by clinicianId: Int64, for patientId: Int64?) -> QueryInterfaceRequest<Symbol> {
        var request = Symbol.filter(Column("clinicianId") == clinicianId)
        if let patientId {
            request = request.filter(Column("patientId") == nil || Column("patientId") == patientId)
        }
        return request
    }
}
