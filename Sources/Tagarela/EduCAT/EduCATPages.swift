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
    /// The patient's access method: the menus scan like the games.
    let play: EduCATPlayView
}

struct EduCATRecordsPage: PageModel {
    struct Record: PageModel {
        let area: String
        let label: String
        let value: Int
    }

    let bar: EduCATBar
    let records: [Record]
    let play: EduCATPlayView
}

struct EduCATInformationPage: PageModel {
    let bar: EduCATBar
    let text: String
    let clip: String
    let listen: String
    let play: EduCATPlayView
}

/// A number, vowel or letter as a button: what it shows, its lower-case form and its clip.
struct EduCATItemView: PageModel {
    let symbol: String
    let upper: String
    let clip: String
    /// Numbers: the digit's value, and as many dots to count (none for 0).
    let quantity: Int?
    let hasQuantity: Bool
    let dots: String
    /// 0 to count: an empty ring (docs/decisions/README.md), not an empty tile that looks broken.
    let isZero: Bool

    init(_ item: EduCATPack.Item, pack: EduCATPack, area: EduCATArea) {
        symbol = item.symbol
        upper = item.symbol.uppercased()
        clip = pack.clipURL(item.spoken, stored: item.clip)
        quantity = area == .numbers ? Int(item.symbol) : nil
        hasQuantity = quantity != nil
        dots = String(repeating: "●", count: quantity ?? 0)
        isZero = quantity == 0
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
        pictureURL = word.picture ?? PlanEndpoints.pictogram.path("\(word.pictogram).svg")
        syllablesText = word.syllablesText
        count = word.syllableCount
        clip = pack.clipURL(word.word, stored: word.clip)
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

    /// The numbers lesson pairs each digit with as many dots.
    let hasQuantities: Bool
    let levelKey: String

    init(area: EduCATArea, pack: EduCATPack, level: EduCATLevel, bar: EduCATBar, play: EduCATPlayView) {
        self.bar = bar
        self.play = play
        self.area = area.rawValue
        // The lesson teaches the area's items; the alphabet's own letters (ç, l·l, ny, à…) and the added
        // ones from the level that asks them.
        let lessonItems = area == .alphabet && ["lower", "joined"].contains(level.key) ? level.items(pack) : pack.items(area)
        items = lessonItems.map { EduCATItemView($0, pack: pack, area: area) }
        hasQuantities = area == .numbers
        levelKey = level.key
        hasCaseToggle = area == .vowels || area == .alphabet
        capitalsLabel = pack.label("capitals")
        cursiveLabel = pack.label("cursive")
        isContaCops = area == .contaCops
        words = isContaCops ? level.words(pack.words).map { EduCATWordView($0, pack: pack) } : []
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
    /// The contract with the game (docs/decisions/0028-educat-levels-and-results.md, "eduCAT levels and results").
    let level: Int
    let levelKey: String
    let itemsOnScreen: String
    let speed: String
    let untimed: Bool
    let answersURL = EduCATEndpoints.postAnswers.path()
    let play: EduCATPlayView

    init(area: EduCATArea, mode: EduCATMode, pack: EduCATPack, level: EduCATLevel, settings: EduCATSettings, record: Int,
         bar: EduCATBar, play: EduCATPlayView) {
        self.bar = bar
        self.play = play
        self.area = area.rawValue
        self.mode = mode.rawValue
        isChallenge = mode == .challenge
        isContaCops = area == .contaCops
        items = level.items(pack).map { EduCATItemView($0, pack: pack, area: area) }
        words = isContaCops ? level.words(pack.words).map { EduCATWordView($0, pack: pack) } : []
        self.level = level.number
        levelKey = level.key
        itemsOnScreen = settings.itemsOnScreen.map(String.init) ?? ""
        speed = settings.speed.multiplier
        untimed = settings.untimed
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

/// The tutor's and clinician's view of a patient's eduCAT: records, levels, what the answers say
/// (mix-ups, missed word lengths), % right and time per answer by day, the recent answers and every game.
struct EduCATResultsPage: PageModel {
    /// One game at one level: records are kept per game and level.
    struct Record: PageModel {
        let game: String
        let level: String
        let value: Int
        /// The level the child plays now.
        let isCurrent: Bool
    }

    struct Level: PageModel {
        let area: String
        let label: String
    }

    struct Insight: PageModel {
        let text: String
        /// The items named, in the pack's language (`lang`), e.g. "b – d".
        let items: String?
        let lang: String
    }

    struct AnswerRow: PageModel {
        let date: String
        let area: String
        let level: String
        let asked: String
        let tapped: String
        let isCorrect: Bool
        let outcome: String
        let seconds: String
        let lang: String
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
    let settingsURL: String?
    let records: [Record]
    let levels: [Level]
    let insights: [Insight]
    let hasAnswers: Bool
    let charts: [Chart]
    let answers: [AnswerRow]
    let rows: [Row]
    let hasGames: Bool
    let isEmpty: Bool

    static let answersShown = 30

    init(_ data: EduCATQueries.Results, isClinician: Bool, context: RequestContext) {
        let t = context.t
        let format = context.format
        patientId = data.patientId
        patientName = data.patientName
        patientURL = PeopleEndpoints.showPatient.path(data.patientId)
        settingsURL = isClinician ? EduCATEndpoints.settings.path(data.patientId) : nil
        records = EduCATArea.allCases.flatMap { area in
            EduCATLevel.levels(area).map { level in
                Record(game: t["educat_area_\(area.labelKey)"], level: "\(level.number) · " + t["educat_level_\(level.key)"],
                       value: data.records[EduCATRecordKey(area: area, level: level.number)] ?? 0,
                       isCurrent: level.number == EduCATLevel.of(area, number: data.levels[area] ?? 1).number)
            }
        }
        levels = EduCATArea.allCases.map { area in
            let level = EduCATLevel.of(area, number: data.levels[area] ?? 1)
            return Level(area: t["educat_area_\(area.labelKey)"], label: "\(level.number) · " + t["educat_level_\(level.key)"])
        }
        let judged = data.answers.compactMap { answer in
            EduCATArea(rawValue: answer.area).map {
                EduCATInsights.Answer(area: $0, asked: answer.asked, expected: answer.expected, tapped: answer.tapped, correct: answer.correct)
            }
        }
        // Mix-ups are of the pack most recently played.
        let packLanguage = data.answers.first?.language ?? ""
        insights = EduCATInsights.confusions(judged).map {
            Insight(text: t("educat_insight_confuses", ["times": "\($0.times)"]), items: "\($0.first) – \($0.second)", lang: packLanguage)
        } + EduCATInsights.missedSyllableCounts(judged).map {
            Insight(text: t("educat_insight_misses_syllables", ["count": "\($0)"]), items: nil, lang: packLanguage)
        }
        hasAnswers = !data.answers.isEmpty

        let dayFormat = DateFormatter()
        dayFormat.locale = Locale(identifier: "en_US_POSIX")
        dayFormat.timeZone = context.configuration.timeZone
        dayFormat.dateFormat = "yyyy-MM-dd"
        var charts: [Chart] = []
        let byArea = Dictionary(grouping: data.answers, by: \.area)
        let areas = EduCATArea.allCases.filter { byArea[$0.rawValue] != nil }
        let days = Set(data.answers.map { dayFormat.string(from: $0.answeredAt) }).sorted()
        if !days.isEmpty {
            let perArea = areas.map { area in
                (area, Dictionary(uniqueKeysWithValues: EduCATInsights.days(byArea[area.rawValue]!.map {
                    (day: dayFormat.string(from: $0.answeredAt), correct: $0.correct, milliseconds: $0.milliseconds)
                }).map { ($0.day, $0) }))
            }
            let labels = days.map { format.shortDate(iso: $0) }
            func series(_ value: (EduCATInsights.Day) -> Double) -> [LineChart.Series] {
                perArea.enumerated().map { index, entry in
                    LineChart.Series(name: t["educat_area_\(entry.0.labelKey)"], values: days.map { entry.1[$0].map(value) },
                                     colour: LineChart.palette[index % LineChart.palette.count])
                }
            }
            let slowest = perArea.flatMap { $0.1.values.map(\.medianSeconds) }.max() ?? 1
            charts.append(Chart(svg: LineChart(title: t["educat_chart_correct"], unit: "%", labels: labels,
                                               series: series(\.percentCorrect), range: 0...100,
                                               format: { String(Int($0.rounded())) }).svg))
            charts.append(Chart(svg: LineChart(title: t["educat_chart_seconds"], unit: t["educat_unit_seconds"], labels: labels,
                                               series: series(\.medianSeconds), range: 0...max(2, (slowest / 2).rounded(.up) * 2),
                                               format: { $0 == $0.rounded() ? String(Int($0)) : format.decimal($0) }).svg))
        }
        self.charts = charts.filter { !$0.svg.isEmpty }
        answers = data.answers.prefix(Self.answersShown).map { answer in
            let area = EduCATArea(rawValue: answer.area)
            return AnswerRow(date: format.shortDate(answer.answeredAt) + " " + format.time(answer.answeredAt),
                             area: area.map { t["educat_area_\($0.labelKey)"] } ?? answer.area,
                             level: area.map { "\(answer.level) · " + t["educat_level_\(EduCATLevel.of($0, number: answer.level).key)"] } ?? "",
                             asked: answer.asked, tapped: answer.tapped.flatMap { $0.isEmpty ? nil : $0 } ?? "—", isCorrect: answer.correct,
                             outcome: answer.correct ? t["educat_answer_right"] : answer.tapped == nil ? t["educat_answer_timeout"] : t["educat_answer_wrong"],
                             seconds: format.decimal(Double(answer.milliseconds) / 1000), lang: answer.language)
        }
        rows = data.results.reversed().map { result in
            Row(date: format.shortDate(result.playedAt) + " " + format.time(result.playedAt),
                area: EduCATArea(rawValue: result.area).map { t["educat_area_\($0.labelKey)"] } ?? result.area,
                mode: t["educat_mode_\(result.mode)"], hits: result.hits, errors: result.errors,
                duration: String(format: "%d:%02d", result.durationSeconds / 60, result.durationSeconds % 60),
                livesLeft: result.livesLeft.map(String.init) ?? "–")
        }
        hasGames = !data.results.isEmpty
        isEmpty = data.results.isEmpty && data.answers.isEmpty
    }
}

/// The clinician's eduCAT page of a patient: the pack, the challenge, play, levels and promotion,
/// and the words and letters added to the patient's sets.
struct EduCATSettingsPage: PageModel {
    struct LevelField: PageModel {
        let name: String
        let label: String
        let options: [SelectOption]
        let error: String?
    }

    struct AddedRow: PageModel {
        let id: Int64
        let area: String
        let text: String
        let detail: String
        let pictureURL: String?
        let language: String
        let lang: String
        let removeURL: String
        /// Its voice: where to listen, whether it is a recording, where a new one goes.
        let clipURL: String
        let isRecorded: Bool
        let voiceLabel: String
        let replaceURL: String
        let replaceLabel: String
        let clipError: String?
    }

    let patientName: String
    let resultsURL: String
    let saveURL: String
    let addURL: String
    let form: FormState
    let itemForm: FormState
    let languages: [SelectOption]
    let speeds: [SelectOption]
    let promotions: [SelectOption]
    let isUntimed: Bool
    let levels: [LevelField]
    let itemAreas: [SelectOption]
    let itemLanguages: [SelectOption]
    let added: [AddedRow]

    init(_ data: EduCATQueries.Settings, form: FormState?, itemForm: FormState?, clipError: (Int64, String)? = nil,
         context: RequestContext) {
        let t = context.t
        patientName = data.patientName
        resultsURL = EduCATEndpoints.results.path(data.patientId)
        saveURL = EduCATEndpoints.saveSettings.path(data.patientId)
        addURL = EduCATEndpoints.addItem.path(data.patientId)
        let form = form ?? FormState(values: EduCATSettingsForm.values(data.settings, levels: data.levels))
        self.form = form
        let chosen = form["language"]
        languages = [SelectOption(value: "", label: t("educat_language_default", ["language": t["educat_language_\(data.packLanguage)"]]),
                                  isSelected: chosen.isEmpty)]
            + EduCATContent.languages.map { SelectOption(value: $0, label: t["educat_language_\($0)"], isSelected: chosen == $0) }
        speeds = EduCATSpeed.allCases.map { SelectOption(value: $0.rawValue, label: t["educat_speed_\($0.rawValue)"], isSelected: form["speed"] == $0.rawValue) }
        promotions = ["never", "streak", "accuracy"].map { SelectOption(value: $0, label: t["educat_promotion_\($0)"], isSelected: form["promotion"] == $0) }
        isUntimed = !form["untimed"].isEmpty
        levels = EduCATArea.allCases.map { area in
            let name = "level-\(area.rawValue)"
            return LevelField(name: name, label: t["educat_area_\(area.labelKey)"], options: EduCATLevel.levels(area).map {
                SelectOption(value: "\($0.number)", label: "\($0.number) · " + t["educat_level_\($0.key)"], isSelected: form[name] == "\($0.number)")
            }, error: form.errors[name])
        }
        let itemForm = itemForm ?? FormState(values: ["area": EduCATArea.contaCops.rawValue, "language": data.packLanguage])
        self.itemForm = itemForm
        itemAreas = [EduCATArea.contaCops, .alphabet].map {
            SelectOption(value: $0.rawValue, label: t["educat_area_\($0.labelKey)"], isSelected: itemForm["area"] == $0.rawValue)
        }
        itemLanguages = EduCATContent.languages.map { SelectOption(value: $0, label: t["educat_language_\($0)"], isSelected: itemForm["language"] == $0) }
        added = data.added.map { item in
            AddedRow(id: item.id, area: EduCATArea(rawValue: item.area).map { t["educat_area_\($0.labelKey)"] } ?? item.area, text: item.text,
                     detail: item.syllables.map { $0.uppercased().replacingOccurrences(of: "-", with: " - ") } ?? item.spoken,
                     pictureURL: item.picture != nil ? EduCATEndpoints.itemPicture.path(data.patientId, item.id)
                        : item.pictogram.map { PlanEndpoints.pictogram.path("\($0).svg") },
                     language: t["educat_language_\(item.language)"], lang: item.language,
                     removeURL: EduCATEndpoints.removeItem.path(data.patientId, item.id),
                     clipURL: PlanEndpoints.audio.path(item.clip), isRecorded: EduCATClips.isRecording(item.clip),
                     voiceLabel: t[EduCATClips.isRecording(item.clip) ? "ep_item_recorded" : "ep_item_generated"],
                     replaceURL: EduCATEndpoints.replaceClip.path(data.patientId, item.id),
                     replaceLabel: t("ep_item_new_clip", ["text": item.text]),
                     clipError: clipError.flatMap { $0.0 == item.id ? $0.1 : nil })
        }
    }
}

// The child's screens: patient mode's header speaks the pack's language there (issue 46, 7).
extension EduCATMenuPage: ChildScreen { var childLanguage: String { bar.lang } }
extension EduCATRecordsPage: ChildScreen { var childLanguage: String { bar.lang } }
extension EduCATInformationPage: ChildScreen { var childLanguage: String { bar.lang } }
extension EduCATLessonPage: ChildScreen { var childLanguage: String { bar.lang } }
extension EduCATGamePage: ChildScreen { var childLanguage: String { bar.lang } }
