import Foundation
import GRDB
import HTTPServer

/// A patient's access methods, set by their linked clinicians and tutors (`PatientScope`: anyone else
/// gets 404, other roles 403). The patient's own pages read them through `AccessView`.
enum AccessRoutes: Feature {
    static let templates = ["access/settings"]

    static func add(to router: inout Router<Route>) {
        router.add(AccessEndpoints.show) { $0.read(show) }
        router.add(AccessEndpoints.update) { $0.write(update) }
    }

    @Sendable static func show(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let found = try AccessQueries.settings(patientId: patientId, visibleTo: actor, db)
        let form = FormState(values: AccessRules.formValues(found.settings, context.format))
        return .page("access/settings", title: "access_title", AccessSettingsPage(found.patient, form: form, saved: found.settings.voice,
                                                                                  voices: voiceChoice(actor, context), context.t))
    }

    /// A refused form is shown again with what was typed; nothing is saved.
    @Sendable static func update(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: AccessRules.fields)
        let (patient, saved) = try AccessQueries.settings(patientId: patientId, visibleTo: actor, db)
        let voices = voiceChoice(actor, context)
        // Only a clinician chooses the voice: a tutor's form (and an old tab) has none and keeps the saved one.
        if voices.isEmpty { form.values["voice"] = nil }
        switch AccessRules.read(form.values, voices: context.speech.voices) {
        case .success(var settings):
            if form["voice"].isEmpty { settings.voice = saved.voice }
            try settings.save(patientId: patient.id, by: context.audit.actorId ?? actor.userId, audit: context.audit, db)
            return .redirect(to: AccessEndpoints.show.path(patient.id), flash: "access_saved")
        case .failure(let problems):
            for (field, problem) in problems.byField { form.fail(field, context.t[problem.rawValue]) }
            return .page("access/settings", title: "access_title", AccessSettingsPage(patient, form: form, saved: saved.voice,
                                                                                      voices: voices, context.t),
                         status: .unprocessableContent)
        }
    }

    /// The voices `actor` may choose among: those installed, for a clinician; none for a tutor.
    static func voiceChoice(_ actor: Actor, _ context: RequestContext) -> [SpeechVoice] {
        actor.role == .clinician ? SpeechVoice.allCases.filter(context.speech.voices.contains) : []
    }
}
