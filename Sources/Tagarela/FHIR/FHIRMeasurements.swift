import Foundation
import GRDB

/// A measurement imported from a FHIR Bundle, kept as it came (in its kind's unit) with the identifier
/// it had. Kept apart from evaluations (a protocol's whole set of skinfolds) and from the nutrition
/// weight log (whose entries follow the patient's consent): see docs/decisions/README.md.
struct ImportedMeasurement: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "fhirMeasurement"
    var id: Int64?
    var patientId: Int64
    var kind: String
    var value: Double
    var unit: String
    var effective: String
    var identifierSystem: String?
    var identifierValue: String?
    var importedBy: Int64?
    var importedAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The day it was measured (ISO), whatever time the file gave.
    var day: String { String(effective.prefix(10)) }

    /// Where it came from as a reader knows it: the host of the sending system's identifier system
    /// (`https://hospital.example/fhir/sid/obs` → `hospital.example`); nil when it came without one.
    var source: String? {
        guard let system = identifierSystem, !system.isEmpty else { return nil }
        return URL(string: system)?.host ?? system
    }

    /// "imported from hospital.example (FHIR)", in the reader's language: how every page marks it.
    func sourceLabel(_ t: Translator) -> String {
        source.map { t("fhir_imported_from", ["source": $0]) } ?? t["fhir_imported_unknown"]
    }
}

enum FHIRSchema {
    /// Measurements imported from FHIR Bundles: one per patient, kind and time, and one per identifier.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1Measurements(_ db: Database) throws {
        try db.create(table: "fhirMeasurement") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("kind", .text).notNull()
            t.column("value", .double).notNull()
            t.column("unit", .text).notNull()
            t.column("effective", .text).notNull()
            t.column("identifierSystem", .text)
            t.column("identifierValue", .text)
            t.column("importedBy", .integer).references("user", onDelete: .setNull)
            t.column("importedAt", .datetime).notNull()
            t.uniqueKey(["patientId", "kind", "effective"])
        }
        try db.execute(sql: """
            CREATE UNIQUE INDEX fhirMeasurement_identifier ON fhirMeasurement(patientId, identifierSystem, identifierValue)
            WHERE identifierValue IS NOT NULL
            """)
    }
}

/// The store of imported measurements: what a file would add, and adding it with its audit row.
enum FHIRMeasurements {
    /// `found` split into what is new and what was seen before: stored already (same identifier, or same
    /// kind and time), one of this clinic's own records (its identifier is this clinic's), or twice in the file.
    static func sort(_ found: [FHIRImport.Measurement], patientId: Int64, ownObservations: String,
                     _ db: Database) throws -> (new: [FHIRImport.Measurement], seen: [FHIRImport.Measurement]) {
        var new: [FHIRImport.Measurement] = []
        var seen: [FHIRImport.Measurement] = []
        for measurement in found {
            let inFile = new.contains { $0.kind == measurement.kind && $0.effective == measurement.effective
                || ($0.identifierValue != nil && $0.identifierSystem == measurement.identifierSystem && $0.identifierValue == measurement.identifierValue) }
            let ours = measurement.identifierSystem == ownObservations
            let stored = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM fhirMeasurement WHERE patientId = ? AND
                  ((kind = ? AND effective = ?) OR (identifierValue IS NOT NULL AND identifierSystem IS ? AND identifierValue = ?)))
                """, arguments: [patientId, measurement.kind, measurement.effective, measurement.identifierSystem,
                                 measurement.identifierValue]) ?? false
            if inFile || ours || stored { seen.append(measurement) } else { new.append(measurement) }
        }
        return (new, seen)
    }

    /// Adds what is new of `found` (checked again here: a second tab may have stored it since the
    /// preview); returns how many were added. One audit row for the import.
    @discardableResult
    static func add(_ found: [FHIRImport.Measurement], patientId: Int64, ownObservations: String, audit: AuditContext,
                    _ db: Database) throws -> Int {
        let (new, _) = try sort(found, patientId: patientId, ownObservations: ownObservations, db)
        for measurement in new {
            var row = ImportedMeasurement(patientId: patientId, kind: measurement.kind, value: measurement.value, unit: measurement.unit,
                                          effective: measurement.effective, identifierSystem: measurement.identifierSystem,
                                          identifierValue: measurement.identifierValue, importedBy: audit.actorId, importedAt: audit.now)
            try row.insert(db, onConflict: .ignore)
        }
        if !new.isEmpty { try audit.record(.create, "fhirMeasurement", patientId, "FHIR import: \(new.count) measurement(s)", db) }
        return new.count
    }

    /// The patient's imported measurements of `kinds` (`FHIRImport.Kind.key`), oldest first.
    static func of(_ patientId: Int64, kinds: [String], _ db: Database) throws -> [ImportedMeasurement] {
        guard !kinds.isEmpty else { return [] }
        return try ImportedMeasurement.fetchAll(db, sql: """
            SELECT * FROM fhirMeasurement WHERE patientId = ? AND kind IN (\(databaseQuestionMarks(count: kinds.count)))
            ORDER BY effective, kind
            """, arguments: StatementArguments([patientId]) + StatementArguments(kinds))
    }

    /// Those measured on the period's days.
    static func all(of patientId: Int64, period: FHIRQueries.Period, _ db: Database) throws -> [ImportedMeasurement] {
        let days = FHIRQueries.condition(period, day: "substr(effective, 1, 10)")
        return try ImportedMeasurement.fetchAll(db, sql: "SELECT * FROM fhirMeasurement WHERE patientId = ?\(days.sql) ORDER BY effective, kind",
                                                arguments: [patientId] + days.arguments)
    }

    static func all(of patientId: Int64, _ db: Database) throws -> [ImportedMeasurement] {
        try ImportedMeasurement.fetchAll(db, sql: "SELECT * FROM fhirMeasurement WHERE patientId = ? ORDER BY effective, kind",
                                         arguments: [patientId])
    }
}
