import Foundation
import GRDB
import Synchronization

/// A copy of the starter core board set (`StarterSet`) for one patient: its own plans and its own
/// symbols, so the clinician personalises this child's words (rename, re-record, move, replace) without
/// touching another child's copy. Stored as a board set like an Open Board import (`obfImport`), so the
/// child's lists show the core board only (the others open from its folders) and an export carries the
/// set's language.
enum StarterSets {
    /// The clips every word of the set needs in `language`, made on the caller's thread pool (espeak-ng
    /// and ffmpeg; the cache makes a second copy cost nothing): text → clip file. A clip that cannot be
    /// made is left out and its word is saved without sound, as when a symbol's clip fails.
    static func clips(_ language: AppLocale, speech: SpeechAudio) -> [String: String] {
        let texts = Array(Set(texts(language)))
        let voice = SpeechAudio.voice(for: language)
        let made = Mutex<[String: String]>([:])
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            if let file = try? speech.clip(text: texts[index], voice: voice) { made.withLock { $0[texts[index]] = file } }
        }
        return made.withLock { $0 }
    }

    /// Every text the set speaks in `language`: its words and its folders' names.
    static func texts(_ language: AppLocale) -> [String] {
        StarterSet.allWords.map { $0.name(language) } + StarterSet.fringe.map { $0.name(language) }
    }

    /// Stores the set for `patientId` (whom the caller has checked `clinicianId` may edit) in `language`;
    /// returns the core board's plan id. One transaction: the caller's.
    static func store(language: AppLocale, patientId: Int64, clinicianId: Int64, clips: [String: String],
                      pictograms: PictogramLibrary, now: Date, today: String, audit: AuditContext?, t: Translator,
                      _ db: Database) throws -> Int64 {
        let categories = try categoryIds(clinicianId: clinicianId, t, db)
        func plan(_ name: String, rows: Int, columns: Int) throws -> Int64 {
            var plan = Plan(patientId: patientId, clinicianId: clinicianId, tutorId: nil, name: name, description: "",
                            startsOn: today, type: PlanType.board.rawValue, rows: rows, columns: columns, createdAt: now, updatedAt: now)
            try plan.insert(db)
            try audit?.record(.create, "plan", plan.id, plan.name, db)
            return plan.id!
        }
        func symbol(_ name: String, pictogram: String, part: StarterSet.Part) throws -> Int64 {
            var symbol = Symbol(clinicianId: clinicianId, patientId: patientId, categoryId: categories[part]!, name: name,
                                spokenText: name,
                                pictogram: pictograms.entry(pictogram) != nil ? pictogram : OBFImporter.placeholderPictogram,
                                audioFile: clips[name], audioKind: "generated", voice: language.rawValue, createdAt: now, updatedAt: now)
            try symbol.insert(db)
            return symbol.id!
        }
        let core = try plan(StarterSet.names[language]!, rows: StarterSet.rows, columns: StarterSet.columns)
        var folders: [Int64] = []
        for fringe in StarterSet.fringe {
            // "Núcleo 60 · Comida": the clinician's list shows the folders beside their set; the folder cell says "Comida".
            let board = try plan("\(StarterSet.names[language]!) · \(fringe.name(language))", rows: fringe.rows, columns: fringe.columns)
            folders.append(board)
            for (position, word) in fringe.words.enumerated() {
                try PlanCell(planId: board, position: position, symbolId: try symbol(word.name(language), pictogram: word.pictogram,
                                                                                     part: word.part),
                             linkPlanId: nil).insert(db)
            }
        }
        for (position, cell) in StarterSet.core.enumerated() {
            switch cell {
            case .word(let word):
                try PlanCell(planId: core, position: position,
                             symbolId: try symbol(word.name(language), pictogram: word.pictogram, part: word.part), linkPlanId: nil).insert(db)
            case .folder(let index):
                let fringe = StarterSet.fringe[index]
                try PlanCell(planId: core, position: position,
                             symbolId: try symbol(fringe.name(language), pictogram: fringe.pictogram, part: .misc),
                             linkPlanId: folders[index]).insert(db)
            }
        }
        let words = StarterSet.core.count + StarterSet.fringe.reduce(0) { $0 + $1.words.count }
        var record = OBFImportRecord(patientId: patientId, clinicianId: clinicianId, rootPlanId: core, categoryId: nil,
                                     name: StarterSet.names[language]!, boards: 1 + folders.count, buttons: words, images: 0,
                                     sounds: 0, reusedSymbols: 0, placeholders: 0, warnings: "[]", createdAt: now)
        try record.insert(db)
        for (index, planId) in ([core] + folders).enumerated() {
            try OBFImportBoard(planId: planId, importId: record.id!, isRoot: index == 0, locale: language.rawValue).insert(db)
        }
        try audit?.record(.create, "obfImport", record.id, "starter core set \(language.rawValue): \(1 + folders.count) boards", db)
        return core
    }

    /// The core board of a copy in `language` this clinician gave this patient in the last `seconds`: a double
    /// tap (or a second tab) on "Give this patient a copy" lands on the copy the first made instead of a twin.
    static func recentCopy(language: AppLocale, patientId: Int64, clinicianId: Int64, now: Date, seconds: TimeInterval = 30,
                           _ db: Database) throws -> Int64? {
        try OBFImportRecord.filter(Column("patientId") == patientId && Column("clinicianId") == clinicianId
                                   && Column("name") == StarterSet.names[language]! && Column("createdAt") > now.addingTimeInterval(-seconds))
            .filter(sql: "rootPlanId IN (SELECT planId FROM obfImportBoard WHERE locale = ?)", arguments: [language.rawValue])
            .order(Column("id").desc).fetchOne(db)?.rootPlanId
    }

    /// The clinician's category for each part of speech: the first of their categories in its colour,
    /// else a new one named in their language (questions purple and negation red join the six defaults).
    static func categoryIds(clinicianId: Int64, _ t: Translator, _ db: Database) throws -> [StarterSet.Part: Int64] {
        var categories = try Category.forClinician(clinicianId, t, db)
        var ids: [StarterSet.Part: Int64] = [:]
        for part in StarterSet.Part.allCases {
            if let found = categories.first(where: { $0.colour == part.colour.rawValue }) {
                ids[part] = found.id
            } else {
                var made = Category(clinicianId: clinicianId, name: t[part.categoryKey], colour: part.colour.rawValue,
                                    position: (categories.map(\.position).max() ?? -1) + 1)
                try made.insert(db)
                categories.append(made)
                ids[part] = made.id
            }
        }
        return ids
    }
}
