import Foundation
import GRDB
import HTTPServer

/// A patient's access methods, set by their linked clinicians and tutors (`PatientScope`: anyone else
/// gets 404, other roles 403). The patient's own pages read them through `AccessView`.
enum AccessRoutes {
    static let templates = ["access/settings"]

    static func add(to router: inout Router<Route>) {
        router.legacy(AccessEndpoints.show, show)
        router.legacy(AccessEndpoints.update, update)
    }

    @Sendable static func show(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let (patient, settings) = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            return (patient, try AccessSettings.load(patientId: patient.userId, db))
        }
        let form = FormState(values: AccessRules.formValues(settings, context.format))
        return try render(patient, form, context)
    }

    @Sendable static func update(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: AccessRules.fields)
        let read = AccessRules.read(form.values)
        let patient = try context.database.write { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            guard case .success(let settings) = read else { return patient }
            try settings.save(patientId: patient.userId, by: context.audit.actorId ?? actor.userId, at: context.now, db)
            try context.audit.record(.update, "accessSetting", patient.userId, AccessView(settings).attributes, db)
            return patient
        }
        if case .failure(let problems) = read {
            for (field, problem) in problems.byField { form.fail(field, context.t[problem.rawValue]) }
            return try render(patient, form, context, status: .unprocessableContent)
        }
        return context.redirect(to: "/patients/\(patient.userId)/access", flash: "access_saved")
    }

    static func render(_ patient: Patient, _ form: FormState, _ context: RequestContext, status: Status = .ok) throws -> Response {
        let name = try context.database.read { try User.fetchOne($0, key: patient.userId)?.displayName } ?? ""
        return context.render("access/settings", title: "access_title",
                              AccessSettingsPage(patientId: patient.userId, patientName: name, form: form, context.t),
                              status: status)
    }
}

/// The settings form: each choice as a group of radio buttons, checked from what was typed or saved.
struct AccessSettingsPage: Sendable {
    let patientId: Int64
    let patientName: String
    let form: FormState
    let cellSizes: [SelectOption]
    let labelPositions: [SelectOption]
    let selectOns: [SelectOption]
    let scannings: [SelectOption]
    let switchCounts: [SelectOption]
    let themes: [SelectOption]
    let textSizes: [SelectOption]

    init(patientId: Int64, patientName: String, form: FormState, _ t: Translator) {
        self.patientId = patientId
        self.patientName = patientName
        self.form = form
        func options<T: CaseIterable & RawRepresentable<String>>(_ field: String, _ type: T.Type) -> [SelectOption] {
            T.allCases.map { value in
                SelectOption(value: value.rawValue, label: t["access_\(field)_\(value.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                             isSelected: form[field] == value.rawValue)
            }
        }
        cellSizes = options("cellSize", AccessSettings.CellSize.self)
        labelPositions = options("labelPosition", AccessSettings.LabelPosition.self)
        selectOns = options("selectOn", AccessSettings.SelectOn.self)
        scannings = options("scanning", AccessSettings.Scanning.self)
        switchCounts = options("switches", AccessSettings.Switches.self)
        themes = options("theme", AccessSettings.Theme.self)
        textSizes = options("textSize", AccessSettings.TextSize.self)
    }
}
