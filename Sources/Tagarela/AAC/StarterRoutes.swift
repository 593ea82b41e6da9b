import Foundation
import GRDB
import HTTPServer

/// The starter core board set, assigned to a patient in one step from their list of plans: the clips
/// first (espeak-ng, on the media pool, holding no transaction), then every plan, symbol and cell in one
/// write; the clinician lands on the core board's editor to personalise the copy.
enum StarterRoutes {
    static func add(to router: inout Router<Route>) {
        router.add(PlanEndpoints.assignStarter) { $0.slow(.media, prepare).write(assign) }
    }

    /// The language asked for and its clips; nil language when the form named none of the four.
    struct Prepared: Sendable {
        let language: AppLocale?
        let clips: [String: String]
    }

    @Sendable static func prepare(_ context: RequestContext, _ patientId: Int64) throws -> Step<Prepared> {
        guard let language = AppLocale(rawValue: context.request.form["language"] ?? "") else {
            return .next(Prepared(language: nil, clips: [:]))
        }
        return .next(Prepared(language: language, clips: StarterSets.clips(language, speech: context.speech)))
    }

    @Sendable static func assign(_ context: RequestContext, _ db: Database, _ prepared: Prepared, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        guard let language = prepared.language else {
            let data = try PlanQueries.list(patientId: patientId, visibleTo: actor, db)
            return .page("aac/plans", title: "plans_title",
                         PlansPage(patient: data.patient, plans: data.plans, tutors: data.tutors,
                                   actor: actor, context: context, starterError: context.t["starter_language_invalid"]),
                         status: .unprocessableContent)
        }
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        if let earlier = try StarterSets.recentCopy(language: language, patientId: patient.userId, clinicianId: actor.userId,
                                                    now: context.now, db) {
            return .redirect(to: PlanEndpoints.editor.path(earlier), flash: "starter_assigned")
        }
        let core = try StarterSets.store(language: language, patientId: patient.userId, clinicianId: actor.userId,
                                         clips: prepared.clips, pictograms: context.pictograms, now: context.now,
                                         today: context.today,
                                         audit: context.audit, t: context.t, db)
        return .redirect(to: PlanEndpoints.editor.path(core), flash: "starter_assigned")
    }
}
