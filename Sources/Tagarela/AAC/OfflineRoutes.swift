import Foundation
import GRDB
import HTTPServer

/// What a tablet needs to keep a patient's boards working with no network: the web app manifest,
/// and the list of pages and files the service worker (`Public/sw.js`) keeps. The worker itself
/// is a static file at the root, so its scope is the whole site; it only ever stores the pages
/// listed by `OfflineBoards.pagePaths` and content-addressed files.
enum OfflineRoutes: Feature {
    static let templates: [String] = []

    static func add(to router: inout Router<Route>) {
        // Asked by every board page the tablet loads, so it is kept in the read cache with the board pages.
        // Clips made later without a database change (the timer's alarm, a sentence plan's NO word) join
        // the listing when the entry expires, within seconds; the tablet asks again at its next board load.
        router.add(OfflineEndpoints.boards) { $0.cached(as: { _ in "offline listing" }).read(boards) }
        // Fetched by the browser without cookies, so open to anyone; it names nothing private.
        router.add(OfflineEndpoints.manifest) { $0.reply(manifest) }
    }

    @Sendable static func boards(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let voice = PatientVoice(chosen: try AccessSettings.load(patientId: actor.userId, db).voice, installed: context.speech.voices)
        let list = try OfflineBoards.fetch(patientId: actor.userId, today: context.today, voiced: { symbols in
            voice.clips(for: symbols, fallback: context.locale).values.sorted { $0.text < $1.text }
                .compactMap { context.speech.existing(text: $0.text, voice: $0.voice) }.map { PlanEndpoints.audio.path($0) }
        }, db)
        let assets = context.assets
        // The timer's alarm and the NO word of each sentence plan's language, once made, in the patient's voice
        // (espeak-ng's while the voice's is not made: what the timer's form and the builder then carry).
        let speech = context.speech
        let spoken = { (text: String, locale: AppLocale) -> String? in
            speech.existing(text: text, voice: voice.engine(for: locale)) ?? speech.existing(text: text, voice: SpeechAudio.voice(for: locale))
        }
        let alarm = spoken(context.t["timer_alarm_spoken"], context.locale)
        let negations = list.sentenceLanguages.compactMap { spoken(SentenceRules.negation($0), $0) }.map { PlanEndpoints.audio.path($0) }
        var files = [assets.stylesheet, assets.boardStylesheet, assets.icon, assets.playerScript, assets.timerScript, assets.pwaScript,
                     assets.sentenceScript, PlanEndpoints.pictogram.path("\(TimerRoutes.animal).svg"), BoardView.folderPicture] + Assets.importedModules
        files += PatientHomeRules.pictograms.map { PlanEndpoints.pictogram.path("\($0).svg") }
        files += (alarm.map { [PlanEndpoints.audio.path($0)] } ?? []) + list.mediaURLs + negations
        if list.keepsGames { files += try gameFiles(language: list.gamesLanguage, voice: voice, context) }
        return Reply(try .json(OfflineBoards.Listing(pages: list.pagePaths, files: files)))
    }

    /// What the games need offline: their stylesheet, font and scripts, every clip of the patient's pack,
    /// the tune and the pictures of the syllable game.
    static func gameFiles(language: String?, voice: PatientVoice = .espeak, _ context: RequestContext) throws -> [String] {
        let assets = context.assets
        let pack = EduCATVoice.apply(try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory).pack(language),
                                     voice: voice, context.speech, making: context.backgroundClips)
        let folder = context.configuration.publicDirectory + "/js/educat"
        let modules = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".js") && $0 != "educat.js" }.sorted().map { "/js/educat/\($0)" }
        var seen = Set<String>()
        return ([assets.educatStylesheet, assets.educatScript, "/fonts/ecolier-court.ttf", EduCATContent.tuneURL, EduCATContent.celebrationURL] + modules
            + pack.spokenTexts.map(pack.clipURL) + pack.words.map { PlanEndpoints.pictogram.path("\($0.pictogram).svg") })
            .filter { seen.insert($0).inserted }
    }

    @Sendable static func manifest(_ context: RequestContext) throws -> Reply {
        let icon = context.assets.icon
        let manifest = WebAppManifest(
            name: context.t["app_name"], short_name: context.t["app_name"], lang: context.locale.rawValue,
            start_url: DashboardEndpoints.patient.path(), scope: "/", display: "standalone", background_color: "#f7f6f1",
            theme_color: "#0d7a5f",
            icons: [.init(src: icon, sizes: "any", type: "image/svg+xml", purpose: "any"),
                    .init(src: "/img/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
                    .init(src: "/img/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
                    .init(src: "/img/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable")])
        var response = try Response.json(manifest)
        response.headers["Content-Type"] = "application/manifest+json"
        return Reply(response)
    }
}

/// https://www.w3.org/TR/appmanifest/ ; the field names are the format's own.
struct WebAppManifest: Encodable {
    struct Icon: Encodable {
        let src: String
        let sizes: String
        let type: String
        let purpose: String
    }
    let name: String
    let short_name: String
    let lang: String
    let start_url: String
    let scope: String
    let display: String
    let background_color: String
    let theme_color: String
    let icons: [Icon]
}
