import Foundation
import GRDB
import HTTPServer

/// The read-only FHIR API (`/fhir/r4/…`) and the administrator's tokens for it. A request carries
/// `Authorization: Bearer <token>`; the token acts as its clinician, through the same scope and
/// sections as their pages, so it reaches nothing that clinician may not see. Every read is audited
/// (`export`, entity "patient"), every refusal too; all in the request's one write.
enum FHIRAPIRoutes: Feature {
    static let templates = ["fhir/tokens"]
    /// HTTPServer names no 401: the API is the only place that answers one.
    static let unauthorizedStatus = Status(401)

    static func add(to router: inout Router<Route>) {
        router.add(FHIREndpoints.metadata) { $0.reply(metadata) }
        router.add(FHIREndpoints.apiPatient) { $0.write(patient) }
        router.add(FHIREndpoints.apiObservations) { $0.write(observations) }
        router.add(FHIREndpoints.apiGoals) { $0.write(goals) }
        router.add(FHIREndpoints.tokens) { $0.read(tokens) }
        router.add(FHIREndpoints.issueToken) { $0.write(issueToken) }
        router.add(FHIREndpoints.revokeToken) { $0.write(revokeToken) }
    }

    // MARK: - Answers

    static func json(_ value: FHIRJSON, status: Status = .ok) -> Reply {
        var response = Response(status: status, body: Array(value.serialized().utf8))
        response.headers["Content-Type"] = FHIRRoutes.contentType
        response.headers["Cache-Control"] = "no-store"
        if status == unauthorizedStatus { response.headers["WWW-Authenticate"] = "Bearer realm=\"tagarela-fhir\"" }
        return Reply(response)
    }

    /// An OperationOutcome: FHIR's way to say what went wrong (never the clinic's data).
    static func outcome(_ status: Status, code: String, _ text: String) -> Reply {
        json(.object([
            "resourceType": .string("OperationOutcome"),
            "issue": .array([.object(["severity": .string("error"), "code": .string(code), "diagnostics": .string(text)])]),
        ]), status: status)
    }

    static func mapper(_ context: RequestContext) -> FHIRMapper {
        FHIRMapper(base: context.configuration.linkBase, timeZone: context.configuration.timeZone)
    }

    @Sendable static func metadata(_ context: RequestContext) throws -> Reply {
        json(FHIRCapability.statement(base: context.configuration.linkBase, at: context.now, mapper: mapper(context)))
    }

    /// The token's clinician and the audit context that names them and the token; nil when the token is
    /// missing, unknown or revoked (the refusal audited).
    static func authenticate(_ context: RequestContext, _ db: Database) throws -> (Actor, AuditContext)? {
        let header = context.request.headers["Authorization"] ?? ""
        let secret = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces) : ""
        guard let (actor, token) = try FHIRTokens.actor(bearer: secret, now: context.now, db) else {
            try context.audit.record(.refused, "fhirToken", nil, "FHIR API \(context.request.path): no valid token", db)
            return nil
        }
        let audit = AuditContext(actorId: actor.userId, actorName: "\(actor.displayName) (FHIR API token #\(token.id ?? 0))",
                                 clientAddress: context.request.clientAddress, now: context.now)
        return (actor, audit)
    }

    static var unauthorized: Reply { outcome(unauthorizedStatus, code: "login", "A valid bearer token is required.") }

    /// The patient's record as the token's clinician sees it, of `parts` in `period`; nil (audited) when they may not.
    static func record(_ patientId: Int64, _ actor: Actor, parts: FHIRRecord.Parts, period: FHIRQueries.Period = FHIRQueries.Period(),
                       audit: AuditContext, context: RequestContext, _ db: Database) throws -> FHIRRecord? {
        do {
            return try FHIRQueries.record(patientId, visibleTo: actor, period: period, parts: parts, locale: .en,
                                          timeZone: context.configuration.timeZone, now: context.now, db)
        } catch AppError.notFound {
            try audit.record(.refused, "patient", patientId, "FHIR API: not a patient of this token's clinician", db)
            return nil
        }
    }

    static var notFound: Reply { outcome(.notFound, code: "not-found", "No such patient.") }

    @Sendable static func patient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        guard let (actor, audit) = try authenticate(context, db) else { return unauthorized }
        guard let person = try? PeopleQueries.person(id, visibleTo: actor, db) else {
            try audit.record(.refused, "patient", id, "FHIR API: not a patient of this token's clinician", db)
            return notFound
        }
        try audit.record(.export, "patient", id, "FHIR API: Patient/\(id)", db)
        return json(mapper(context).patient(FHIRRecord.Patient(id: id, name: person.user.displayName, birthDate: person.patient.birthDate,
                                                               sex: person.patient.sex?.rawValue)))
    }

    @Sendable static func observations(_ context: RequestContext, _ db: Database) throws -> Reply {
        guard let (actor, audit) = try authenticate(context, db) else { return unauthorized }
        let search: FHIRSearch
        switch FHIRSearch.read(context.request.query, allowed: ["patient", "code", "date"]) {
        case .failure(let problem): return outcome(.badRequest, code: "invalid", problem.text)
        case .success(let found): search = found
        }
        // Only the parts the codes name, in the days the dates admit; each resource is still matched.
        guard let record = try record(search.patientId, actor, parts: search.parts, period: search.period, audit: audit, context: context, db)
        else { return notFound }
        let resources = mapper(context).observations(record).filter { search.matches($0) }
        try audit.record(.export, "patient", search.patientId, "FHIR API: Observation?\(search.summary) (\(resources.count))", db)
        return json(searchset(resources, context: context))
    }

    @Sendable static func goals(_ context: RequestContext, _ db: Database) throws -> Reply {
        guard let (actor, audit) = try authenticate(context, db) else { return unauthorized }
        let search: FHIRSearch
        switch FHIRSearch.read(context.request.query, allowed: ["patient"]) {
        case .failure(let problem): return outcome(.badRequest, code: "invalid", problem.text)
        case .success(let found): search = found
        }
        guard let record = try record(search.patientId, actor, parts: .goals, audit: audit, context: context, db) else { return notFound }
        let mapper = mapper(context)
        let resources = record.goals.map { mapper.goal($0, record: record) }
        try audit.record(.export, "patient", search.patientId, "FHIR API: Goal?\(search.summary) (\(resources.count))", db)
        return json(searchset(resources, context: context))
    }

    static func searchset(_ resources: [FHIRJSON], context: RequestContext) -> FHIRJSON {
        let mapper = mapper(context)
        return .object([
            "resourceType": .string("Bundle"),
            "type": .string("searchset"),
            "total": .integer(resources.count),
            "entry": .array(resources.map { .object(["fullUrl": .string(mapper.fullURL(of: $0)), "resource": $0,
                                                     "search": .object(["mode": .string("match")])]) }),
        ])
    }

    // MARK: - Tokens (administrator)

    @Sendable static func tokens(_ context: RequestContext, _ db: Database) throws -> Reply {
        tokensPage(try FHIRTokens.all(db), clinicians: try FHIRTokens.clinicians(db), issued: nil, form: FormState(), context: context)
    }

    static func tokensPage(_ tokens: [FHIRTokens.Listed], clinicians: [User], issued: String?, form: FormState,
                           status: Status = .ok, context: RequestContext) -> Reply {
        .page("fhir/tokens", title: "fhir_tokens_title",
              FHIRTokensPage(tokens: tokens, clinicians: clinicians, issued: issued, form: form, context: context), status: status)
    }

    @Sendable static func issueToken(_ context: RequestContext, _ db: Database) throws -> Reply {
        var form = FormState(context.request.form, fields: ["label", "clinician"])
        let label = form.required("label", context.t["fhir_tokens_error_label"])
        if let label, label.count > 100 { form.fail("label", context.t["fhir_tokens_error_label"]) }
        let clinician = Int64(form["clinician"])
        if clinician == nil { form.fail("clinician", context.t["fhir_tokens_error_clinician"]) }
        var issued: String?
        if let label, let clinician, !form.hasErrors {
            issued = try FHIRTokens.issue(for: clinician, label: label, audit: context.audit, db)
            if issued == nil { form.fail("clinician", context.t["fhir_tokens_error_clinician"]) }
        }
        return tokensPage(try FHIRTokens.all(db), clinicians: try FHIRTokens.clinicians(db), issued: issued,
                          form: issued == nil ? form : FormState(), status: form.hasErrors ? .unprocessableContent : .ok, context: context)
    }

    @Sendable static func revokeToken(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        try FHIRTokens.revoke(id, audit: context.audit, db)
        return .redirect(to: FHIREndpoints.tokens.path(), flash: "fhir_tokens_revoked")
    }
}
