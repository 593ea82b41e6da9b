import Foundation

extension SelectOption {
    static func sexes(selected: String, _ t: Translator) -> [SelectOption] {
        Patient.Sex.allCases.map { SelectOption(value: $0.rawValue, label: t["sex_\($0.rawValue)"], isSelected: $0.rawValue == selected) }
    }
}

/// The form for a patient (clinicians) or a client (trainers).
struct PersonFormPage: Sendable {
    let action: String
    let form: FormState
    let isNew: Bool
    let cancelPath: String
    let sexOptions: [SelectOption]

    init(action: String, form: FormState, isNew: Bool, cancelPath: String, _ t: Translator) {
        self.action = action
        self.form = form
        self.isNew = isNew
        self.cancelPath = cancelPath
        sexOptions = SelectOption.sexes(selected: form["sex"], t)
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
    }

    let id: Int64
    /// The same as `id`; named so templates can reach it from inside the tutor list.
    let patientId: Int64
    let name: String
    let initials: String
    let photoURL: String?
    let age: String?
    let sex: String?
    let diagnosis: String
    let startedOn: String?
    let contact: String
    let notes: String
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

    /// Whether a tutor form creates a new tutor (a name given, or the new-tutor form) or asks an existing one.
    static func createsTutor(_ form: FormState) -> Bool {
        form["intent"] == "create" || (form["intent"] != "ask" && !form["tutorName"].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    init(patient: Patient, user: User, tutors: [User], actor: Actor, form: FormState, context: RequestContext) {
        let t = context.t
        let zone = context.app.configuration.timeZone
        id = patient.userId
        patientId = patient.userId
        name = user.displayName
        initials = Initials.of(user.displayName)
        photoURL = patient.photoPath.map { _ in "/patients/\(patient.userId)/photo" }
        age = patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: ISODate.string(context.now, timeZone: zone)) }
            .map { t("age_years", ["years": "\($0)"]) }
        sex = patient.sex.map { t["sex_\($0.rawValue)"] }
        diagnosis = patient.diagnosis
        startedOn = patient.startedOn.flatMap { ISODate.date($0, timeZone: zone) }.map(context.format.longDate)
        isClinician = actor.role == .clinician
        isNutritionist = isClinician && actor.specialties.contains(.nutrition)
        showsSpeech = !isClinician || actor.specialties.contains(.speech)
        contact = isClinician ? patient.contact : ""
        notes = isClinician ? patient.notes : ""
        username = user.username
        hasPassword = user.passwordHash != nil
        self.tutors = tutors.map {
            Tutor(id: $0.id!, name: $0.displayName, username: $0.username ?? "", hasPassword: $0.passwordHash != nil,
                  mayInvite: $0.username != nil && $0.neverSetPassword)
        }
        maySupervise = actor.role == .tutor || actor.role == .clinician
        mayInvite = isClinician && user.username != nil && user.neverSetPassword
        creates = Self.createsTutor(form)
        self.form = form
    }
}

struct ClientPage: Sendable {
    let id: Int64
    let name: String
    let initials: String
    let age: String?
    let sex: String?
    let contact: String
    let notes: String

    init(patient: Patient, user: User, context: RequestContext) {
        let zone = context.app.configuration.timeZone
        id = patient.userId
        name = user.displayName
        initials = Initials.of(user.displayName)
        age = patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: ISODate.string(context.now, timeZone: zone)) }
            .map { context.t("age_years", ["years": "\($0)"]) }
        sex = patient.sex.map { context.t["sex_\($0.rawValue)"] }
        contact = patient.contact
        notes = patient.notes
    }
}

struct InvitationCreatedPage: Sendable {
    let name: String
    let username: String
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
