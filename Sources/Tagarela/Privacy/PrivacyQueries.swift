import GRDB

/// What the privacy pages read besides the archive itself.
enum PrivacyQueries {
    /// The clinicians linked to a patient, whom the administrator asks before deciding on an erasure.
    static func clinicianNames(of patientId: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT u.displayName FROM clinicianPatient l JOIN user u ON u.id = l.clinicianId WHERE l.patientId = ? ORDER BY u.displayName
            """, arguments: [patientId])
    }

    /// How many requests wait for the administrator (the dashboard's link says so).
    static func openErasures(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM erasureRequest WHERE status = 'open'") ?? 0
    }
}
