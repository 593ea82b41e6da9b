import Foundation
import GRDB
import HTTPServer

/// eduCAT (seed 002): the child's menus, lessons, games and challenges, the results they post, and
/// the results and settings page for the patient's tutors and clinicians.
enum EduCATRoutes {
    static let templates = ["educat/menu", "educat/lesson", "educat/game", "educat/records", "educat/information",
                            "educat/results"]

    static func add(to router: inout Router<Route>) {
        router.legacy(EduCATEndpoints.menu, menu)
        router.legacy(EduCATEndpoints.screen, screen)
        router.legacy(EduCATEndpoints.activity, activity)
        router.legacy(EduCATEndpoints.postResult, postResult)
        router.legacy(EduCATEndpoints.results, results)
        router.legacy(EduCATEndpoints.saveSettings, saveSettings)
    }

    /// The child's pack and settings: the clinician's choice of pack, else the patient's language,
    /// else Catalan.
    static func player(_ context: RequestContext) throws -> (pack: EduCATPack, settings: EduCATSettings, records: [EduCATArea: Int]) {
        let actor = try context.requireActor()
        let content = try EduCATContent.shared(resourcesDirectory: context.app.configuration.resourcesDirectory)
        return try context.database.read { db in
            let settings = try EduCATStore.settings(patientId: actor.userId, db)
            let language = try settings.language ?? User.find(actor.userId, db)?.locale
            return (content.pack(language), settings, try EduCATStore.records(patientId: actor.userId, db))
        }
    }

    @Sendable static func menu(_ context: RequestContext) throws -> Response {
        let (pack, _, _) = try player(context)
        return context.render("educat/menu", title: "educat_title", EduCATMenuPage(
            bar: EduCATBar(pack, title: pack.label("title"), back: "/patient", help: .menu, context.t),
            entries: [("numbers", "/educat/numbers"), ("letters", "/educat/letters"), ("contaCops", "/educat/conta-cops"),
                      ("records", "/educat/records"), ("information", "/educat/information")]
                .map { EduCATMenuPage.Entry(key: $0.0, label: pack.label($0.0), href: $0.1) }))
    }

    @Sendable static func screen(_ context: RequestContext) throws -> Response {
        let (pack, _, records) = try player(context)
        let t = context.t
        switch context.parameter("screen") ?? "" {
        case "letters":
            return context.render("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label("letters"), back: "/educat", help: .letters, t),
                entries: [EduCATMenuPage.Entry(key: "vowels", label: pack.label("vowels"), href: "/educat/vowels"),
                          EduCATMenuPage.Entry(key: "alphabet", label: pack.label("alphabet"), href: "/educat/alphabet")]))
        case "records":
            return context.render("educat/records", title: "educat_title", EduCATRecordsPage(
                bar: EduCATBar(pack, title: pack.label("records"), back: "/educat", help: .records, t),
                records: [EduCATArea.numbers, .alphabet, .vowels, .contaCops].map {
                    EduCATRecordsPage.Record(area: $0.rawValue, label: pack.label($0.labelKey), value: records[$0] ?? 0)
                }))
        case "information":
            return context.render("educat/information", title: "educat_title", EduCATInformationPage(
                bar: EduCATBar(pack, title: pack.label("information"), back: "/educat", help: nil, t),
                text: pack.information, clip: pack.clipURL(pack.information), listen: pack.label("listen")))
        case let name:
            guard let area = EduCATArea(rawValue: name) else { throw AppError.notFound }
            let help: EduCATScreen = switch area {
            case .numbers: .numbers
            case .vowels: .vowels
            case .alphabet: .alphabet
            case .contaCops: .contaCops
            }
            return context.render("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label(area.labelKey), back: area == .vowels || area == .alphabet ? "/educat/letters" : "/educat",
                               help: help, t),
                entries: [EduCATMenuPage.Entry(key: "lesson", label: pack.label("lesson"), href: "/educat/\(area.rawValue)/lesson"),
                          EduCATMenuPage.Entry(key: "game", label: pack.label("game"), href: "/educat/\(area.rawValue)/game")]))
        }
    }

    @Sendable static func activity(_ context: RequestContext) throws -> Response {
        guard let area = context.parameter("screen").flatMap(EduCATArea.init(rawValue:)) else { throw AppError.notFound }
        let (pack, settings, records) = try player(context)
        let back = "/educat/\(area.rawValue)"
        switch context.parameter("mode") ?? "" {
        case "lesson":
            return context.render("educat/lesson", title: "educat_title", EduCATLessonPage(
                area: area, pack: pack, bar: EduCATBar(pack, title: pack.label(area.labelKey) + " · " + pack.label("lesson"), back: back,
                                                       help: area == .contaCops ? .contaCopsLesson : .lesson, context.t)))
        case "game", "challenge":
            let mode: EduCATMode = context.parameter("mode") == "game" ? .normal : .challenge
            let help: EduCATScreen = mode == .challenge ? .challenge : area == .contaCops ? .contaCopsGame : .game
            let title = pack.label(area.labelKey) + " · " + pack.label(mode == .normal ? "game" : "challenge")
            return context.render("educat/game", title: "educat_title", EduCATGamePage(
                area: area, mode: mode, pack: pack, settings: settings, record: records[area] ?? 0,
                bar: EduCATBar(pack, title: title, back: back, help: help, context.t)))
        default:
            throw AppError.notFound
        }
    }

    /// A finished game, or an abandoned challenge with at least one answer. Impossible values are
    /// refused with 400 and nothing is stored.
    @Sendable static func postResult(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let fields = Dictionary(context.request.form.pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard case .success(let result) = EduCATResult.parse(fields) else {
            return try .json(["error": "invalid result"], status: .badRequest)
        }
        let (pack, _, _) = try player(context)
        let stored = try context.database.write { db in
            try EduCATStore.store(result, patientId: actor.userId, language: pack.language, assistedBy: actor.supervisorId,
                                  at: context.now, db)
        }
        return try .json(["record": "\(stored.record)", "newRecord": stored.isNew ? "true" : "false"])
    }

    @Sendable static func results(_ context: RequestContext) throws -> Response {
        try resultsPage(context, form: nil, status: .ok)
    }

    static func resultsPage(_ context: RequestContext, form: FormState?, status: Status) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            let user = try User.find(patient.userId, db)
            let settings = try EduCATStore.settings(patientId: patient.userId, db)
            return EduCATResultsPage(
                patientId: patient.userId, patientName: user?.displayName ?? "",
                records: try EduCATStore.records(patientId: patient.userId, db),
                results: try EduCATStore.results(patientId: patient.userId, db),
                settings: settings, form: form, isClinician: actor.role == .clinician, context: context)
        }
        return context.render("educat/results", title: "educat_results_title", page, status: status)
    }

    @Sendable static func saveSettings(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let patientId = try context.database.read { try PatientScope.find(context.id("id"), visibleTo: actor, $0).userId }
        var form = FormState(context.request.form, fields: ["seconds", "lives", "language"])
        let seconds = Int(form["seconds"].trimmingCharacters(in: .whitespaces))
        let lives = Int(form["lives"].trimmingCharacters(in: .whitespaces))
        if seconds.map(EduCATSettings.secondsRange.contains) != true { form.fail("seconds", context.t["educat_error_seconds"]) }
        if lives.map(EduCATSettings.livesRange.contains) != true { form.fail("lives", context.t["educat_error_lives"]) }
        let language = form["language"].isEmpty ? nil : form["language"]
        if let language, !EduCATContent.languages.contains(language) { form.fail("language", context.t["error_choose_option"]) }
        guard !form.hasErrors, let seconds, let lives else {
            return try resultsPage(context, form: form, status: .unprocessableContent)
        }
        try context.database.write { db in
            try EduCATStore.save(EduCATSettings(secondsPerQuestion: seconds, lives: lives, language: language),
                                 patientId: patientId, by: actor.userId, at: context.now, db)
        }
        return context.redirect(to: "/patients/\(patientId)/educat", flash: "educat_settings_saved")
    }
}
