import Foundation
import GRDB
import HTTPServer

/// The page each role lands on after logging in.
enum DashboardRoutes {
    static let templates = ["dashboards/clinician", "dashboards/tutor", "dashboards/patient", "dashboards/trainer"]

    static func add(to router: inout Router<Route>) {
        router.get("/clinician", .signedIn([.clinician]), clinician)
        router.get("/tutor", .signedIn([.tutor]), tutor)
        router.get("/patient", .signedIn([.patient]), patient)
        router.get("/trainer", .signedIn([.trainer]), trainer)
    }

    @Sendable static func clinician(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let now = NutritionRoutes.today(context)
        let since = ISODate.adding(-13, to: now.date)
        let (patients, adherence) = try context.database.read { db in
            (try People.patients(visibleTo: actor, matching: search, db),
             actor.specialties.contains(.nutrition)
                ? try Adherence.summaries(clinicianId: actor.userId, from: since, nowDate: now.date, nowTime: now.time, db) : [:])
        }
        return context.render("dashboards/clinician", title: "dashboard_clinician_title",
                              ClinicianDashboard(actor: actor, search: search, patients: patients, adherence: adherence,
                                                 context: context))
    }

    @Sendable static func tutor(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (patients, requests) = try context.database.read { db in
            (try People.patients(visibleTo: actor, matching: "", db), try LinkRequests.pending(for: actor.userId, db))
        }
        var page = TutorDashboard(actor: actor, patients: patients, context: context)
        page.linkRequests = LinkRequestsSection(requests, context.t)
        return context.render("dashboards/tutor", title: "dashboard_tutor_title", page)
    }

    @Sendable static func patient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let today = NutritionRoutes.today(context).date
        let (data, requests) = try context.database.read { db in
            (try PatientHomeData.fetch(patientId: actor.userId, today: today, context.t, db),
             try actor.isPatientMode ? [] : LinkRequests.pending(for: actor.userId, db))  // consent is not the child's on a tablet
        }
        var page = PatientDashboard(actor: actor, data: data, t: context.t)
        page.linkRequests = LinkRequestsSection(requests, context.t)
        return context.render("dashboards/patient", title: "dashboard_patient_title", page)
    }

    @Sendable static func trainer(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        let (clients, reminders) = try context.database.read { db in
            (try People.patients(visibleTo: actor, matching: search, db),
             try Evaluations.reminders(for: actor.userId, today: today, db))
        }
        return context.render("dashboards/trainer", title: "dashboard_trainer_title",
                              TrainerDashboard(actor: actor, search: search, clients: clients, reminders: reminders, context: context))
    }
}

/// A patient as a row of a dashboard list.
struct PatientRow: Sendable {
    let id: Int64
    let name: String
    let initials: String
    let photoURL: String?
    let age: String?
    let diagnosis: String
    let tutors: String?

    init(_ summary: People.PatientSummary, today: String, context: RequestContext) {
        id = summary.id
        name = summary.displayName
        initials = Initials.of(summary.displayName)
        photoURL = summary.photoPath.map { _ in "/patients/\(summary.id)/photo" }
        age = summary.birthDate.flatMap { ISODate.age(birthDate: $0, today: today) }.map { context.t("age_years", ["years": "\($0)"]) }
        diagnosis = summary.diagnosis
        tutors = summary.tutorNames
    }

    static func list(_ summaries: [People.PatientSummary], context: RequestContext) -> [PatientRow] {
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        return summaries.map { PatientRow($0, today: today, context: context) }
    }
}

struct ClinicianDashboard: Sendable {
    struct NutritionRow: Sendable {
        let id: Int64
        let name: String
        let text: String
        let needsAttention: Bool
    }

    let greeting: String
    let specialties: [String]
    let search: String
    let patients: [PatientRow]
    let isEmpty: Bool
    let countText: String
    let showsNutrition: Bool
    let showsSpeech: Bool
    /// Patients with overdue meals or low adherence first.
    let nutrition: [NutritionRow]

    init(actor: Actor, search: String, patients: [People.PatientSummary], adherence: [Int64: NutritionRules.Adherence],
         context: RequestContext) {
        showsNutrition = actor.specialties.contains(.nutrition)
        showsSpeech = actor.specialties.contains(.speech)
        nutrition = patients.map { patient -> (People.PatientSummary, NutritionRules.Adherence) in
            (patient, adherence[patient.id] ?? NutritionRules.Adherence())
        }
        .sorted { ($1.1.overdue, $0.1.rate ?? 2, $0.0.displayName) < ($0.1.overdue, $1.1.rate ?? 2, $1.0.displayName) }
        .map { patient, figures in
            let rate = figures.rate.map { "\(context.format.decimal($0 * 100, fractionDigits: 0)) %" } ?? "—"
            return NutritionRow(id: patient.id, name: patient.displayName,
                                text: context.t("adherence_row", ["rate": rate, "overdue": "\(figures.overdue)",
                                                                  "pending": "\(figures.pending)"]),
                                needsAttention: figures.overdue > 0 || (figures.rate ?? 1) < 0.7)
        }
        greeting = context.t("dashboard_greeting", ["name": actor.displayName])
        specialties = Specialty.allCases.filter(actor.specialties.contains).map { context.t["specialty_\($0.rawValue)"] }
        self.search = search
        self.patients = PatientRow.list(patients, context: context)
        isEmpty = patients.isEmpty
        countText = context.t("patients_count", ["count": "\(patients.count)"])
    }
}

struct TutorDashboard: Sendable {
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

struct TrainerDashboard: Sendable {
    struct Reminder: Sendable {
        let id: Int64
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

    init(actor: Actor, search: String, clients: [People.PatientSummary], reminders: [Evaluations.Reminder],
         context: RequestContext) {
        self.reminders = reminders.map { reminder in
            Reminder(id: reminder.patientId, name: reminder.name,
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
