import Foundation
import GRDB

/// The tap log: every symbol a patient touched and every sentence they said, each stored once per
/// key the tablet gave it (a tap sent twice, or late from an offline queue, counts once). Callers
/// pass the signed-in patient (or the tutor's patient mode) as `actor`, and `modeling` when the session
/// says an adult is modeling (stored as `tap.modeling` / `sentence.modeling`: the adult's taps, not the child's words),
/// and `alone` when the adult said the child taps alone (the tap names no helper, `assistedBy` NULL).
enum Taps {
    /// A symbol touched on one of the patient's plans.
    static func record(symbolId: Int64, key: String, planId: Int64, at: Date, receivedAt: Date, actor: Actor,
                       modeling: Bool = false, alone: Bool = false, _ db: Database) throws {
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        // The most frequent write: its statements are prepared once per connection (the insert's
        // triggers made preparing it a quarter of the request).
        let onPlan = try Bool.fetchOne(db.cachedStatement(sql: plan.planType == .sentence
            ? "SELECT EXISTS (SELECT 1 FROM sentenceWord WHERE planId = ? AND symbolId = ?)"
            : "SELECT EXISTS (SELECT 1 FROM planCell WHERE planId = ? AND symbolId = ?)"), arguments: [plan.id, symbolId])
        guard onPlan == true else { throw AppError.notFound }
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO tap (key, patientId, planId, symbolId, assistedBy, at, receivedAt, modeling)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [key, actor.userId, plan.id, symbolId, alone ? nil : actor.supervisorId, at, receivedAt,
                                     modeling && actor.isPatientMode])
    }

    /// A sentence spoken from a board's strip: its symbols in order, each of them on this patient's boards.
    static func recordStrip(symbolIds ids: [Int64], key: String, planId: Int64, at: Date, actor: Actor, modeling: Bool = false,
                            alone: Bool = false, _ db: Database) throws {
        guard (1...100).contains(ids.count) else { throw AppError.badRequest }
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        let symbols = Dictionary(uniqueKeysWithValues: try Symbol.fetchAll(db, keys: Set(ids)).map { ($0.id!, $0) })
        let onBoards = Set(try Int64.fetchAll(db, sql: """
            SELECT DISTINCT symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
            WHERE plan.patientId = ? AND symbolId IS NOT NULL
            """, arguments: [plan.patientId]))
        guard ids.allSatisfy({ symbols[$0] != nil && onBoards.contains($0) }) else { throw AppError.notFound }
        // Logged as the strip said it: each word in the form that agrees ("eu quero"), the ids unchanged.
        let said = ids.compactMap { symbols[$0] }
        let text = BoardWords.spokenText(said, forms: try WordFormStore.forms(for: Array(symbols.values), db))
        try db.execute(sql: """
            INSERT OR IGNORE INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at, modeling)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [key, plan.patientId, plan.id, ids.map(String.init).joined(separator: ","),
                             text, ids.count, alone ? nil : actor.supervisorId, at,
                             modeling && actor.isPatientMode])
    }

    /// A sentence said on a sentence plan, and what its whole clip needs.
    struct SpokenSentence: Sendable {
        let planId: Int64
        let wordIds: String
        let negated: Bool
        let question: Bool
        let text: String
        let voice: String
    }

    /// A sentence built on a sentence plan (subject, verb, complement), checked against the plan's
    /// links and logged with its spoken text. `fallback` is the language when no word has a voice; the
    /// whole clip speaks in the patient's chosen voice where it is one of `voices` (`PatientVoice`).
    static func recordSentence(wordIds ids: [Int64], negated: Bool, question: Bool, key: String, planId: Int64, at: Date,
                               actor: Actor, fallback: AppLocale, voices: Set<SpeechVoice> = [.espeak], modeling: Bool = false,
                               alone: Bool = false, _ db: Database) throws -> SpokenSentence {
        guard (1...3).contains(ids.count) else { throw AppError.badRequest }
        let plan = try PlanScope.find(planId, visibleTo: actor, db)
        guard plan.planType == .sentence else { throw AppError.notFound }
        let grammar = try SentenceGrammar.fetch(planId: plan.id!, db)
        guard SentenceRules.step(after: ids, in: grammar) != nil else { throw AppError.badRequest }
        let words = ids.compactMap(grammar.word)
        let locale = SentenceRoutes.language(of: grammar, fallback: fallback)
        let text = SentenceRules.text(ids, in: grammar, negated: negated, question: question, locale: locale)
        let wordIds = ids.map(String.init).joined(separator: ",")
        try db.execute(sql: """
            INSERT OR IGNORE INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at, wordIds, negated, question,
                                            modeling)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [key, plan.patientId, plan.id, words.map { "\($0.symbol.id!)" }.joined(separator: ","), text,
                             words.count, alone ? nil : actor.supervisorId, at, wordIds, negated, question, modeling && actor.isPatientMode])
        let voice = PatientVoice(chosen: try AccessSettings.load(patientId: plan.patientId, db).voice, installed: voices)
        return SpokenSentence(planId: plan.id!, wordIds: wordIds, negated: negated, question: question, text: text,
                              voice: voice.engine(for: locale))
    }

    /// The whole sentence's clip, once made, on every logged saying of it that lacks one. True when
    /// the clip became known (the builder's page lists the known ones).
    static func keepClip(_ clip: String, for sentence: SpokenSentence, _ db: Database) throws -> Bool {
        try db.execute(sql: """
            UPDATE sentence SET clip = ? WHERE planId = ? AND wordIds = ? AND negated = ? AND question = ? AND clip IS NULL
            """, arguments: [clip, sentence.planId, sentence.wordIds, sentence.negated, sentence.question])
        return db.changesCount > 0
    }
}
