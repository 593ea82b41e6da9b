import Foundation
import GRDB

/// A food of the clinic's catalogue, with its composition per 100 g.
struct Food: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "food"

    var id: Int64?
    var key: String?
    var namePtBR: String
    var nameEs: String
    var nameCa: String
    var nameEn: String
    var unit: String
    var gramsPerUnit: Double
    var kcalPer100g: Double
    var proteinPer100g: Double?
    var carbohydratePer100g: Double?
    var fatPer100g: Double?
    var source: String
    var createdBy: Int64?
    /// Bumped by every correction; the edit form sends the version it showed (a second tab gets a 409).
    var version: Int = 1
    /// Set when a food used by meals is removed: it leaves the catalogue, its meals keep it.
    var hiddenAt: Date? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func name(_ locale: AppLocale) -> String {
        switch locale {
        case .ptBR: namePtBR
        case .es: nameEs
        case .ca: nameCa
        case .en: nameEn
        }
    }

    static func nameColumn(_ locale: AppLocale) -> String {
        switch locale {
        case .ptBR: "namePtBR"
        case .es: "nameEs"
        case .ca: "nameCa"
        case .en: "nameEn"
        }
    }

    var composition: FoodComposition {
        FoodComposition(gramsPerUnit: gramsPerUnit, kcal: kcalPer100g, protein: proteinPer100g,
                        carbohydrate: carbohydratePer100g, fat: fatPer100g)
    }

    static let units = ["spoon", "teaspoon", "cup", "glass", "slice", "unit", "ladle", "portion", "gram", "ml"]
}

/// Foods a nutritionist adds to the catalogue, corrects, merges and removes. Meal lines keep the figures
/// they were prescribed with (`mealLine.food…` columns), so none of these changes a meal.
enum Foods {
    /// Stores `food` with its audit entry; returns it with its id.
    @discardableResult
    static func add(_ food: Food, audit: AuditContext, _ db: Database) throws -> Food {
        var food = food
        try food.insert(db)
        try audit.record(.create, "food", food.id, food.namePtBR, db)
        return food
    }

    /// Someone corrected the food after the edit form was opened (another tab).
    struct ChangedSinceOpened: Error {}

    /// The corrected figures of `food`, made on `version` of it. The name typed replaces the reader's
    /// language's name, and the other languages' names that were the same (a food added by a nutritionist
    /// has one name in all four).
    static func update(_ food: Food, from version: Int?, to corrected: Food, locale: AppLocale, audit: AuditContext,
                       _ db: Database) throws {
        guard version == food.version else { throw ChangedSinceOpened() }
        var updated = food
        let oldName = food.name(locale), newName = corrected.name(locale)
        if updated.namePtBR == oldName || locale == .ptBR { updated.namePtBR = newName }
        if updated.nameEs == oldName || locale == .es { updated.nameEs = newName }
        if updated.nameCa == oldName || locale == .ca { updated.nameCa = newName }
        if updated.nameEn == oldName || locale == .en { updated.nameEn = newName }
        updated.unit = corrected.unit
        updated.gramsPerUnit = corrected.gramsPerUnit
        updated.kcalPer100g = corrected.kcalPer100g
        updated.proteinPer100g = corrected.proteinPer100g
        updated.carbohydratePer100g = corrected.carbohydratePer100g
        updated.fatPer100g = corrected.fatPer100g
        updated.version += 1
        try updated.update(db)
        try audit.record(.update, "food", food.id, "\(oldName) → \(newName), \(corrected.kcalPer100g) kcal/100 g", db)
    }

    /// Folds a duplicate into the food kept: its meal lines point to the kept food (their figures stay
    /// as prescribed) and the duplicate leaves the catalogue.
    static func merge(_ duplicate: Food, into kept: Food, audit: AuditContext, _ db: Database) throws {
        guard duplicate.id != kept.id else { throw AppError.conflict }
        try db.execute(sql: "UPDATE mealLine SET foodId = ? WHERE foodId = ?", arguments: [kept.id, duplicate.id])
        try dropFromCatalogue(duplicate, at: audit.now, db)
        try audit.record(.update, "food", kept.id, "merged \(duplicate.id ?? 0) \(duplicate.namePtBR) into \(kept.namePtBR)", db)
    }

    enum Removal: Equatable { case deleted, hidden }

    /// A food no meal uses is deleted; one that meals use is hidden from the catalogue (its meals keep
    /// showing it, and an edit of one of them may keep it).
    static func remove(_ food: Food, audit: AuditContext, _ db: Database) throws -> Removal {
        let used = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mealLine WHERE foodId = ?)", arguments: [food.id]) ?? false
        if used {
            try db.execute(sql: "UPDATE food SET hiddenAt = ?, version = version + 1 WHERE id = ?", arguments: [audit.now, food.id])
            try audit.record(.update, "food", food.id, "hidden: \(food.namePtBR)", db)
            return .hidden
        }
        try dropFromCatalogue(food, at: audit.now, db)
        try audit.record(.delete, "food", food.id, food.namePtBR, db)
        return .deleted
    }

    /// Deletes a food no line uses. A shipped food (with a seed key) is hidden instead: deleted, it would come
    /// back at the next start, when the loader adds the keys it does not find.
    private static func dropFromCatalogue(_ food: Food, at now: Date, _ db: Database) throws {
        if food.key == nil {
            _ = try Food.deleteOne(db, key: food.id)
        } else {
            try db.execute(sql: "UPDATE food SET hiddenAt = ?, version = version + 1 WHERE id = ?", arguments: [now, food.id])
        }
    }
}

/// The catalogue shipped in `Data/foods.json` (values from public composition tables), loaded at
/// start: a food already there (same key) is left as it is, a new one is added.
public enum FoodCatalogue {
    struct Seed: Decodable {
        struct Entry: Decodable {
            let key: String
            let names: [String: String]
            let unit: String
            let gramsPerUnit: Double
            let kcal: Double
            let protein: Double?
            let carbohydrate: Double?
            let fat: Double?
            let source: String
        }
        let sources: [String: String]
        let foods: [Entry]
    }

    public static func load(from path: String, into pool: DatabasePool) throws {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let seed = try JSONDecoder().decode(Seed.self, from: data)
        try pool.write { db in
            let known = Set(try String.fetchAll(db, sql: "SELECT key FROM food WHERE key IS NOT NULL"))
            for entry in seed.foods where !known.contains(entry.key) {
                let name = entry.names["pt-BR"] ?? entry.key
                var food = Food(key: entry.key, namePtBR: name, nameEs: entry.names["es"] ?? name,
                                nameCa: entry.names["ca"] ?? name, nameEn: entry.names["en"] ?? name, unit: entry.unit,
                                gramsPerUnit: entry.gramsPerUnit, kcalPer100g: entry.kcal, proteinPer100g: entry.protein,
                                carbohydratePer100g: entry.carbohydrate, fatPer100g: entry.fat,
                                source: seed.sources[entry.source] ?? entry.source)
                try food.insert(db)
            }
        }
    }
}
