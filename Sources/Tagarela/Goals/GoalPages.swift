import Foundation

/// A goal in words: what it measures, its target, its status, in the reader's language.
enum GoalWords {
    static func number(_ value: Double, _ format: LocalizedFormat) -> String {
        format.decimal(value, fractionDigits: abs(value - value.rounded()) < 0.05 ? 0 : 1)
    }

    /// "Taps of “quero” per week", "% body fat (Jackson & Pollock, 7 sites)"…
    static func what(_ goal: Goal, _ names: GoalQueries.Names, _ t: Translator) -> String {
        switch goal.goalKind {
        case .symbolTaps: return t("goal_what_symbolTaps", ["symbol": goal.symbolId.flatMap { names.symbols[$0] } ?? "—"])
        case .categoryTaps: return t("goal_what_categoryTaps", ["category": goal.categoryId.flatMap { names.categories[$0] } ?? "—"])
        case .sentences: return t("goal_what_sentences", ["words": "\(goal.minWords ?? 1)"])
        case .independentTaps: return t["goal_what_independentTaps"]
        case .adherence: return t["goal_what_adherence"]
        case .gameHits:
            let area = EduCATArea(rawValue: goal.gameArea ?? "").map { t["educat_area_\($0.labelKey)"] } ?? "—"
            let mode = goal.gameMode.map { t["goal_game_mode_\($0)"] } ?? t["goal_game_mode_any"]
            return t("goal_what_game_\(goal.gameAggregate.rawValue)", ["game": area, "mode": mode])
        case .gameAccuracy:
            let area = EduCATArea(rawValue: goal.gameArea ?? "")
            let mode = goal.gameMode.map { t["goal_game_mode_\($0)"] } ?? t["goal_game_mode_any"]
            let level = area.flatMap { area in goal.gameLevel.map { t["educat_level_\(EduCATLevel.of(area, number: $0).key)"] } }
            return t("goal_what_accuracy", ["game": area.map { t["educat_area_\($0.labelKey)"] } ?? "—", "mode": mode,
                                            "level": level ?? t["goal_level_any"]])
        case .bodyMeasure:
            switch goal.bodyMeasure {
            case .percentFat: return t("goal_what_percentFat", ["protocol": t["protocol_\(goal.skinfoldProtocol ?? "jp7")"]])
            case .weight: return t["goal_what_weight"]
            case .perimeter: return t("goal_what_perimeter", ["site": t["perimeter_\(goal.perimeterSite ?? "waist")"]])
            }
        }
    }

    static func target(_ goal: Goal, _ t: Translator, _ format: LocalizedFormat) -> String {
        t("goal_target_\(goal.goalDirection.rawValue)", ["value": number(goal.target, format), "unit": t[goal.unitKey]])
    }

    static func measured(_ progress: GoalProgress, _ t: Translator, _ format: LocalizedFormat) -> String {
        progress.measured.map { "\(number($0, format)) \(t[progress.unitKey])" } ?? t["goal_measured_none"]
    }

    static func period(_ goal: Goal, _ format: LocalizedFormat, _ t: Translator) -> String {
        t("goal_period", ["from": format.longDate(iso: goal.startsOn), "to": format.longDate(iso: goal.endsOn)])
    }

    /// The badge class of a status: good news plain, bad news in the danger colour.
    static func badge(_ status: GoalStatus) -> String {
        switch status {
        case .met, .onTrack: "badge"
        case .behind, .missed: "badge badge-danger"
        case .notStarted, .early: "badge badge-neutral"
        }
    }
}

/// One goal in a list.
struct GoalRow: PageModel {
    let id: Int64
    let title: String
    let what: String
    let target: String
    let measured: String
    let status: String
    let statusKey: String
    let badgeClass: String
    let fraction: Double
    let percent: String
    let period: String
    let review: String?
    let isClosed: Bool
    /// "Closed: achieved" or "Closed: discontinued"; nil while open.
    let closing: String?
    let url: String

    init(goal: Goal, progress: GoalProgress, names: GoalQueries.Names, context: RequestContext) {
        let t = context.t, format = context.format
        id = goal.id!
        title = goal.title
        what = GoalWords.what(goal, names, t)
        target = GoalWords.target(goal, t, format)
        measured = GoalWords.measured(progress, t, format)
        status = t["goal_status_\(progress.status.rawValue)"]
        statusKey = progress.status.rawValue
        badgeClass = GoalWords.badge(progress.status)
        fraction = progress.fraction
        percent = "\(Int((progress.fraction * 100).rounded()))%"
        period = GoalWords.period(goal, format, t)
        review = goal.reviewOn.map { t("goal_review_on", ["date": format.longDate(iso: $0)]) }
        isClosed = goal.isClosed
        closing = goal.isClosed ? goal.closedReason.flatMap(GoalClosing.init(rawValue:)).map { t["goal_closing_\($0.rawValue)"] }
            ?? t["goal_closed_badge"] : nil
        url = GoalEndpoints.show.path(goal.patientId, goal.id!)
    }
}

struct GoalListPage: PageModel {
    let patientName: String
    let patientURL: String
    let open: [GoalRow]
    let closed: [GoalRow]
    let hasOpen: Bool
    let hasClosed: Bool
    let newURL: String?

    init(_ list: GoalQueries.List, actor: Actor, context: RequestContext) {
        let id = list.person.patient.userId
        patientName = list.person.user.displayName
        patientURL = actor.role == .trainer ? BodyCompositionEndpoints.showClient.path(id) : PeopleEndpoints.showPatient.path(id)
        let rows = list.goals.compactMap { goal in
            list.progress[goal.id!].map { GoalRow(goal: goal, progress: $0, names: list.names, context: context) }
        }
        open = rows.filter { !$0.isClosed }
        closed = rows.filter(\.isClosed)
        hasOpen = !open.isEmpty
        hasClosed = !closed.isEmpty
        newURL = GoalAccess.areas(of: actor).isEmpty ? nil : GoalEndpoints.new.path(id)
    }
}

/// Which goals a person may set or change: a clinician, the kinds of their specialties.
enum GoalAccess {
    /// A clinician sets the areas of their specialties; a trainer body composition, their evaluations' measures.
    static func areas(of actor: Actor) -> [GoalArea] {
        switch actor.role {
        case .clinician: GoalArea.allCases.filter { actor.specialties.contains($0.specialty) }
        case .trainer: [.bodyComposition]
        default: []
        }
    }

    static func mayManage(_ kind: GoalKind, _ actor: Actor) -> Bool {
        areas(of: actor).contains(kind.area)
    }

    /// A trainer reads the goals of their own area only: a client's speech or meal goals are not theirs to see.
    static func mayRead(_ kind: GoalKind, _ actor: Actor) -> Bool {
        actor.role != .trainer || mayManage(kind, actor)
    }
}

/// The first step of a new goal: which kind, among those the clinician's specialties allow.
struct GoalKindsPage: PageModel {
    struct Choice: PageModel {
        let label: String
        let hint: String
        let url: String
    }

    struct Area: PageModel {
        let title: String
        let choices: [Choice]
    }

    let patientName: String
    let areas: [Area]
    let cancelURL: String

    init(patientId: Int64, patientName: String, actor: Actor, _ t: Translator) {
        self.patientName = patientName
        areas = GoalAccess.areas(of: actor).map { area in
            Area(title: t["goal_area_\(area.rawValue)"], choices: GoalKind.allCases.filter { $0.area == area }.map { kind in
                Choice(label: t["goal_kind_\(kind.rawValue)"], hint: t["goal_kind_\(kind.rawValue)_hint"],
                       url: GoalEndpoints.new.path(patientId, query: ["kind": kind.rawValue]))
            })
        }
        cancelURL = GoalEndpoints.list.path(patientId)
    }
}

struct GoalFormPage: PageModel {
    struct LevelGroup: PageModel {
        let label: String
        let options: [SelectOption]
    }

    let patientName: String
    let kind: String
    let kindLabel: String
    let action: String
    let cancelURL: String
    let isNew: Bool
    let form: FormState
    /// Why the edit was not saved (another tab closed or changed the goal); what was typed is kept.
    let conflict: String?
    let isSymbol: Bool
    let isCategory: Bool
    let isSentences: Bool
    let isGame: Bool
    /// A game goal counted in hits (best or average): the aggregate is asked.
    let isHits: Bool
    /// A game goal counted in answers right: the level is asked.
    let isAccuracy: Bool
    let isBody: Bool
    let unit: String
    let symbols: [SelectOption]
    let categories: [SelectOption]
    let games: [SelectOption]
    let modes: [SelectOption]
    let aggregates: [SelectOption]
    /// Each game's levels under the game's name, plus "any level".
    let levels: [LevelGroup]
    let anyLevel: SelectOption
    let measures: [SelectOption]
    let protocols: [SelectOption]
    let perimeters: [SelectOption]
    let directions: [SelectOption]

    init(patientId: Int64, patientName: String, kind: GoalKind, goalId: Int64?, form: FormState, options: GoalInput.Options,
         conflict: String? = nil, _ t: Translator) {
        self.patientName = patientName
        self.kind = kind.rawValue
        kindLabel = t["goal_kind_\(kind.rawValue)"]
        action = goalId.map { GoalEndpoints.update.path(patientId, $0) } ?? GoalEndpoints.create.path(patientId)
        cancelURL = goalId.map { GoalEndpoints.show.path(patientId, $0) } ?? GoalEndpoints.list.path(patientId)
        isNew = goalId == nil
        self.form = form
        self.conflict = conflict
        isSymbol = kind == .symbolTaps
        isCategory = kind == .categoryTaps
        isSentences = kind == .sentences
        isGame = kind == .gameHits || kind == .gameAccuracy
        isHits = kind == .gameHits
        isAccuracy = kind == .gameAccuracy
        isBody = kind == .bodyMeasure
        unit = t[GoalInput.targetRange(kind, measure: BodyMeasureKind(rawValue: form["measure"])).unitKey]
        func choices(_ values: [(String, String)], _ field: String, blank: String? = nil) -> [SelectOption] {
            (blank.map { [("", $0)] } ?? []).map { SelectOption(value: $0.0, label: $0.1, isSelected: form[field] == $0.0) }
                + values.map { SelectOption(value: $0.0, label: $0.1, isSelected: form[field] == $0.0) }
        }
        symbols = choices(options.symbols.map { ("\($0.id)", $0.name) }, "symbolId", blank: t["goal_choose"])
        categories = choices(options.categories.map { ("\($0.id)", $0.name) }, "categoryId", blank: t["goal_choose"])
        games = choices(EduCATArea.allCases.map { ($0.rawValue, t["educat_area_\($0.labelKey)"]) }, "gameArea", blank: t["goal_choose"])
        modes = choices([("normal", t["goal_game_mode_normal"]), ("challenge", t["goal_game_mode_challenge"])], "gameMode",
                        blank: t["goal_game_mode_any"])
        aggregates = choices(GameAggregate.allCases.map { ($0.rawValue, t["goal_aggregate_\($0.rawValue)"]) }, "aggregate")
        anyLevel = SelectOption(value: "", label: t["goal_level_any"], isSelected: form["gameLevel"].isEmpty)
        levels = EduCATArea.allCases.map { area in
            LevelGroup(label: t["educat_area_\(area.labelKey)"], options: choices(EduCATLevel.levels(area).map {
                (GoalInput.levelValue(area: area.rawValue, number: $0.number), "\($0.number). \(t["educat_level_\($0.key)"])")
            }, "gameLevel"))
        }
        measures = choices(BodyMeasureKind.allCases.map { ($0.rawValue, t["goal_measure_\($0.rawValue)"]) }, "measure", blank: t["goal_choose"])
        protocols = choices(SkinfoldProtocol.allCases.map { ($0.rawValue, t["protocol_\($0.rawValue)"]) }, "skinfoldProtocol",
                            blank: t["goal_choose"])
        perimeters = choices(PerimeterSite.allCases.map { ($0.rawValue, t[$0.catalogueKey]) }, "perimeterSite", blank: t["goal_choose"])
        directions = choices(GoalDirection.allCases.map { ($0.rawValue, t["goal_direction_\($0.rawValue)"]) }, "direction")
    }
}

/// A goal with its history and notes.
struct GoalPage: PageModel {
    struct Event: PageModel {
        let when: String
        let who: String
        let action: String
        let changes: [String]
    }

    struct Note: PageModel {
        let when: String
        let author: String
        let role: String
        let isPrivate: Bool
        let body: String
    }

    let patientName: String
    let listURL: String
    let goal: GoalRow
    let mayManage: Bool
    let editURL: String
    let closeURL: String
    let reopenURL: String
    let noteURL: String
    let isClinician: Bool
    /// Clinicians and tutors write notes on goals; a trainer follows and sets theirs.
    let writesNotes: Bool
    let events: [Event]
    let notes: [Note]
    let hasNotes: Bool
    let form: FormState
    /// The measure week by week against the target (`GoalChart`); nil before two weeks were measured.
    let historyChart: String?
    let closingReasons: [SelectOption]

    init(_ detail: GoalQueries.Detail, actor: Actor, form: FormState, context: RequestContext) {
        let t = context.t, format = context.format
        let goal = detail.goal, patientId = goal.patientId, id = goal.id!
        patientName = detail.person.user.displayName
        listURL = GoalEndpoints.list.path(patientId)
        self.goal = GoalRow(goal: goal, progress: detail.progress, names: detail.names, context: context)
        mayManage = GoalAccess.mayManage(goal.goalKind, actor)
        editURL = GoalEndpoints.edit.path(patientId, id)
        closeURL = GoalEndpoints.close.path(patientId, id)
        reopenURL = GoalEndpoints.reopen.path(patientId, id)
        noteURL = GoalEndpoints.addNote.path(patientId, id)
        isClinician = actor.role == .clinician
        writesNotes = actor.role == .clinician || actor.role == .tutor
        events = detail.events.map { event in
            var changes = (try? JSONDecoder().decode([Goals.Change].self, from: Data(event.changes.utf8))) ?? []
            // A closing's reason is part of its name: "Closed: achieved".
            let reason = changes.first { $0.field == "closedReason" }.flatMap { GoalClosing(rawValue: $0.to) }
            changes.removeAll { $0.field == "closedReason" }
            return Event(when: "\(format.shortDate(event.at)) \(format.time(event.at))", who: event.actorName,
                         action: reason.map { t["goal_closing_\($0.rawValue)"] } ?? t["goal_event_\(event.action)"],
                         changes: changes.map { change in
                             t("goal_change", ["field": t["goal_field_\(change.field)"],
                                               "from": change.from.isEmpty ? "—" : change.from, "to": change.to.isEmpty ? "—" : change.to])
                         })
        }
        notes = detail.notes.map { note in
            Note(when: "\(format.shortDate(note.createdAt)) \(format.time(note.createdAt))", author: note.authorName,
                 role: t["role_\(note.authorRole)"], isPrivate: note.isPrivate, body: note.body)
        }
        hasNotes = !notes.isEmpty
        self.form = form
        historyChart = GoalChart.svg(goal, history: detail.history, t, format)
        closingReasons = GoalClosing.allCases.map {
            SelectOption(value: $0.rawValue, label: t["goal_close_as_\($0.rawValue)"], isSelected: false)
        }
    }
}

/// The patient's own goals, in words a child or an adult understands.
struct MyGoalsPage: PageModel {
    struct Row: PageModel {
        let title: String
        let status: String
        let statusKey: String
        let badgeClass: String
        let fraction: Double
        let progress: String
        let until: String
    }

    let goals: [Row]
    let hasGoals: Bool
    let homeURL: String

    init(goals: [Goal], progress: [Int64: GoalProgress], context: RequestContext) {
        let t = context.t, format = context.format
        self.goals = goals.compactMap { goal in
            guard let progress = progress[goal.id!] else { return nil }
            return Row(title: goal.title, status: t["goal_plain_\(progress.status.rawValue)"], statusKey: progress.status.rawValue,
                       badgeClass: GoalWords.badge(progress.status), fraction: progress.fraction,
                       progress: t("goal_plain_progress", ["now": progress.measured.map { GoalWords.number($0, format) } ?? "0",
                                                           "target": GoalWords.number(goal.target, format),
                                                           "unit": t[goal.unitKey]]),
                       until: t("goal_plain_until", ["date": format.longDate(iso: goal.endsOn)]))
        }
        hasGoals = !self.goals.isEmpty
        homeURL = DashboardEndpoints.patient.path()
    }
}
