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

/// Foods a nutritionist adds to the catalogue.
enum Foods {
    /// Stores `food` with its audit entry; returns it with its id.
    @discardableResult
    static func add(_ food: Food, audit: AuditContext, _ db: Database) throws -> Food {
        var food = food
        try food.insert(db)
        try audit.record(.create, "food", food.id, food.namePtBR, db)
        return food
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
