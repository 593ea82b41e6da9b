import Foundation

/// The four challenge areas (seed: Números, Vocals, Abecedari, Conta-Cops), each with its own record.
enum EduCATArea: String, CaseIterable, Sendable {
    case numbers, vowels, alphabet
    case contaCops = "conta-cops"

    var labelKey: String {
        switch self {
        case .numbers: "numbers"
        case .vowels: "vowels"
        case .alphabet: "alphabet"
        case .contaCops: "contaCops"
        }
    }
}

enum EduCATMode: String, CaseIterable, Sendable {
    case normal, challenge
}

/// Per-patient challenge settings the clinician may change; the seed's 9 s and 3 lives by default.
struct EduCATSettings: Sendable, Equatable {
    static let secondsRange = 3...60
    static let livesRange = 1...9
    static let standard = EduCATSettings(secondsPerQuestion: 9, lives: 3, language: nil)

    var secondsPerQuestion: Int
    var lives: Int
    /// A content pack chosen for this patient, or nil for the patient's own language.
    var language: String?
    /// No countdown: a question waits for the child (motor difficulties).
    var untimed = false
    /// At most this many items on screen; nil for all of the level's.
    var itemsOnScreen: Int? = nil
    var speed = EduCATSpeed.normal
    var promotion = EduCATPromotion.never

    static let itemsRange = 2...40
}

/// The rules of a challenge game, as plain values. Public/js/educat/challenge.js plays by the same
/// rules in the browser; this is what the tests pin down (the server checks a posted result with
/// `EduCATResult.parse`).
struct EduCATChallenge: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case waiting, asking, over }
    enum Outcome: Sendable, Equatable { case hit, miss, timeout }

    let settings: EduCATSettings
    private(set) var phase = Phase.waiting
    private(set) var hits = 0
    private(set) var errors = 0
    private(set) var lives: Int
    private(set) var secondsLeft: Int
    /// The best before this game (0 when none).
    let previousRecord: Int
    /// The record shown: the previous one, or this game's hits as soon as they beat it.
    var record: Int { max(previousRecord, hits) }
    var isNewRecord: Bool { EduCATRecords.beats(hits, previousRecord) }

    init(settings: EduCATSettings, record: Int) {
        self.settings = settings
        previousRecord = record
        lives = settings.lives
        secondsLeft = settings.secondsPerQuestion
    }

    /// "Pregunta": a game starts (or a new one after the pop-up, from zero).
    mutating func start() {
        guard phase != .asking else { return }
        self = EduCATChallenge(settings: settings, record: record)
        phase = .asking
    }

    /// One second of the countdown went by; at zero the question is lost like a wrong answer.
    mutating func tick() {
        guard phase == .asking else { return }
        secondsLeft -= 1
        if secondsLeft <= 0 { answer(.timeout) }
    }

    mutating func answer(_ outcome: Outcome) {
        guard phase == .asking else { return }
        switch outcome {
        case .hit: hits += 1
        case .miss, .timeout:
            errors += 1
            lives -= 1
        }
        secondsLeft = settings.secondsPerQuestion
        if lives == 0 { phase = .over }
    }
}

/// Where a record is kept: one per game (area) and level, so a record set on digits 0–9 is not the
/// one to beat on dots. Only challenges set records, so the mode needs no place in it.
struct EduCATRecordKey: Hashable, Sendable {
    let area: EduCATArea
    let level: Int
}

enum EduCATRecords {
    /// A record is beaten only by strictly more hits; a tie does not count.
    static func beats(_ hits: Int, _ record: Int) -> Bool { hits > record }
}

/// A game result as the browser posts it, and the checks that keep impossible values out.
struct EduCATResult: Sendable, Equatable {
    let area: EduCATArea
    let mode: EduCATMode
    let hits: Int
    let errors: Int
    let durationSeconds: Int
    /// Challenge only: lives at the start and at the end (0 when the game was lost, more when abandoned).
    let livesAtStart: Int?
    let livesLeft: Int?
    let secondsPerQuestion: Int?
    /// Challenge only: the page celebrated a new record during the game (`announced=1`), so a game
    /// left half-way after it may keep the record the child was told of.
    var recordAnnounced = false

    static let maxAnswers = 10_000
    static let maxDuration = 24 * 3600

    enum Problem: String, Error { case area, mode, number, nothingAnswered, lives, seconds }

    /// Reads and checks a posted form: every field present and whole, counts possible together.
    static func parse(_ fields: [String: String]) -> Result<EduCATResult, Problem> {
        guard let area = fields["area"].flatMap(EduCATArea.init(rawValue:)) else { return .failure(.area) }
        guard let mode = fields["mode"].flatMap(EduCATMode.init(rawValue:)) else { return .failure(.mode) }
        func whole(_ name: String) -> Int? {
            guard let text = fields[name], !text.isEmpty, text.allSatisfy(\.isASCII), let value = Int(text) else { return nil }
            return value
        }
        guard let hits = whole("hits"), let errors = whole("errors"), let duration = whole("duration"),
              (0...maxAnswers).contains(hits), (0...maxAnswers).contains(errors), (0...maxDuration).contains(duration)
        else { return .failure(.number) }
        guard hits + errors >= 1 else { return .failure(.nothingAnswered) }
        guard mode == .challenge else {
            return .success(EduCATResult(area: area, mode: mode, hits: hits, errors: errors, durationSeconds: duration,
                                         livesAtStart: nil, livesLeft: nil, secondsPerQuestion: nil))
        }
        guard let start = whole("lives"), let left = whole("livesLeft"), EduCATSettings.livesRange.contains(start),
              (0...start).contains(left), errors == start - left
        else { return .failure(.lives) }
        guard let seconds = whole("seconds"), EduCATSettings.secondsRange.contains(seconds) else { return .failure(.seconds) }
        return .success(EduCATResult(area: area, mode: mode, hits: hits, errors: errors, durationSeconds: duration,
                                     livesAtStart: start, livesLeft: left, secondsPerQuestion: seconds,
                                     recordAnnounced: fields["announced"] == "1"))
    }
}

enum EduCATRandom {
    /// A uniformly random index below `count`; repeats allowed (seed §8 item 7).
    static func index<G: RandomNumberGenerator>(below count: Int, using generator: inout G) -> Int {
        Int.random(in: 0..<count, using: &generator)
    }
}
