import Foundation
import GRDB

/// A patient's daily energy and macronutrient target, set by their nutritionist (as wger's plans carry goals).
struct DailyTarget: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "nutritionTarget"

    var patientId: Int64
    var kcal: Double
    var proteinG: Double?
    var carbohydrateG: Double?
    var fatG: Double?
    /// Bumped by every change; the form sends the version it showed (a second tab gets a 409).
    var version: Int
    var updatedBy: Int64?
    var updatedAt: Date

    static let kcalRange = 500.0...6000.0
    static let gramsRange = 0.0...1000.0
    static let fields = ["targetKcal", "targetProtein", "targetCarbohydrate", "targetFat", "targetVersion"]

    /// The form filled with the target (or empty, version 0, when there is none yet).
    static func formState(of target: DailyTarget?, _ format: LocalizedFormat) -> FormState {
        guard let target else { return FormState(values: ["targetVersion": "0"]) }
        return FormState(values: [
            "targetKcal": format.decimal(target.kcal, fractionDigits: 0),
            "targetProtein": target.proteinG.map { format.decimal($0) } ?? "",
            "targetCarbohydrate": target.carbohydrateG.map { format.decimal($0) } ?? "",
            "targetFat": target.fatG.map { format.decimal($0) } ?? "",
            "targetVersion": "\(target.version)",
        ])
    }

    /// The figures typed, each checked and named in its error; nil when any is wrong.
    static func read(_ form: inout FormState, _ t: Translator, _ format: LocalizedFormat) -> (kcal: Double, protein: Double?,
                                                                                               carbohydrate: Double?, fat: Double?)? {
        let kcal = form.decimal("targetKcal", label: t["target_kcal"], in: kcalRange, unit: "kcal", required: true, t, format)
        let protein = form.decimal("targetProtein", label: t["target_protein"], in: gramsRange, unit: "g", required: false, t, format)
        let carbohydrate = form.decimal("targetCarbohydrate", label: t["target_carbohydrate"], in: gramsRange, unit: "g", required: false, t, format)
        let fat = form.decimal("targetFat", label: t["target_fat"], in: gramsRange, unit: "g", required: false, t, format)
        guard !form.hasErrors, let kcal else { return nil }
        return (kcal, protein, carbohydrate, fat)
    }
}

/// Writing a patient's daily target, with its audit entry.
enum DailyTargets {
    struct ChangedSinceOpened: Error {}

    /// Sets the target, made on `version` of it (0: there was none); an older version is refused.
    static func save(patientId: Int64, _ figures: (kcal: Double, protein: Double?, carbohydrate: Double?, fat: Double?),
                     from version: Int?, by userId: Int64, audit: AuditContext, _ db: Database) throws {
        let current = try DailyTarget.fetchOne(db, key: patientId)
        guard version == (current?.version ?? 0) else { throw ChangedSinceOpened() }
        let target = DailyTarget(patientId: patientId, kcal: figures.kcal, proteinG: figures.protein,
                                 carbohydrateG: figures.carbohydrate, fatG: figures.fat, version: (current?.version ?? 0) + 1,
                                 updatedBy: userId, updatedAt: audit.now)
        try target.save(db)
        try audit.record(current == nil ? .create : .update, "nutritionTarget", patientId,
                         "\(figures.kcal) kcal, P \(figures.protein ?? -1) C \(figures.carbohydrate ?? -1) F \(figures.fat ?? -1)", db)
    }
}

/// How a day's figure stands against its target. Pure.
enum TargetStanding: String, Sendable, CaseIterable {
    case under, within, over

    /// Within 10 % of the target either way counts as on target (a household measure is not more precise).
    static let tolerance = 0.10

    static func of(_ value: Double, target: Double) -> TargetStanding {
        guard target > 0 else { return .within }
        if value < target * (1 - tolerance) { return .under }
        if value > target * (1 + tolerance) { return .over }
        return .within
    }

    /// Said in a mark as well as by colour.
    var mark: String {
        switch self {
        case .under: "↓"
        case .within: "✓"
        case .over: "↑"
        }
    }
}
