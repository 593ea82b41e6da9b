import Foundation
import GRDB

public enum Role: String, Codable, CaseIterable, Sendable, DatabaseValueConvertible {
    case admin, clinician, trainer, tutor, patient

    /// Staff log in at work and are timed out sooner; families keep a tablet signed in longer.
    var isStaff: Bool { self == .admin || self == .clinician || self == .trainer }

    /// Where this role lands after logging in.
    var homePath: String {
        switch self {
        case .admin: AdminEndpoints.dashboard.path()
        case .clinician: DashboardEndpoints.clinician.path()
        case .trainer: DashboardEndpoints.trainer.path()
        case .tutor: DashboardEndpoints.tutor.path()
        case .patient: DashboardEndpoints.patient.path()
        }
    }
}

public enum Specialty: String, Codable, CaseIterable, Sendable {
    case speech, nutrition
}

/// Anyone who appears in Tagarela: staff, tutors and patients (a patient also has a `Patient` row).
struct User: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "user"

    var id: Int64?
    var username: String?
    var displayName: String
    var role: Role
    /// Space-separated `Specialty` values; only clinicians have any.
    var specialties: String = ""
    var locale: String?
    var isActive = true
    var passwordHash: String?
    var createdBy: Int64?
    var createdAt: Date
    var updatedAt: Date
    /// When the owner last chose a password (invitation, reset link, account page, command line).
    var passwordSetAt: Date? = nil

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let username = Column(CodingKeys.username)
        static let displayName = Column(CodingKeys.displayName)
        static let role = Column(CodingKeys.role)
        static let isActive = Column(CodingKeys.isActive)
        static let createdBy = Column(CodingKeys.createdBy)
    }

    var specialtySet: Set<Specialty> {
        Set(specialties.split(separator: " ").compactMap { Specialty(rawValue: String($0)) })
    }

    static func specialtiesText(_ set: Set<Specialty>) -> String {
        Specialty.allCases.filter(set.contains).map(\.rawValue).joined(separator: " ")
    }

    /// Only such an account may be sent an invitation: once a password was ever set, a new link
    /// comes only from an admin's audited reset, so no clinician can choose a password for someone else.
    var neverSetPassword: Bool { passwordHash == nil && passwordSetAt == nil }

    var appLocale: AppLocale? { locale.flatMap(AppLocale.init(rawValue:)) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// By id, through a prepared statement kept by the connection: this runs on every request.
    static func find(_ id: Int64, _ db: Database) throws -> User? {
        try User.fetchOne(db, SQLRequest<User>(sql: "SELECT * FROM user WHERE id = ?", arguments: [id], cached: true))
    }

    static func named(_ username: String, _ db: Database) throws -> User? {
        try User.filter(Columns.username == username.trimmingCharacters(in: .whitespaces)).fetchOne(db)
    }
}

extension User {
    /// Read by column, not through `Decodable`: a session's user is read on every request whose session
    /// is not in memory (the first request of each person after a start), and every list of people reads
    /// many. A value of the wrong type throws, as decoding did.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        username = try row.decode(forColumn: "username")
        displayName = try row.decode(forColumn: "displayName")
        role = try row.decode(forColumn: "role")
        specialties = try row.decode(forColumn: "specialties")
        locale = try row.decode(forColumn: "locale")
        isActive = try row.decode(forColumn: "isActive")
        passwordHash = try row.decode(forColumn: "passwordHash")
        createdBy = try row.decode(forColumn: "createdBy")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
        passwordSetAt = try row.decode(forColumn: "passwordSetAt")
    }
}

/// What a patient record holds beside the `User` row it extends (same id).
struct Patient: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "patient"

    var userId: Int64
    var birthDate: String?
    var sex: Sex?
    var diagnosis: String = ""
    var photoPath: String?
    var startedOn: String?
    var contact: String = ""
    var notes: String = ""
    /// The patient's opt-in to share their own weight entries (nutrition).
    var sharesMeasurements = false

    enum Sex: String, Codable, CaseIterable, Sendable { case female, male }

    enum Columns {
        static let userId = Column(CodingKeys.userId)
    }

    static let user = belongsTo(User.self, using: ForeignKey(["userId"]))
}

extension Patient {
    /// Read by column, not through `Decodable`: every patient page, tap and board load finds the patient
    /// (`PatientScope.find`), and decoding was 5 % of a tap. A value of the wrong type throws, as decoding did.
    init(row: Row) throws {
        userId = try row.decode(forColumn: "userId")
        birthDate = try row.decode(forColumn: "birthDate")
        sex = try row.decode(forColumn: "sex")
        diagnosis = try row.decode(forColumn: "diagnosis")
        photoPath = try row.decode(forColumn: "photoPath")
        startedOn = try row.decode(forColumn: "startedOn")
        contact = try row.decode(forColumn: "contact")
        notes = try row.decode(forColumn: "notes")
        sharesMeasurements = try row.decode(forColumn: "sharesMeasurements")
    }
}

extension Patient.Sex: DatabaseValueConvertible {}

/// The three care relationships; each is a table of (staff or tutor id, patient id).
enum CareLink: String, CaseIterable, Sendable {
    case clinician = "clinicianPatient"
    case tutor = "tutorPatient"
    case trainer = "trainerClient"

    var staffColumn: String {
        switch self {
        case .clinician: "clinicianId"
        case .tutor: "tutorId"
        case .trainer: "trainerId"
        }
    }

    func link(_ staffId: Int64, _ patientId: Int64, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO \(rawValue) (\(staffColumn), patientId, createdAt) VALUES (?, ?, ?)",
            arguments: [staffId, patientId, now])
    }

    func unlink(_ staffId: Int64, _ patientId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(rawValue) WHERE \(staffColumn) = ? AND patientId = ?",
                       arguments: [staffId, patientId])
    }

    func exists(_ staffId: Int64, _ patientId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(rawValue) WHERE \(staffColumn) = ? AND patientId = ?)",
                          arguments: [staffId, patientId]) ?? false
    }
}
