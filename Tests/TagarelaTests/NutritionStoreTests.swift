import Foundation
import GRDB
@testable import Tagarela
import Testing

/// Nutrition's store functions against a real migrated SQLite database with the demo clinic (TestDatabase), without a server: what each
/// writes, the audit row it writes with it, and what it refuses.
@Suite struct NutritionStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func audit(_ test: TestDatabase, by person: String) throws -> AuditContext {
        AuditContext(actorId: try test.id(of: person), actorName: person, clientAddress: "test", now: now)
    }

    func lastAudit(_ db: Database) throws -> AuditEntry? {
        try AuditEntry.order(Column("id").desc).fetchOne(db)
    }

    func anyFood(_ db: Database) throws -> Int64 { try #require(try Food.fetchOne(db)?.id) }

    @Test func aMealIsCreatedUpdatedAndWithdrawnEachWithItsAuditRow() async throws {
        let test = try await TestDatabase()
        let (elisa, nadia) = (try test.id(of: "elisa"), try test.id(of: "nadia"))
        let audit = try audit(test, by: "nadia")
        try test.write { db in
            let food = try anyFood(db)
            let input = MealInput(type: .dinner, customName: nil, date: "2026-11-20", time: "19:30", lines: [(food, 2, .household)])
            let id = try Meals.create(input, patientId: elisa, clinicianId: nadia, audit: audit, db)
            let meal = try #require(try Meal.fetchOne(db, key: id))
            #expect(meal.patientId == elisa && meal.clinicianId == nadia && meal.date == "2026-11-20" && meal.version == 1)
            #expect(try MealLine.filter(Column("mealId") == id).fetchCount(db) == 1)
            var entry = try #require(try lastAudit(db))
            #expect(entry.action == "create" && entry.entity == "meal" && entry.entityId == id && entry.summary == "2026-11-20 19:30 dinner")
            #expect(entry.actorId == nadia)

            var changed = input
            changed.time = "20:00"
            changed.lines = [(food, 1, .household), (food, 50, .gram)]
            try Meals.update(meal, from: meal.version, to: changed, audit: audit, db)
            let updated = try #require(try Meal.fetchOne(db, key: id))
            #expect(updated.time == "20:00" && updated.version == 2, "an edit bumps the version an answer must carry")
            #expect(try MealLine.filter(Column("mealId") == id).fetchCount(db) == 2)
            entry = try #require(try lastAudit(db))
            #expect(entry.action == "update" && entry.entityId == id)

            try Meals.withdraw(updated, audit: audit, db)
            #expect(try Meal.fetchOne(db, key: id) == nil)
            #expect(try MealLine.filter(Column("mealId") == id).fetchCount(db) == 0)
            entry = try #require(try lastAudit(db))
            #expect(entry.action == "delete" && entry.entity == "meal" && entry.entityId == id)
        }
    }

    @Test func anAnsweredMealIsFinalForEveryStoreFunction() async throws {
        let test = try await TestDatabase()
        let elisa = try test.id(of: "elisa")
        let patientAudit = try audit(test, by: "elisa"), nutritionistAudit = try audit(test, by: "nadia")
        try test.write { db in
            let meal = try #require(try Meal.queue(of: elisa).fetchOne(db))
            let line = try #require(try MealLine.filter(Column("mealId") == meal.id).order(Column("position")).fetchOne(db))
            let answer = MealAnswer(followed: true, consumed: [line.id!: 0.5], reason: nil, instead: nil, hunger: 2)
            try Meals.answer(meal, with: answer, photo: nil, audit: patientAudit, db)
            let answered = try #require(try Meal.fetchOne(db, key: meal.id))
            #expect(answered.status == "fulfilled" && answered.hunger == 2 && answered.answeredAt == now)
            #expect(try MealLine.fetchOne(db, key: line.id)?.consumedQuantity == 0.5)
            let entry = try #require(try lastAudit(db))
            #expect(entry.action == "update" && entry.entity == "meal" && entry.entityId == meal.id && entry.summary == "fulfilled")
            let auditRows = try AuditEntry.fetchCount(db)

            let notFollowed = MealAnswer(followed: false, consumed: [:], reason: "Sem fome", instead: "Nada", hunger: nil)
            #expect(throws: AppError.conflict) { try Meals.answer(answered, with: notFollowed, photo: nil, audit: patientAudit, db) }
            #expect(throws: AppError.conflict) { try Meals.withdraw(answered, audit: nutritionistAudit, db) }
            let input = MealInput(type: .lunch, customName: nil, date: answered.date, time: "12:00", lines: [(line.foodId, 1, .household)])
            #expect(throws: AppError.conflict) { try Meals.update(answered, from: answered.version, to: input, audit: nutritionistAudit, db) }
            #expect(try Meal.fetchOne(db, key: meal.id)?.status == "fulfilled")
            #expect(try AuditEntry.fetchCount(db) == auditRows, "a refused write records nothing")
        }
    }

    @Test func copyingADayTwiceAddsItsMealsOnceAndAnEmptyDayWritesNothing() async throws {
        let test = try await TestDatabase()
        let (elisa, nadia) = (try test.id(of: "elisa"), try test.id(of: "nadia"))
        let audit = try audit(test, by: "nadia")
        try test.write { db in
            let food = try anyFood(db)
            for (type, time) in [(MealType.breakfast, "07:30"), (.lunch, "12:00")] {
                try Meals.create(MealInput(type: type, customName: nil, date: "2027-03-01", time: time, lines: [(food, 1, .household)]),
                                 patientId: elisa, clinicianId: nadia, audit: audit, db)
            }
            let targets = ["2027-03-01", "2027-03-02", "2027-03-03"]
            #expect(try Meals.copyDay("2027-03-01", to: targets, patientId: elisa, clinicianId: nadia, audit: audit, db) == Meals.Copied(created: 4, skipped: 0))
            #expect(try lastAudit(db)?.summary == "copied 2027-03-01 → 2027-03-01…2027-03-03: 4, left alone 0")
            #expect(try Meals.copyDay("2027-03-01", to: targets, patientId: elisa, clinicianId: nadia, audit: audit, db) == Meals.Copied(created: 0, skipped: 4))
            let days = try String.fetchAll(db, sql: "SELECT date FROM meal WHERE patientId = ? AND date LIKE '2027-03-%' ORDER BY date",
                                           arguments: [elisa])
            #expect(days == ["2027-03-01", "2027-03-01", "2027-03-02", "2027-03-02", "2027-03-03", "2027-03-03"])

            let auditRows = try AuditEntry.fetchCount(db)
            #expect(try Meals.copyDay("2027-04-01", to: ["2027-04-02"], patientId: elisa, clinicianId: nadia, audit: audit, db) == nil)
            #expect(try AuditEntry.fetchCount(db) == auditRows)
        }
    }

    @Test func aFoodAndANutritionistsWeightAreStoredWithTheirAuditRows() async throws {
        let test = try await TestDatabase()
        let (elisa, nadia) = (try test.id(of: "elisa"), try test.id(of: "nadia"))
        let audit = try audit(test, by: "nadia")
        try test.write { db in
            let food = Food(key: nil, namePtBR: "Bolo de fubá", nameEs: "Bolo de fubá", nameCa: "Bolo de fubá", nameEn: "Bolo de fubá",
                            unit: "slice", gramsPerUnit: 60, kcalPer100g: 362, proteinPer100g: 7.2, carbohydratePer100g: nil,
                            fatPer100g: nil, source: "—", createdBy: nadia)
            let stored = try Foods.add(food, audit: audit, db)
            #expect(try Food.fetchOne(db, key: stored.id)?.kcalPer100g == 362)
            var entry = try #require(try lastAudit(db))
            #expect(entry.action == "create" && entry.entity == "food" && entry.entityId == stored.id && entry.summary == "Bolo de fubá")

            try Weights.addByClinician((date: "2026-11-01", kg: 61.25), patientId: elisa, audit: audit, db)
            let weight = try #require(try WeightEntry.filter(Column("patientId") == elisa && Column("measuredOn") == "2026-11-01"
                                                             && Column("source") == "clinician").fetchOne(db))
            #expect(weight.grams == 61_250)
            entry = try #require(try lastAudit(db))
            #expect(entry.entity == "weightEntry" && entry.entityId == elisa && entry.summary == "2026-11-01 61.25")
        }
    }

    @Test func sharingMeasurementsIsSetOnThePatientRecordWithItsAuditRow() async throws {
        let test = try await TestDatabase()
        let elisa = try test.id(of: "elisa")
        let audit = try audit(test, by: "elisa")
        try test.write { db in
            try MeasurementSharing.set(false, patientId: elisa, audit: audit, db)
            #expect(try Patient.fetchOne(db, key: elisa)?.sharesMeasurements == false)
            #expect(try lastAudit(db)?.summary == "stopped sharing")
            try MeasurementSharing.set(true, patientId: elisa, audit: audit, db)
            #expect(try Patient.fetchOne(db, key: elisa)?.sharesMeasurements == true)
            let entry = try #require(try lastAudit(db))
            #expect(entry.action == "update" && entry.entity == "patient" && entry.entityId == elisa && entry.summary == "shares measurements")
        }
    }

    @Test func theNutritionistSeesThePatientsOwnWeightsOnlyWhileTheyShareThem() async throws {
        let test = try await TestDatabase()
        let elisa = try test.id(of: "elisa")
        let audit = try audit(test, by: "elisa")
        try test.write { db in
            try db.execute(sql: "DELETE FROM weightEntry WHERE patientId = ?", arguments: [elisa])
            try Weights.add([("2026-11-02", 61), ("2026-11-01", 61.5)], patientId: elisa, source: "patient", at: Date(), db)
            try Weights.add([("2026-11-03", 60.8)], patientId: elisa, source: "clinician", at: Date(), db)
            func days(forClinician: Bool) throws -> [String] {
                try Weights.entries(of: elisa, forClinician: forClinician, db).map(\.measuredOn)
            }
            #expect(try days(forClinician: true) == ["2026-11-01", "2026-11-02", "2026-11-03"], "shared: all, by day")
            try MeasurementSharing.set(false, patientId: elisa, audit: audit, db)
            #expect(try days(forClinician: true) == ["2026-11-03"], "not shared: the nutritionist's own")
            #expect(try days(forClinician: false) == ["2026-11-01", "2026-11-02", "2026-11-03"], "the patient sees all")
        }
    }
}
