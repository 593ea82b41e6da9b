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
