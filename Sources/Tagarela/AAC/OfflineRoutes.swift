import Foundation
import GRDB
import HTTPServer

/// What a tablet needs to keep a patient's boards working with no network: the web app manifest,
/// and the list of pages and files the service worker (`Public/sw.js`) keeps. The worker itself
/// is a static file at the root, so its scope is the whole site; it only ever stores the pages
/// listed by `OfflineBoards.pagePaths` and content-addressed files.
enum OfflineRoutes {
    static let templates: [String] = []

    static func add(to router: inout Router<Route>) {
        router.get("/play/offline", .signedIn([.patient]), boards)
        // Fetched by the browser without cookies, so open to anyone; it names nothing private.
        router.get("/manifest.webmanifest", .anyone, manifest)
    }

    /// Asked by every board page the tablet loads, so it is kept in the read cache with the board pages.
    /// Clips made later without a database change (the timer's alarm, a sentence plan's NO word) join
    /// the listing when the entry expires, within seconds; the tablet asks again at its next board load.
    @Sendable static func boards(_ context: RequestContext) throws -> Response {
        try context.cachedPage("offline listing") { try listing(context) }
    }

    static func listing(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let list = try context.database.read { db in
            try OfflineBoards.fetch(patientId: actor.userId, db)
        }
        let assets = context.app.assets
        let alarm = SpeechAudio.fileName(text: SpeechAudio.spoken(context.t["timer_alarm_spoken"], question: false),
                                         voice: SpeechAudio.voice(for: context.locale))
        let alarmExists = FileManager.default.fileExists(atPath: context.app.configuration.audioFolder + "/" + alarm)
        // The NO word of each sentence plan's language, once made (see SentenceRoutes.player).
        let negations = list.sentenceLanguages.compactMap { locale in
            context.app.speech.existing(text: SentenceRules.negation(locale), voice: SpeechAudio.voice(for: locale))
        }.map { "/media/audio/\($0)" }
        let files = [assets.stylesheet, assets.boardStylesheet, assets.icon, assets.playerScript, assets.timerScript, assets.pwaScript,
                     assets.sentenceScript, "/pictograms/\(TimerRoutes.animal).svg"] + Assets.importedModules
            + (alarmExists ? ["/media/audio/\(alarm)"] : []) + list.mediaURLs + negations
        return try .json(OfflineBoards.Listing(pages: list.pagePaths, files: files))
    }

    @Sendable static func manifest(_ context: RequestContext) throws -> Response {
        let icon = context.app.assets.icon
        let manifest = WebAppManifest(
            name: context.t["app_name"], short_name: context.t["app_name"], lang: context.locale.rawValue,
            start_url: "/play", scope: "/", display: "standalone", background_color: "#ffffff", theme_color: "#ffffff",
            icons: [.init(src: icon, sizes: "any", type: "image/svg+xml", purpose: "any")])
        var response = try Response.json(manifest)
        response.headers["Content-Type"] = "application/manifest+json"
        return response
    }
}

/// A patient's boards as the service worker sees them: page paths and the media those pages show.
struct OfflineBoards: Equatable {
    struct Listing: Encodable {
        let pages: [String]
        let files: [String]
    }

    var planIds: [Int64]
    var mediaURLs: [String]
    /// The languages the patient's sentence plans speak.
    var sentenceLanguages: [AppLocale] = []

    /// Every page a patient plays from: the list of boards, each board, and the timer's form.
    var pagePaths: [String] { OfflineBoards.pagePaths(planIds: planIds) }

    /// The pages kept offline, as `Public/sw.js` recognises them.
    static func isBoardPage(_ path: String) -> Bool {
        path == "/play" || path == "/timer" || path.wholeMatch(of: /\/play\/[0-9]+/) != nil
    }

    static func pagePaths(planIds: [Int64]) -> [String] {
        ["/play", "/timer"] + planIds.map { "/play/\($0)" }
    }

    static func fetch(patientId: Int64, _ db: Database) throws -> OfflineBoards {
        let planIds = try Int64.fetchAll(db, sql: "SELECT id FROM plan WHERE patientId = ? ORDER BY id", arguments: [patientId])
        let symbols = try PlanSymbols.of(patient: patientId, orderedBy: "id", db)
        // Sentences said before play as one clip: keep those too.
        let sentenceClips = try String.fetchAll(db, sql: """
            SELECT DISTINCT '/media/audio/' || clip FROM sentence WHERE patientId = ? AND clip IS NOT NULL ORDER BY 1
            """, arguments: [patientId])
        var seen = Set<String>()
        let media = (symbols.flatMap { [$0.imageURL, $0.audioURL].compactMap { $0 } } + sentenceClips).filter { seen.insert($0).inserted }
        let sentencePlans = try Plan.filter(Column("patientId") == patientId && Column("type") == PlanType.sentence.rawValue).fetchAll(db)
        let languages = try sentencePlans.map { plan in
            SentenceRoutes.language(of: try SentenceGrammar.fetch(planId: plan.id!, db), fallback: .ptBR)
        }
        return OfflineBoards(planIds: planIds, mediaURLs: media, sentenceLanguages: Array(Set(languages)).sorted { $0.rawValue < $1.rawValue })
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
