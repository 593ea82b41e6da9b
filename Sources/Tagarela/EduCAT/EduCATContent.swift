import Foundation
import Synchronization

/// One language's eduCAT content (Data/educat/<language>.json): the child-facing labels, the items of
/// each area with what the voice says, the feedback phrases, help texts and the conta-cops words.
/// Every spoken text is pre-generated as a clip (`tagarela educat-audio`); pages only name the clips.
struct EduCATPack: Decodable, Sendable {
    struct Item: Decodable, Sendable, Equatable {
        /// What is shown: "7", "b".
        let symbol: String
        /// What the voice says: "set", "be" (letters by their names).
        let spoken: String
        /// The clip's file name when it is not the generated clip of `spoken` (a clinician's addition,
        /// possibly recorded); never in a pack's file.
        var clip: String? = nil
    }

    struct Word: Decodable, Sendable {
        let word: String
        let syllables: [String]
        /// An OpenMoji hexcode listed in Data/pictograms.json.
        let pictogram: String
        /// As `Item.clip`: a clinician's word says this clip (perhaps their own recording).
        var clip: String? = nil
        /// The URL of the teacher's own picture, shown instead of the pictogram.
        var picture: String? = nil

        var syllableCount: Int { syllables.count }
        /// "CA - SA", as the seed shows it.
        var syllablesText: String { syllables.map { $0.uppercased() }.joined(separator: " - ") }
        /// The reading with a clap-long pause after each syllable: espeak-ng reads "ca. sa." almost
        /// without a pause (an abbreviation?), but a blank line ends a paragraph, about 0.8 s.
        var syllabifiedReading: String { syllables.map { $0 + "." }.joined(separator: "\n\n") }
    }

    let language: String
    let voice: String
    let labels: [String: String]
    let numbers: [Item]
    let alphabet: [Item]
    let vowels: [String]
    let congratulations: [String]
    let scoldings: [String]
    let help: [String: String]
    let information: String
    /// The pack's words, and the patient's added ones once `adding` ran.
    var words: [Word]
    /// Letters of the language beyond a–z (Catalan: ç, l·l, ny, the accented vowels), asked from the
    /// alphabet's lower-case level on.
    let extraLetters: [Item]?

    var extraLetterItems: [Item] { extraLetters ?? [] }
    /// Letters a clinician added to this patient's alphabet (never in the pack's file; see `adding`).
    var addedLetterItems: [Item]?
    /// The engine voice the pack's clips say instead of `voice`: the patient's chosen one, once every clip
    /// is made in it (`EduCATVoice`). Never in a pack's file.
    var voicedBy: String?

    func label(_ key: String) -> String { labels[key] ?? key }

    /// The vowels as items, spoken like the same letters of the alphabet (one clip for both).
    var vowelItems: [Item] {
        vowels.compactMap { vowel in alphabet.first { $0.symbol == vowel } }
    }

    /// The items of a moving-items area.
    func items(_ area: EduCATArea) -> [Item] {
        switch area {
        case .numbers: numbers
        case .vowels: vowelItems
        case .alphabet: alphabet
        case .contaCops: []
        }
    }

    /// The end of a game said aloud: the pop-up's title and message, in lower case so the voice reads
    /// words rather than spelling capitals.
    var gameOverSpeech: String { (label("gameOverTitle") + " " + label("gameOverMessage")).lowercased() }
    var newRecordSpeech: String { (label("newRecordTitle") + " " + label("newRecordMessage")).lowercased() }
    var levelUpSpeech: String { label("levelUp").lowercased() }

    /// Every text the voice says in this pack, each once.
    var spokenTexts: [String] {
        var texts = numbers.map(\.spoken) + alphabet.map(\.spoken) + extraLetterItems.map(\.spoken) + congratulations + scoldings
            + [gameOverSpeech, newRecordSpeech, levelUpSpeech]
        texts += help.keys.sorted().compactMap { help[$0] } + [information]
        texts += words.flatMap { [$0.word, $0.syllabifiedReading] }
        var seen = Set<String>()
        return texts.filter { seen.insert(SpeechAudio.trimmed($0)).inserted }
    }

    /// The URL of the pre-generated clip saying `text` (in the patient's chosen voice once the pack is voiced).
    func clipURL(_ text: String) -> String { PlanEndpoints.audio.path(SpeechAudio.fileName(text: text, voice: voicedBy ?? voice)) }

    /// The URL of a clip file named in the database (a clinician's item), else of the generated clip of `text`.
    /// A recording always plays; a stored generated clip gives way to the chosen voice's.
    func clipURL(_ text: String, stored clip: String?) -> String {
        guard let clip, voicedBy == nil || SpeechAudio.isRecording(clip) else { return clipURL(text) }
        return PlanEndpoints.audio.path(clip)
    }

    /// Every text a page of this pack may say: `spokenTexts` and the letters a clinician added.
    var textsSaid: [String] { spokenTexts + (addedLetterItems ?? []).map(\.spoken) }

    /// What is wrong with the pack's data (empty when it is sound): the checks the tests and the
    /// audio step run. `pictograms` are the hexcodes that can be shown.
    func problems(pictograms: Set<String>) -> [String] {
        var problems: [String] = []
        let requiredLabels = ["title", "numbers", "letters", "vowels", "alphabet", "contaCops", "records", "information", "lesson",
                              "game", "challenge", "back", "help", "question", "hits", "errors", "lives", "record", "time",
                              "ok", "newRecordTitle", "newRecordMessage", "gameOverTitle", "gameOverMessage", "levelUp", "capitals",
                              "cursive", "music", "playArea", "answer", "listen"]
        problems += requiredLabels.filter { (labels[$0] ?? "").isEmpty }.map { "\(language): label \($0) missing" }
        if numbers.map(\.symbol) != (0...9).map(String.init) { problems.append("\(language): numbers are not 0–9") }
        if alphabet.map(\.symbol) != "abcdefghijklmnopqrstuvwxyz".map(String.init) { problems.append("\(language): alphabet is not a–z") }
        if vowels != ["a", "e", "i", "o", "u"] { problems.append("\(language): vowels are not a e i o u") }
        if congratulations.count < 8 { problems.append("\(language): fewer than 8 congratulations") }
        if scoldings.count < 8 { problems.append("\(language): fewer than 8 scoldings") }
        for key in EduCATScreen.allCases.map(\.helpKey) where (help[key] ?? "").isEmpty {
            problems.append("\(language): help text \(key) missing")
        }
        if words.count < 20 { problems.append("\(language): fewer than 20 words") }
        var seenWords = Set<String>()
        for word in words {
            if !seenWords.insert(word.word).inserted { problems.append("\(language): \(word.word) twice") }
            if !(1...5).contains(word.syllableCount) { problems.append("\(language): \(word.word) has \(word.syllableCount) syllables") }
            let letters = word.word.filter { $0 != "-" && $0 != " " }
            if word.syllables.joined() != letters { problems.append("\(language): \(word.syllables) do not spell \(word.word)") }
            if word.syllables.contains(where: { $0.isEmpty }) { problems.append("\(language): \(word.word) has an empty syllable") }
            if !pictograms.contains(word.pictogram) { problems.append("\(language): \(word.word)'s pictogram \(word.pictogram) is not installed") }
        }
        return problems
    }
}

/// The three content packs, loaded once per resources folder.
struct EduCATContent: Sendable {
    static let languages = ["ca", "es", "pt-BR"]
    /// The seed's language: the pack for a patient whose language has none (or is unset).
    static let defaultLanguage = "ca"
    /// The background tune made by sox (see EduCATAudio); a fixed name, versioned by hand.
    static let tuneFile = "educat-tune-v1.mp3"
    static var tuneURL: String { PlanEndpoints.audio.path(tuneFile) }
    /// The celebration of a new record (sox, see EduCATAudio); versioned by hand like the tune.
    static let celebrationFile = "educat-celebration-v1.mp3"
    static var celebrationURL: String { PlanEndpoints.audio.path(celebrationFile) }

    let packs: [String: EduCATPack]

    func pack(_ language: String?) -> EduCATPack {
        language.flatMap { packs[$0] } ?? packs[Self.defaultLanguage]!
    }

    static func load(from directory: String) throws -> EduCATContent {
        var packs: [String: EduCATPack] = [:]
        for language in languages {
            let path = directory + "/\(language).json"
            guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.missing(path) }
            packs[language] = try JSONDecoder().decode(EduCATPack.self, from: data)
        }
        return EduCATContent(packs: packs)
    }

    enum LoadError: Error { case missing(String) }

    private static let loaded = Mutex<[String: EduCATContent]>([:])

    /// The packs under `<resources>/Data/educat`, read from disk the first time only.
    static func shared(resourcesDirectory: String) throws -> EduCATContent {
        if let content = loaded.withLock({ $0[resourcesDirectory] }) { return content }
        let content = try load(from: resourcesDirectory + "/Data/educat")
        loaded.withLock { $0[resourcesDirectory] = content }
        return content
    }
}

/// The screens that have a help text; their keys in the pack's `help`.
enum EduCATScreen: String, CaseIterable, Sendable {
    case menu, numbers, letters, vowels, alphabet, contaCops, records, lesson, game, challenge, contaCopsLesson, contaCopsGame
    var helpKey: String { rawValue }
}
