import Foundation
import GRDB

struct WeightEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "weightEntry"
    var id: Int64?
    var patientId: Int64
    var measuredOn: String
    var grams: Int
    var source: String
    var createdAt: Date

    var kg: Double { Double(grams) / 1000 }
}

/// Weight entries of a nutrition patient, typed by the patient or the nutritionist, or imported.
enum Weights {
    static let plausibleKg = 2.0...400.0

    /// The weight form: kilograms, and a date within `NutritionDates.weightRange` (today when empty).
    static func read(_ form: inout FormState, today: Date, birthDate: String?, _ format: LocalizedFormat,
                     _ t: Translator) -> (date: String, kg: Double)? {
        let todayISO = ISODate.string(today, timeZone: format.timeZone)
        var date = todayISO
        let dateText = form["measuredOn"].trimmingCharacters(in: .whitespaces)
        if !dateText.isEmpty {
            if let parsed = format.parseDate(dateText) {
                date = ISODate.string(parsed, timeZone: format.timeZone)
                if let problem = outOfRange(date, today: todayISO, birthDate: birthDate, format, t) { form.fail("measuredOn", problem) }
            } else {
                form.fail("measuredOn", t["error_date_invalid"])
            }
        }
        let kg = form.decimal("kg", label: t["field_weight"], in: plausibleKg, unit: "kg", required: true, t, format)
        guard !form.hasErrors, let kg else { return nil }
        return (date, kg)
    }

    /// The message for a weight dated in the future or before the patient's birth; nil when it fits.
    static func outOfRange(_ date: String, today: String, birthDate: String?, _ format: LocalizedFormat, _ t: Translator) -> String? {
        let range = NutritionDates.weightRange(today: today, birthDate: birthDate)
        if date > range.upperBound { return t["records_weight_date_future"] }
        guard date < range.lowerBound else { return nil }
        return t(birthDate == nil ? "records_weight_date_old" : "records_weight_date_before_birth",
                 ["min": format.shortDate(iso: range.lowerBound)])
    }

    /// Adds the entries not stored yet (same day and weight); returns how many were new.
    @discardableResult
    static func add(_ entries: [(date: String, kg: Double)], patientId: Int64, source: String, at now: Date,
                    _ db: Database) throws -> Int {
        var added = 0
        for entry in entries {
            try db.execute(sql: """
                INSERT OR IGNORE INTO weightEntry (patientId, measuredOn, grams, source, createdAt) VALUES (?, ?, ?, ?, ?)
                """, arguments: [patientId, entry.date, Int((entry.kg * 1000).rounded()), source, now])
            added += db.changesCount
        }
        return added
    }

    /// A weight the nutritionist typed, with its audit entry.
    static func addByClinician(_ entry: (date: String, kg: Double), patientId: Int64, audit: AuditContext, _ db: Database) throws {
        try add([entry], patientId: patientId, source: "clinician", at: audit.now, db)
        try audit.record(.create, "weightEntry", patientId, "\(entry.date) \(entry.kg)", db)
    }

    /// The entries the nutritionist may see: their own, and the patient's only while the patient shares them.
    static func entries(of patientId: Int64, forClinician: Bool = false, _ db: Database) throws -> [WeightEntry] {
        // Prepared once per connection: the patient's overview reads them on every opening.
        let sharing = try Bool.fetchOne(db.cachedStatement(sql: "SELECT sharesMeasurements FROM patient WHERE userId = ?"),
                                        arguments: [patientId]) ?? false
        return try WeightEntry.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM weightEntry WHERE patientId = ? AND (NOT ? OR source = 'clinician') ORDER BY measuredOn, id
            """), arguments: [patientId, forClinician && !sharing])
    }
}

struct MeasurementsPage: PageModel {
    struct Row: PageModel {
        let date: String
        let weight: String
        let source: String
    }

    let sharing: Bool
    /// The forms show while sharing, and when a refused one comes back (sharing was turned off in
    /// another tab meanwhile): what was typed stays on the page with the reason.
    let showsForms: Bool
    let rows: [Row]
    let isEmpty: Bool
    let form: FormState
    /// What an import did: how many weights were added, and each line it could not read.
    let importReport: String?
    let skippedLines: [String]
    let hasSkippedLines: Bool
    let sharingURL = CheckInEndpoints.setSharing.path()
    let addWeightURL = CheckInEndpoints.addWeight.path()
    let importURL = CheckInEndpoints.importWeights.path()
    let checkInURL = CheckInEndpoints.showCheckIn.path()

    init(sharing: Bool, entries: [WeightEntry], imported: [ImportedMeasurement] = [], form: FormState, importReport: String? = nil, skippedLines: [String] = [],
         _ t: Translator, _ format: LocalizedFormat) {
        self.importReport = importReport
        self.skippedLines = skippedLines
        hasSkippedLines = !skippedLines.isEmpty
        self.sharing = sharing
        showsForms = sharing || form.hasErrors
        // Newest first; a weight imported from another system's FHIR Bundle says so, and from where.
        let logged = entries.map { (day: $0.measuredOn, kg: $0.kg, source: t["weight_source_\($0.source)"]) }
        rows = (logged + imported.map { (day: $0.day, kg: $0.value, source: $0.sourceLabel(t)) })
            .enumerated().sorted { ($0.element.day, $0.offset) > ($1.element.day, $1.offset) }.map(\.element).map {
                Row(date: format.shortDate(iso: $0.day), weight: "\(format.decimal($0.kg)) kg", source: $0.source)
            }
        isEmpty = rows.isEmpty
        self.form = form
    }
}
