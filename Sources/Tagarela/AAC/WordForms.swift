import Foundation
import GRDB

/// A word's grammar as the sentence builder and the board strip need it: its class, what a subject
/// brings to agreement (person, number, gender), and its forms by key: a verb's "inf" and "1s"…"3p"
/// (in the tense its symbol speaks: "terminei" → "terminou"), a noun's or adjective's "ms", "fs", "mp", "fp".
struct WordForms: Codable, Sendable, Equatable {
    enum WordClass: String, Codable, Sendable, CaseIterable { case pronoun, noun, verb, adjective, other }
    enum Number: String, Codable, Sendable, CaseIterable { case singular = "s", plural = "p" }
    enum Gender: String, Codable, Sendable, CaseIterable { case masculine = "m", feminine = "f" }

    var wordClass: WordClass
    /// A pronoun's grammatical person, 1…3 ("você" and "usted" are 3).
    var person: Int?
    var number: Number?
    var gender: Gender?
    var forms: [String: String] = [:]

    static let verbKeys = ["inf", "1s", "2s", "3s", "1p", "2p", "3p"]
    static let nominalKeys = ["ms", "fs", "mp", "fp"]

    /// The form keys this class of word has.
    var keys: [String] {
        switch wordClass {
        case .verb: Self.verbKeys
        case .noun, .adjective: Self.nominalKeys
        case .pronoun, .other: []
        }
    }
}

/// Who a sentence is about, as far as agreement goes.
struct AgreementSubject: Equatable, Sendable {
    var person: Int
    var number: WordForms.Number
    var gender: WordForms.Gender?

    /// The child speaking of themself, when a sentence opens with its verb ("Quero brincar").
    static let speaker = AgreementSubject(person: 1, number: .singular, gender: nil)

    var verbKey: String { "\(person)\(number.rawValue)" }
    /// An adjective's key; with no gender known, the masculine, which is also the dictionary form.
    var nominalKey: String { "\((gender ?? .masculine).rawValue)\(number.rawValue)" }
}

/// Agreement of Portuguese, Spanish and Catalan as a child's sentence needs it. Pure.
///
/// - The subject is the first pronoun or noun before the first verb; a sentence that opens with its
///   verb speaks of the child ("Quero brincar", "Vull jugar").
/// - A verb agrees with the subject in person and number ("você quer", "tu vols"); a verb that follows
///   another verb is said in the infinitive ("quero brincar", "vull menjar").
/// - An adjective agrees in gender and number with the nearest noun before it ("bola azul", "os carros
///   bonitos"), else with the subject ("ela está cansada"), else it is masculine singular.
/// - Everything else is said as its symbol says it.
enum Agreement {
    /// What a word brings as a subject: a pronoun its person, a noun the third person.
    static func subject(_ word: WordForms?) -> AgreementSubject? {
        guard let word else { return nil }
        switch word.wordClass {
        case .pronoun: return AgreementSubject(person: min(max(word.person ?? 3, 1), 3), number: word.number ?? .singular,
                                               gender: word.gender)
        case .noun: return AgreementSubject(person: 3, number: word.number ?? .singular, gender: word.gender)
        default: return nil
        }
    }

    /// The key of the form `word` takes, or nil when it is said as its symbol says it. `noun` is the
    /// nearest noun before the word, which an adjective agrees with before the subject.
    static func key(for word: WordForms, subject: AgreementSubject?, noun: AgreementSubject? = nil, afterVerb: Bool) -> String? {
        switch word.wordClass {
        case .verb: afterVerb ? "inf" : (subject ?? .speaker).verbKey
        case .adjective: (noun ?? subject ?? .speaker).nominalKey
        default: nil
        }
    }

    /// The words of a sentence as they are said, each in the form that agrees: `text` is what the
    /// symbol says, used when the word has no form for its key (or an empty one).
    static func sentence(_ words: [(text: String, forms: WordForms?)]) -> [String] {
        var subject: AgreementSubject?
        var noun: AgreementSubject?
        var seenVerb = false
        var previousIsVerb = false
        return words.map { word in
            defer {
                previousIsVerb = word.forms?.wordClass == .verb
                if word.forms?.wordClass == .noun { noun = Self.subject(word.forms) }
            }
            guard let forms = word.forms else { return word.text }
            if !seenVerb, subject == nil, let found = Self.subject(forms) { subject = found }
            if forms.wordClass == .verb { seenVerb = true }
            return form(of: word.text, forms, key: key(for: forms, subject: subject, noun: noun, afterVerb: previousIsVerb))
        }
    }

    /// The form under `key`, in the case the symbol's text was written in ("Quero" → "Quer").
    static func form(of text: String, _ forms: WordForms?, key: String?) -> String {
        guard let key, let form = forms?.forms[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !form.isEmpty
        else { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, first.isUppercase, first.lowercased() != String(first) else { return form }
        return form.prefix(1).uppercased() + form.dropFirst()
    }
}

/// A symbol's grammar as the clinician set it (or corrected the lexicon's).
struct SymbolWordForms: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "symbolWordForms"
    var symbolId: Int64
    var wordClass: String
    var person: Int?
    var number: String?
    var gender: String?
    /// JSON object: form key → text.
    var forms: String
    var updatedAt: Date

    init(symbolId: Int64, _ word: WordForms, at: Date) {
        self.symbolId = symbolId
        wordClass = word.wordClass.rawValue
        person = word.person
        number = word.number?.rawValue
        gender = word.gender?.rawValue
        let kept = word.forms.filter { !$0.value.isEmpty }
        forms = String(decoding: (try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys])) ?? Data("{}".utf8),
                       as: UTF8.self)
        updatedAt = at
    }

    var wordForms: WordForms {
        WordForms(wordClass: WordForms.WordClass(rawValue: wordClass) ?? .other, person: person,
                  number: number.flatMap(WordForms.Number.init(rawValue:)), gender: gender.flatMap(WordForms.Gender.init(rawValue:)),
                  forms: (try? JSONSerialization.jsonObject(with: Data(forms.utf8))) as? [String: String] ?? [:])
    }
}

enum WordFormsSchema {
    static func v1(_ db: Database) throws {
        try db.create(table: "symbolWordForms") { t in
            t.primaryKey("symbolId", .integer).references("symbol", onDelete: .cascade)
            t.column("wordClass", .text).notNull()
            t.column("person", .integer)
            t.column("number", .text)
            t.column("gender", .text)
            t.column("forms", .text).notNull().defaults(to: "{}")
            t.column("updatedAt", .datetime).notNull()
        }
    }
}

/// Reads and writes of word forms: the clinician's, else the lexicon's for the symbol's text and voice.
enum WordFormStore {
    /// Each symbol's grammar, where one is known: stored for the symbol, else found in the lexicon.
    static func forms(for symbols: [Symbol], _ db: Database) throws -> [Int64: WordForms] {
        let ids = symbols.compactMap(\.id)
        guard !ids.isEmpty else { return [:] }
        let stored = Dictionary(uniqueKeysWithValues: try SymbolWordForms.fetchAll(db, ids: ids, column: "symbolId").map { ($0.symbolId, $0.wordForms) })
        var result: [Int64: WordForms] = [:]
        for symbol in symbols {
            guard let id = symbol.id else { continue }
            result[id] = stored[id] ?? WordLexicon.lookup(symbol.spokenText, language: symbol.voice)
        }
        return result
    }

    /// One symbol's grammar, and whether the clinician set it.
    static func forms(for symbol: Symbol, _ db: Database) throws -> (forms: WordForms?, isStored: Bool) {
        if let stored = try SymbolWordForms.fetchOne(db, key: symbol.id) { return (stored.wordForms, true) }
        return (WordLexicon.lookup(symbol.spokenText, language: symbol.voice), false)
    }

    /// Keeps the clinician's grammar for a symbol; the symbol counts as changed, so pages that show
    /// it (a board's grid, the builder) are built again.
    static func save(_ forms: WordForms, for symbol: Symbol, audit: AuditContext, _ db: Database) throws {
        try SymbolWordForms(symbolId: symbol.id!, forms, at: audit.now).save(db)
        try db.execute(sql: "UPDATE symbol SET updatedAt = ? WHERE id = ?", arguments: [audit.now, symbol.id])
        try audit.record(.update, "symbol", symbol.id, "word forms \(forms.wordClass.rawValue)", db)
    }
}
