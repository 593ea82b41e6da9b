import Foundation

/// One answer of a game as answers.js posts it (a batch is a JSON array in the field `answers`).
struct EduCATAnswer: Sendable, Equatable {
    /// Which answer of the game it is (1, 2, …): a batch sent twice stores each answer once.
    let sequence: Int
    let asked: String
    /// What the child tapped; nil when the time ran out.
    let tapped: String?
    let milliseconds: Int

    static let maxPerBatch = 200
    static let maxMilliseconds = 3_600_000

    private struct Posted: Decodable {
        let seq: Int
        let item: String
        let tapped: String?
        let outcome: String
        let ms: Int
    }

    /// A posted batch: the game it belongs to and its answers; nil when anything is malformed.
    struct Batch: Sendable, Equatable {
        let gameKey: String
        let area: EduCATArea
        let mode: EduCATMode
        let level: Int
        let answers: [EduCATAnswer]
    }

    static func parseBatch(_ fields: [String: String]) -> Batch? {
        guard let key = fields["key"], EduCATGameKey.isValid(key),
              let area = fields["area"].flatMap(EduCATArea.init(rawValue:)),
              let mode = fields["mode"].flatMap(EduCATMode.init(rawValue:)),
              let level = fields["level"].flatMap({ Int($0) }), (1...EduCATLevel.levels(area).count).contains(level),
              let data = fields["answers"]?.data(using: .utf8),
              let posted = try? JSONDecoder().decode([Posted].self, from: data),
              (1...maxPerBatch).contains(posted.count)
        else { return nil }
        var answers: [EduCATAnswer] = []
        for answer in posted {
            let tapped = answer.outcome == "timeout" ? nil : answer.tapped
            guard ["hit", "miss", "timeout"].contains(answer.outcome), (1...10_000).contains(answer.seq),
                  (0...maxMilliseconds).contains(answer.ms), (1...40).contains(answer.item.count),
                  (tapped?.count ?? 1) <= 40, answer.outcome == "timeout" || tapped != nil
            else { return nil }
            answers.append(EduCATAnswer(sequence: answer.seq, asked: answer.item, tapped: tapped, milliseconds: answer.ms))
        }
        return Batch(gameKey: key, area: area, mode: mode, level: level, answers: answers)
    }
}

enum EduCATGameKey {
    /// answers.js makes it with `crypto.randomUUID()`; anything short, plain and unguessable will do.
    static func isValid(_ key: String) -> Bool {
        (8...64).contains(key.count) && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}

/// Whether a posted result could have happened (seed rules in EduCATResult.parse check that it is
/// well formed; these check that it is believable). Pure.
enum EduCATPlausibility {
    enum Problem: String, Error, Equatable {
        /// More answers than the game's duration allows.
        case tooFast
        /// A level the area does not have.
        case level
    }

    /// A right answer needs the question heard and a tap: no child answers faster than this.
    static let minimumSecondsPerHit = 0.4
    /// After each challenge answer the game pauses (the feedback clip) before asking again.
    static let minimumSecondsBetweenChallengeQuestions = 1.0
    /// Rounding of the duration (whole seconds) and the time before the first question.
    static let slackSeconds = 2.0
    /// Wrong taps in a normal game can come quickly, but not faster than a fast drummer.
    static let maximumTapsPerSecond = 8.0

    static func check(_ result: EduCATResult, level: Int?) -> Problem? {
        if let level, !(1...EduCATLevel.levels(result.area).count).contains(level) { return .level }
        let duration = Double(result.durationSeconds) + slackSeconds
        if Double(result.hits) * minimumSecondsPerHit > duration { return .tooFast }
        switch result.mode {
        case .normal:
            if Double(result.hits + result.errors) > duration * maximumTapsPerSecond { return .tooFast }
        case .challenge:
            let answers = result.hits + result.errors
            if Double(answers - 1) * minimumSecondsBetweenChallengeQuestions > duration { return .tooFast }
        }
        return nil
    }

    /// Only a record the child was shown is stored: a challenge played to its end (the pop-up seen),
    /// or one left half-way after the game celebrated the record as it was beaten (`recordAnnounced`).
    /// A challenge left half-way without that is kept as a result and never beats the record.
    /// The result counts what the game's stored answers count: every answer is a hit or an error.
    static func agrees(_ result: EduCATResult, withAnswers tally: (hits: Int, errors: Int)) -> Bool {
        result.hits == tally.hits && result.errors == tally.errors
    }

    static func maySetRecord(_ result: EduCATResult) -> Bool {
        result.mode == .challenge && (result.livesLeft == 0 || result.recordAnnounced)
    }
}

/// The language of the child's eduCAT pack when the clinician chose none: the patient's own, else a
/// tutor's, else the interface's; a language without a pack is skipped. Catalan is never a guess:
/// only a choice (the clinician's, or someone's language) gives it. Pure.
enum EduCATLanguage {
    static func pack(chosen: String?, patient: String?, tutors: [String?], interface: String) -> String {
        let candidates = [chosen, patient] + tutors + [interface]
        return candidates.compactMap { $0 }.first(where: EduCATContent.languages.contains) ?? AppLocale.fallback.rawValue
    }
}

/// What the answers say about a child, in plain rules the results page shows as sentences. Pure.
enum EduCATInsights {
    struct Answer: Sendable, Equatable {
        let area: EduCATArea
        let asked: String
        let expected: String
        let tapped: String?
        let correct: Bool
    }

    /// Two items the child mixes up: how many times either was taken for the other.
    struct Confusion: Sendable, Equatable {
        let first: String
        let second: String
        let times: Int
    }

    /// Mix-ups worth telling: at least `minimum` times, most frequent first, at most `limit`.
    static func confusions(_ answers: [Answer], minimum: Int = 2, limit: Int = 3) -> [Confusion] {
        var counts: [[String]: Int] = [:]
        for answer in answers where !answer.correct && answer.area != .contaCops {
            guard let tapped = answer.tapped, tapped != answer.expected else { continue }
            counts[[answer.expected, tapped].sorted(), default: 0] += 1
        }
        return counts.filter { $0.value >= minimum }
            .map { Confusion(first: $0.key[0], second: $0.key[1], times: $0.value) }
            .sorted { ($0.times, $1.first, $1.second) > ($1.times, $0.first, $0.second) }
            .prefix(limit).map { $0 }
    }

    /// Conta-cops: the syllable counts the child misses, where at least `minimum` words of that
    /// length were asked and under `threshold` % of them were counted right.
    static func missedSyllableCounts(_ answers: [Answer], minimum: Int = 3, threshold: Int = 60) -> [Int] {
        var asked: [Int: (right: Int, total: Int)] = [:]
        for answer in answers where answer.area == .contaCops {
            guard let count = Int(answer.expected) else { continue }
            let before = asked[count] ?? (0, 0)
            asked[count] = (before.right + (answer.correct ? 1 : 0), before.total + 1)
        }
        return asked.filter { $0.value.total >= minimum && $0.value.right * 100 < threshold * $0.value.total }.keys.sorted()
    }

    /// One point per day: the share of right answers and the median time per answer.
    struct Day: Sendable, Equatable {
        let day: String
        let percentCorrect: Double
        let medianSeconds: Double
    }

    static func days(_ answers: [(day: String, correct: Bool, milliseconds: Int)]) -> [Day] {
        let grouped = Dictionary(grouping: answers, by: \.day)
        return grouped.keys.sorted().map { day in
            let group = grouped[day]!
            let right = group.filter(\.correct).count
            let times = group.map(\.milliseconds).sorted()
            let middle = times.count / 2
            let median = times.count % 2 == 1 ? Double(times[middle]) : Double(times[middle - 1] + times[middle]) / 2
            return Day(day: day, percentCorrect: (Double(right) * 100 / Double(group.count)).rounded(),
                       medianSeconds: (median / 100).rounded() / 10)
        }
    }
}
