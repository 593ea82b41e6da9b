import Foundation
import GRDB
import HTTPServer

/// The trainer's section: a client's history, the evaluation form, reports and comparisons.
enum BodyCompositionRoutes {
    static let templates = ["bodycomp/client", "bodycomp/evaluation-form", "bodycomp/results", "bodycomp/report",
                            "bodycomp/compare"]

    static func add(to router: inout Router<Route>) {
        router.get("/clients/:id", .signedIn([.trainer]), showClient)
        router.get("/clients/:id/evaluations/new", .signedIn([.trainer]), newEvaluation)
        router.post("/clients/:id/evaluations/preview", .signedIn([.trainer]), previewEvaluation)
        router.post("/clients/:id/evaluations", .signedIn([.trainer]), createEvaluation)
        router.get("/clients/:id/evaluations/:evaluation", .signedIn([.trainer]), showEvaluation)
        router.get("/clients/:id/compare", .signedIn([.trainer]), compare)
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

    /// Results for what is typed so far. The form's script asks for the fragment as the fields are
    /// filled in; without the script, the "Calculate" button shows the whole page.
    @Sendable static func previewEvaluation(_ context: RequestContext) throws -> Response {
        let client = try context.database.read { try Client.find(context, $0) }
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        var results: ResultsView?
        if let sex = client.sex, let input = EvaluationInput.read(&form, sex: sex, today: context.now, format: context.format, context.t),
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

    @Sendable static func createEvaluation(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        var form = FormState(context.request.form, fields: EvaluationInput.fieldNames)
        let outcome = try context.database.write { db -> (Client, Int64?) in
            let client = try Client.find(context, db)
            guard let sex = client.sex,
                  let input = EvaluationInput.read(&form, sex: sex, today: context.now, format: context.format, context.t),
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

    @Sendable static func showEvaluation(_ context: RequestContext) throws -> Response {
        let page = try context.database.read { db in
            let client = try Client.find(context, db)
            let history = try EvaluationDetails.all(of: client.patient.userId, db)
            guard let details = history.first(where: { $0.evaluation.id == context.id("evaluation") }) else {
                throw AppError.notFound
            }
            return EvaluationReportPage(clientId: client.patient.userId, clientName: client.user.displayName,
                                        details: details, history: history,
                                        justSaved: context.request.query["saved"] == "1", context.t, context.format)
        }
        return context.render("bodycomp/report", title: "report_title", page)
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

    static func formPage(_ client: Client, form: FormState, results: ResultsView?, today: String,
                         _ context: RequestContext) -> EvaluationFormPage {
        var form = form
        if client.sex == nil || client.patient.birthDate == nil {
            form.fail("profile", context.t["error_client_profile"])
        }
        // The age shown is the age on the evaluation's date, as the equations use it.
        let day = context.format.parseDate(form["takenOn"]).map { ISODate.string($0, timeZone: context.format.timeZone) } ?? today
        return EvaluationFormPage(clientId: client.patient.userId, clientName: client.user.displayName, sex: client.sex,
                                  age: client.age(on: day), form: form, results: results, context.t)
    }
}

/// The results fragment the form's script puts in place.
struct FragmentResults: Sendable {
    let results: ResultsView?
}
