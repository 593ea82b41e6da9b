import Foundation
import GRDB
import HTTPServer

/// The trainer's section: a client's history, the evaluation form, reports and comparisons.
enum BodyCompositionRoutes {
    static let templates = ["bodycomp/client", "bodycomp/evaluation-form", "bodycomp/results", "bodycomp/report",
                            "bodycomp/compare", "bodycomp/delete"]

    static func add(to router: inout Router<Route>) {
        router.legacy(BodyCompositionEndpoints.showClient, showClient)
        router.legacy(BodyCompositionEndpoints.newEvaluation, newEvaluation)
        router.legacy(BodyCompositionEndpoints.previewEvaluation, previewEvaluation)
        router.legacy(BodyCompositionEndpoints.createEvaluation, createEvaluation)
        router.legacy(BodyCompositionEndpoints.showEvaluation, showEvaluation)
        router.legacy(BodyCompositionEndpoints.editEvaluation, editEvaluation)
        router.legacy(BodyCompositionEndpoints.updateEvaluation, updateEvaluation)
        router.legacy(BodyCompositionEndpoints.confirmDeleteEvaluation, confirmDeleteEvaluation)
        router.legacy(BodyCompositionEndpoints.deleteEvaluation, deleteEvaluation)
        router.legacy(BodyCompositionEndpoints.compare, compare)
    }

    /// The client as the trainer may see them, with what the equations need.
    struct Client: Sendable {
        let patient: Patient
        let user: User
        var sex: BiologicalSex? { patient.sex.flatMap { BiologicalSex(rawValue: $0.rawValue) } }

        func age(on isoDate: String) -> Int? {
            patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: isoDate) }
        }

        static func find(_ context: RequestContext, _ db: Database) throws -> Client {
            let patient = try PatientScope.find(context.id("id"), visibleTo: try context.requireActor(), db)
            guard let user = try User.fetchOne(db, key: patient.userId) else { throw AppError.notFound }
            return Client(patient: patient, user: user)
        }
    }

    @Sendable static func showClient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        let page = try context.database.read { db in
            let client = try Client.find(context, db)
            return ClientHistoryPage(
                client: ClientPage(patient: client.patient, user: client.user, context: context),
                reevaluationDays: try Evaluations.interval(trainerId: actor.userId, patientId: client.patient.userId, db),
                history: try EvaluationDetails.all(of: client.patient.userId, db), today: today, context.t, context.format)
        }
        return context.render("bodycomp/client", title: "client_title", page)
    }

    @Sendable static func newEvaluation(_ context: RequestContext) throws -> Response {
        let client = try context.database.read { try Client.find(context, $0) }
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        let form = FormState(values: ["protocol": SkinfoldProtocol.jp7.rawValue, "takenOn": today])
        return context.render("bodycomp/evaluation-form", title: "evaluation_new_title",
                              formPage(client, form: form, results: nil, today: today, context))
    }

    /// The client's evaluation named in the path, with its measures; 404 when it is not this client's.
    static func evaluation(of client: Client, _ context: RequestContext, _ db: Database) throws -> EvaluationDetails {
        guard let id = context.id("evaluation"),
              let details = try EvaluationDetails.all(of: client.patient.userId, db).first(where: { $0.id == id })
        else { throw AppError.notFound }
        return details
    }

    /// Results for what is typed so far. The form's script asks for the fragment as the fields are
    /// filled in; without the script, the "Calculate" button shows the whole page.
    @Sendable static func previewEvaluation(_ context: RequestContext) throws -> Response {
        let client = try context.database.read { try Client.find(context, $0) }
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        var results: ResultsView?
        if let sex = client.sex,
           let input = EvaluationInput.read(&form, sex: sex, birthDate: client.patient.birthDate, today: context.now,
                                            format: context.format, context.t),
           let age = client.age(on: input.takenOn) {
            results = ResultsView(input.details(sex: sex, age: Double(age)), context.t, context.format)
        }
        if context.request.headers["X-Fragment"] == "results" {
            var response = context.app.renderFragment("bodycomp/results", FragmentResults(results: results),
                                                            locale: context.locale)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        return context.render("bodycomp/evaluation-form", title: "evaluation_new_title",
                              formPage(client, form: form, results: results, today: today, context),
                              status: form.hasErrors ? .unprocessableContent : .ok)
    }

    /// The form carries a one-time key (`_once`, see `SubmittedForms`): a double tap, a second tab or a
    /// re-submit stores one evaluation and shows that one.
    @Sendable static func createEvaluation(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        let outcome = try context.database.write { db -> (Client, Int64?) in
            let client = try Client.find(context, db)
            guard let sex = client.sex,
                  let input = EvaluationInput.read(&form, sex: sex, birthDate: client.patient.birthDate, today: context.now,
                                                   format: context.format, context.t),
                  let age = client.age(on: input.takenOn)
            else { return (client, nil) }
            let id = try Evaluations.save(input, patientId: client.patient.userId, sex: sex, age: Double(age),
                                          audit: context.audit, trainerId: actor.userId, db)
            return (client, id)
        }
        guard let id = outcome.1 else {
            return context.render("bodycomp/evaluation-form", title: "evaluation_new_title",
                                  formPage(outcome.0, form: form, results: nil, today: today, context),
                                  status: .unprocessableContent)
        }
        return context.redirect(to: "/clients/\(outcome.0.patient.userId)/evaluations/\(id)?saved=1", flash: "evaluation_saved")
    }

    /// The printable report. Opening it is an export of health data, so it is audited (in the same,
    /// single, database access that reads it).
    @Sendable static func showEvaluation(_ context: RequestContext) throws -> Response {
        let page = try context.database.write { db in
            let client = try Client.find(context, db)
            let history = try EvaluationDetails.all(of: client.patient.userId, db)
            guard let details = history.first(where: { $0.evaluation.id == context.id("evaluation") }) else {
                throw AppError.notFound
            }
            try context.audit.record(.export, "evaluation", details.id,
                                     "report of \(client.user.displayName), \(details.evaluation.takenOn)", db)
            let saved = context.request.query["saved"]
            return EvaluationReportPage(clientId: client.patient.userId, clientName: client.user.displayName,
                                        details: details, history: history,
                                        savedDraft: saved == "1" ? "evaluation-\(client.patient.userId)"
                                            : saved == "edit" ? "evaluation-\(client.patient.userId)-\(details.id)" : nil,
                                        context.t, context.format)
        }
        return context.render("bodycomp/report", title: "report_title", page)
    }

    // MARK: - Corrections

    @Sendable static func editEvaluation(_ context: RequestContext) throws -> Response {
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        let (client, details) = try context.database.read { db in
            let client = try Client.find(context, db)
            return (client, try evaluation(of: client, context, db))
        }
        return context.render("bodycomp/evaluation-form", title: "records_evaluation_edit_title",
                              formPage(client, form: EvaluationInput.formState(of: details, context.format), results: nil,
                                       today: today, editing: details.id, context))
    }

    @Sendable static func updateEvaluation(_ context: RequestContext) throws -> Response {
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        let outcome = try context.database.write { db -> (Client, Int64, saved: Bool) in
            let client = try Client.find(context, db)
            let previous = try evaluation(of: client, context, db)
            guard let sex = client.sex,
                  let input = EvaluationInput.read(&form, sex: sex, birthDate: client.patient.birthDate, today: context.now,
                                                   format: context.format, context.t),
                  let age = client.age(on: input.takenOn)
            else { return (client, previous.id, false) }
            try Evaluations.correct(previous, with: input, sex: sex, age: Double(age), audit: context.audit, db)
            return (client, previous.id, true)
        }
        let (client, id, saved) = outcome
        guard saved else {
            return context.render("bodycomp/evaluation-form", title: "records_evaluation_edit_title",
                                  formPage(client, form: form, results: nil, today: today, editing: id, context),
                                  status: .unprocessableContent)
        }
        return context.redirect(to: "/clients/\(client.patient.userId)/evaluations/\(id)?saved=edit",
                                flash: "records_evaluation_corrected")
    }

    @Sendable static func confirmDeleteEvaluation(_ context: RequestContext) throws -> Response {
        let page = try context.database.read { db in
            let client = try Client.find(context, db)
            let details = try evaluation(of: client, context, db)
            return EvaluationDeletePage(clientId: client.patient.userId, clientName: client.user.displayName, details: details,
                                        context.t, context.format)
        }
        return context.render("bodycomp/delete", title: "records_evaluation_delete_title", page)
    }

    @Sendable static func deleteEvaluation(_ context: RequestContext) throws -> Response {
        let clientId = try context.database.write { db in
            let client = try Client.find(context, db)
            try Evaluations.delete(try evaluation(of: client, context, db), audit: context.audit, db)
            return client.patient.userId
        }
        return context.redirect(to: "/clients/\(clientId)", flash: "records_evaluation_deleted")
    }

    @Sendable static func compare(_ context: RequestContext) throws -> Response {
        let query = context.request.query
        let page = try context.database.read { db in
            let client = try Client.find(context, db)
            let history = try EvaluationDetails.all(of: client.patient.userId, db)
            guard let first = history.first(where: { "\($0.id)" == query["first"] }),
                  let second = history.first(where: { "\($0.id)" == query["second"] })
            else { throw AppError.notFound }
            let (older, newer) = first.evaluation.takenOn <= second.evaluation.takenOn ? (first, second) : (second, first)
            return ComparisonPage(clientId: client.patient.userId, clientName: client.user.displayName,
                                  first: older, second: newer, context.t, context.format)
        }
        return context.render("bodycomp/compare", title: "compare_title", page)
    }

    /// The evaluation form, new or (`editing`) correcting a stored evaluation.
    static func formPage(_ client: Client, form: FormState, results: ResultsView?, today: String, editing: Int64? = nil,
                         _ context: RequestContext) -> EvaluationFormPage {
        var form = form
        if client.sex == nil || client.patient.birthDate == nil {
            form.fail("profile", context.t["error_client_profile"])
        }
        // The age shown is the age on the evaluation's date, as the equations use it.
        let day = context.format.parseDate(form["takenOn"]).map { ISODate.string($0, timeZone: context.format.timeZone) } ?? today
        return EvaluationFormPage(clientId: client.patient.userId, clientName: client.user.displayName, sex: client.sex,
                                  age: client.age(on: day), form: form, results: results, editing: editing, context.t)
    }
}

/// The results fragment the form's script puts in place.
struct FragmentResults: Sendable {
    let results: ResultsView?
}
