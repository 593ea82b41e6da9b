import Foundation
import GRDB
import HTTPServer

/// Patients, their tutors and invitations (clinicians), and clients (trainers).
enum PeopleRoutes: Feature {
    static let templates = ["people/patient", "people/patient-form", "people/client-form",
                            "people/invitation-created"]

    static func add(to router: inout Router<Route>) {
        router.add(PeopleEndpoints.newPatient) { $0.reply(newPatient) }
        router.add(PeopleEndpoints.createPatient) {
            $0.slow(.media) { context in .next(try UploadedPhoto.store(context)) }.write(createPatient)
        }
        // A read; a clinician's opening that shows new tutor notes is remembered for the worklist.
        router.add(PeopleEndpoints.showPatient) { $0.read(showPatient).marking(markPatientOpened) }
        router.add(PeopleEndpoints.editPatient) { $0.read(editPatient) }
        router.add(PeopleEndpoints.showPhoto) { $0.read(showPhoto) }
        router.add(PeopleEndpoints.updatePatient) {
            $0.slow(.media) { context, _ in .next(try UploadedPhoto.store(context)) }.write(updatePatient)
        }
        router.add(PeopleEndpoints.addTutor) { $0.write(addTutor) }
        router.add(PeopleEndpoints.unlinkTutor) { $0.write(unlinkTutor) }
        router.add(PeopleEndpoints.invite) { $0.write(invite) }
        router.add(PeopleEndpoints.askPatient) { $0.write(askPatient) }
        router.add(PeopleEndpoints.acceptLink) { $0.write(acceptLink) }
        router.add(PeopleEndpoints.declineLink) { $0.write(declineLink) }
        router.add(PeopleEndpoints.newClient) { $0.reply(newClient) }
        router.add(PeopleEndpoints.createClient) { $0.write(createClient) }
        router.add(PeopleEndpoints.editClient) { $0.read(editClient) }
        router.add(PeopleEndpoints.updateClient) { $0.write(updateClient) }
    }

    // MARK: - Patients (clinicians)

    @Sendable static func newPatient(_ context: RequestContext) -> Reply {
        let today = context.today
        return .page("people/patient-form", title: "patient_new_title",
                     PersonFormPage.newPatient(FormState(values: ["startedOn": today]), context.t))
    }

    @Sendable static func createPatient(_ context: RequestContext, _ db: Database, _ photo: UploadedPhoto) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: People.PatientFields.fieldNames)
        let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now)
        if let problem = photo.problem { form.fail("photo", problem) }
        return try photo.keepingFiles(context.media, db) {
            if var fields, !form.hasErrors {
                fields.username = try fields.username.map { try People.freeUsername($0, db) }
                fields.photoPath = photo.path
                let id = try People.createPatient(fields, role: .clinician, by: actor, audit: context.audit, db)
                return .saved(.redirect(to: PeopleEndpoints.showPatient.path(id), flash: "patient_created"), replacing: nil)
            }
            return .refused(.page("people/patient-form", title: "patient_new_title", PersonFormPage.newPatient(form, context.t),
                                  status: .unprocessableContent))
        }
    }

    @Sendable static func showPhoto(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let path = try PeopleQueries.photoPath(of: id, visibleTo: try context.requireActor(), db)
        guard let path, let response = context.media.response(for: path, request: context.request) else { throw AppError.notFound }
        return Reply(response)
    }

    @Sendable static func showPatient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> (Reply, mark: Int64?) {
        let actor = try context.requireActor()
        let zone = context.configuration.timeZone
        let (person, tutors, record, news) = try OverviewQueries.patientPage(
            id, visibleTo: actor, today: ISODate.string(context.now, timeZone: zone), timeZone: zone, now: context.now, db)
        let overview = PatientOverview(record, patientId: person.patient.userId, sections: OverviewQueries.Sections(actor),
                                       t: context.t, format: context.format)
        let page = Reply.page("people/patient", title: "patient_title",
                              PatientPage(patient: person.patient, user: person.user, tutors: tutors, actor: actor, form: FormState(),
                                          overview: overview, context: context))
        return (page, news ? person.patient.userId : nil)
    }

    @Sendable static func markPatientOpened(_ context: RequestContext, _ db: Database, _ patientId: Int64, _: Int64) throws {
        try RecordVisits.markOpened(clinicianId: try context.requireActor().userId, patientId: patientId, at: context.now, db)
    }

    @Sendable static func editPatient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let person = try PeopleQueries.person(id, visibleTo: try context.requireActor(), db)
        let (patient, user) = (person.patient, person.user)
        let form = FormState(values: [
            "displayName": user.displayName, "birthDate": patient.birthDate ?? "",
            "sex": patient.sex?.rawValue ?? "", "diagnosis": patient.diagnosis, "startedOn": patient.startedOn ?? "",
            "contact": patient.contact, "notes": patient.notes,
        ])
        return .page("people/patient-form", title: "patient_edit_title",
                     PersonFormPage.editPatient(patient.userId, hasLogin: user.username != nil, form, context.t))
    }

    @Sendable static func updatePatient(_ context: RequestContext, _ db: Database, _ photo: UploadedPhoto, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: People.PatientFields.fieldNames)
        let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now)
        if let problem = photo.problem { form.fail("photo", problem) }
        return try photo.keepingFiles(context.media, db) {
            let patient = try PatientScope.find(id, visibleTo: actor, db)
            let login = try PeopleQueries.username(of: patient.userId, db)
            if var fields, !form.hasErrors {
                // A login, once given, is its owner's: the form offers one only to a patient without.
                fields.username = try login ?? fields.username.map { try People.freeUsername($0, db) }
                fields.photoPath = photo.path ?? patient.photoPath
                try People.updatePatient(patient.userId, fields, audit: context.audit, db)
                return .saved(.redirect(to: PeopleEndpoints.showPatient.path(patient.userId), flash: "patient_updated"),
                              replacing: patient.photoPath)
            }
            return .refused(.page("people/patient-form", title: "patient_edit_title",
                                  PersonFormPage.editPatient(id, hasLogin: login != nil, form, context.t), status: .unprocessableContent))
        }
    }

    /// Adds a tutor to the patient. A new tutor (a name given, or the "create" form) is created, linked
    /// and invited at once. An existing account is only asked (`LinkRequests`): the answer is the same
    /// redirect whether the username exists, is already linked, or is not a tutor.
    @Sendable static func addTutor(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["tutorName", "tutorUsername", "intent"])
        let username = form["tutorUsername"].trimmingCharacters(in: .whitespaces)
        // Control characters too: a name of one NUL is empty to SQLite's check, and was a 500.
        let name = form["tutorName"].trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        let creates = PatientPage.createsTutor(form)
        if !Usernames.isValid(username) { form.fail("tutorUsername", context.t["error_username_invalid"]) }
        if creates, name.isEmpty { form.fail("tutorName", context.t["error_name_required"]) }
        let person = try PeopleQueries.person(id, visibleTo: actor, db)
        let patientId = person.patient.userId
        if !form.hasErrors, !creates {
            try LinkRequests.ask(.tutor, username: username, patientId: patientId, by: actor, audit: context.audit, db)
            return .redirect(to: PeopleEndpoints.showPatient.path(patientId), flash: "consent_tutor_asked")
        }
        if !form.hasErrors {
            let (tutor, token) = try People.createTutor(name: name, username: try People.freeUsername(username, db), for: patientId,
                                                        by: actor, audit: context.audit, db)
            return invitationCreated(for: tutor, token: token, backPath: PeopleEndpoints.showPatient.path(patientId), context)
        }
        return .page("people/patient", title: "patient_title",
                     PatientPage(patient: person.patient, user: person.user, tutors: try People.tutors(of: patientId, db), actor: actor,
                                 form: form, context: context),
                     status: .unprocessableContent)
    }

    /// A clinician asks a patient who already has a login to be followed by them. Answered like
    /// `addTutor`'s request: the same whatever the username is.
    @Sendable static func askPatient(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["askUsername"])
        let username = form["askUsername"].trimmingCharacters(in: .whitespaces)
        guard Usernames.isValid(username) else {
            form.fail("askUsername", context.t["error_username_invalid"])
            form.values["startedOn"] = context.today
            return .page("people/patient-form", title: "patient_new_title", PersonFormPage.newPatient(form, context.t),
                         status: .unprocessableContent)
        }
        try LinkRequests.ask(.clinician, username: username, patientId: nil, by: actor, audit: context.audit, db)
        return .redirect(to: Role.clinician.homePath, flash: "consent_patient_asked")
    }

    /// The owner of the account answers a link request from their home page (never from patient mode:
    /// a child holding a tutor's tablet decides nothing).
    @Sendable static func acceptLink(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        try decideLink(id, accept: true, context, db)
    }

    @Sendable static func declineLink(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        try decideLink(id, accept: false, context, db)
    }

    static func decideLink(_ id: Int64, accept: Bool, _ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        guard !actor.isPatientMode else { throw AppError.forbidden }
        let outcome = try LinkRequests.decide(id, accept: accept, by: actor, audit: context.audit, db)
        let flash = switch outcome {
        case .accepted: "consent_accepted"
        case .declined: "consent_declined"
        case .alreadyDecided: "consent_already_answered"
        }
        return .redirect(to: actor.role.homePath, flash: flash)
    }

    @Sendable static func unlinkTutor(_ context: RequestContext, _ db: Database, _ id: Int64, _ tutorId: Int64) throws -> Reply {
        let patient = try PatientScope.find(id, visibleTo: try context.requireActor(), db)
        try People.unlinkTutor(tutorId, from: patient.userId, audit: context.audit, db)
        return .redirect(to: PeopleEndpoints.showPatient.path(patient.userId), flash: "tutor_unlinked")
    }

    /// A one-time link for someone to choose their first password. Only for an account that never set
    /// one (`User.neverSetPassword`), and only by a clinician linked to it or an admin: anything else is
    /// answered as missing, so the refusal tells nothing. A forgotten password is an admin's reset.
    @Sendable static func invite(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let user = try PeopleQueries.invitableAccount(id, by: actor, db)
        let token = try People.invite(user, by: actor, audit: context.audit, db)
        let back = actor.role == .admin ? AdminEndpoints.dashboard.path()
            : user.role == .patient ? PeopleEndpoints.showPatient.path(user.id!) : Role.clinician.homePath
        return invitationCreated(for: user, token: token, backPath: back, context)
    }

    /// The page that shows a new one-time link once: an invitation, or an admin's reset (`isReset`).
    static func invitationCreated(for user: User, token: String, backPath: String, isReset: Bool = false,
                                  _ context: RequestContext) -> Reply {
        .page("people/invitation-created", title: InvitationCreatedPage.title(isReset: isReset),
              InvitationCreatedPage(for: user, token: token, backPath: backPath, isReset: isReset, context))
    }

    // MARK: - Clients (trainers)

    static let clientFields = ["displayName", "sex", "birthDate", "contact", "notes", "reevaluationDays"]

    /// Days between evaluations, 7 to 730; empty means the default 90.
    static func readInterval(_ form: inout FormState, _ t: Translator) -> Int? {
        let text = form["reevaluationDays"].trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return 90 }
        guard let days = Int(text), (7...730).contains(days) else {
            form.fail("reevaluationDays", t["error_interval"]); return nil
        }
        return days
    }

    /// The client form read and checked; nil (with the problems in `form`) when it cannot be saved.
    static func readClient(_ form: inout FormState, _ context: RequestContext) -> (People.PatientFields, reevaluationDays: Int)? {
        let interval = readInterval(&form, context.t)
        EvaluationDates.checkBirthDate(&form, today: context.now, context.format, context.t)
        guard let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now), let interval
        else { return nil }
        return (fields, interval)
    }

    @Sendable static func newClient(_ context: RequestContext) -> Reply {
        .page("people/client-form", title: "client_new_title", PersonFormPage.newClient(FormState(values: ["reevaluationDays": "90"]), context.t))
    }

    @Sendable static func createClient(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: clientFields)
        guard case let (fields, interval)? = readClient(&form, context) else {
            return .page("people/client-form", title: "client_new_title", PersonFormPage.newClient(form, context.t),
                         status: .unprocessableContent)
        }
        let id = try People.createClient(fields, reevaluationDays: interval, by: actor, audit: context.audit, db)
        return .redirect(to: BodyCompositionEndpoints.showClient.path(id), flash: "client_created")
    }

    @Sendable static func editClient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let (person, interval) = try PeopleQueries.client(id, of: try context.requireActor(), db)
        let (patient, user) = (person.patient, person.user)
        let form = FormState(values: ["displayName": user.displayName, "sex": patient.sex?.rawValue ?? "",
                                      "birthDate": patient.birthDate ?? "", "contact": patient.contact, "notes": patient.notes,
                                      "reevaluationDays": "\(interval)"])
        return .page("people/client-form", title: "client_edit_title", PersonFormPage.editClient(patient.userId, form, context.t))
    }

    @Sendable static func updateClient(_ context: RequestContext, _ db: Database, _ id: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: clientFields)
        let read = readClient(&form, context)
        let patient = try PatientScope.find(id, visibleTo: actor, db)
        guard case let (fields, interval)? = read else {
            return .page("people/client-form", title: "client_edit_title", PersonFormPage.editClient(id, form, context.t),
                         status: .unprocessableContent)
        }
        try People.updateClient(patient, fields, reevaluationDays: interval, by: actor, audit: context.audit, db)
        return .redirect(to: BodyCompositionEndpoints.showClient.path(patient.userId), flash: "client_updated")
    }
}
