import Foundation

/// Which of a clinician's patients need attention, why, and in what order. Pure: the dashboard reads
/// the signals in one query (`DashboardQueries.clinician`) and these rules decide.
enum WorklistRules {
    /// Days without a tap on a patient who has boards before the clinician is told.
    static let idleDays = 7
    /// Adherence under this share of answered meals is low (as the nutrition dashboard always said).
    static let lowAdherence = 0.7
    /// The interval used for a patient's re-evaluation when no trainer set one for this clinician.
    static let reevaluationDays = 90

    /// What the record says about one patient, as far as this clinician may know.
    struct Signals: Sendable, Equatable {
        var hasBoards = false
        /// The last day (ISO) with a tap; nil: never.
        var lastBoardUse: String?
        var goalsBehind = 0
        var overdueMeals = 0
        /// Fulfilled ÷ answered meals over the dashboard's period; nil when nothing was answered.
        var adherence: Double?
        /// The last body-composition evaluation (ISO); nil: never evaluated.
        var lastEvaluation: String?
        /// Tutors' notes written since this clinician last opened the patient.
        var newTutorNotes = 0
    }

    enum Reason: Sendable, Equatable {
        /// Days since the last tap; nil when the boards were never used.
        case noBoardUse(days: Int?)
        case goalsBehind(Int)
        case overdueMeals(Int)
        case lowAdherence(Double)
        case reevaluation(overdue: Bool, dueOn: String)
        case newTutorNotes(Int)

        /// How much this reason weighs in the order: a goal falling behind first, a note to read last.
        var weight: Int {
            switch self {
            case .goalsBehind: 5
            case .noBoardUse: 4
            case .overdueMeals, .lowAdherence: 3
            case .reevaluation(let overdue, _): overdue ? 3 : 1
            case .newTutorNotes: 2
            }
        }
    }

    /// What the clinician's specialties let the worklist speak about.
    struct Scope: Sendable, Equatable {
        let speech: Bool
        let nutrition: Bool
    }

    static func reasons(_ signals: Signals, today: String, scope: Scope) -> [Reason] {
        var reasons: [Reason] = []
        if signals.goalsBehind > 0 { reasons.append(.goalsBehind(signals.goalsBehind)) }
        if scope.speech, signals.hasBoards {
            if let last = signals.lastBoardUse {
                if let lastDay = ISODate.dayNumber(last), let now = ISODate.dayNumber(today), now - lastDay >= idleDays {
                    reasons.append(.noBoardUse(days: now - lastDay))
                }
            } else {
                reasons.append(.noBoardUse(days: nil))
            }
        }
        if scope.nutrition {
            if signals.overdueMeals > 0 { reasons.append(.overdueMeals(signals.overdueMeals)) }
            if let rate = signals.adherence, rate < lowAdherence { reasons.append(.lowAdherence(rate)) }
            let (status, dueOn) = Reevaluation.status(lastTakenOn: signals.lastEvaluation, intervalDays: reevaluationDays, today: today)
            if let dueOn, status == .due || status == .overdue { reasons.append(.reevaluation(overdue: status == .overdue, dueOn: dueOn)) }
        }
        if scope.speech, signals.newTutorNotes > 0 { reasons.append(.newTutorNotes(signals.newTutorNotes)) }
        return reasons
    }

    /// The total weight of `reasons(_:today:scope:)` as an SQL expression, so that the database orders and
    /// cuts the worklist of thousands of patients. It reads the columns `goalsBehind`, `hasBoards`,
    /// `lastBoardUse`, `overdueMeals`, `fulfilled` and `answered` (meals of the period), `lastEvaluation`,
    /// `newTutorNotes` and `today` (ISO dates); `WorklistRulesTests` holds it equal to the Swift rules.
    static func weightSQL(scope: Scope) -> String {
        let speech = scope.speech ? 1 : 0, nutrition = scope.nutrition ? 1 : 0
        let days = "CAST(julianday(today) - julianday(lastEvaluation) AS INTEGER)"
        return """
            ((goalsBehind > 0) * \(Reason.goalsBehind(1).weight)
             + (\(speech) AND hasBoards AND (lastBoardUse IS NULL
                OR CAST(julianday(today) - julianday(lastBoardUse) AS INTEGER) >= \(idleDays))) * \(Reason.noBoardUse(days: nil).weight)
             + (\(nutrition) AND overdueMeals > 0) * \(Reason.overdueMeals(1).weight)
             + (\(nutrition) AND answered > 0 AND fulfilled * 1.0 / answered < \(lowAdherence)) * \(Reason.lowAdherence(0).weight)
             + CASE WHEN \(nutrition) AND lastEvaluation IS NOT NULL THEN
                    CASE WHEN \(days) > \(reevaluationDays) THEN \(Reason.reevaluation(overdue: true, dueOn: "").weight)
                         WHEN \(days) >= \(reevaluationDays - Reevaluation.dueWindowDays)
                         THEN \(Reason.reevaluation(overdue: false, dueOn: "").weight) ELSE 0 END
               ELSE 0 END
             + (\(speech) AND newTutorNotes > 0) * \(Reason.newTutorNotes(1).weight))
            """
    }

    /// A name folded once so that comparing keys (`<`) orders names as `localizedCaseInsensitiveCompare`
    /// does: case and accents set aside, letters that are not an accented Latin letter spelled as one
    /// (ø as o, æ as ae…), and punctuation outside ASCII before letters, as ICU puts it. `precedes` breaks
    /// ties with the comparison itself. `WorklistRulesTests` holds both orders equal on awkward names.
    static func nameKey(_ name: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars {
            switch scalar {
            case "ø": key.append("o")
            case "æ": key.append(contentsOf: "ae".unicodeScalars)
            case "œ": key.append(contentsOf: "oe".unicodeScalars)
            case "ß": key.append(contentsOf: "ss".unicodeScalars)
            case "ł": key.append("l")
            case "đ": key.append("d")
            case "þ": key.append(contentsOf: "th".unicodeScalars)
            default:
                key.append(scalar.isASCII || scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? scalar : " ")
            }
        }
        return String(key)
    }

    /// Whether the name of `a` comes before that of `b` (each with its `nameKey`).
    static func precedes(_ a: (key: String, name: String), _ b: (key: String, name: String)) -> Bool {
        a.key != b.key ? a.key < b.key : a.name.localizedCaseInsensitiveCompare(b.name) == .orderedAscending
    }

    /// Patients with reasons first, the heaviest first, then by name; then everyone else by name.
    static func order<Item>(_ items: [(item: Item, name: String, reasons: [Reason])]) -> [(item: Item, name: String, reasons: [Reason])] {
        items.sorted { left, right in
            let (a, b) = (left.reasons.reduce(0) { $0 + $1.weight }, right.reasons.reduce(0) { $0 + $1.weight })
            if a != b { return a > b }
            return left.name.localizedCaseInsensitiveCompare(right.name) == .orderedAscending
        }
    }
}
