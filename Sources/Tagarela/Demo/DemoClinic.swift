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

    /// What the boards of the demo need beside the database: the pictogram list, the clip generator and
    /// the catalogue of the clinic's language.
    public struct DemoResources: Sendable {
        let pictograms: PictogramLibrary
        let speech: SpeechAudio?
        let translator: Translator
        /// Davi's boards are named in Spanish, the language he is spoken to in.
        let spanish: Translator

        public init(resourcesDirectory: String, audioDirectory: String?) throws {
            pictograms = try PictogramLibrary.load(from: resourcesDirectory + "/Data/pictograms.json")
            speech = audioDirectory.map { SpeechAudio(directory: $0) }
            let catalogues = try Catalogues(directory: resourcesDirectory + "/Templates/i18n")
            translator = catalogues.translator(for: .ptBR)
            spanish = catalogues.translator(for: .es)
        }

        init(app: App, generateAudio: Bool) {
            // The curated words only, as `seed-demo` reads them: a picture of the whole set (the teacher of the
            // general words) would add a word and move every other one on the demo's boards.
            pictograms = (try? PictogramLibrary.load(from: app.configuration.resourcesDirectory + "/Data/pictograms.json")) ?? app.pictograms
            speech = generateAudio ? app.speech : nil
            translator = app.catalogues.translator(for: .ptBR)
            spanish = app.catalogues.translator(for: .es)
        }
    }

    /// Loads the demo clinic unless it was loaded before; returns the logins, or nil if it was already there.
    public static func seed(_ pool: DatabasePool, hasher: PasswordHasher, now: Date = Date(),
                            resources: DemoResources? = nil) throws -> [Login]? {
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

            // Each child's language picks the eduCAT pack: Carla plays in Catalan, Davi in Spanish.
            let carla = try person(nil, "Carla Costa", .patient, locale: .ca, withPassword: false)
            try patient(carla, born: "2019-05-14", .female, "Transtorno do espectro autista", startedOn: "2025-03-10")
            let davi = try person(nil, "Davi Alves", .patient, locale: .es, withPassword: false)
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
            try seedEvaluations(db, trainer: dani, fernanda: fernanda, gustavo: gustavo, now: now)
            try seedMeals(db, nutritionist: nadia, patients: [(elisa, 0.85), (carla, 0.55)], now: now)
            if let resources {
                try DemoBoards.seed(db, clinician: ana, patients: [(carla, bruno), (davi, beatriz)], davi: davi, starterFor: carla,
                                    now: now,
                                    library: resources.pictograms, speech: resources.speech, t: resources.translator,
                                    spanishNames: resources.spanish)
            }
            try DemoGoals.seed(db, .init(ana: ana, nadia: nadia, bruno: bruno, beatriz: beatriz, carla: carla, davi: davi, elisa: elisa,
                                         dani: dani, fernanda: fernanda, gustavo: gustavo), now: now)
            try db.execute(sql: "INSERT INTO setting (key, value, updatedAt) VALUES (?, ?, ?)",
                           arguments: [markerKey, ISO8601DateFormatter().string(from: now), now])
            return logins
        }
    }

    /// A year of evaluations: Gustavo (7 sites, five visits, slowly leaner) is up to date; Fernanda
    /// (3 sites, then 7 sites) is overdue, and her last two cannot compare % fat.
    static func seedEvaluations(_ db: Database, trainer: Int64, fernanda: Int64, gustavo: Int64, now: Date) throws {
        let audit = AuditContext(actorId: trainer, actorName: "Daniel Rocha", clientAddress: "demo", now: now)
        let zone = TimeZone(identifier: "UTC")!
        func date(daysAgo: Int) -> String { ISODate.string(now.addingTimeInterval(-Double(daysAgo) * 86_400), timeZone: zone) }
        let gustavoVisits: [(Int, Double, [Double], Double, Double)] = [  // days ago, kg, 7 skinfolds, waist, hip
            (360, 92.4, [22, 24, 30, 16, 26, 24, 20], 99, 104), (270, 90.8, [21, 23, 28, 15, 25, 22, 19], 97, 103),
            (180, 89.1, [19, 21, 26, 14, 23, 20, 18], 95, 102), (95, 87.9, [18, 20, 24, 13, 22, 19, 17], 93.5, 101.5),
            (20, 86.6, [17, 18, 22, 12, 20, 17, 16], 92, 101),
        ]
        for (daysAgo, weight, folds, waist, hip) in gustavoVisits {
            let taken = date(daysAgo: daysAgo)
            let sites: [SkinfoldSite] = [.chest, .midaxillary, .abdominal, .triceps, .subscapular, .suprailiac, .thigh]
            let input = EvaluationInput(skinfoldProtocol: .jp7, takenOn: taken, weightKg: weight, heightM: 1.78,
                                        skinfolds: Dictionary(uniqueKeysWithValues: zip(sites, folds.map { [$0] })),
                                        perimeters: [.waist: waist, .hip: hip, .armRelaxedRight: 34, .thighRight: 58])
            _ = try Evaluations.save(input, patientId: gustavo, sex: .male,
                                     age: Double(ISODate.age(birthDate: "1979-11-11", today: taken) ?? 46),
                                     audit: audit, trainerId: trainer, db)
        }
        let fernandaVisits: [(Int, Double, SkinfoldProtocol, [SkinfoldSite: [Double]])] = [
            (330, 68.2, .jp3, [.triceps: [24, 25], .suprailiac: [19], .thigh: [31, 30, 31]]),
            (220, 66.9, .jp3, [.triceps: [22], .suprailiac: [17], .thigh: [29]]),
            (120, 65.7, .jp7, [.chest: [12], .midaxillary: [13], .triceps: [21], .subscapular: [15], .abdominal: [22],
                               .suprailiac: [16], .thigh: [28]]),
        ]
        for (daysAgo, weight, skinfoldProtocol, folds) in fernandaVisits {
            let taken = date(daysAgo: daysAgo)
            let input = EvaluationInput(skinfoldProtocol: skinfoldProtocol, takenOn: taken, weightKg: weight, heightM: 1.65,
                                        skinfolds: folds, perimeters: [.waist: 76, .hip: 100])
            _ = try Evaluations.save(input, patientId: fernanda, sex: .female,
                                     age: Double(ISODate.age(birthDate: "1988-07-30", today: taken) ?? 37),
                                     audit: audit, trainerId: trainer, db)
        }
    }

    /// Two weeks of meals per patient (ten days back, four ahead). Past meals are answered, most as
    /// followed (`followedShare`), some with a changed quantity; a few of the last days stay
    /// unanswered so the nutritionist sees overdue meals.
    static func seedMeals(_ db: Database, nutritionist: Int64, patients: [(Int64, Double)], now: Date) throws {
        let foods = Dictionary(uniqueKeysWithValues: try Food.fetchAll(db).compactMap { food in food.key.map { ($0, food.id!) } })
        func line(_ key: String, _ quantity: Double) -> (foodId: Int64, quantity: Double, unit: LineUnit)? {
            foods[key].map { ($0, quantity, .household) }
        }
        let plan: [(MealType, [(foodId: Int64, quantity: Double, unit: LineUnit)?])] = [
            (.breakfast, [line("pao-frances", 1), line("leche-entera", 1), line("banana-prata", 1)]),
            (.lunch, [line("arroz-branco-cozido", 4), line("feijao-carioca-cozido", 1), line("frango-peito-grelhado", 1), line("alface-crespa", 1)]),
            (.afternoonSnack, [line("iogurte-natural", 1), line("mamao-papaia", 1)]),
            (.dinner, [line("arroz-branco-cozido", 3), line("ovo-cozido", 2), line("tomate-cru", 1)]),
        ]
        let zone = TimeZone(identifier: "UTC")!
        let audit = AuditContext(actorId: nutritionist, actorName: "Nádia Lima", clientAddress: "demo", now: now)
        for (patient, followedShare) in patients {
            var counter = 0
            for dayOffset in -10...3 {
                let date = ISODate.string(now.addingTimeInterval(Double(dayOffset) * 86_400), timeZone: zone)
                for (type, lines) in plan {
                    let lines = lines.compactMap { $0 }
                    guard !lines.isEmpty else { continue }
                    let id = try MealInput(type: type, customName: nil, date: date, time: type.usualTime, lines: lines)
                        .insert(patientId: patient, clinicianId: nutritionist, at: now, db)
                    counter += 1
                    // Answer the past, except the last day and a half, which stays pending (overdue).
                    guard dayOffset < -1 else { continue }
                    let followed = Double(counter % 20) / 20 < followedShare
                    var meal = try Meal.fetchOne(db, key: id)!
                    meal.status = (followed ? MealStatus.fulfilled : .notFulfilled).rawValue
                    meal.answeredAt = now.addingTimeInterval(Double(dayOffset) * 86_400)
                    meal.hunger = 1 + counter % 5
                    if !followed {
                        meal.reason = counter % 2 == 0 ? "Estava sem fome" : "Comi fora de casa"
                        meal.eatenInstead = counter % 2 == 0 ? "Só um café" : "Um salgado e um suco"
                    }
                    try meal.update(db)
                    if followed, counter % 3 == 0 {  // a changed quantity now and then
                        try db.execute(sql: "UPDATE mealLine SET consumedQuantity = quantity + 1 WHERE mealId = ? AND position = 0",
                                       arguments: [id])
                    }
                    try db.execute(sql: "UPDATE mealLine SET consumedQuantity = quantity WHERE mealId = ? AND consumedQuantity IS NULL AND ? = 1",
                                   arguments: [id, followed])
                }
            }
            try audit.record(.create, "meal", nil, "demo meals for \(patient)", db)
        }
        // Elisa shares her weight; her nutritionist sees it drifting down.
        if let (elisa, _) = patients.first {
            try db.execute(sql: "UPDATE patient SET sharesMeasurements = 1 WHERE userId = ?", arguments: [elisa])
            let weights: [(date: String, kg: Double)] = (0..<6).map { week -> (date: String, kg: Double) in
                let daysAgo = Double(35 - week * 7)
                let date = ISODate.string(now.addingTimeInterval(-daysAgo * 86_400), timeZone: zone)
                return (date, 82.4 - Double(week) * 0.4)
            }
            try Weights.add(weights, patientId: elisa, source: "patient", at: now, db)
        }
    }
}
