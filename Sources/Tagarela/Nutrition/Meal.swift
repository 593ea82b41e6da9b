import Foundation
import GRDB

/// A meal prescribed for a day and time, and the patient's answer to it.
struct Meal: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "meal"

    var id: Int64?
    var patientId: Int64
    var clinicianId: Int64
    var type: String
    var customName: String?
    var date: String
    var time: String
    var status: String = MealStatus.pending.rawValue
    var answeredAt: Date?
    var reason: String?
    var eatenInstead: String?
    var hunger: Int?
    var photoPath: String?
    var createdAt: Date
    /// Bumped by every edit of the prescription; an answer carries the version it was given.
    var version: Int = 1
    /// For a meal not followed: how much was eaten instead, in percent of the prescription; nil when not said.
    var eatenShare: Int?

    enum Columns {
        static let patientId = Column(CodingKeys.patientId)
        static let status = Column(CodingKeys.status)
        static let date = Column(CodingKeys.date)
        static let time = Column(CodingKeys.time)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var mealStatus: MealStatus { MealStatus(rawValue: status) ?? .pending }
    var mealType: MealType { MealType(rawValue: type) ?? .custom }

    /// The queue order the patient answers in: oldest date and time first.
    static func queue(of patientId: Int64) -> QueryInterfaceRequest<Meal> {
        Meal.filter(Columns.patientId == patientId && Columns.status == MealStatus.pending.rawValue)
            .order(Columns.date, Columns.time, Column("id"))
    }

    /// The id of the meal whose turn it is (the first of `queue(of:)`), if any.
    static func headOfQueue(of patientId: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM meal WHERE patientId = ? AND status = 'pending' ORDER BY date, time, id LIMIT 1
            """), arguments: [patientId])
    }
}

struct MealLine: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "mealLine"

    var id: Int64?
    var mealId: Int64
    var foodId: Int64
    var quantity: Double
    var unit: String
    var consumedQuantity: Double?
    var position: Int
    /// The food as it was prescribed (filled from the catalogue by a trigger when the line is written).
    var foodNamePtBR: String? = nil
    var foodNameEs: String? = nil
    var foodNameCa: String? = nil
    var foodNameEn: String? = nil
    var foodUnit: String? = nil
    var foodGramsPerUnit: Double? = nil
    var foodKcalPer100g: Double? = nil
    var foodProteinPer100g: Double? = nil
    var foodCarbohydratePer100g: Double? = nil
    var foodFatPer100g: Double? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    var lineUnit: LineUnit { LineUnit(rawValue: unit) ?? .household }

    /// The line's food with the figures it was prescribed with: a food corrected, merged or hidden since
    /// leaves this meal's energy and names as they were. `current` gives the id and what the line lacks.
    func prescribedFood(_ current: Food) -> Food {
        guard let kcal = foodKcalPer100g else { return current }
        var food = current
        food.namePtBR = foodNamePtBR ?? current.namePtBR
        food.nameEs = foodNameEs ?? current.nameEs
        food.nameCa = foodNameCa ?? current.nameCa
        food.nameEn = foodNameEn ?? current.nameEn
        food.unit = foodUnit ?? current.unit
        food.gramsPerUnit = foodGramsPerUnit ?? current.gramsPerUnit
        food.kcalPer100g = kcal
        food.proteinPer100g = foodProteinPer100g
        food.carbohydratePer100g = foodCarbohydratePer100g
        food.fatPer100g = foodFatPer100g
        return food
    }
}

/// A meal with its lines and their foods, as every meal page shows it.
struct MealScreen: Sendable {
    struct Line: Sendable {
        let line: MealLine
        let food: Food
    }

    let meal: Meal
    let lines: [Line]

    var prescribed: Nutrients {
        lines.reduce(Nutrients()) { $0 + NutritionRules.nutrients(of: $1.food.composition, quantity: $1.line.quantity, unit: $1.line.lineUnit) }
    }

    /// What was eaten, for a followed meal (consumed quantities); nil otherwise.
    var consumed: Nutrients? {
        guard meal.mealStatus == .fulfilled else { return nil }
        return lines.reduce(Nutrients()) {
            $0 + NutritionRules.nutrients(of: $1.food.composition, quantity: $1.line.consumedQuantity ?? $1.line.quantity,
                                          unit: $1.line.lineUnit)
        }
    }

    /// What was eaten, as well as it is known: the consumed quantities of a followed meal, the patient's
    /// estimate of a meal not followed; nil for a pending meal or one answered without an estimate.
    var eaten: Nutrients? {
        switch meal.mealStatus {
        case .fulfilled: consumed
        case .notFulfilled: meal.eatenShare.map { NutritionRules.scaled(prescribed, share: $0) }
        case .pending: nil
        }
    }

    static func fetch(_ meals: [Meal], _ db: Database) throws -> [MealScreen] {
        let ids = meals.compactMap(\.id)
        guard !ids.isEmpty else { return [] }
        let lines = try MealLine.filter(ids.contains(Column("mealId"))).order(Column("position")).fetchAll(db)
        let foods = Dictionary(uniqueKeysWithValues: try Food.fetchAll(db, keys: Set(lines.map(\.foodId))).map { ($0.id!, $0) })
        return meals.map { meal in
            MealScreen(meal: meal, lines: lines.filter { $0.mealId == meal.id }.compactMap { line in
                foods[line.foodId].map { Line(line: line, food: line.prescribedFood($0)) }
            })
        }
    }

    /// One meal (the check-in screens): prepared statements kept by the connection.
    static func fetch(_ meal: Meal, _ db: Database) throws -> MealScreen {
        let lines = try MealLine.fetchAll(db, SQLRequest(sql: "SELECT * FROM mealLine WHERE mealId = ? ORDER BY position",
                                                         arguments: [meal.id], cached: true))
        let foods = Dictionary(uniqueKeysWithValues: try Food.fetchAll(db, SQLRequest(sql: """
            SELECT * FROM food WHERE id IN (SELECT foodId FROM mealLine WHERE mealId = ?)
            """, arguments: [meal.id], cached: true)).map { ($0.id!, $0) })
        return MealScreen(meal: meal, lines: lines.compactMap { line in
            foods[line.foodId].map { Line(line: line, food: line.prescribedFood($0)) }
        })
    }
}
