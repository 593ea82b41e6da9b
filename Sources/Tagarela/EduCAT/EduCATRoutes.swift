import Foundation
import GRDB
import HTTPServer

/// eduCAT (seed 002): the child's menus, lessons, games and challenges, the results they post, and
/// the results and settings page for the patient's tutors and clinicians.
enum EduCATRoutes {
    static let templates = ["educat/menu", "educat/lesson", "educat/game", "educat/records", "educat/information",
                            "educat/results"]

    static func add(to router: inout Router<Route>) {
        router.read(EduCATEndpoints.menu, menu)
        router.read(EduCATEndpoints.screen, screen)
        router.read(EduCATEndpoints.activity, activity)
        router.write(EduCATEndpoints.postResult, postResult)
        router.read(EduCATEndpoints.results, results)
        router.write(EduCATEndpoints.saveSettings, saveSettings)
    }

    /// The child's pack (the clinician's choice, else the patient's language, else Catalan), settings and records.
    static func player(_ context: RequestContext, _ db: Database) throws -> (pack: EduCATPack, player: EduCATQueries.Player) {
        let actor = try context.requireActor()
        let content = try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory)
        let player = try EduCATQueries.player(patientId: actor.userId, db)
        return (content.pack(player.language), player)
    }

    @Sendable static func menu(_ context: RequestContext, _ db: Database) throws -> Reply {
        let (pack, _) = try player(context, db)
        let entries = [("numbers", EduCATArea.numbers.rawValue), ("letters", "letters"), ("contaCops", EduCATArea.contaCops.rawValue),
                       ("records", "records"), ("information", "information")]
        return .page("educat/menu", title: "educat_title", EduCATMenuPage(
            bar: EduCATBar(pack, title: pack.label("title"), back: DashboardEndpoints.patient.path(), help: .menu, context.t),
            entries: entries.map { EduCATMenuPage.Entry(key: $0.0, label: pack.label($0.0), href: EduCATEndpoints.screen.path($0.1)) }))
    }

    @Sendable static func screen(_ context: RequestContext, _ db: Database, _ name: String) throws -> Reply {
        let (pack, player) = try player(context, db)
        let t = context.t
        let home = EduCATEndpoints.menu.path()
        switch name {
        case "letters":
            return .page("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label("letters"), back: home, help: .letters, t),
                entries: [EduCATArea.vowels, .alphabet].map {
                    EduCATMenuPage.Entry(key: $0.labelKey, label: pack.label($0.labelKey), href: EduCATEndpoints.screen.path($0.rawValue))
                }))
        case "records":
            return .page("educat/records", title: "educat_title", EduCATRecordsPage(
                bar: EduCATBar(pack, title: pack.label("records"), back: home, help: .records, t),
                records: [EduCATArea.numbers, .alphabet, .vowels, .contaCops].map {
                    EduCATRecordsPage.Record(area: $0.rawValue, label: pack.label($0.labelKey), value: player.records[$0] ?? 0)
                }))
        case "information":
            return .page("educat/information", title: "educat_title", EduCATInformationPage(
                bar: EduCATBar(pack, title: pack.label("information"), back: home, help: nil, t),
                text: pack.information, clip: pack.clipURL(pack.information), listen: pack.label("listen")))
        default:
            guard let area = EduCATArea(rawValue: name) else { throw AppError.notFound }
            let help: EduCATScreen = switch area {
            case .numbers: .numbers
            case .vowels: .vowels
            case .alphabet: .alphabet
            case .contaCops: .contaCops
            }
            let back = area == .vowels || area == .alphabet ? EduCATEndpoints.screen.path("letters") : home
            return .page("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label(area.labelKey), back: back, help: help, t),
                entries: ["lesson", "game"].map {
                    EduCATMenuPage.Entry(key: $0, label: pack.label($0), href: EduCATEndpoints.activity.path(area.rawValue, $0))
                }))
        }
    }

    @Sendable static func activity(_ context: RequestContext, _ db: Database, _ screen: String, _ mode: String) throws -> Reply {
        guard let area = EduCATArea(rawValue: screen) else { throw AppError.notFound }
        let (pack, player) = try player(context, db)
        let back = EduCATEndpoints.screen.path(area.rawValue)
        switch mode {
        case "lesson":
            return .page("educat/lesson", title: "educat_title", EduCATLessonPage(
                area: area, pack: pack, bar: EduCATBar(pack, title: pack.label(area.labelKey) + " · " + pack.label("lesson"), back: back,
                                                       help: area == .contaCops ? .contaCopsLesson : .lesson, context.t),
                play: EduCATPlayView(pack: pack, access: player.access)))
        case "game", "challenge":
            let mode: EduCATMode = mode == "game" ? .normal : .challenge
            let help: EduCATScreen = mode == .challenge ? .challenge : area == .contaCops ? .contaCopsGame : .game
            let title = pack.label(area.labelKey) + " · " + pack.label(mode == .normal ? "game" : "challenge")
            return .page("educat/game", title: "educat_title", EduCATGamePage(
                area: area, mode: mode, pack: pack, settings: player.settings, record: player.records[area] ?? 0,
                bar: EduCATBar(pack, title: title, back: back, help: help, context.t),
                play: EduCATPlayView(pack: pack, access: player.access)))
        default:
            throw AppError.notFound
        }
    }

    /// A finished game, or an abandoned challenge with at least one answer. Impossible values are
    /// refused with 400 and nothing is stored.
    @Sendable static func postResult(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let fields = Dictionary(context.request.form.pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard case .success(let result) = EduCATResult.parse(fields) else {
            return Reply(try .json(["error": "invalid result"], status: .badRequest))
        }
        let (pack, _) = try player(context, db)
        let stored = try EduCATStore.store(result, patientId: actor.userId, language: pack.language, assistedBy: actor.supervisorId,
                                           at: context.now, db)
        return Reply(try .json(["record": "\(stored.record)", "newRecord": stored.isNew ? "true" : "false"]))
    }

    @Sendable static func results(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        return resultsPage(try EduCATQueries.results(patientId: patientId, visibleTo: actor, db), form: nil, context: context)
    }

    static func resultsPage(_ data: EduCATQueries.Results, form: FormState?, status: Status = .ok, context: RequestContext) -> Reply {
        .page("educat/results", title: "educat_results_title", EduCATResultsPage(
            patientId: data.patientId, patientName: data.patientName, records: data.records, results: data.results,
            settings: data.settings, form: form, isClinician: context.actor?.role == .clinician, context: context), status: status)
    }

    @Sendable static func saveSettings(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        var form = FormState(context.request.form, fields: ["seconds", "lives", "language"])
        let seconds = Int(form["seconds"].trimmingCharacters(in: .whitespaces))
        let lives = Int(form["lives"].trimmingCharacters(in: .whitespaces))
        if seconds.map(EduCATSettings.secondsRange.contains) != true { form.fail("seconds", context.t["educat_error_seconds"]) }
        if lives.map(EduCATSettings.livesRange.contains) != true { form.fail("lives", context.t["educat_error_lives"]) }
        let language = form["language"].isEmpty ? nil : form["language"]
        if let language, !EduCATContent.languages.contains(language) { form.fail("language", context.t["error_choose_option"]) }
        guard !form.hasErrors, let seconds, let lives else {
            return resultsPage(try EduCATQueries.results(patientId: patient.userId, visibleTo: actor, db), form: form,
                               status: .unprocessableContent, context: context)
        }
        try EduCATStore.save(EduCATSettings(secondsPerQuestion: seconds, lives: lives, language: language),
                             patientId: patient.userId, by: actor.userId, at: context.now, db)
        return .redirect(to: EduCATEndpoints.results.path(patient.userId), flash: "educat_settings_saved")
    }
}
