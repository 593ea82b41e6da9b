import Foundation
import GRDB
import HTTPServer

/// Patients, their tutors and invitations (clinicians), and clients (trainers).
enum PeopleRoutes {
    static let templates = ["people/patient", "people/patient-form", "people/client-form",
                            "people/invitation-created"]

    static func add(to router: inout Router<Route>) {
        router.legacy(PeopleEndpoints.newPatient, newPatient)
        router.legacy(PeopleEndpoints.createPatient, createPatient)
        router.legacy(PeopleEndpoints.showPatient, showPatient)
        router.legacy(PeopleEndpoints.editPatient, editPatient)
        router.legacy(PeopleEndpoints.showPhoto, showPhoto)
        router.legacy(PeopleEndpoints.updatePatient, updatePatient)
        router.legacy(PeopleEndpoints.addTutor, addTutor)
        router.legacy(PeopleEndpoints.unlinkTutor, unlinkTutor)
        router.legacy(PeopleEndpoints.invite, invite)
        router.legacy(PeopleEndpoints.askPatient, askPatient)
        router.legacy(PeopleEndpoints.acceptLink, acceptLink)
        router.legacy(PeopleEndpoints.declineLink, declineLink)
        router.legacy(PeopleEndpoints.newClient, newClient)
        router.legacy(PeopleEndpoints.createClient, createClient)
        router.legacy(PeopleEndpoints.editClient, editClient)
        router.legacy(PeopleEndpoints.updateClient, updateClient)
    }

    // MARK: - Patients (clinicians)

    @Sendable static func newPatient(_ context: RequestContext) -> Response {
        let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
        return context.render("people/patient-form", title: "patient_new_title",
                              PersonFormPage(action: "/patients", form: FormState(values: ["startedOn": today]),
                                             isNew: true, cancelPath: Role.clinician.homePath, context.t))
    }

    @Sendable static func createPatient(_ context: RequestContext) throws -> Response {
        context.withUploadedPhoto("photo") { photo, photoProblem in
            let actor = try context.requireActor()
            var form = FormState(context.request.form, fields: People.PatientFields.fieldNames)
            let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now)
            if let photoProblem { form.fail("photo", photoProblem) }
            let id = try context.database.write { db -> Int64? in
                guard var fields, !form.hasErrors else { return nil }
                guard try People.isUsernameFree(fields.username, db) else {
                    form.fail("username", context.t["error_username_taken"]); return nil
                }
                fields.photoPath = photo
                return try People.createPatient(fields, role: .clinician, by: actor, audit: context.audit, db)
            }
            guard let id else {
                context.app.media.remove(photo)
                return context.render("people/patient-form", title: "patient_new_title",
                                      PersonFormPage(action: "/patients", form: form, isNew: true,
                                                     cancelPath: Role.clinician.homePath, context.t),
                                      status: .unprocessableContent)
            }
            return context.redirect(to: "/patients/\(id)", flash: "patient_created")
        }
    }

    @Sendable static func showPhoto(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let patient = try context.database.read { try PatientScope.find(context.id("id"), visibleTo: actor, $0) }
        guard let path = patient.photoPath, let response = context.app.media.response(for: path, request: context.request)
        else { throw AppError.notFound }
        return response
    }

    @Sendable static func showPatient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            guard let user = try User.fetchOne(db, key: patient.userId) else { throw AppError.notFound }
            let tutors = try People.tutors(of: patient.userId, db)
            return PatientPage(patient: patient, user: user, tutors: tutors, actor: actor, form: FormState(), context: context)
        }
        return context.render("people/patient", title: "patient_title", page)
    }

    @Sendable static func editPatient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (patient, user) = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            return (patient, try User.fetchOne(db, key: patient.userId)!)
        }
        let form = FormState(values: [
            "displayName": user.displayName, "username": user.username ?? "", "birthDate": patient.birthDate ?? "",
            "sex": patient.sex?.rawValue ?? "", "diagnosis": patient.diagnosis, "startedOn": patient.startedOn ?? "",
            "contact": patient.contact, "notes": patient.notes,
        ])
        return context.render("people/patient-form", title: "patient_edit_title",
                              PersonFormPage(action: "/patients/\(patient.userId)", form: form, isNew: false,
                                              cancelPath: "/patients/\(patient.userId)", context.t))
    }

    @Sendable static func updatePatient(_ context: RequestContext) throws -> Response {
        context.withUploadedPhoto("photo") { photo, photoProblem in
            let actor = try context.requireActor()
            var form = FormState(context.request.form, fields: People.PatientFields.fieldNames)
            let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now)
            if let photoProblem { form.fail("photo", photoProblem) }
            let outcome = try context.database.write { db -> (id: Int64, replaced: String?)? in
                let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
                guard var fields, !form.hasErrors else { return nil }
                guard try People.isUsernameFree(fields.username, except: patient.userId, db) else {
                    form.fail("username", context.t["error_username_taken"]); return nil
                }
                fields.photoPath = photo ?? patient.photoPath
                try People.updatePatient(patient.userId, fields, audit: context.audit, db)
                return (patient.userId, photo == nil ? nil : patient.photoPath)
            }
            guard let outcome else {
                context.app.media.remove(photo)
                let path = "/patients/\(context.id("id") ?? 0)"
                return context.render("people/patient-form", title: "patient_edit_title",
                                      PersonFormPage(action: path, form: form, isNew: false, cancelPath: path, context.t),
                                      status: .unprocessableContent)
            }
            context.app.media.remove(outcome.replaced)  // only once the new one is committed
            return context.redirect(to: "/patients/\(outcome.id)", flash: "patient_updated")
        }
    }

    /// Adds a tutor to the patient. A new tutor (a name given, or the "create" form) is created, linked
    /// and invited at once. An existing account is only asked (`LinkRequests`): the answer is the same
    /// redirect whether the username exists, is already linked, or is not a tutor.
    @Sendable static func addTutor(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["tutorName", "tutorUsername", "intent"])
        let username = form["tutorUsername"].trimmingCharacters(in: .whitespaces)
        let name = form["tutorName"].trimmingCharacters(in: .whitespaces)
        let creates = PatientPage.createsTutor(form)
        if !Usernames.isValid(username) { form.fail("tutorUsername", context.t["error_username_invalid"]) }
        if creates, name.isEmpty { form.fail("tutorName", context.t["error_name_required"]) }
        enum Outcome: Sendable { case asked, created(User, String), refused(PatientPage) }
        let outcome = try context.database.write { db -> Outcome in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            if !form.hasErrors, !creates {
                try LinkRequests.ask(.tutor, username: username, patientId: patient.userId, by: actor, audit: context.audit, db)
                return .asked
            }
            if !form.hasErrors {
                if try People.isUsernameFree(username, db) {
                    let (tutor, token) = try createTutor(name: name, username: username, for: patient.userId, by: actor,
                                                         audit: context.audit, db)
                    return .created(tutor, token)
                }
                form.fail("tutorUsername", context.t["error_username_taken"])
            }
            return .refused(PatientPage(patient: patient, user: try User.fetchOne(db, key: patient.userId)!,
                                        tutors: try People.tutors(of: patient.userId, db), actor: actor, form: form,
                                        context: context))
        }
        let back = "/patients/\(context.id("id") ?? 0)"
        switch outcome {
        case .asked: return context.redirect(to: back, flash: "consent_tutor_asked")
        case .created(let tutor, let token): return invitationCreated(for: tutor, token: token, backPath: back, context)
        case .refused(let page): return context.render("people/patient", title: "patient_title", page, status: .unprocessableContent)
        }
    }

    /// A new tutor, linked to the patient, with an invitation to choose a password.
    static func createTutor(name: String, username: String, for patientId: Int64, by actor: Actor, audit: AuditContext,
                            _ db: Database) throws -> (User, String) {
        var tutor = User(username: username, displayName: name, role: .tutor, createdBy: actor.userId,
                         createdAt: audit.now, updatedAt: audit.now)
        try tutor.insert(db)
        try CareLink.tutor.link(tutor.id!, patientId, at: audit.now, db)
        try audit.record(.create, "user", tutor.id, "\(name) (tutor)", db)
        try audit.record(.link, "tutorPatient", patientId, "\(name) → \(patientId)", db)
        let token = try Invitation.issue(for: tutor.id!, by: actor.userId, at: audit.now, db)
        try audit.record(.invite, "user", tutor.id, name, db)
        return (tutor, token)
    }

    /// A clinician asks a patient who already has a login to be followed by them. Answered like
    /// `addTutor`'s request: the same whatever the username is.
    @Sendable static func askPatient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["askUsername"])
        let username = form["askUsername"].trimmingCharacters(in: .whitespaces)
        guard Usernames.isValid(username) else {
            form.fail("askUsername", context.t["error_username_invalid"])
            let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
            form.values["startedOn"] = today
            return context.render("people/patient-form", title: "patient_new_title",
                                  PersonFormPage(action: "/patients", form: form, isNew: true,
                                                 cancelPath: Role.clinician.homePath, context.t),
                                  status: .unprocessableContent)
        }
        try context.database.write { db in
            try LinkRequests.ask(.clinician, username: username, patientId: nil, by: actor, audit: context.audit, db)
        }
        return context.redirect(to: Role.clinician.homePath, flash: "consent_patient_asked")
    }

    /// The owner of the account answers a link request from their home page (never from patient mode:
    /// a child holding a tutor's tablet decides nothing).
    @Sendable static func acceptLink(_ context: RequestContext) throws -> Response { try decideLink(context, accept: true) }
    @Sendable static func declineLink(_ context: RequestContext) throws -> Response { try decideLink(context, accept: false) }

    static func decideLink(_ context: RequestContext, accept: Bool) throws -> Response {
        let actor = try context.requireActor()
        guard !actor.isPatientMode else { throw AppError.forbidden }
        let outcome = try context.database.write { db in
            try LinkRequests.decide(context.id("id"), accept: accept, by: actor, audit: context.audit, db)
        }
        let flash = switch outcome {
        case .accepted: "consent_accepted"
        case .declined: "consent_declined"
        case .alreadyDecided: "consent_already_answered"
        }
        return context.redirect(to: actor.role.homePath, flash: flash)
    }

    @Sendable static func unlinkTutor(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        try context.database.write { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            guard let tutorId = context.id("tutor"), try CareLink.tutor.exists(tutorId, patient.userId, db) else {
                throw AppError.notFound
            }
            try CareLink.tutor.unlink(tutorId, patient.userId, db)
            try context.audit.record(.unlink, "tutorPatient", patient.userId, "\(tutorId) → \(patient.userId)", db)
        }
        return context.redirect(to: "/patients/\(context.id("id")!)", flash: "tutor_unlinked")
    }

    /// A one-time link for someone to choose their first password. Only for an account that never set
    /// one (`User.neverSetPassword`), and only by a clinician linked to it or an admin: anything else is
    /// answered as missing, so the refusal tells nothing. A forgotten password is an admin's reset.
    @Sendable static func invite(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (user, token) = try context.database.write { db -> (User, String) in
            guard let user = try User.fetchOne(db, key: context.id("id")), user.isActive, user.username != nil,
                  user.neverSetPassword, try mayInvite(actor, user, db)
            else { throw AppError.notFound }
            let token = try Invitation.issue(for: user.id!, by: actor.userId, at: context.now, db)
            try context.audit.record(.invite, "user", user.id, user.displayName, db)
            return (user, token)
        }
        let back = actor.role == .admin ? "/admin" : (user.role == .patient ? "/patients/\(user.id!)" : Role.clinician.homePath)
        return invitationCreated(for: user, token: token, backPath: back, context)
    }

    /// Whether `actor` may invite `user` (who never set a password): an admin anyone; a clinician
    /// their own patients and the tutors linked to their patients or created by them.
    static func mayInvite(_ actor: Actor, _ user: User, _ db: Database) throws -> Bool {
        switch actor.role {
        case .admin:
            return true
        case .clinician:
            if user.role == .patient { return try CareLink.clinician.exists(actor.userId, user.id!, db) }
            guard user.role == .tutor else { return false }
            let linked = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM tutorPatient tp JOIN clinicianPatient cp ON cp.patientId = tp.patientId
                               WHERE tp.tutorId = ? AND cp.clinicianId = ?)
                """, arguments: [user.id, actor.userId]) ?? false
            return linked || user.createdBy == actor.userId
        default:
            return false
        }
    }

    static func invitationCreated(for user: User, token: String, backPath: String, isReset: Bool = false,
                                  _ context: RequestContext) -> Response {
        let host = context.request.headers["Host"] ?? "localhost:\(context.app.configuration.port)"
        let scheme = context.app.configuration.secureCookies ? "https" : "http"
        let lifetime = isReset ? Invitation.resetLifetime : Invitation.lifetime
        let expires = context.format.longDate(context.now.addingTimeInterval(lifetime))
        return context.render("people/invitation-created", title: isReset ? "consent_reset_created_title" : "invitation_created_title",
                              InvitationCreatedPage(name: user.displayName, username: user.username ?? "",
                                                    link: "\(scheme)://\(host)\(Invitation.path(for: token))",
                                                    expires: context.t("invitation_expires", ["date": expires]),
                                                    backPath: backPath, isReset: isReset))
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

    @Sendable static func newClient(_ context: RequestContext) -> Response {
        context.render("people/client-form", title: "client_new_title",
                       PersonFormPage(action: "/clients", form: FormState(values: ["reevaluationDays": "90"]), isNew: true,
                                      cancelPath: Role.trainer.homePath, context.t))
    }

    @Sendable static func createClient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: clientFields)
        let interval = readInterval(&form, context.t)
        EvaluationDates.checkBirthDate(&form, today: context.now, context.format, context.t)
        guard let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now), let interval else {
            return context.render("people/client-form", title: "client_new_title",
                                  PersonFormPage(action: "/clients", form: form, isNew: true, cancelPath: Role.trainer.homePath, context.t),
                                  status: .unprocessableContent)
        }
        let id = try context.database.write { db in
            let id = try People.createPatient(fields, role: .trainer, by: actor, audit: context.audit, db)
            try Evaluations.setInterval(interval, trainerId: actor.userId, patientId: id, db)
            return id
        }
        return context.redirect(to: "/clients/\(id)", flash: "client_created")
    }

    @Sendable static func editClient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (patient, user, interval) = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            return (patient, try User.fetchOne(db, key: patient.userId)!,
                    try Evaluations.interval(trainerId: actor.userId, patientId: patient.userId, db))
        }
        let form = FormState(values: ["displayName": user.displayName, "sex": patient.sex?.rawValue ?? "",
                                      "birthDate": patient.birthDate ?? "", "contact": patient.contact, "notes": patient.notes,
                                      "reevaluationDays": "\(interval)"])
        return context.render("people/client-form", title: "client_edit_title",
                              PersonFormPage(action: "/clients/\(patient.userId)", form: form, isNew: false,
                                             cancelPath: "/clients/\(patient.userId)", context.t))
    }

    @Sendable static func updateClient(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: clientFields)
        let interval = readInterval(&form, context.t)
        EvaluationDates.checkBirthDate(&form, today: context.now, context.format, context.t)
        let fields = People.PatientFields.read(&form, context.t, context.format, today: context.now)
        let id = try context.database.write { db -> Int64? in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            guard var fields, let interval else { return nil }
            try Evaluations.setInterval(interval, trainerId: actor.userId, patientId: patient.userId, db)
            fields.diagnosis = patient.diagnosis
            fields.startedOn = patient.startedOn
            fields.photoPath = patient.photoPath
            try People.updatePatient(patient.userId, fields, audit: context.audit, db)
            return patient.userId
        }
        guard let id else {
            let path = "/clients/\(context.id("id") ?? 0)"
            return context.render("people/client-form", title: "client_edit_title",
                                  PersonFormPage(action: path, form: form, isNew: false, cancelPath: path, context.t),
                                  status: .unprocessableContent)
        }
        return context.redirect(to: "/clients/\(id)", flash: "client_updated")
    }
}
