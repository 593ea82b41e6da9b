import Foundation
import GRDB

/// Adherence figures read from the database; the arithmetic is in `NutritionRules`.
enum Adherence {
    /// Per patient of a clinician, over meals dated from `from` up to now.
    static func summaries(clinicianId: Int64, from: String, nowDate: String, nowTime: String,
                          _ db: Database) throws -> [Int64: NutritionRules.Adherence] {
        // The clinician's dashboard reads this on every load: a prepared statement, and rows read in
        // place by position instead of copied.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT m.patientId, m.status, m.date, m.time FROM meal m
            JOIN clinicianPatient cp ON cp.patientId = m.patientId AND cp.clinicianId = ?
            WHERE m.date >= ? AND m.date <= ?
            """), arguments: [clinicianId, from, nowDate])
        var meals: [Int64: [NutritionRules.ScheduledMeal]] = [:]
        while let row = try rows.next() {
            meals[row[0], default: []].append(.init(status: MealStatus(rawValue: row[1]) ?? .pending, date: row[2], time: row[3]))
        }
        return meals.mapValues { NutritionRules.adherence($0, from: from, to: nowDate, nowDate: nowDate, nowTime: nowTime) }
    }

    struct Deviation: Sendable {
        let food: Food
        let prescribed: Int
        let deviated: Int
    }

    /// The foods of answered meals most often not eaten as prescribed (a meal not followed, or a
    /// consumed quantity different from the prescribed one).
    static func deviations(patientId: Int64, limit: Int = 8, _ db: Database) throws -> [Deviation] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT l.foodId, COUNT(*) AS prescribed,
                   SUM(CASE WHEN m.status = 'not_fulfilled'
                             OR abs(coalesce(l.consumedQuantity, l.quantity) - l.quantity) > 0.001 THEN 1 ELSE 0 END) AS deviated
            FROM mealLine l JOIN meal m ON m.id = l.mealId
            WHERE m.patientId = ? AND m.status <> 'pending'
            GROUP BY l.foodId HAVING deviated > 0
            ORDER BY deviated DESC, prescribed DESC LIMIT ?
            """, arguments: [patientId, limit])
        let foods = Dictionary(uniqueKeysWithValues: try Food.fetchAll(db, keys: rows.map { $0["foodId"] as Int64 }).map { ($0.id!, $0) })
        return rows.compactMap { row in
            foods[row["foodId"]].map { Deviation(food: $0, prescribed: row["prescribed"], deviated: row["deviated"]) }
        }
    }
}
