import Foundation

/// The bar on top of every child screen: Tornar, the title, the help clip and the music switch.
struct EduCATBar: PageModel {
    let title: String
    let backHref: String
    let backLabel: String
    let helpLabel: String
    let helpClip: String?
    let musicLabel: String
    let tuneURL: String
    /// For the screen reader: what the music switch does (UI chrome, from the catalogue).
    let musicHint: String
    /// The pack's language, which may not be the page's (Catalan games on a Portuguese page): the game's `lang`.
    let lang: String

    init(_ pack: EduCATPack, title: String, back: String, help: EduCATScreen?, _ t: Translator) {
        self.title = title
        backHref = back
        backLabel = pack.label("back")
        helpLabel = pack.label("help")
        helpClip = help.flatMap { pack.help[$0.helpKey] }.map(pack.clipURL)
        musicLabel = pack.label("music")
        tuneURL = EduCATContent.tuneURL
        musicHint = t["educat_music_hint"]
        lang = pack.language
    }
}

struct EduCATMenuPage: PageModel {
    struct Entry: PageModel {
        let key: String
        let label: String
        let href: String
    }

    let bar: EduCATBar
    let entries: [Entry]
}

struct EduCATRecordsPage: PageModel {
    struct Record: PageModel {
        let area: String
        let label: String
        let value: Int
    }

    let bar: EduCATBar
    let records: [Record]
}

struct EduCATInformationPage: PageModel {
    let bar: EduCATBar
    let text: String
    let clip: String
    let listen: String
}

/// A number, vowel or letter as a button: what it shows, its lower-case form and its clip.
struct EduCATItemView: PageModel {
    let symbol: String
    let upper: String
    let clip: String

    init(_ item: EduCATPack.Item, pack: EduCATPack) {
        symbol = item.symbol
        upper = item.symbol.uppercased()
        clip = pack.clipURL(item.spoken)
    }
}

/// A conta-cops word with everything its lesson and games show and play.
struct EduCATWordView: PageModel {
    let word: String
    let pictureURL: String
    let syllablesText: String
    let count: Int
    let clip: String
    let syllablesClip: String
    let countClip: String

    init(_ word: EduCATPack.Word, pack: EduCATPack) {
        self.word = word.word
        pictureURL = PlanEndpoints.pictogram.path("\(word.pictogram).svg")
        syllablesText = word.syllablesText
        count = word.syllableCount
        clip = pack.clipURL(word.word)
        syllablesClip = pack.clipURL(word.syllabifiedReading)
        countClip = pack.clipURL(pack.numbers[word.syllableCount].spoken)
    }
}

struct EduCATLessonPage: PageModel {
    let bar: EduCATBar
    let area: String
    let items: [EduCATItemView]
    let hasCaseToggle: Bool
    let capitalsLabel: String
    let cursiveLabel: String
    let isContaCops: Bool
    let words: [EduCATWordView]
    let questionLabel: String
    let play: EduCATPlayView

    init(area: EduCATArea, pack: EduCATPack, bar: EduCATBar, play: EduCATPlayView) {
        self.bar = bar
        self.play = play
        self.area = area.rawValue
        items = pack.items(area).map { EduCATItemView($0, pack: pack) }
        hasCaseToggle = area == .vowels || area == .alphabet
        capitalsLabel = pack.label("capitals")
        cursiveLabel = pack.label("cursive")
        isContaCops = area == .contaCops
        words = isContaCops ? pack.words.map { EduCATWordView($0, pack: pack) } : []
        questionLabel = pack.label("question")
    }
}

struct EduCATGamePage: PageModel {
    let bar: EduCATBar
    let area: String
    let mode: String
    let isChallenge: Bool
    let isContaCops: Bool
    let items: [EduCATItemView]
    let words: [EduCATWordView]
    let answers: [Int]
    let congratulations: [String]
    let scoldings: [String]
    let challengeHref: String?
    /// Where the script posts a finished game.
    let resultURL = EduCATEndpoints.postResult.path()
    let seconds: Int
    let lives: Int
    let livesText: String
    let record: Int
    let labels: [String: String]
    let listenLabel: String
    /// Letters can be shown joined-up in the games too, as in the seed's prototype screens (A12).
    let hasCaseToggle: Bool
    let play: EduCATPlayView

    init(area: EduCATArea, mode: EduCATMode, pack: EduCATPack, settings: EduCATSettings, record: Int, bar: EduCATBar,
         play: EduCATPlayView) {
        self.bar = bar
        self.play = play
        self.area = area.rawValue
        self.mode = mode.rawValue
        isChallenge = mode == .challenge
        isContaCops = area == .contaCops
        items = pack.items(area).map { EduCATItemView($0, pack: pack) }
        words = isContaCops ? pack.words.map { EduCATWordView($0, pack: pack) } : []
        answers = isContaCops ? Array(1...5) : []
        congratulations = pack.congratulations.map(pack.clipURL)
        scoldings = pack.scoldings.map(pack.clipURL)
        challengeHref = mode == .normal ? EduCATEndpoints.activity.path(area.rawValue, EduCATMode.challenge.rawValue) : nil
        seconds = settings.secondsPerQuestion
        lives = settings.lives
        livesText = Array(repeating: "*", count: settings.lives).joined(separator: " ")
        self.record = record
        labels = pack.labels
        listenLabel = pack.label("listen")
        hasCaseToggle = area == .vowels || area == .alphabet
    }
}

/// The tutor's and clinician's view of a patient's eduCAT: records, a chart per area, every game,
/// and (for the clinician) the challenge settings.
struct EduCATResultsPage: PageModel {
    struct Record: PageModel {
        let label: String
        let value: Int
    }

    struct Row: PageModel {
        let date: String
        let area: String
        let mode: String
        let hits: Int
        let errors: Int
        let duration: String
        let livesLeft: String
    }

    struct Chart: PageModel {
        let svg: String
    }

    let patientId: Int64
    let patientName: String
    let patientURL: String
    let settingsURL: String
    let records: [Record]
    let charts: [Chart]
    let rows: [Row]
    let isEmpty: Bool
    let isClinician: Bool
    let form: FormState
    let languages: [SelectOption]

    init(patientId: Int64, patientName: String, records: [EduCATArea: Int], results: [EduCATStore.ResultRow],
         settings: EduCATSettings, form: FormState?, isClinician: Bool, context: RequestContext) {
        let t = context.t
        let format = context.format
        self.patientId = patientId
        self.patientName = patientName
        patientURL = PeopleEndpoints.showPatient.path(patientId)
        settingsURL = EduCATEndpoints.saveSettings.path(patientId)
        self.records = EduCATArea.allCases.map { Record(label: t["educat_area_\($0.labelKey)"], value: records[$0] ?? 0) }
        charts = EduCATArea.allCases.compactMap { area in
            let games = results.filter { $0.area == area.rawValue }
            guard !games.isEmpty else { return nil }
            let svg = LineChart(
                title: t["educat_area_\(area.labelKey)"], unit: t["educat_hits"],
                labels: games.map { format.shortDate($0.playedAt) },
                series: [
                    LineChart.Series(name: t["educat_mode_challenge"], values: games.map { $0.mode == "challenge" ? Double($0.hits) : nil },
                                     colour: LineChart.palette[0]),
                    LineChart.Series(name: t["educat_mode_normal"], values: games.map { $0.mode == "normal" ? Double($0.hits) : nil },
                                     colour: LineChart.palette[2]),
                ],
                // Hits are whole, the axis's padded bounds are not: whole numbers plain, others with a decimal.
                format: { $0 == $0.rounded() ? String(Int($0)) : format.decimal($0) }).svg
            return svg.isEmpty ? nil : Chart(svg: svg)
        }
        rows = results.reversed().map { result in
            Row(date: format.shortDate(result.playedAt) + " " + format.time(result.playedAt),
                area: EduCATArea(rawValue: result.area).map { t["educat_area_\($0.labelKey)"] } ?? result.area,
                mode: t["educat_mode_\(result.mode)"], hits: result.hits, errors: result.errors,
                duration: String(format: "%d:%02d", result.durationSeconds / 60, result.durationSeconds % 60),
                livesLeft: result.livesLeft.map(String.init) ?? "–")
        }
        isEmpty = results.isEmpty
        self.isClinician = isClinician
        let values = ["seconds": "\(settings.secondsPerQuestion)", "lives": "\(settings.lives)", "language": settings.language ?? ""]
        self.form = form ?? FormState(values: values)
        let chosen = self.form["language"]
        languages = [SelectOption(value: "", label: t["educat_language_patient"], isSelected: chosen.isEmpty)]
            + EduCATContent.languages.map { SelectOption(value: $0, label: t["educat_language_\($0)"], isSelected: chosen == $0) }
    }
}
