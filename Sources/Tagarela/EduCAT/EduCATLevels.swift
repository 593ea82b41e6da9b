import Foundation

/// A level of one area, as GCompris has them: what set of items it asks and how letters are shown.
/// `key` is what the page passes to the game (`data-level-key`) and names the level's label
/// (`educat_level_<key>` in the catalogue).
struct EduCATLevel: Sendable, Equatable {
    let area: EduCATArea
    /// 1-based, in the order a child goes through them.
    let number: Int
    let key: String

    /// The levels of an area, easiest first.
    static func levels(_ area: EduCATArea) -> [EduCATLevel] {
        let keys: [String] = switch area {
        case .numbers: ["digits-0-5", "digits-0-9", "quantities"]
        case .vowels: ["capitals", "lower", "joined"]
        case .alphabet: ["vowels", "capitals", "lower", "joined"]
        case .contaCops: ["syllables-1-2", "syllables-3", "syllables-4", "all"]
        }
        return keys.enumerated().map { EduCATLevel(area: area, number: $0.offset + 1, key: $0.element) }
    }

    /// A patient's level before anyone chose one: the game as it was before levels (0–9, a–z in
    /// capitals, every word), so nothing changes under a child; the clinician may start lower.
    static func standard(_ area: EduCATArea) -> Int {
        switch area {
        case .numbers: 2
        case .vowels: 1
        case .alphabet: 2
        case .contaCops: 4
        }
    }

    /// The level `number` of `area`, clamped into the levels it has (an old stored level stays playable).
    static func of(_ area: EduCATArea, number: Int) -> EduCATLevel {
        let all = levels(area)
        return all[min(max(number, 1), all.count) - 1]
    }

    var next: EduCATLevel? {
        let all = Self.levels(area)
        return number < all.count ? all[number] : nil
    }

    /// The pack's items this level asks (moving-items areas). The alphabet's lower case and joined-up
    /// levels add the pack's own letters (ç, l·l, ny and the accented vowels in Catalan) and the
    /// clinician's additions for the patient.
    func items(_ pack: EduCATPack) -> [EduCATPack.Item] {
        switch (area, key) {
        case (.numbers, "digits-0-5"): pack.numbers.filter { Int($0.symbol).map { $0 <= 5 } ?? false }
        case (.numbers, _): pack.numbers
        case (.vowels, _): pack.vowelItems
        case (.alphabet, "vowels"): pack.vowelItems
        case (.alphabet, "capitals"): pack.alphabet
        case (.alphabet, _): pack.alphabet + pack.extraLetterItems + (pack.addedLetterItems ?? [])
        case (.contaCops, _): []
        }
    }

    /// The conta-cops words this level asks, by their syllable count.
    func words(_ words: [EduCATPack.Word]) -> [EduCATPack.Word] {
        let kept: [EduCATPack.Word] = switch key {
        case "syllables-1-2": words.filter { $0.syllableCount <= 2 }
        case "syllables-3": words.filter { $0.syllableCount == 3 }
        case "syllables-4": words.filter { $0.syllableCount >= 4 }
        default: words
        }
        // A level with no word of its kind (a small set) asks every word rather than nothing.
        return kept.isEmpty ? words : kept
    }
}

/// When the clinician lets the child pass a level on their own: after `count` right answers in a
/// row, or once `percent` of the last `window` answers at the level are right.
enum EduCATPromotion: Sendable, Equatable {
    case never
    case streak(Int)
    case accuracy(Int)

    static let streakRange = 2...30
    static let percentRange = 50...100
    /// Answers the percentage is taken over: enough that two lucky taps do not pass a level.
    static let window = 10

    var kind: String {
        switch self {
        case .never: "never"
        case .streak: "streak"
        case .accuracy: "accuracy"
        }
    }

    var value: Int? {
        switch self {
        case .never: nil
        case .streak(let count): count
        case .accuracy(let percent): percent
        }
    }

    init?(kind: String, value: Int?) {
        switch (kind, value) {
        case ("never", _): self = .never
        case ("streak", let count?) where Self.streakRange.contains(count): self = .streak(count)
        case ("accuracy", let percent?) where Self.percentRange.contains(percent): self = .accuracy(percent)
        default: return nil
        }
    }

    /// Whether the answers given at the current level (oldest first, `true` = right) pass it.
    func passes(_ answers: [Bool]) -> Bool {
        switch self {
        case .never:
            return false
        case .streak(let count):
            return answers.count >= count && answers.suffix(count).allSatisfy { $0 }
        case .accuracy(let percent):
            guard answers.count >= Self.window else { return false }
            let right = answers.suffix(Self.window).filter { $0 }.count
            return right * 100 >= percent * Self.window
        }
    }
}

/// How fast the items move, as a multiplier the game applies (`data-speed`).
enum EduCATSpeed: String, CaseIterable, Sendable {
    case slow, normal, fast

    var multiplier: String {
        switch self {
        case .slow: "0.5"
        case .normal: "1"
        case .fast: "1.5"
        }
    }
}
