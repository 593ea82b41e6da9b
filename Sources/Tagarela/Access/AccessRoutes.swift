import Foundation
import GRDB
import HTTPServer

/// A patient's access methods, set by their linked clinicians and tutors (`PatientScope`: anyone else
/// gets 404, other roles 403). The patient's own pages read them through `AccessView`.
enum AccessRoutes: Feature {
    static let templates = ["access/settings"]

    static func add(to router: inout Router<Route>) {
        router.read(AccessEndpoints.show, show)
        router.write(AccessEndpoints.update, update)
    }

    @Sendable static func show(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let found = try AccessQueries.settings(patientId: patientId, visibleTo: try context.requireActor(), db)
        let form = FormState(values: AccessRules.formValues(found.settings, context.format))
        return .page("access/settings", title: "access_title", AccessSettingsPage(found.patient, form: form, context.t))
    }

    /// A refused form is shown again with what was typed; nothing is saved.
    @Sendable static func update(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: AccessRules.fields)
        let patient = try AccessQueries.patient(patientId, visibleTo: actor, db)
        switch AccessRules.read(form.values) {
        case .success(let settings):
            try settings.save(patientId: patient.id, by: context.audit.actorId ?? actor.userId, audit: context.audit, db)
            return .redirect(to: AccessEndpoints.show.path(patient.id), flash: "access_saved")
        case .failure(let problems):
            for (field, problem) in problems.byField { form.fail(field, context.t[problem.rawValue]) }
            return .page("access/settings", title: "access_title", AccessSettingsPage(patient, form: form, context.t),
                         status: .unprocessableContent)
        }
    }
}
