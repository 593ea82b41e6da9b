import GRDB

enum NutritionSchema {
    /// The food catalogue, prescribed meals with their lines and answers, and weight entries.
    /// Shipped 2026-11. Never edit; add a new migration instead.
    static func v1(_ db: Database) throws {
        try db.create(table: "food") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("key", .text).unique()  // the seed's key; NULL for foods added by a nutritionist
            t.column("namePtBR", .text).notNull()
            t.column("nameEs", .text).notNull()
            t.column("nameCa", .text).notNull()
            t.column("nameEn", .text).notNull()
            t.column("unit", .text).notNull()
                .check(sql: "unit IN ('spoon', 'teaspoon', 'cup', 'glass', 'slice', 'unit', 'ladle', 'portion', 'gram', 'ml')")
            t.column("gramsPerUnit", .double).notNull().check(sql: "gramsPerUnit > 0 AND gramsPerUnit <= 2000")
            t.column("kcalPer100g", .double).notNull().check(sql: "kcalPer100g BETWEEN 0 AND 900")
            t.column("proteinPer100g", .double)
            t.column("carbohydratePer100g", .double)
            t.column("fatPer100g", .double)
            t.column("source", .text).notNull()
            t.column("createdBy", .integer).references("user", onDelete: .setNull)
        }
        try db.create(table: "meal") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("clinicianId", .integer).notNull().references("user", onDelete: .restrict)
            t.column("type", .text).notNull()
                .check(sql: "type IN ('breakfast', 'morningSnack', 'lunch', 'afternoonSnack', 'dinner', 'supper', 'custom')")
            t.column("customName", .text)
            t.column("date", .date).notNull()
            t.column("time", .text).notNull().check(sql: "time GLOB '[0-2][0-9]:[0-5][0-9]'")
            t.column("status", .text).notNull().defaults(to: "pending")
                .check(sql: "status IN ('pending', 'fulfilled', 'not_fulfilled')")
            t.column("answeredAt", .datetime)
            t.column("reason", .text)
            t.column("eatenInstead", .text)
            t.column("hunger", .integer).check(sql: "hunger BETWEEN 1 AND 5")
            t.column("photoPath", .text)
            t.column("createdAt", .datetime).notNull()
            t.check(sql: "status = 'pending' OR answeredAt IS NOT NULL")
            t.check(sql: "status <> 'not_fulfilled' OR (length(trim(reason)) > 0 AND length(trim(eatenInstead)) > 0)")
        }
        try db.create(index: "meal_queue", on: "meal", columns: ["patientId", "status", "date", "time", "id"])
        try db.create(table: "mealLine") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("mealId", .integer).notNull().indexed().references("meal", onDelete: .cascade)
            t.column("foodId", .integer).notNull().references("food", onDelete: .restrict)
            t.column("quantity", .double).notNull().check(sql: "quantity > 0 AND quantity <= 5000")
            t.column("unit", .text).notNull().check(sql: "unit IN ('household', 'gram', 'ml')")
            t.column("consumedQuantity", .double).check(sql: "consumedQuantity >= 0 AND consumedQuantity <= 5000")
            t.column("position", .integer).notNull()
        }
        try db.create(table: "weightEntry") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("patientId", .integer).notNull().references("patient", column: "userId", onDelete: .cascade)
            t.column("measuredOn", .date).notNull()
            t.column("grams", .integer).notNull().check(sql: "grams BETWEEN 2000 AND 400000")
            t.column("source", .text).notNull().check(sql: "source IN ('patient', 'clinician', 'import')")
            t.column("createdAt", .datetime).notNull()
            t.uniqueKey(["patientId", "measuredOn", "grams"])  // a re-import adds nothing
        }
        try db.alter(table: "patient") { t in
            // The seed's opt-in: the patient decides whether their own measurements are shared.
            t.add(column: "sharesMeasurements", .boolean).notNull().defaults(to: false)
        }
    }

    /// An answer names the prescription it answers: every clinician edit of a meal bumps `version`,
    /// and an answer to an older version is refused. Shipped 2026-11. Never edit.
    static func v2MealVersions(_ db: Database) throws {
        try db.alter(table: "meal") { t in
            t.add(column: "version", .integer).notNull().defaults(to: 1)
        }
    }

    /// A meal not followed records how much the patient ate instead, as a share of the prescription in
    /// percent (0 = nothing, 100 = about as much, 200 = about double); NULL when the patient did not say
    /// (answers before this migration). Shipped 2026-11. Never edit.
    static func v3EatenEstimate(_ db: Database) throws {
        try db.alter(table: "meal") { t in
            t.add(column: "eatenShare", .integer).check(sql: "eatenShare BETWEEN 0 AND 300")
        }
    }

    /// The catalogue can be corrected (issue 52): a meal line keeps the food's figures as they were when it
    /// was prescribed (names, household unit, grams per unit, energy and macronutrients per 100 g), so
    /// editing, merging or hiding a food never changes a past meal. Existing lines are filled from the
    /// foods' present figures; a trigger fills every new line from its food, whoever writes it (a new meal,
    /// an edit, a copied day). Foods get a version (two tabs) and a hidden mark (a used food is hidden from
    /// the catalogue instead of deleted). Shipped 2026-11. Never edit.
    static func v4FoodSnapshots(_ db: Database) throws {
        try db.alter(table: "food") { t in
            t.add(column: "version", .integer).notNull().defaults(to: 1)
            t.add(column: "hiddenAt", .datetime)
        }
        try db.alter(table: "mealLine") { t in
            for name in ["foodNamePtBR", "foodNameEs", "foodNameCa", "foodNameEn", "foodUnit"] { t.add(column: name, .text) }
            for name in ["foodGramsPerUnit", "foodKcalPer100g", "foodProteinPer100g", "foodCarbohydratePer100g", "foodFatPer100g"] {
                t.add(column: name, .double)
            }
        }
        let snapshot = """
            (foodNamePtBR, foodNameEs, foodNameCa, foodNameEn, foodUnit, foodGramsPerUnit, foodKcalPer100g,
             foodProteinPer100g, foodCarbohydratePer100g, foodFatPer100g)
            = (SELECT namePtBR, nameEs, nameCa, nameEn, unit, gramsPerUnit, kcalPer100g, proteinPer100g, carbohydratePer100g,
                      fatPer100g FROM food WHERE food.id = mealLine.foodId)
            """
        try db.execute(sql: "UPDATE mealLine SET \(snapshot)")
        try db.execute(sql: """
            CREATE TRIGGER mealLine_food_snapshot AFTER INSERT ON mealLine FOR EACH ROW WHEN NEW.foodKcalPer100g IS NULL
            BEGIN
                UPDATE mealLine SET \(snapshot) WHERE id = NEW.id;
            END
            """)
    }

    /// A daily energy and macronutrient target per patient, set by the nutritionist (issue 52, item 6).
    /// Shipped 2026-11. Never edit.
    static func v5DailyTargets(_ db: Database) throws {
        try db.create(table: "nutritionTarget") { t in
            t.primaryKey("patientId", .integer).references("patient", column: "userId", onDelete: .cascade)
            t.column("kcal", .double).notNull().check(sql: "kcal BETWEEN 500 AND 6000")
            t.column("proteinG", .double).check(sql: "proteinG BETWEEN 0 AND 1000")
            t.column("carbohydrateG", .double).check(sql: "carbohydrateG BETWEEN 0 AND 1000")
            t.column("fatG", .double).check(sql: "fatG BETWEEN 0 AND 1000")
            t.column("version", .integer).notNull().defaults(to: 1)
            t.column("updatedBy", .integer).references("user", onDelete: .setNull)
            t.column("updatedAt", .datetime).notNull()
        }
    }
}
