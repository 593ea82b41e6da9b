import Foundation
import GRDB
import HTTPServer

/// The page each role lands on after logging in.
enum DashboardRoutes: Feature {
    static let templates = ["dashboards/clinician", "dashboards/tutor", "dashboards/patient", "dashboards/trainer",
                            "dashboards/worklist-card", "dashboards/worklist-person", "dashboards/worklist-nutrition-row"]

    static func add(to router: inout Router<Route>) {
        router.add(DashboardEndpoints.clinician) { $0.read(clinician) }
        router.add(DashboardEndpoints.tutor) { $0.read(tutor) }
        router.add(DashboardEndpoints.patient) { $0.read(patient) }
        router.add(DashboardEndpoints.trainer) { $0.read(trainer) }
    }

    @Sendable static func clinician(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let data = try DashboardQueries.clinician(actor, matching: search, now: context.clinicNow,
                                                  nowInstant: context.now, timeZone: context.configuration.timeZone,
                                                  shown: ClinicianDashboard.shownPerList, memory: context.caches.caseloads, db)
        return .page("dashboards/clinician", title: "dashboard_clinician_title",
                     ClinicianDashboard(actor: actor, search: search, data: data, context: context))
    }

    @Sendable static func tutor(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let data = try DashboardQueries.tutor(actor, db)
        var page = TutorDashboard(actor: actor, patients: data.patients, context: context)
        page.linkRequests = LinkRequestsSection(data.linkRequests, context.t)
        return .page("dashboards/tutor", title: "dashboard_tutor_title", page)
    }

    @Sendable static func patient(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let data = try DashboardQueries.patient(actor, today: context.today, context.t, db)
        var page = PatientDashboard(actor: actor, data: data.home, t: context.t)
        page.linkRequests = LinkRequestsSection(data.linkRequests, context.t)
        page.reportURL = actor.isPatientMode ? nil : RecordEndpoints.mine.path()
        page.privacyURL = actor.isPatientMode ? nil : PrivacyEndpoints.show.path(actor.userId)
        return .page("dashboards/patient", title: "dashboard_patient_title", page)
    }

    @Sendable static func trainer(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let today = context.today
        let data = try DashboardQueries.trainer(actor, matching: search, today: today, db)
        return .page("dashboards/trainer", title: "dashboard_trainer_title",
                     TrainerDashboard(actor: actor, search: search, clients: data.clients, reminders: data.reminders, context: context))
    }
}
