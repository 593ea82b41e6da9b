import Foundation
import GRDB

/// The reads of the FHIR export: the patient's record limited to what the actor may see (the same
/// sections as the overview and the progress report), and the export's audit entry, in one access.
enum FHIRQueries {
    /// A period of ISO dates; nil ends are open (the whole record by default).
    struct Period: Sendable, Equatable {
        var from: String?
        var to: String?

        func contains(_ day: String) -> Bool { (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true) }

        var summary: String { from == nil && to == nil ? "whole record" : "\(from ?? "…")…\(to ?? "…")" }
    }

    static func export(_ patientId: Int64, visibleTo actor: Actor, period: Period, locale: AppLocale, timeZone: TimeZone,
                       audit: AuditContext, _ db: Database) throws -> FHIRRecord {
        let found = try record(patientId, visibleTo: actor, period: period, locale: locale, timeZone: timeZone, now: audit.now, db)
        try audit.record(.export, "patient", found.patient.id, "FHIR bundle, \(period.summary)", db)
        return found
    }

    /// The record as far as `actor` may see it; not audited (the caller says what it was read for). Only
    /// `parts` are read (an Observation search asks for a few), each kept to `period` in its statement.
    static func record(_ patientId: Int64, visibleTo actor: Actor, period: Period, parts: FHIRRecord.Parts = .all, locale: AppLocale,
                       timeZone: TimeZone, now: Date, _ db: Database) throws -> FHIRRecord {
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        let id = person.patient.userId
        let sections = OverviewQueries.Sections(actor)
        let record = FHIRRecord(
            patient: FHIRRecord.Patient(id: id, name: person.user.displayName, birthDate: person.patient.birthDate, sex: person.patient.sex?.rawValue),
            people: try people(of: id, for: actor, db),
            evaluations: sections.body && parts.contains(.evaluations)
                ? try EvaluationDetails.all(of: id, takenFrom: period.from, takenTo: period.to, db) : [],
            weights: sections.weighings && parts.contains(.weights)
                ? try Weights.entries(of: id, forClinician: true, db).filter { period.contains($0.measuredOn) } : [],
            goals: parts.contains(.goals) ? try goals(of: id, for: actor, period: period, db) : [],
            meals: sections.nutrition && parts.contains(.meals) ? try meals(of: id, period: period, locale: locale, db)
                : sections.nutrition && parts.contains(.checkIns) ? try answeredMeals(of: id, period: period, timeZone: timeZone, db) : [],
            taps: sections.speech && parts.contains(.taps) ? try taps(of: id, period: period, db) : [],
            sentences: sections.speech && parts.contains(.sentences) ? try sentences(of: id, period: period, timeZone: timeZone, db) : [],
            games: sections.speech && parts.contains(.games) ? try games(of: id, period: period, timeZone: timeZone, db) : [],
            imported: sections.body && parts.contains(.imported) ? try FHIRMeasurements.all(of: id, period: period, db) : [],
            from: period.from, to: period.to, exportedAt: now)
        return record
    }

    /// Conditions for a statement on the period's ends, nothing for an open end: `AND column >= ?` on a
    /// day column, and on a column of instants (UTC) the instants a day either side of the period's days,
    /// whatever the clinic's zone (the exact day is checked after). No sentinel bound: a text bound such as
    /// "9999" compared with a DATE column is taken as a number, which no day is below.
    static func condition(_ period: Period, day column: String) -> (sql: String, arguments: StatementArguments) {
        var sql = "", arguments = StatementArguments()
        if let from = period.from { sql += " AND \(column) >= ?"; arguments += [from] }
        if let to = period.to { sql += " AND \(column) <= ?"; arguments += [to] }
        return (sql, arguments)
    }

    static func condition(_ period: Period, instant column: String) -> (sql: String, arguments: StatementArguments) {
        var sql = "", arguments = StatementArguments()
        if let day = period.from.flatMap(ISODate.dayNumber) {
            sql += " AND \(column) >= ?"; arguments += [Date(timeIntervalSince1970: Double(day - 1) * 86_400)]
        }
        if let day = period.to.flatMap(ISODate.dayNumber) {
            sql += " AND \(column) < ?"; arguments += [Date(timeIntervalSince1970: Double(day + 2) * 86_400)]
        }
        return (sql, arguments)
    }

    /// The care team: the clinicians, trainers and tutors linked to the patient. A trainer's export names
    /// the trainers only: who treats the client's speech or meals is not theirs to know.
    static func people(of patientId: Int64, for actor: Actor, _ db: Database) throws -> [FHIRRecord.Person] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT user.id, user.displayName, 'clinician' AS kind, user.specialties FROM clinicianPatient
              JOIN user ON user.id = clinicianPatient.clinicianId WHERE clinicianPatient.patientId = ?
            UNION ALL
            SELECT user.id, user.displayName, 'trainer', '' FROM trainerClient
              JOIN user ON user.id = trainerClient.trainerId WHERE trainerClient.patientId = ?
            UNION ALL
            SELECT user.id, user.displayName, 'tutor', '' FROM tutorPatient
              JOIN user ON user.id = tutorPatient.tutorId WHERE tutorPatient.patientId = ?
            ORDER BY 3, 1
            """, arguments: [patientId, patientId, patientId])
        return rows.compactMap { row in
            guard let kind = FHIRRecord.Person.Kind(rawValue: row[2]) else { return nil }
            if actor.role == .trainer && kind != .trainer { return nil }
            let specialties = (row[3] as String).split(separator: " ").map { String($0) }.filter { !$0.isEmpty }
            return FHIRRecord.Person(id: row[0], name: row[1], kind: kind, specialties: specialties.sorted())
        }
    }

    /// The goals the actor may read that were open at some time of the period.
    static func goals(of patientId: Int64, for actor: Actor, period: Period, _ db: Database) throws -> [Goal] {
        try Goal.fetchAll(db, sql: "SELECT * FROM goal WHERE patientId = ? ORDER BY startsOn, id", arguments: [patientId])
            .filter { GoalAccess.mayRead($0.goalKind, actor) }
            .filter { goal in (period.to.map { goal.startsOn <= $0 } ?? true) && (period.from.map { goal.endsOn >= $0 } ?? true) }
    }

    static func meals(of patientId: Int64, period: Period, locale: AppLocale, _ db: Database) throws -> [FHIRRecord.Meal] {
        let days = condition(period, day: "date")
        let meals = try Meal.fetchAll(db, sql: "SELECT * FROM meal WHERE patientId = ?\(days.sql) ORDER BY date, time, id",
                                      arguments: [patientId] + days.arguments)
        guard !meals.isEmpty else { return [] }
        let lines = try Row.fetchAll(db, sql: """
            SELECT mealLine.mealId, food.\(Food.nameColumn(locale)) AS name, mealLine.quantity, mealLine.unit, food.unit AS foodUnit,
                   food.gramsPerUnit, food.kcalPer100g, mealLine.consumedQuantity
            FROM mealLine JOIN food ON food.id = mealLine.foodId JOIN meal ON meal.id = mealLine.mealId
            WHERE meal.patientId = ? ORDER BY mealLine.mealId, mealLine.position
            """, arguments: [patientId])
        var linesOf: [Int64: [FHIRRecord.MealLine]] = [:]
        for row in lines {
            let quantity: Double = row["quantity"]
            let unit = LineUnit(rawValue: row["unit"]) ?? .gram
            let grams = NutritionRules.grams(quantity: quantity, unit: unit, gramsPerUnit: row["gramsPerUnit"])
            linesOf[row["mealId"], default: []].append(FHIRRecord.MealLine(
                food: row["name"], quantity: quantity, unit: unit.rawValue, householdUnit: row["foodUnit"], grams: grams,
                kcal: grams / 100 * (row["kcalPer100g"] as Double), consumedQuantity: row["consumedQuantity"]))
        }
        return meals.map { record(of: $0, lines: linesOf[$0.id!] ?? []) }
    }

    static func record(of meal: Meal, lines: [FHIRRecord.MealLine]) -> FHIRRecord.Meal {
        FHIRRecord.Meal(id: meal.id!, clinicianId: meal.clinicianId, name: meal.customName ?? meal.type, type: meal.type,
                        date: meal.date, time: meal.time, status: meal.status, answeredAt: meal.answeredAt, reason: meal.reason,
                        eatenInstead: meal.eatenInstead, eatenShare: meal.eatenShare, hunger: meal.hunger, lines: lines)
    }

    /// The answered meals whose answer falls in the period (a check-in is dated by its answer, else by its
    /// meal's day), without their lines: what check-in Observations need and no more.
    static func answeredMeals(of patientId: Int64, period: Period, timeZone: TimeZone, _ db: Database) throws -> [FHIRRecord.Meal] {
        let answered = condition(period, instant: "answeredAt"), days = condition(period, day: "date")
        return try Meal.fetchAll(db, sql: """
            SELECT * FROM meal WHERE patientId = ? AND status <> 'pending'
              AND ((answeredAt IS NOT NULL\(answered.sql)) OR (answeredAt IS NULL\(days.sql)))
            ORDER BY date, time, id
            """, arguments: [patientId] + answered.arguments + days.arguments)
            .filter { period.contains($0.answeredAt.map { ISODate.string($0, timeZone: timeZone) } ?? $0.date) }
            .map { record(of: $0, lines: []) }
    }

    /// The child's own taps per day, as the record counts them (`tapDayTotal`).
    static func taps(of patientId: Int64, period: Period, _ db: Database) throws -> [FHIRRecord.DayCount] {
        let days = condition(period, day: "day")
        return try Row.fetchAll(db, sql: "SELECT day, n FROM tapDayTotal WHERE patientId = ? AND n > 0\(days.sql) ORDER BY day",
                                arguments: [patientId] + days.arguments)
            .map { FHIRRecord.DayCount(day: $0[0], count: $0[1]) }
    }

    static func sentences(of patientId: Int64, period: Period, timeZone: TimeZone, _ db: Database) throws -> [FHIRRecord.DayCount] {
        var perDay: [String: Int] = [:]
        let instants = condition(period, instant: "at")
        for at in try Date.fetchAll(db, sql: "SELECT at FROM sentence WHERE patientId = ?\(instants.sql)",
                                    arguments: [patientId] + instants.arguments) {
            let day = ISODate.string(at, timeZone: timeZone)
            if period.contains(day) { perDay[day, default: 0] += 1 }
        }
        return perDay.sorted { $0.key < $1.key }.map { FHIRRecord.DayCount(day: $0.key, count: $0.value) }
    }

    static func games(of patientId: Int64, period: Period, timeZone: TimeZone, _ db: Database) throws -> [FHIRRecord.GameResult] {
        let instants = condition(period, instant: "playedAt")
        return try Row.fetchAll(db, sql: """
            SELECT id, area, mode, level, hits, errors, durationSeconds, playedAt FROM educatResult
            WHERE patientId = ?\(instants.sql) ORDER BY playedAt, id
            """, arguments: [patientId] + instants.arguments)
            .map { FHIRRecord.GameResult(id: $0["id"], area: $0["area"], mode: $0["mode"], level: $0["level"], hits: $0["hits"],
                                         errors: $0["errors"], durationSeconds: $0["durationSeconds"], playedAt: $0["playedAt"]) }
            .filter { period.contains(ISODate.string($0.playedAt, timeZone: timeZone)) }
    }
}

extension FHIRQueries {
    /// The FHIR page: the patient, and the measurements imported for them (for whoever may see body composition).
    struct Page: Sendable {
        let id: Int64
        let name: String
        let birthDate: String?
        let imported: [ImportedMeasurement]
    }

    static func page(_ id: Int64, visibleTo actor: Actor, _ db: Database) throws -> Page {
        let person = try PeopleQueries.person(id, visibleTo: actor, db)
        let imported = OverviewQueries.Sections(actor).body ? try FHIRMeasurements.all(of: person.patient.userId, db) : []
        return Page(id: person.patient.userId, name: person.user.displayName, birthDate: person.patient.birthDate, imported: imported)
    }
}
