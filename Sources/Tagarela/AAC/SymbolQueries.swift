import Foundation
import GRDB

/// What the symbol pages show, read in the request's one transaction.
enum SymbolQueries {
    struct List {
        let categories: [Category]
        let symbols: [Symbol]
        /// The clinician's patients, to name a patient's own symbols.
        let patients: [People.PatientSummary]
    }

    /// The clinician's symbols (general and patients' own), by name, those whose name holds `search`.
    static func list(_ actor: Actor, matching search: String, _ db: Database) throws -> List {
        var request = SymbolScope.usable(by: actor.userId, for: nil).order(Column("name").collating(.nocase))
        if !search.isEmpty { request = request.filter(Column("name").like("%\(search)%")) }
        return List(categories: try Category.forClinicianReadOnly(actor.userId, db), symbols: try request.fetchAll(db),
                    patients: try People.patients(visibleTo: actor, matching: "", db))
    }

    /// A symbol of the clinician's, or a 404 (another clinician's symbols are not theirs to know about).
    static func symbol(_ id: Int64, of actor: Actor, _ db: Database) throws -> Symbol {
        guard let symbol = try SymbolScope.usable(by: actor.userId, for: nil).filter(key: id).fetchOne(db)
        else { throw AppError.notFound }
        return symbol
    }

    struct Form {
        /// Their categories, or the defaults not created yet (`Category.offered`).
        let categories: [Category]
        let patients: [People.PatientSummary]
        /// The languages the pictogram search looks in after the page's: the clinician's own, their
        /// patients' and those their patients' own symbols speak.
        let languages: [AppLocale]
    }

    /// What the symbol form offers: categories and the patients a symbol may be kept for.
    static func form(_ actor: Actor, _ t: Translator, _ db: Database) throws -> Form {
        let patients = try People.patients(visibleTo: actor, matching: "", db)
        let patientIds = SQLiteJSON.list(patients.map(\.id))
        let codes = try String.fetchAll(db, sql: "SELECT locale FROM user WHERE id = ? AND locale IS NOT NULL", arguments: [actor.userId])
            + String.fetchAll(db, sql: "SELECT DISTINCT locale FROM user WHERE locale IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
                              arguments: [patientIds])
            + String.fetchAll(db, sql: "SELECT DISTINCT voice FROM symbol WHERE clinicianId = ? AND patientId IS NOT NULL AND voice IS NOT NULL",
                              arguments: [actor.userId])
        return Form(categories: try Category.offered(to: actor.userId, t, db), patients: patients,
                    languages: codes.compactMap(AppLocale.init(rawValue:)))
    }
}

/// Who may fetch a recorded or uploaded file (issue 49): someone who may see a record that uses it.
/// A symbol's picture or sound: its clinician; for a patient's own symbol, whoever sees that patient; for a
/// general one (all of the clinician's patients, DESIGN), whoever sees one of the clinician's patients. A
/// recorded game word: whoever sees its patient. Generated speech is not asked about (`PlanRoutes.audio`).
enum MediaAccess {
    static func mayFetch(audio file: String, _ actor: Actor, _ db: Database) throws -> Bool {
        try symbolUses(column: "audioFile", file, actor, db) || educatItemUses(file, actor, db)
    }

    static func mayFetch(image file: String, _ actor: Actor, _ db: Database) throws -> Bool {
        try symbolUses(column: "imagePath", "images/" + file, actor, db)
    }

    private static func symbolUses(column: String, _ value: String, _ actor: Actor, _ db: Database) throws -> Bool {
        let own = PatientScope.condition(on: "s.patientId", visibleTo: actor)
        let general = PatientScope.condition(on: "cp.patientId", visibleTo: actor)
        var arguments: StatementArguments = [value, actor.userId]
        _ = arguments.append(contentsOf: own.arguments)
        _ = arguments.append(contentsOf: general.arguments)
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM symbol s WHERE s.\(column) = ? AND (s.clinicianId = ?
                OR (s.patientId IS NOT NULL AND \(own.sql))
                OR (s.patientId IS NULL AND EXISTS (SELECT 1 FROM clinicianPatient cp WHERE cp.clinicianId = s.clinicianId AND \(general.sql)))))
            """, arguments: arguments) ?? false
    }

    private static func educatItemUses(_ clip: String, _ actor: Actor, _ db: Database) throws -> Bool {
        let scope = PatientScope.condition(on: "e.patientId", visibleTo: actor)
        var arguments: StatementArguments = [clip]
        _ = arguments.append(contentsOf: scope.arguments)
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM educatItem e WHERE e.clip = ? AND \(scope.sql))",
                                 arguments: arguments) ?? false
    }

    /// Shipped 2026-11-29. Never edit; add a new migration instead. The lookups above, by index.
    static func v1Indexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX symbol_audioFile ON symbol(audioFile);
            CREATE INDEX symbol_imagePath ON symbol(imagePath) WHERE imagePath IS NOT NULL;
            CREATE INDEX educatItem_clip ON educatItem(clip);
            """)
    }
}
