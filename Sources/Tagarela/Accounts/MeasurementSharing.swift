import GRDB

/// A patient's consent to share the weights they type or import with their nutritionist. It is kept
/// on the patient's record (this feature's `patient` table); Nutrition changes it only through here.
enum MeasurementSharing {
    static func set(_ on: Bool, patientId: Int64, audit: AuditContext, _ db: Database) throws {
        try db.execute(sql: "UPDATE patient SET sharesMeasurements = ? WHERE userId = ?", arguments: [on, patientId])
        try audit.record(.update, "patient", patientId, on ? "shares measurements" : "stopped sharing", db)
    }
}
