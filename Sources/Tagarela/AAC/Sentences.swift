import Foundation
import GRDB

/// A word of a sentence plan: a symbol in one role.
struct SentenceWord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "sentenceWord"

    enum Role: String, Sendable, CaseIterable, Codable {
        case subject, verb, complement

        /// The role whose words may follow this one; complements end the sentence.
        var next: Role? {
            switch self {
            case .subject: .verb
            case .verb: .complement
            case .complement: nil
            }
        }
    }

    var id: Int64?
    var planId: Int64
    var symbolId: Int64
    var role: Role
    var isShortcut: Bool

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct SentenceLink: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sentenceLink"
    var fromWordId: Int64
    var toWordId: Int64
}

/// A sentence plan's vocabulary and links, with the symbol of every word: what the editor, the
/// player and the sentence log need.
struct SentenceGrammar: Sendable {
    struct Word: Sendable {
        let id: Int64
        let role: SentenceWord.Role
        let isShortcut: Bool
        let symbol: Symbol
        let colour: CategoryColour
        /// Its grammar (`WordFormStore`), when known: the form said follows the sentence's subject.
        var forms: WordForms? = nil
    }

    let words: [Word]
    /// Subject → the verbs it allows; verb → the complements it allows.
    let next: [Int64: [Int64]]

    func word(_ id: Int64) -> Word? { words.first { $0.id == id } }
    func words(_ role: SentenceWord.Role) -> [Word] { words.filter { $0.role == role } }

    static func fetch(planId: Int64, _ db: Database) throws -> SentenceGrammar {
        let stored = try SentenceWord.fetchAll(db.cachedStatement(sql: "SELECT * FROM sentenceWord WHERE planId = ? ORDER BY id"),
                                               arguments: [planId])
        let symbols = Dictionary(uniqueKeysWithValues: try Symbol.fetchAll(db, ids: Set(stored.map(\.symbolId))).map { ($0.id!, $0) })
        let colours = Dictionary(uniqueKeysWithValues: try Category.fetchAll(db, ids: Set(symbols.values.map(\.categoryId))).map {
            ($0.id!, $0.categoryColour)
        })
        let grammar = try WordFormStore.forms(for: Array(symbols.values), db)
        let words = stored.compactMap { word -> Word? in
            guard let symbol = symbols[word.symbolId] else { return nil }
            return Word(id: word.id!, role: word.role, isShortcut: word.isShortcut, symbol: symbol,
                        colour: colours[symbol.categoryId] ?? .white, forms: grammar[word.symbolId])
        }
        let links = try SentenceLink.fetchAll(db.cachedStatement(sql: """
            SELECT sentenceLink.* FROM sentenceLink JOIN sentenceWord ON sentenceWord.id = sentenceLink.fromWordId
            WHERE sentenceWord.planId = ? ORDER BY sentenceLink.toWordId
            """), arguments: [planId])
        return SentenceGrammar(words: words, next: Dictionary(grouping: links, by: \.fromWordId).mapValues { $0.map(\.toWordId) })
    }
}

/// The rules of building a sentence: subject → verb → complement, each step showing only what the
/// step before allows. Pure.
enum SentenceRules {
    /// What the patient chooses next.
    enum Step: Equatable, Sendable {
        /// Choices for the next word; the sentence may also be spoken as it is.
        case choose([Int64])
        /// Nothing can follow.
        case done
    }

    /// The next step after `chosen`, or nil when `chosen` is not a sentence this grammar allows.
    /// A sentence opens with a subject or a shortcut verb; a word with nothing linked after it ends the
    /// sentence, so the complement step is skipped for a verb that has no complements.
    static func step(after chosen: [Int64], in grammar: SentenceGrammar) -> Step? {
        var allowed = openers(grammar)
        for id in chosen {
            guard allowed.contains(id), let word = grammar.word(id) else { return nil }
            guard let nextRole = word.role.next else { allowed = []; continue }
            allowed = (grammar.next[id] ?? []).filter { grammar.word($0)?.role == nextRole }
        }
        return allowed.isEmpty ? .done : .choose(allowed)
    }

    /// The words a sentence may open with: every subject, and the verbs marked as shortcuts.
    static func openers(_ grammar: SentenceGrammar) -> [Int64] {
        grammar.words.filter { $0.role == .subject || ($0.role == .verb && $0.isShortcut) }.map(\.id)
    }

    /// Every sentence the plan lets the patient say, in order of choice: each sentence that opens with an
    /// opener and follows the links, stopping at any word (the strip may be spoken at any step). Finite:
    /// roles only move forward, so a sentence has at most three words.
    static func paths(_ grammar: SentenceGrammar) -> [[Int64]] {
        var found: [[Int64]] = []
        func walk(_ sentence: [Int64]) {
            found.append(sentence)
            guard case .choose(let next)? = step(after: sentence, in: grammar) else { return }
            for id in next { walk(sentence + [id]) }
        }
        for opener in openers(grammar) { walk([opener]) }
        return found
    }

    /// The subject each word of a plan may be said after, with the word's form then: word id → (the
    /// subject word's id, or nil when the sentence opens with a verb) → what it says. Only words
    /// whose form changes are listed. The builder shows and plays these, so a verb reads "quer" once
    /// "você" is chosen.
    static func agreeingForms(_ grammar: SentenceGrammar) -> [Int64: [Int64?: String]] {
        var result: [Int64: [Int64?: String]] = [:]
        for path in paths(grammar) {
            let spoken = agreeingWords(path, in: grammar)
            let subject = path.first.flatMap { grammar.word($0)?.role == .subject ? $0 : nil }
            for (index, id) in path.enumerated() where spoken[index].text != grammar.word(id)?.symbol.spokenText {
                result[id, default: [:]][subject] = spoken[index].text
            }
        }
        return result
    }

    /// The words of `ids` as they are said, each in the form that agrees with the sentence (`Agreement`).
    static func agreeingWords(_ ids: [Int64], in grammar: SentenceGrammar) -> [(role: SentenceWord.Role, text: String)] {
        let words = ids.compactMap(grammar.word)
        let spoken = Agreement.sentence(words.map { ($0.symbol.spokenText, $0.forms) })
        return zip(words, spoken).map { ($0.role, $1) }
    }

    /// The whole sentence's text, as logged and as its clip says it.
    static func text(_ ids: [Int64], in grammar: SentenceGrammar, negated: Bool, question: Bool, locale: AppLocale) -> String {
        text(agreeingWords(ids, in: grammar), negated: negated, question: question, locale: locale)
    }

    /// The ways one sentence may be said: plain and question, and with NO when it has a verb.
    static func variants(_ ids: [Int64], in grammar: SentenceGrammar) -> [(negated: Bool, question: Bool)] {
        let hasVerb = ids.contains { grammar.word($0)?.role == .verb }
        return (hasVerb ? [false, true] : [false]).flatMap { negated in [false, true].map { (negated, $0) } }
    }

    /// The NO form's word, said before the verb (seed 001: a red cross over the verb, "no" spoken).
    static func negation(_ locale: AppLocale) -> String {
        switch locale {
        case .ptBR: "não"
        case .es, .ca: "no"
        case .en: "don't"
        }
    }

    /// The words as they are said, in order: the NO word goes just before the first verb (a
    /// sentence without a verb cannot be negated).
    static func spokenWords(_ words: [(role: SentenceWord.Role, text: String)], negated: Bool, locale: AppLocale) -> [String] {
        var spoken: [String] = []
        var negationPlaced = false
        for word in words {
            if negated, !negationPlaced, word.role == .verb {
                spoken.append(negation(locale))
                negationPlaced = true
            }
            spoken.append(word.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return spoken.filter { !$0.isEmpty }
    }

    /// The sentence as it is shown, logged and spoken: "Eu não quero brincar", "¿Yo quiero comer?".
    /// Spanish opens a question with "¿"; every language ends it with "?", which is also what gives
    /// espeak-ng its question intonation.
    static func text(_ words: [(role: SentenceWord.Role, text: String)], negated: Bool, question: Bool, locale: AppLocale) -> String {
        let joined = spokenWords(words, negated: negated, locale: locale).joined(separator: " ")
        let sentence = joined.prefix(1).uppercased() + joined.dropFirst()
        guard question, !sentence.isEmpty else { return sentence }
        return locale == .es ? "¿\(sentence)?" : "\(sentence)?"
    }
}
