import Foundation
import GRDB
import HTTPServer

/// A patient as a row of a dashboard list.
struct PatientRow: PageModel {
    let id: Int64
    /// The patient's page, or the client's for a trainer.
    let url: String
    /// Opens patient mode on this device (a tutor's card).
    let patientModeURL: String
    let name: String
    let initials: String
    let photoURL: String?
    let age: String?
    let diagnosis: String
    let tutors: String?

    init(_ summary: People.PatientSummary, today: String, context: RequestContext) {
        id = summary.id
        url = context.actor?.role == .trainer ? BodyCompositionEndpoints.showClient.path(summary.id)
            : PeopleEndpoints.showPatient.path(summary.id)
        patientModeURL = AccountsEndpoints.openPatientMode.path(summary.id)
        name = summary.displayName
        initials = Initials.of(summary.displayName)
        photoURL = summary.photoPath.map { _ in PeopleEndpoints.showPhoto.path(summary.id) }
        age = summary.birthDate.flatMap { ISODate.age(birthDate: $0, today: today) }.map { context.t("age_years", ["years": "\($0)"]) }
        diagnosis = summary.diagnosis
        tutors = summary.tutorNames
    }

    static func list(_ summaries: [People.PatientSummary], context: RequestContext) -> [PatientRow] {
        let today = context.today
        return summaries.map { PatientRow($0, today: today, context: context) }
    }
}

struct ClinicianDashboard: PageModel {
    /// A patient of the worklist with what needs attention, in words: the model of a card
    /// (`dashboards/worklist-card`).
    struct WorklistRow: PageModel {
        let patient: PatientRow
        let reasons: [String]
    }

    /// A card of the worklist, rendered. The same cards come back on every load of a clinician with
    /// hundreds of patients, so each is kept in `fragments` under everything it shows (`cardKey`): for
    /// 500 patients the cards' models and their rendering were a quarter of the page's time.
    struct WorklistCard: PageModel {
        let html: Piece
    }

    /// A row of "everyone else" (`dashboards/worklist-person`, a `PatientRow`) or of the nutrition list
    /// (`dashboards/worklist-nutrition-row`, a `NutritionRow`), rendered. Like the cards, the same rows come
    /// back on every load, so each is kept in `fragments` under everything it shows (`personKey`,
    /// `nutritionKey`), and its model is built only when it is rendered: a clinician of 500 patients had up
    /// to 200 of them built and rendered on every load.
    struct RenderedRow: PageModel {
        let html: Piece
    }

    struct NutritionRow: PageModel {
        let id: Int64
        /// The patient's meal plan.
        let url: String
        let name: String
        let text: String
        let needsAttention: Bool

        init(_ entry: DashboardQueries.Clinician.Entry, context: RequestContext) {
            let (patient, figures) = (entry.patient, entry.adherence)
            let rate = figures.rate.map { "\(context.format.decimal($0 * 100, fractionDigits: 0)) %" } ?? "—"
            id = patient.id
            url = NutritionEndpoints.review.path(patient.id)
            name = patient.displayName
            text = context.t("adherence_row", ["rate": rate, "overdue": "\(figures.overdue)", "pending": "\(figures.pending)"])
            needsAttention = Self.needsAttention(figures)
        }

        static func needsAttention(_ figures: NutritionRules.Adherence) -> Bool {
            figures.overdue > 0 || (figures.rate ?? 1) < 0.7
        }
    }

    let greeting: String
    let specialties: [String]
    let search: String
    /// Patients needing attention, the most urgent first (`WorklistRules`), each with its reasons.
    let attention: [WorklistCard]
    /// Everyone else, by name.
    let others: [RenderedRow]
    /// Said when a list shows only its first `shownPerList` (a clinician of thousands of patients: the
    /// page stays one screenful of work, and the search finds the others).
    let moreText: String?
    let hasAttention: Bool
    let hasOthers: Bool
    let isEmpty: Bool
    let countText: String
    let showsNutrition: Bool
    let showsSpeech: Bool
    /// Patients with overdue meals or low adherence first.
    let nutrition: [RenderedRow]
    let symbolsURL = SymbolEndpoints.list.path()
    let newPatientURL = PeopleEndpoints.newPatient.path()
    let searchURL = DashboardEndpoints.clinician.path()
    static let shownPerList = 100

    /// The lists come ordered and cut by the database (`DashboardQueries.clinician`, whose order is
    /// `WorklistRules.weightSQL`); the reasons of the patients shown are put in words here.
    init(actor: Actor, search: String, data: DashboardQueries.Clinician, context: RequestContext) {
        let today = context.today
        let scope = WorklistRules.Scope(speech: actor.specialties.contains(.speech), nutrition: actor.specialties.contains(.nutrition))
        attention = data.attention.map { entry in
            WorklistCard(html: context.piece(kept: Self.cardKey(entry, today: today, scope: scope, locale: context.locale),
                                             in: context.caches.fragments, "dashboards/worklist-card") {
                WorklistRow(patient: PatientRow(entry.patient, today: today, context: context),
                            reasons: WorklistRules.reasons(entry.signals, today: today, scope: scope).map { Self.words($0, context.t, context.format) })
            })
        }
        others = data.others.map { entry in
            RenderedRow(html: context.piece(kept: Self.personKey(entry.patient, today: today, locale: context.locale),
                                            in: context.caches.fragments, "dashboards/worklist-person") {
                PatientRow(entry.patient, today: today, context: context)
            })
        }
        let shown = attention.count + others.count
        moreText = shown < data.total
            ? context.t("worklist_more", ["shown": "\(shown)", "total": "\(data.total)"]) : nil
        hasAttention = !attention.isEmpty
        hasOthers = !others.isEmpty
        showsNutrition = actor.specialties.contains(.nutrition)
        showsSpeech = actor.specialties.contains(.speech)
        nutrition = data.nutrition.map { entry in
            RenderedRow(html: context.piece(kept: Self.nutritionKey(entry, locale: context.locale),
                                            in: context.caches.fragments, "dashboards/worklist-nutrition-row") {
                NutritionRow(entry, context: context)
            })
        }
        greeting = context.t("dashboard_greeting", ["name": actor.displayName])
        specialties = Specialty.allCases.filter(actor.specialties.contains).map { context.t["specialty_\($0.rawValue)"] }
        self.search = search
        isEmpty = data.total == 0
        countText = context.t("patients_count", ["count": "\(data.total)"])
    }

    /// Everything a worklist card shows is decided by these: the patient's name, birth date (the age, with
    /// `today`), diagnosis and photo; the signals and the specialties (the reasons, in `locale`). A new
    /// field on the card must be added here, or a card would keep showing its old value.
    static func cardKey(_ entry: DashboardQueries.Clinician.Entry, today: String, scope: WorklistRules.Scope,
                        locale: AppLocale) -> String {
        let patient = entry.patient, signals = entry.signals
        let adherence = signals.adherence.map { String($0) } ?? "-"
        return "worklist card \(locale.rawValue) \(today) \(scope.speech) \(scope.nutrition) \(patient.id) \(patient.birthDate ?? "-") "
            + "\(patient.photoPath ?? "-") \(signals.hasBoards) \(signals.lastBoardUse ?? "-") \(signals.goalsBehind) "
            + "\(signals.overdueMeals) \(adherence) \(signals.lastEvaluation ?? "-") \(signals.newTutorNotes)"
            + "\u{1F}\(patient.displayName)\u{1F}\(patient.diagnosis)"
    }

    /// Everything a row of "everyone else" shows is decided by these: the patient's name (and initials),
    /// birth date (the age, with `today`), diagnosis, photo and tutors, in `locale`. A new field on the row
    /// must be added here, or a row would keep showing its old value.
    static func personKey(_ patient: People.PatientSummary, today: String, locale: AppLocale) -> String {
        "worklist person \(locale.rawValue) \(today) \(patient.id) \(patient.birthDate ?? "-")\u{1F}\(patient.displayName)"
            + "\u{1F}\(patient.diagnosis)\u{1F}\(patient.photoPath ?? "\u{0}")\u{1F}\(patient.tutorNames ?? "\u{0}")"
    }

    /// Everything a row of the nutrition list shows is decided by these: the patient's name, the
    /// adherence's figures (its rate in `locale`'s digits) and whether it needs attention. A new field on
    /// the row must be added here, or a row would keep showing its old value.
    static func nutritionKey(_ entry: DashboardQueries.Clinician.Entry, locale: AppLocale) -> String {
        let figures = entry.adherence
        return "worklist nutrition \(locale.rawValue) \(entry.patient.id) \(figures.rate.map { String($0) } ?? "-") \(figures.overdue) "
            + "\(figures.pending) \(NutritionRow.needsAttention(figures))\u{1F}\(entry.patient.displayName)"
    }

    /// A worklist reason as the clinician reads it.
    static func words(_ reason: WorklistRules.Reason, _ t: Translator, _ format: LocalizedFormat) -> String {
        switch reason {
        case .noBoardUse(let days?): t("worklist_reason_idle", ["days": "\(days)"])
        case .noBoardUse(nil): t["worklist_reason_never_used"]
        case .goalsBehind(let count): t("worklist_reason_goals_behind", ["count": "\(count)"])
        case .overdueMeals(let count): t("worklist_reason_overdue_meals", ["count": "\(count)"])
        case .lowAdherence(let rate): t("worklist_reason_low_adherence", ["rate": "\(format.decimal(rate * 100, fractionDigits: 0)) %"])
        case .reevaluation(let overdue, let dueOn):
            t(overdue ? "worklist_reason_reevaluation_overdue" : "worklist_reason_reevaluation_due", ["date": format.shortDate(iso: dueOn)])
        case .newTutorNotes(let count): t("worklist_reason_tutor_notes", ["count": "\(count)"])
        }
    }
}

struct TutorDashboard: PageModel {
    let greeting: String
    let patients: [PatientRow]
    let isEmpty: Bool
    var linkRequests: LinkRequestsSection?

    init(actor: Actor, patients: [People.PatientSummary], context: RequestContext) {
        greeting = context.t("dashboard_greeting", ["name": actor.displayName])
        self.patients = PatientRow.list(patients, context: context)
        isEmpty = patients.isEmpty
    }
}

struct TrainerDashboard: PageModel {
    struct Reminder: PageModel {
        let id: Int64
        let url: String
        let name: String
        let text: String
        let isOverdue: Bool
    }

    let greeting: String
    let search: String
    let clients: [PatientRow]
    let isEmpty: Bool
    let countText: String
    let reminders: [Reminder]
    let newClientURL = PeopleEndpoints.newClient.path()
    let searchURL = DashboardEndpoints.trainer.path()

    init(actor: Actor, search: String, clients: [People.PatientSummary], reminders: [Evaluations.Reminder],
         context: RequestContext) {
        self.reminders = reminders.map { reminder in
            Reminder(id: reminder.patientId, url: BodyCompositionEndpoints.showClient.path(reminder.patientId), name: reminder.name,
                     text: ClientHistoryPage.reminderText((reminder.status, reminder.dueOn), context.t, context.format) ?? "",
                     isOverdue: reminder.status == .overdue)
        }
        greeting = context.t("dashboard_greeting", ["name": actor.displayName])
        self.search = search
        self.clients = PatientRow.list(clients, context: context)
        isEmpty = clients.isEmpty
        countText = context.t("clients_count", ["count": "\(clients.count)"])
    }
}
