import Foundation
import GRDB

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
        // Asked for every page a patient opens: a Swift regex here was 9 % of a board page's time.
        homePaths.contains(path) || PlayerEndpoints.play.matches(path)
    }

    /// The home, the list of boards and the timer's form.
    static let homePaths: [String] = { [DashboardEndpoints.patient.path(), PlayerEndpoints.list.path(), TimerEndpoints.timer.path()] }()

    /// Every screen of the games, as `EduCATRoutes` serves them.
    static let gamePaths: [String] = [EduCATEndpoints.menu.path()] + ["letters", "records", "information"].map { EduCATEndpoints.screen.path($0) }
        + EduCATArea.allCases.flatMap { area in
            [EduCATEndpoints.screen.path(area.rawValue)] + ["lesson", "game", "challenge"].map { EduCATEndpoints.activity.path(area.rawValue, $0) }
        }

    static func pagePaths(planIds: [Int64], games: Bool = false) -> [String] {
        homePaths + [SiteEndpoints.offline.path()] + planIds.map { PlayerEndpoints.play.path($0) } + (games ? gamePaths : [])
    }

    /// `voiced`: the URLs of the clips the patient's symbols say in their chosen voice (`PatientVoice`), once made.
    static func fetch(patientId: Int64, today: String, voiced: ([Symbol]) -> [String] = { _ in [] },
                      _ db: Database) throws -> OfflineBoards {
        let planIds = try Int64.fetchAll(db, sql: "SELECT id FROM plan WHERE patientId = ? ORDER BY id", arguments: [patientId])
        let symbols = try PlanSymbols.of(patient: patientId, orderedBy: "id", db)
        // Sentences said before play as one clip: keep those too.
        let sentenceClips = try String.fetchAll(db, sql: """
            SELECT DISTINCT clip FROM sentence WHERE patientId = ? AND clip IS NOT NULL ORDER BY 1
            """, arguments: [patientId]).map { PlanEndpoints.audio.path($0) }
        var seen = Set<String>()
        let media = (symbols.flatMap { [$0.imageURL, $0.audioURL].compactMap { $0 } } + voiced(symbols) + sentenceClips).filter { seen.insert($0).inserted }
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

