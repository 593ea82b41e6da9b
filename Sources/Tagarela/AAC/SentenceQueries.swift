import Foundation
import GRDB

/// What the sentence-plan pages show, read in the request's one transaction.
enum SentenceQueries {
    struct Editor {
        struct Chooser {
            let role: SentenceWord.Role
            let categories: [Category]
            /// The symbols the clinician may add to the role, those already in it left out.
            let symbols: [Symbol]
        }

        let plan: Plan
        let patient: PlanQueries.Patient
        let grammar: SentenceGrammar
        let chooser: Chooser?
    }

    /// A sentence plan's vocabulary and links, and, when a role is being added to, the chooser's symbols.
    static func editor(_ plan: Plan, by actor: Actor, filter: PlanQueries.SymbolFilter, add role: SentenceWord.Role?,
                       _ db: Database) throws -> Editor {
        let grammar = try SentenceGrammar.fetch(planId: plan.id!, db)
        var chooser: Editor.Chooser?
        if let role {
            let taken = Set(grammar.words(role).map(\.symbol.id))
            chooser = Editor.Chooser(
                role: role, categories: try Category.forClinicianReadOnly(actor.userId, db),
                symbols: try PlanQueries.usableSymbols(clinicianId: actor.userId, patientId: plan.patientId, filter, db)
                    .filter { !taken.contains($0.id) })
        }
        return Editor(plan: plan, patient: try PlanQueries.person(plan.patientId, db), grammar: grammar, chooser: chooser)
    }
}

/// Writes to sentence plans: their words, links and the log of sentences said, each with its checks
/// and, for the clinician's changes, its audit row.
enum SentencePlans {
    /// The plan, if the clinician may change it and it is a sentence plan (a 404 otherwise).
    static func editable(_ planId: Int64, by actor: Actor, _ db: Database) throws -> Plan {
        let plan = try PlanScope.editable(planId, by: actor, db)
        guard plan.planType == .sentence else { throw AppError.notFound }
        return plan
    }

    /// Adds a symbol the clinician may use to a role. The same symbol twice in one role would be two
    /// identical buttons: adding it again changes nothing.
    static func addWord(planId: Int64, symbolId: Int64, role: SentenceWord.Role, by actor: Actor, audit: AuditContext,
                        _ db: Database) throws -> Plan {
        let plan = try editable(planId, by: actor, db)
        guard try SymbolScope.usable(by: actor.userId, for: plan.patientId).filter(key: symbolId).fetchCount(db) == 1
        else { throw AppError.notFound }
        try db.execute(sql: "INSERT OR IGNORE INTO sentenceWord (planId, symbolId, role, isShortcut) VALUES (?, ?, ?, 0)",
                       arguments: [plan.id, symbolId, role.rawValue])
        try touch(plan, audit, "word \(role.rawValue) \(symbolId)", db)
        return plan
    }

    /// Removes a word; its links go with it (ON DELETE CASCADE).
    static func removeWord(planId: Int64, wordId: Int64, by actor: Actor, audit: AuditContext, _ db: Database) throws -> SentenceWord {
        let plan = try editable(planId, by: actor, db)
        let word = try word(wordId, of: plan, db)
        try word.delete(db)
        try touch(plan, audit, "remove word \(word.id!)", db)
        return word
    }

    /// Lets a verb open a sentence on its own (or not).
    static func setShortcut(planId: Int64, wordId: Int64, _ isShortcut: Bool, by actor: Actor, audit: AuditContext,
                            _ db: Database) throws -> SentenceWord {
        let plan = try editable(planId, by: actor, db)
        var word = try word(wordId, of: plan, db)
        guard word.role == .verb else { throw AppError.badRequest }
        word.isShortcut = isShortcut
        try word.update(db)
        try touch(plan, audit, "shortcut \(word.id!) \(word.isShortcut)", db)
        return word
    }

    /// Makes the word's picture the plan's picture on the child's tiles. A word of another plan is a 404.
    static func chooseCover(planId: Int64, wordId: Int64, by actor: Actor, audit: AuditContext, _ db: Database) throws -> SentenceWord {
        let plan = try editable(planId, by: actor, db)
        let word = try word(wordId, of: plan, db)
        try BoardCovers.choose(symbolId: word.symbolId, of: plan, db)
        try touch(plan, audit, "cover word \(word.id!)", db)
        return word
    }

    /// Replaces the words that may follow one word: a subject's verbs, or a verb's complements. Any
    /// other word of the plan (or of another) is a 400, and nothing changes.
    static func setLinks(planId: Int64, wordId: Int64, to chosen: Set<Int64>, by actor: Actor, audit: AuditContext,
                         _ db: Database) throws -> SentenceWord {
        let plan = try editable(planId, by: actor, db)
        let word = try word(wordId, of: plan, db)
        guard let nextRole = word.role.next else { throw AppError.badRequest }
        let allowed = Set(try Int64.fetchAll(db, sql: "SELECT id FROM sentenceWord WHERE planId = ? AND role = ?",
                                             arguments: [plan.id, nextRole.rawValue]))
        guard chosen.isSubset(of: allowed) else { throw AppError.badRequest }
        try SentenceLink.filter(Column("fromWordId") == word.id).deleteAll(db)
        for target in chosen.sorted() { try SentenceLink(fromWordId: word.id!, toWordId: target).insert(db) }
        try touch(plan, audit, "links \(word.id!): \(chosen.count)", db)
        return word
    }

    private static func word(_ id: Int64, of plan: Plan, _ db: Database) throws -> SentenceWord {
        guard let word = try SentenceWord.filter(key: id).filter(Column("planId") == plan.id).fetchOne(db)
        else { throw AppError.notFound }
        return word
    }

    private static func touch(_ plan: Plan, _ audit: AuditContext, _ detail: String, _ db: Database) throws {
        try Plans.touch(plan, at: audit.now, db)
        try audit.record(.update, "plan", plan.id, detail, db)
    }

    /// A sentence said on the builder, logged once per key (a queue sent twice from an offline tablet).
    static func logSentence(key: String, plan: Plan, words: [SentenceGrammar.Word], text: String, assistedBy: Int64?, at: Date,
                            wordIds: String, negated: Bool, question: Bool, _ db: Database) throws {
        try db.execute(sql: """
            INSERT OR IGNORE INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at, wordIds, negated, question)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [key, plan.patientId, plan.id, words.map { "\($0.symbol.id!)" }.joined(separator: ","), text,
                             words.count, assistedBy, at, wordIds, negated, question])
    }

    /// Gives the sentences said this way their whole clip; true when one had none yet.
    static func setClip(_ clip: String, planId: Int64, wordIds: String, negated: Bool, question: Bool, _ db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE sentence SET clip = ? WHERE planId = ? AND wordIds = ? AND negated = ? AND question = ? AND clip IS NULL",
                       arguments: [clip, planId, wordIds, negated, question])
        return db.changesCount > 0
    }
}
