import Foundation
import GRDB

/// When each clinician last opened each of their patients' overview, so the worklist can say
/// "new tutor notes since you last looked". A bookmark of the clinician's own reading, not a
/// change to the record, so it writes no audit row (the audit log would fill with page views).
enum RecordVisits {
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE patientOpened (
                clinicianId INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                patientId INTEGER NOT NULL REFERENCES patient(userId) ON DELETE CASCADE,
                openedAt DATETIME NOT NULL,
                PRIMARY KEY (clinicianId, patientId)
            ) WITHOUT ROWID;
            CREATE INDEX patientOpened_patient ON patientOpened(patientId);
            -- "New words": the first day a patient used a symbol, one index lookup per symbol
            -- instead of a scan of the patient's whole history.
            CREATE INDEX tapDay_patient_symbol ON tapDay(patientId, symbolId, day);
            """)
    }

    /// Shipped 2026-11. Never edit; add a new migration instead.
    /// The worklist counts every patient's tutor notes since the clinician's last opening: from this
    /// index alone, where the index on the patient alone read every note, its text included (a fifth
    /// of the worklist's statement for 500 patients of two notes each). It serves what the old one did.
    static func v2TutorNotes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX observation_patient_author ON observation(patientId, authorRole, createdAt);
            DROP INDEX observation_on_patientId;
            """)
    }

    /// Whether the clinician's opening of the patient would tell her something new: a tutor note written
    /// after her last mark (or any, without a mark). Only then is the opening worth remembering.
    static func hasNews(clinicianId: Int64, patientId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (\(newsSQL))"), arguments: [clinicianId, patientId]) ?? false
    }

    /// Notes the clinician opened the patient's overview at `now`, when that changes what the worklist
    /// says (`hasNews`, checked again here: a second tab may have marked it since). An opening with
    /// nothing new leaves the mark where it is: writing it at every opening made each overview a write,
    /// and told the worklist to read the patient again (`PatientChanges`) for nothing.
    static func markOpened(clinicianId: Int64, patientId: Int64, at now: Date, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO patientOpened (clinicianId, patientId, openedAt)
            SELECT ?1, ?2, ?3 WHERE EXISTS (\(newsSQL))
            ON CONFLICT (clinicianId, patientId) DO UPDATE SET openedAt = excluded.openedAt
            """).execute(arguments: [clinicianId, patientId, now])
    }

    /// A tutor note (an observation or a note on a goal) of patient ?2 newer than clinician ?1's mark.
    private static let newsSQL = """
        SELECT 1 FROM observation o WHERE o.patientId = ?2 AND o.authorRole = 'tutor'
        AND o.createdAt > coalesce((SELECT openedAt FROM patientOpened WHERE clinicianId = ?1 AND patientId = ?2), '')
        UNION ALL
        SELECT 1 FROM goal g JOIN goalNote n ON n.goalId = g.id WHERE g.patientId = ?2 AND n.authorRole = 'tutor'
        AND n.createdAt > coalesce((SELECT openedAt FROM patientOpened WHERE clinicianId = ?1 AND patientId = ?2), '')
        """

    /// When the clinician last opened the patient; nil: never.
    static func lastOpened(clinicianId: Int64, patientId: Int64, _ db: Database) throws -> Date? {
        try Date.fetchOne(db, sql: "SELECT openedAt FROM patientOpened WHERE clinicianId = ? AND patientId = ?",
                          arguments: [clinicianId, patientId])
    }
}
