import Foundation

extension SelectOption {
    static func sexes(selected: String, _ t: Translator) -> [SelectOption] {
        Patient.Sex.allCases.map { SelectOption(value: $0.rawValue, label: t["sex_\($0.rawValue)"], isSelected: $0.rawValue == selected) }
    }
}

/// The form for a patient (clinicians) or a client (trainers).
struct PersonFormPage: PageModel {
    let action: String
    let form: FormState
    let isNew: Bool
    let cancelPath: String
    /// The patient has a login: its username is its owner's, and the form no longer offers the field.
    var hasLogin = false
    let sexOptions: [SelectOption]
    /// The new-patient page's second form: asking a patient who already has a login.
    let askPatientURL = PeopleEndpoints.askPatient.path()

    init(action: String, form: FormState, isNew: Bool, cancelPath: String, _ t: Translator) {
        self.action = action
        self.form = form
        self.isNew = isNew
        self.cancelPath = cancelPath
        sexOptions = SelectOption.sexes(selected: form["sex"], t)
    }

    /// A new patient (clinicians), the start date set to today.
    static func newPatient(_ form: FormState, _ t: Translator) -> PersonFormPage {
        PersonFormPage(action: PeopleEndpoints.createPatient.path(), form: form, isNew: true,
                       cancelPath: Role.clinician.homePath, t)
    }

    static func editPatient(_ id: Int64, hasLogin: Bool, _ form: FormState, _ t: Translator) -> PersonFormPage {
        var page = PersonFormPage(action: PeopleEndpoints.updatePatient.path(id), form: form, isNew: false,
                                  cancelPath: PeopleEndpoints.showPatient.path(id), t)
        page.hasLogin = hasLogin
        return page
    }

    static func newClient(_ form: FormState, _ t: Translator) -> PersonFormPage {
        PersonFormPage(action: PeopleEndpoints.createClient.path(), form: form, isNew: true, cancelPath: Role.trainer.homePath, t)
    }

    static func editClient(_ id: Int64, _ form: FormState, _ t: Translator) -> PersonFormPage {
        PersonFormPage(action: PeopleEndpoints.updateClient.path(id), form: form, isNew: false,
                       cancelPath: BodyCompositionEndpoints.showClient.path(id), t)
    }
}

/// A patient's page: what a clinician manages, or what a tutor needs to start a session.
struct PatientPage: Encodable, Sendable {
    struct Tutor: Encodable, Sendable {
        let id: Int64
        let name: String
        let username: String
        let hasPassword: Bool
        /// Never chose a password: the only case a clinician may send an invitation.
        let mayInvite: Bool
        let inviteURL: String
        let unlinkURL: String
    }

    let id: Int64
    let name: String
    let initials: String
    let photoURL: String?
    let age: String?
    let sex: String?
    let diagnosis: String
    let startedOn: String?
    /// The clinician's only, and only when filled in: no empty rows.
    let contact: String?
    let notes: String?
    let username: String?
    let hasPassword: Bool
    let tutors: [Tutor]
    let isClinician: Bool
    let isNutritionist: Bool
    /// Tutors see the boards too; a clinician needs the speech specialty.
    let showsSpeech: Bool
    let maySupervise: Bool
    /// The patient's own login may still be invited (it has a username and never had a password).
    let mayInvite: Bool
    /// The form being shown back is the new-tutor form rather than the request for an existing one.
    let creates: Bool
    let form: FormState
    let patientModeURL: String
    let editURL: String
    let plansURL: String
    let usageURL: String
    let observationsURL: String
    let accessURL: String
    let educatURL: String
    let nutritionURL: String
    let goalsURL: String
    let inviteURL: String
    /// Both tutor forms post here: a new tutor, or a request to an existing one.
    let addTutorURL: String
    /// The record at a glance (`Records/`); nil on a page shown back with a tutor form's errors.
    let overview: PatientOverview?
    let reportURL: String
    let fhirURL: String?
    /// A tutor's way to the child's data rights (download, erasure); clinicians have none.
    let privacyURL: String?

    /// Whether a tutor form creates a new tutor (a name given, or the new-tutor form) or asks an existing one.
    static func createsTutor(_ form: FormState) -> Bool {
        form["intent"] == "create" || (form["intent"] != "ask" && !form["tutorName"].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    init(patient: Patient, user: User, tutors: [User], actor: Actor, form: FormState, overview: PatientOverview? = nil,
         context: RequestContext) {
        let t = context.t
        let zone = context.configuration.timeZone
        let id = patient.userId
        self.id = id
        name = user.displayName
        initials = Initials.of(user.displayName)
        photoURL = patient.photoPath.map { _ in PeopleEndpoints.showPhoto.path(id) }
        age = patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: ISODate.string(context.now, timeZone: zone)) }
            .map { t("age_years", ["years": "\($0)"]) }
        sex = patient.sex.map { t["sex_\($0.rawValue)"] }
        diagnosis = patient.diagnosis
        startedOn = patient.startedOn.flatMap { ISODate.date($0, timeZone: zone) }.map(context.format.longDate)
        isClinician = actor.role == .clinician
        isNutritionist = isClinician && actor.specialties.contains(.nutrition)
        showsSpeech = !isClinician || actor.specialties.contains(.speech)
        contact = isClinician && !patient.contact.isEmpty ? patient.contact : nil
        notes = isClinician && !patient.notes.isEmpty ? patient.notes : nil
        username = user.username
        hasPassword = user.passwordHash != nil
        self.tutors = tutors.map {
            Tutor(id: $0.id!, name: $0.displayName, username: $0.username ?? "", hasPassword: $0.passwordHash != nil,
                  mayInvite: $0.username != nil && $0.neverSetPassword, inviteURL: PeopleEndpoints.invite.path($0.id!),
                  unlinkURL: PeopleEndpoints.unlinkTutor.path(id, $0.id!))
        }
        maySupervise = actor.role == .tutor || actor.role == .clinician
        mayInvite = isClinician && user.username != nil && user.neverSetPassword
        creates = Self.createsTutor(form)
        self.form = form
        patientModeURL = AccountsEndpoints.openPatientMode.path(id)
        editURL = PeopleEndpoints.editPatient.path(id)
        plansURL = PlanEndpoints.list.path(id)
        usageURL = UsageEndpoints.usage.path(id)
        observationsURL = UsageEndpoints.observations.path(id)
        accessURL = AccessEndpoints.show.path(id)
        educatURL = EduCATEndpoints.results.path(id)
        nutritionURL = NutritionEndpoints.review.path(id)
        goalsURL = GoalEndpoints.list.path(id)
        inviteURL = PeopleEndpoints.invite.path(id)
        addTutorURL = PeopleEndpoints.addTutor.path(id)
        self.overview = overview
        reportURL = RecordEndpoints.report.path(id)
        fhirURL = actor.role == .clinician ? FHIREndpoints.page.path(id) : nil
        privacyURL = actor.role == .tutor ? PrivacyEndpoints.show.path(id) : nil
    }
}

struct ClientPage: PageModel {
    let id: Int64
    let name: String
    let initials: String
    let age: String?
    let sex: String?
    /// Only when filled in: no empty rows.
    let contact: String?
    let notes: String?

    init(patient: Patient, user: User, context: RequestContext) {
        let zone = context.configuration.timeZone
        id = patient.userId
        name = user.displayName
        initials = Initials.of(user.displayName)
        age = patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: ISODate.string(context.now, timeZone: zone)) }
            .map { context.t("age_years", ["years": "\($0)"]) }
        sex = patient.sex.map { context.t["sex_\($0.rawValue)"] }
        contact = patient.contact.isEmpty ? nil : patient.contact
        notes = patient.notes.isEmpty ? nil : patient.notes
    }
}

struct InvitationCreatedPage: PageModel {
    let name: String
    /// Shown to an administrator, who chose a staff member's username; never to a clinician, who would learn
    /// from it whether the username proposed was taken (`People.freeUsername`).
    let username: String?
    let link: String
    let expires: String
    let backPath: String
    /// An admin's password reset rather than a first invitation.
    var isReset = false
}

enum Initials {
    /// "Ana Lúcia Souza" → "AS": shown where a person has no photo.
    static func of(_ name: String) -> String {
        let words = name.split(separator: " ").filter { !$0.isEmpty }
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first }
        return String(letters).uppercased()
    }
}

extension InvitationCreatedPage {
    /// The one-time link, shown once: a first invitation, or an admin's password reset (`isReset`).
    init(for user: User, token: String, backPath: String, isReset: Bool, _ context: RequestContext) {
        let lifetime = isReset ? Invitation.resetLifetime : Invitation.lifetime
        let expires = context.format.longDate(context.now.addingTimeInterval(lifetime))
        self.init(name: user.displayName, username: (try? context.requireActor())?.role == .admin ? user.username : nil,
                  link: context.configuration.linkBase + AccountsEndpoints.showInvitation.path(token),
                  expires: context.t("invitation_expires", ["date": expires]), backPath: backPath, isReset: isReset)
    }

    static func title(isReset: Bool) -> String { isReset ? "consent_reset_created_title" : "invitation_created_title" }
}
