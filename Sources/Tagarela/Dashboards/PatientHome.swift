import Foundation
import GRDB

/// What a patient has, read in one go for their home (`/patient`): the boards with their first picture,
/// whether they play the games, and the meals of today. Which of these lead the page is `PatientHomeRules`'.
struct PatientHomeData: Sendable {
    struct Board: Sendable {
        let id: Int64
        let name: String
        let imageURL: String?
    }

    struct TodayMeal: Sendable {
        let id: Int64
        let title: String
        let time: String
        let status: MealStatus
    }

    var boards: [Board] = []
    var hasPlayedGames = false
    var isChild = false
    /// Every meal ever prescribed to the patient: a nutrition patient has some.
    var mealCount = 0
    var todayMeals: [TodayMeal] = []
    /// Pending meals of earlier days, still waiting for an answer.
    var earlierPending = 0

    static func fetch(patientId: Int64, today: String, _ t: Translator, _ db: Database) throws -> PatientHomeData {
        var data = PatientHomeData()
        data.boards = try PlayerQueries.boards(patientId: patientId, db).map { Board(id: $0.planId, name: $0.name, imageURL: $0.imageURL) }
        (data.isChild, data.hasPlayedGames) = try gameFacts(patientId: patientId, today: today, db)
        data.mealCount = try Meal.filter(Meal.Columns.patientId == patientId).fetchCount(db)
        data.todayMeals = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date == today)
            .order(Meal.Columns.time, Column("id")).fetchAll(db).map { meal in
                TodayMeal(id: meal.id!, title: meal.mealType == .custom ? (meal.customName ?? t["meal_custom"]) : t["meal_\(meal.type)"],
                          time: meal.time, status: meal.mealStatus)
            }
        data.earlierPending = try Meal.filter(Meal.Columns.patientId == patientId && Meal.Columns.date < today
                                              && Meal.Columns.status == MealStatus.pending.rawValue).fetchCount(db)
        return data
    }

    /// Whether the patient is a child by birth date, and whether they ever played the games.
    static func gameFacts(patientId: Int64, today: String, _ db: Database) throws -> (isChild: Bool, hasPlayed: Bool) {
        let hasPlayed = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM educatResult WHERE patientId = ?)"),
                                          arguments: [patientId]) ?? false
        let birthDate = try String.fetchOne(db.cachedStatement(sql: "SELECT birthDate FROM patient WHERE userId = ?"), arguments: [patientId])
        let isChild = birthDate.flatMap { ISODate.age(birthDate: $0, today: today) }.map { $0 < PatientHomeRules.adultAge } ?? false
        return (isChild, hasPlayed)
    }
}

/// Who the home is for. Pure.
enum PatientHomeRules {
    static let adultAge = 18

    /// A child's home: the boards and games lead, as pictures. Anyone with boards uses AAC and is shown
    /// them first, whatever their age; an adult with meals and no boards sees the meals first.
    static func leadsWithBoards(_ data: PatientHomeData) -> Bool {
        !data.boards.isEmpty || (data.isChild && data.mealCount == 0)
    }

    /// The games are children's: shown to a child, to a patient who uses boards, and to anyone who played them.
    static func showsGames(_ data: PatientHomeData) -> Bool {
        showsGames(hasBoards: !data.boards.isEmpty, isChild: data.isChild, hasPlayed: data.hasPlayedGames)
    }

    static func showsGames(hasBoards: Bool, isChild: Bool, hasPlayed: Bool) -> Bool { isChild || hasBoards || hasPlayed }

    /// Today's meals still to answer: the count the home shows (earlier days are counted apart).
    static func pendingToday(_ data: PatientHomeData) -> Int {
        data.todayMeals.filter { $0.status == .pending }.count
    }
}

/// The patient's home. A child sees big picture tiles of their boards, games and timer; an adult patient
/// such as a nutrition patient sees today's meals first. Nothing is shown that the patient does not have,
/// and every tile is a link.
struct PatientDashboard: PageModel {
    struct Tile: PageModel {
        let key: String
        let label: String
        let status: String?
        let href: String
        let imageURL: String?
    }

    struct MealRow: PageModel {
        let title: String
        let time: String
        let status: String
        let isPending: Bool
    }

    let greeting: String
    let leadsWithBoards: Bool
    let boards: [Tile]
    /// Games and timer: a child's other picture tiles.
    let activities: [Tile]
    let showsMeals: Bool
    let meals: [MealRow]
    let mealsStatus: String
    let earlierPending: String?
    let hasPending: Bool
    let checkInURL = CheckInEndpoints.showCheckIn.path()
    let goalsURL = GoalEndpoints.mine.path()
    /// An adult's own progress report, to read and print; nil in patient mode (a child's report is the tutor's).
    var reportURL: String?
    /// The adult's own data: download it, or ask for its erasure; nil in patient mode.
    var privacyURL: String?
    /// Meal history and weight.
    let nutritionLinks: [Tile]
    // Stored, not computed: templates see a view model's stored properties only.
    let hasBoards: Bool
    let hasActivities: Bool
    let hasTodayMeals: Bool
    /// Clinicians asking to follow this patient; never shown in patient mode.
    var linkRequests: LinkRequestsSection?

    init(actor: Actor, data: PatientHomeData, t: Translator) {
        greeting = t("patient_greeting", ["name": actor.displayName])
        leadsWithBoards = PatientHomeRules.leadsWithBoards(data)
        boards = data.boards.map { board in
            Tile(key: "board", label: board.name, status: nil, href: PlayerEndpoints.play.path(board.id), imageURL: board.imageURL)
        }
        var activities: [Tile] = []
        if PatientHomeRules.showsGames(data) {
            activities.append(Tile(key: "games", label: t["tile_games"], status: nil, href: EduCATEndpoints.menu.path(),
                                   imageURL: PlanEndpoints.pictogram.path("\(PatientHomeRules.gamesPictogram).svg")))
        }
        if !data.boards.isEmpty {
            activities.append(Tile(key: "timer", label: t["timer_title"], status: nil, href: TimerEndpoints.timer.path(),
                                   imageURL: PlanEndpoints.pictogram.path("\(PatientHomeRules.timerPictogram).svg")))
        }
        self.activities = activities
        hasBoards = !boards.isEmpty
        hasActivities = !activities.isEmpty
        showsMeals = data.mealCount > 0
        meals = data.todayMeals.map { meal in
            MealRow(title: meal.title, time: meal.time, status: t["meal_status_\(meal.status.rawValue)"], isPending: meal.status == .pending)
        }
        hasTodayMeals = !meals.isEmpty
        let pending = PatientHomeRules.pendingToday(data)
        mealsStatus = data.todayMeals.isEmpty ? t["tile_meals_empty"]
            : pending == 0 ? t["homes_meals_all_answered"] : t("homes_meals_pending_today", ["count": "\(pending)"])
        earlierPending = data.earlierPending > 0 ? t("homes_meals_pending_earlier", ["count": "\(data.earlierPending)"]) : nil
        hasPending = pending > 0 || data.earlierPending > 0
        nutritionLinks = data.mealCount == 0 ? [] : [
            Tile(key: "plan", label: t["week_plan_mine"], status: nil, href: CheckInEndpoints.showPlan.path(),
                 imageURL: PlanEndpoints.pictogram.path("\(PatientHomeRules.weekPlanPictogram).svg")),
            Tile(key: "history", label: t["meal_history_title"], status: nil, href: CheckInEndpoints.showHistory.path(),
                 imageURL: PlanEndpoints.pictogram.path("\(PatientHomeRules.historyPictogram).svg")),
            Tile(key: "measurements", label: t["measurements_title"], status: nil, href: CheckInEndpoints.showMeasurements.path(),
                 imageURL: PlanEndpoints.pictogram.path("\(PatientHomeRules.measurementsPictogram).svg")),
        ]
    }
}

extension PatientHomeRules {
    /// OpenMoji pictures of the home's tiles: dice, hourglass, calendar, check-up, spiral calendar.
    static let gamesPictogram = "1F3B2"
    static let timerPictogram = "23F3"
    static let historyPictogram = "1F4C5"
    static let measurementsPictogram = "1FA7A"
    static let weekPlanPictogram = "1F5D3"
    static let pictograms = [gamesPictogram, timerPictogram, historyPictogram, measurementsPictogram, weekPlanPictogram]
}
