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
        router.legacy(OfflineEndpoints.boards, boards)
        // Fetched by the browser without cookies, so open to anyone; it names nothing private.
        router.legacy(OfflineEndpoints.manifest, manifest)
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
            try OfflineBoards.fetch(patientId: actor.userId, today: NutritionRoutes.today(context).date, db)
        }
        let assets = context.app.assets
        let alarm = SpeechAudio.fileName(text: SpeechAudio.spoken(context.t["timer_alarm_spoken"], question: false),
                                         voice: SpeechAudio.voice(for: context.locale))
        let alarmExists = FileManager.default.fileExists(atPath: context.app.configuration.audioFolder + "/" + alarm)
        // The NO word of each sentence plan's language, once made (see SentenceRoutes.player).
        let negations = list.sentenceLanguages.compactMap { locale in
            context.app.speech.existing(text: SentenceRules.negation(locale), voice: SpeechAudio.voice(for: locale))
        }.map { "/media/audio/\($0)" }
        var files = [assets.stylesheet, assets.boardStylesheet, assets.icon, assets.playerScript, assets.timerScript, assets.pwaScript,
                     assets.sentenceScript, "/pictograms/\(TimerRoutes.animal).svg"] + Assets.importedModules
        files += PatientHomeRules.pictograms.map { "/pictograms/\($0).svg" }
        files += (alarmExists ? ["/media/audio/\(alarm)"] : []) + list.mediaURLs + negations
        if list.keepsGames { files += try gameFiles(language: list.gamesLanguage, context) }
        return try .json(OfflineBoards.Listing(pages: list.pagePaths, files: files))
    }

    /// What the games need offline: their stylesheet, font and scripts, every clip of the patient's pack,
    /// the tune and the pictures of the syllable game.
    static func gameFiles(language: String?, _ context: RequestContext) throws -> [String] {
        let assets = context.app.assets
        let pack = try EduCATContent.shared(resourcesDirectory: context.app.configuration.resourcesDirectory).pack(language)
        let folder = context.app.configuration.publicDirectory + "/js/educat"
        let modules = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".js") && $0 != "educat.js" }.sorted().map { "/js/educat/\($0)" }
        var seen = Set<String>()
        return ([assets.educatStylesheet, assets.educatScript, "/fonts/ecolier-court.ttf", EduCATContent.tuneURL] + modules
            + pack.spokenTexts.map(pack.clipURL) + pack.words.map { "/pictograms/\($0.pictogram).svg" })
            .filter { seen.insert($0).inserted }
    }

    @Sendable static func manifest(_ context: RequestContext) throws -> Response {
        let icon = context.app.assets.icon
        let manifest = WebAppManifest(
            name: context.t["app_name"], short_name: context.t["app_name"], lang: context.locale.rawValue,
            start_url: "/patient", scope: "/", display: "standalone", background_color: "#f7f6f1", theme_color: "#0d7a5f",
            icons: [.init(src: icon, sizes: "any", type: "image/svg+xml", purpose: "any"),
                    .init(src: "/img/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
                    .init(src: "/img/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
                    .init(src: "/img/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable")])
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
    /// Whether the patient's home shows the games (`PatientHomeRules.showsGames`), and their pack's language.
    var keepsGames = false
    var gamesLanguage: String?

    /// Every page a patient plays from: the home, the list of boards, each board, the timer's form, and
    /// the games when the home shows them.
    var pagePaths: [String] { OfflineBoards.pagePaths(planIds: planIds, games: keepsGames) }

    /// The pages whose opening keeps the patient's boards for offline use (the player's pages and the home).
    static func isBoardPage(_ path: String) -> Bool {
        path == "/patient" || path == "/play" || path == "/timer" || path.wholeMatch(of: /\/play\/[0-9]+/) != nil
    }

    /// Every screen of the games, as `EduCATRoutes` serves them.
    static let gamePaths: [String] = ["/educat", "/educat/letters", "/educat/records", "/educat/information"]
        + EduCATArea.allCases.flatMap { area in ["", "/lesson", "/game", "/challenge"].map { "/educat/\(area.rawValue)\($0)" } }

    static func pagePaths(planIds: [Int64], games: Bool = false) -> [String] {
        ["/patient", "/play", "/timer"] + planIds.map { "/play/\($0)" } + (games ? gamePaths : [])
    }

    static func fetch(patientId: Int64, today: String, _ db: Database) throws -> OfflineBoards {
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
        let games = try PatientHomeData.gameFacts(patientId: patientId, today: today, db)
        let gamesLanguage = try EduCATStore.settings(patientId: patientId, db).language ?? User.find(patientId, db)?.locale
        return OfflineBoards(planIds: planIds, mediaURLs: media, sentenceLanguages: Array(Set(languages)).sorted { $0.rawValue < $1.rawValue },
                             keepsGames: PatientHomeRules.showsGames(hasBoards: !planIds.isEmpty, isChild: games.isChild,
                                                                     hasPlayed: games.hasPlayed),
                             gamesLanguage: gamesLanguage)
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
