import Foundation
import GRDB

/// A small demo clinic, loaded once by `tagarela seed-demo` (which `make run` calls): enough
/// people and links to try every role. The tests use the same people as their personas.
public enum DemoClinic {
    /// Every demo login shares this password, which the README lists.
    public static let password = "ola-tagarela"

    public struct Login: Sendable {
        public let username: String
        public let role: String
        public let name: String
    }

    static let markerKey = "demoSeededAt"

    /// Loads the demo clinic unless it was loaded before; returns the logins, or nil if it was already there.
    public static func seed(_ pool: DatabasePool, hasher: PasswordHasher, now: Date = Date()) throws -> [Login]? {
        let passwordHash = hasher.hash(password)
        return try pool.write { db -> [Login]? in
            if try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [markerKey]) != nil {
                return nil
            }
            var logins: [Login] = []
            func person(_ username: String?, _ name: String, _ role: Role, specialties: Set<Specialty> = [],
                        locale: AppLocale? = nil, withPassword: Bool = true) throws -> Int64 {
                var user = User(username: username, displayName: name, role: role,
                                specialties: User.specialtiesText(specialties), locale: locale?.rawValue,
                                passwordHash: withPassword ? passwordHash : nil, createdAt: now, updatedAt: now)
                try user.insert(db)
                if let username, withPassword { logins.append(Login(username: username, role: role.rawValue, name: name)) }
                return user.id!
            }
            func patient(_ id: Int64, born: String, _ sex: Patient.Sex, _ diagnosis: String, startedOn: String? = nil) throws {
                try Patient(userId: id, birthDate: born, sex: sex, diagnosis: diagnosis, startedOn: startedOn).insert(db)
            }

            _ = try person("admin", "Administração", .admin)
            let ana = try person("ana", "Ana Souza", .clinician, specialties: [.speech])
            let nadia = try person("nadia", "Nádia Lima", .clinician, specialties: [.nutrition])
            let dani = try person("dani", "Daniel Rocha", .trainer)
            let bruno = try person("bruno", "Bruno Costa", .tutor)
            let beatriz = try person("beatriz", "Beatriz Alves", .tutor, locale: .es)

            let carla = try person(nil, "Carla Costa", .patient, withPassword: false)
            try patient(carla, born: "2019-05-14", .female, "Transtorno do espectro autista", startedOn: "2025-03-10")
            let davi = try person(nil, "Davi Alves", .patient, withPassword: false)
            try patient(davi, born: "2017-09-02", .male, "Paralisia cerebral", startedOn: "2024-08-19")
            let elisa = try person("elisa", "Elisa Martins", .patient)
            try patient(elisa, born: "1991-01-23", .female, "Diabetes tipo 2", startedOn: "2026-02-01")

            let fernanda = try person(nil, "Fernanda Dias", .patient, withPassword: false)
            try patient(fernanda, born: "1988-07-30", .female, "")
            let gustavo = try person(nil, "Gustavo Pereira", .patient, withPassword: false)
            try patient(gustavo, born: "1979-11-11", .male, "")

            for (link, staff, patient) in [
                (CareLink.clinician, ana, carla), (.clinician, ana, davi), (.clinician, nadia, carla), (.clinician, nadia, elisa),
                (.tutor, bruno, carla), (.tutor, beatriz, davi), (.trainer, dani, fernanda), (.trainer, dani, gustavo),
            ] {
                try link.link(staff, patient, at: now, db)
            }
            try db.execute(sql: "INSERT INTO setting (key, value, updatedAt) VALUES (?, ?, ?)",
                           arguments: [markerKey, ISO8601DateFormatter().string(from: now), now])
            return logins
        }
    }
}
