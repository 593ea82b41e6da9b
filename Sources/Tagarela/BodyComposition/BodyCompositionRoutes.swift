import Foundation
import GRDB
import HTTPServer

/// The trainer's section: a client's history, the evaluation form, reports and comparisons.
enum BodyCompositionRoutes: Feature {
    static let templates = ["bodycomp/client", "bodycomp/evaluation-form", "bodycomp/results", "bodycomp/report",
                            "bodycomp/compare", "bodycomp/delete"]

    static func add(to router: inout Router<Route>) {
        router.add(BodyCompositionEndpoints.showClient) { $0.read(showClient) }
        router.add(BodyCompositionEndpoints.newEvaluation) { $0.read(newEvaluation) }
        router.add(BodyCompositionEndpoints.previewEvaluation) { $0.read(previewEvaluation) }
        router.add(BodyCompositionEndpoints.createEvaluation) { $0.write(createEvaluation) }
        router.add(BodyCompositionEndpoints.showEvaluation) { $0.write(showEvaluation) }
        router.add(BodyCompositionEndpoints.editEvaluation) { $0.read(editEvaluation) }
        router.add(BodyCompositionEndpoints.updateEvaluation) { $0.write(updateEvaluation) }
        router.add(BodyCompositionEndpoints.confirmDeleteEvaluation) { $0.read(confirmDeleteEvaluation) }
        router.add(BodyCompositionEndpoints.deleteEvaluation) { $0.write(deleteEvaluation) }
        router.add(BodyCompositionEndpoints.compare) { $0.read(compare) }
    }

    @Sendable static func showClient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let (client, days, history, imported) = try EvaluationQueries.clientHistory(id, of: try context.requireActor(), db)
        return .page("bodycomp/client", title: "client_title",
                     ClientHistoryPage(client: ClientPage(patient: client.patient, user: client.user, context: context),
                                       reevaluationDays: days, history: history, imported: imported, today: context.today, context.t, context.format))
    }

    @Sendable static func newEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let form = FormState(values: ["protocol": SkinfoldProtocol.jp7.rawValue, "takenOn": context.today])
        return .page("bodycomp/evaluation-form", title: "evaluation_new_title", formPage(client, form: form, results: nil, context))
    }

    /// Results for what is typed so far. The form's script asks for the fragment as the fields are
    /// filled in; without the script, the "Calculate" button shows the whole page.
    @Sendable static func previewEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        let results = readEvaluation(&form, for: client, context).flatMap { input, sex, age in
            ResultsView(input.details(sex: sex, age: Double(age)), context.t, context.format)
        }
        if context.request.headers["X-Fragment"] == "results" {
            var reply = Reply.fragment("bodycomp/results", FragmentResults(results: results))
            reply.headers["Cache-Control"] = "no-store"
            return reply
        }
        return .page("bodycomp/evaluation-form", title: "evaluation_new_title", formPage(client, form: form, results: results, context),
                     status: form.hasErrors ? .unprocessableContent : .ok)
    }

    /// The form carries a one-time key (`_once`, see `SubmittedForms`): a double tap, a second tab or a
    /// re-submit stores one evaluation and shows that one.
    @Sendable static func createEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let client = try EvaluationQueries.client(id, of: actor, db)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        guard case let (input, sex, age)? = readEvaluation(&form, for: client, context) else {
            return .page("bodycomp/evaluation-form", title: "evaluation_new_title", formPage(client, form: form, results: nil, context),
                         status: .unprocessableContent)
        }
        let evaluationId = try Evaluations.save(input, patientId: client.id, sex: sex, age: Double(age), audit: context.audit,
                                                trainerId: actor.userId, db)
        return .redirect(to: BodyCompositionEndpoints.showEvaluation.path(client.id, evaluationId, query: ["saved": "1"]),
                         flash: "evaluation_saved")
    }

    /// The printable report. Opening it is an export of health data, so it is audited (in the same,
    /// single, database access that reads it).
    @Sendable static func showEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64, _ evaluationId: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let (details, history) = try Evaluations.openReport(evaluationId, of: client, audit: context.audit, db)
        let saved = context.request.query["saved"]
        let savedDraft = saved == "1" ? "evaluation-\(client.id)" : saved == "edit" ? "evaluation-\(client.id)-\(details.id)" : nil
        return .page("bodycomp/report", title: "report_title",
                     EvaluationReportPage(clientId: client.id, clientName: client.user.displayName, details: details, history: history,
                                          savedDraft: savedDraft, context.t, context.format))
    }

    // MARK: - Corrections

    @Sendable static func editEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64, _ evaluationId: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let details = try EvaluationQueries.evaluation(evaluationId, of: client, db)
        return .page("bodycomp/evaluation-form", title: "records_evaluation_edit_title",
                     formPage(client, form: EvaluationInput.formState(of: details, context.format), results: nil, editing: details.id,
                              context))
    }

    @Sendable static func updateEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64, _ evaluationId: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let previous = try EvaluationQueries.evaluation(evaluationId, of: client, db)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        guard case let (input, sex, age)? = readEvaluation(&form, for: client, context) else {
            return .page("bodycomp/evaluation-form", title: "records_evaluation_edit_title",
                         formPage(client, form: form, results: nil, editing: previous.id, context), status: .unprocessableContent)
        }
        do {
            try Evaluations.correct(previous, from: Int(form["version"]), with: input, sex: sex, age: Double(age),
                                    audit: context.audit, db)
        } catch is Evaluations.ChangedSinceOpened {
            // What was typed stays; saving again now replaces the other change knowingly.
            form.values["version"] = "\(previous.evaluation.version)"
            return .page("bodycomp/evaluation-form", title: "records_evaluation_edit_title",
                         formPage(client, form: form, results: nil, editing: previous.id,
                                  conflict: context.t["evaluation_changed_elsewhere"], context),
                         status: .conflict)
        }
        return .redirect(to: BodyCompositionEndpoints.showEvaluation.path(client.id, previous.id, query: ["saved": "edit"]),
                         flash: "records_evaluation_corrected")
    }

    @Sendable static func confirmDeleteEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64,
                                                  _ evaluationId: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let details = try EvaluationQueries.evaluation(evaluationId, of: client, db)
        return .page("bodycomp/delete", title: "records_evaluation_delete_title",
                     EvaluationDeletePage(clientId: client.id, clientName: client.user.displayName, details: details,
                                          context.t, context.format))
    }

    @Sendable static func deleteEvaluation(_ context: RequestContext, _ db: Database, _ id: Int64, _ evaluationId: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        try Evaluations.delete(try EvaluationQueries.evaluation(evaluationId, of: client, db), audit: context.audit, db)
        return .redirect(to: BodyCompositionEndpoints.showClient.path(client.id), flash: "records_evaluation_deleted")
    }

    @Sendable static func compare(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let client = try EvaluationQueries.client(id, of: try context.requireActor(), db)
        let query = context.request.query
        let (older, newer) = try EvaluationQueries.comparison(of: client, first: query["first"], second: query["second"], db)
        return .page("bodycomp/compare", title: "compare_title",
                     ComparisonPage(clientId: client.id, clientName: client.user.displayName, first: older, second: newer,
                                    context.t, context.format))
    }

    /// The evaluation form read for `client`: nil, with the problems in `form`, when it is incomplete or
    /// the client's profile lacks the sex or birth date the equations need.
    static func readEvaluation(_ form: inout FormState, for client: ClientProfile, _ context: RequestContext)
        -> (input: EvaluationInput, sex: BiologicalSex, age: Int)? {
        guard let sex = client.sex,
              let input = EvaluationInput.read(&form, sex: sex, birthDate: client.patient.birthDate, today: context.now,
                                               format: context.format, context.t),
              let age = client.age(on: input.takenOn)
        else { return nil }
        return (input, sex, age)
    }

    /// The evaluation form, new or (`editing`) correcting a stored evaluation.
    static func formPage(_ client: ClientProfile, form: FormState, results: ResultsView?, editing: Int64? = nil,
                         conflict: String? = nil, _ context: RequestContext) -> EvaluationFormPage {
        var form = form
        if client.sex == nil || client.patient.birthDate == nil {
            form.fail("profile", context.t["error_client_profile"])
        }
        // The age shown is the age on the evaluation's date, as the equations use it.
        let day = context.format.parseDate(form["takenOn"]).map { ISODate.string($0, timeZone: context.format.timeZone) } ?? context.today
        return EvaluationFormPage(clientId: client.id, clientName: client.user.displayName, sex: client.sex,
                                  age: client.age(on: day), form: form, results: results, editing: editing,
                                  conflict: conflict, context.t)
    }
}
