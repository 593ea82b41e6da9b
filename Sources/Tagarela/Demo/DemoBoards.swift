import Foundation
import GRDB

/// The demo clinic's boards: Ana's categories and symbols (pt-BR), Davi's own symbols in Spanish
/// (his teacher Beatriz speaks Spanish with him), and for each child a 3×3 board, a 4×5 board with a
/// folder to the first one, and a big-symbol plan; with two weeks of taps and a few observations. Carla also
/// has her copy of the starter core board set (`StarterSets`), in Portuguese.
enum DemoBoards {
    /// Words on Ana's general boards: (pictogram hexcode, Fitzgerald category index).
    static let general: [(String, Int)] = [
        ("1F64B", 0), ("1F469", 0), ("1F468", 0), ("1F9D1-200D-1F3EB", 0), ("1F476", 0),
        ("1F374", 1), ("1F964", 1), ("1F634", 1), ("26F9", 1), ("1F440", 1), ("27A1", 1), ("1F450", 1), ("1F6D1", 1),
        ("1F3C3", 1), ("1F4D6", 1), ("1F3A8", 1), ("1F6C0", 1), ("1F3A7", 1), ("1F9CD", 1), ("1F4BA", 1),
        ("1F600", 2), ("1F622", 2), ("1F620", 2), ("1F628", 2), ("1F62B", 2), ("1F912", 2),
        ("2705", 3), ("274C", 3), ("2795", 3), ("1F198", 3), ("270B", 3), ("1F3C1", 3), ("1F501", 3), ("1F44D", 3),
        ("1F44E", 3), ("1F64F", 3), ("1F97A", 3), ("1F917", 3),
    ]

    /// Davi's own symbols, spoken in Spanish.
    static let daviSpanish: [(String, Int, String)] = [
        ("1F64B", 0, "yo"), ("1F469", 0, "mamá"), ("1F374", 1, "comer"), ("1F964", 1, "beber"), ("26F9", 1, "jugar"),
        ("1F634", 1, "dormir"), ("1F600", 2, "contento"), ("1F622", 2, "triste"), ("2705", 3, "sí"), ("274C", 3, "no"),
        ("2795", 3, "más"), ("1F198", 3, "ayuda"), ("1F6BD", 5, "baño"), ("1F4A7", 4, "agua"), ("1F34E", 4, "manzana"),
        ("1F3EB", 4, "escuela"), ("1F9F8", 4, "osito"), ("26BD", 4, "pelota"), ("1F68C", 4, "autobús"), ("1F3E0", 4, "casa"),
    ]

    /// Food, drink and things for the folder board.
    static let things: [String] = ["1F4A7", "1F95B", "1F34E", "1F34C", "1F35E", "1F36A", "1F355", "1F9C3", "1F9F8", "26BD",
                                   "1F697", "1F3E0", "1F3EB", "1F6BD", "1F4FA"]

    static func seed(_ db: Database, clinician: Int64, patients: [(id: Int64, tutor: Int64)], davi: Int64, starterFor: Int64, now: Date,
                     library: PictogramLibrary, speech: SpeechAudio?, t: Translator, spanishNames: Translator) throws {
        let categories = try Category.forClinician(clinician, t, db)
        func symbol(_ hexcode: String, category: Int, word: String? = nil, voice: AppLocale = .ptBR, patient: Int64? = nil) throws -> Symbol? {
            guard let entry = library.entry(hexcode) else { return nil }
            let text = word ?? entry.name(voice)
            var symbol = Symbol(clinicianId: clinician, patientId: patient, categoryId: categories[category].id!, name: text,
                                spokenText: text, pictogram: hexcode,
                                audioFile: try? speech?.clip(text: text, voice: SpeechAudio.voice(for: voice)),
                                audioKind: "generated", voice: voice.rawValue, createdAt: now, updatedAt: now)
            try symbol.insert(db)
            return symbol
        }
        var generalSymbols: [Symbol] = []
        for (hexcode, category) in general { if let made = try symbol(hexcode, category: category) { generalSymbols.append(made) } }
        var thingSymbols: [Symbol] = []
        for hexcode in things { if let made = try symbol(hexcode, category: 4) { thingSymbols.append(made) } }
        var spanish: [Symbol] = []
        for (hexcode, category, word) in daviSpanish {
            if let made = try symbol(hexcode, category: category, word: word, voice: .es, patient: davi) { spanish.append(made) }
        }
        // Davi's folder of things, in his own Spanish words.
        var daviThings: [Symbol] = []
        for hexcode in things { if let made = try symbol(hexcode, category: 4, voice: .es, patient: davi) { daviThings.append(made) } }
        let today = ISODate.string(now, timeZone: TimeZone(identifier: "UTC")!)
        for (patient, tutor) in patients {
            let isDavi = patient == davi
            let words = isDavi ? spanish : generalSymbols
            let names = isDavi ? spanishNames : t
            let folder = try plan(db, patient: patient, clinician: clinician, tutor: tutor, name: names["demo_board_things"], rows: 3,
                                  columns: 5, symbols: isDavi ? daviThings : thingSymbols, today: today, now: now)
            let core = try plan(db, patient: patient, clinician: clinician, tutor: tutor, name: names["demo_board_core"], rows: 3,
                                columns: 3, symbols: Array(words.prefix(9)), today: today, now: now)
            let big = try plan(db, patient: patient, clinician: clinician, tutor: tutor, name: names["demo_board_help"], rows: 1,
                               columns: 1, symbols: words.filter { $0.pictogram == "1F198" }, today: today, now: now, type: .bigSymbol)
            let main = try plan(db, patient: patient, clinician: clinician, tutor: tutor, name: names["demo_board_day"], rows: 4,
                                columns: 5, symbols: Array(words.prefix(19)), today: today, now: now)
            try PlanCell(planId: main.id!, position: 19, symbolId: nil, linkPlanId: folder.id).insert(db)
            // Each tile its own picture (`BoardCovers`): "Meu dia" shows playing, the core board keeps its "eu".
            if let playing = try PlanCell.filter(Column("planId") == main.id!).fetchAll(db)
                .first(where: { cell in words.contains { $0.id == cell.symbolId && $0.pictogram == "26F9" } }) {
                try BoardCovers.choose(playing, of: main, db)
            }
            try seedTaps(db, patient: patient, tutor: tutor, plans: [core, main, big], now: now)
            for (index, length) in [2, 3, 2, 4].enumerated() {
                let chosen = Array(words.prefix(length + index).suffix(length))
                try db.execute(sql: """
                    INSERT INTO sentence (key, patientId, planId, symbolIds, text, wordCount, assistedBy, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: ["demo-sentence-\(patient)-\(index)", patient, main.id, chosen.map { "\($0.id!)" }.joined(separator: ","),
                                     chosen.map(\.name).joined(separator: " "), length, tutor,
                                     now.addingTimeInterval(-Double(index + 1) * 86_400)])
            }
        }
        for (patient, tutor) in patients {
            // The words already on the child's boards are reused; the others are made (general ones in
            // Portuguese, Davi's own in Spanish).
            let isDavi = patient == davi
            var pool = isDavi ? spanish : generalSymbols
            var made: [String: Int64] = [:]
            for entry in sentenceWords {
                let word = isDavi ? entry.es : entry.ptBR
                if let existing = pool.first(where: { $0.pictogram == entry.hexcode && $0.name == word }) {
                    made[entry.ptBR] = existing.id
                } else if let symbol = try symbol(entry.hexcode, category: entry.category, word: word,
                                                  voice: isDavi ? .es : .ptBR, patient: isDavi ? davi : nil) {
                    pool.append(symbol)
                    made[entry.ptBR] = symbol.id
                }
            }
            if !isDavi { generalSymbols = pool }
            try sentencePlan(db, patient: patient, clinician: clinician, tutor: tutor,
                             name: (isDavi ? spanishNames : t)["demo_sentence_plan"],
                             symbols: made, today: today, now: now)
        }
        // Carla's clinician gave her a copy of the starter core board set, in Portuguese like her other boards.
        _ = try StarterSets.store(language: .ptBR, patientId: starterFor, clinicianId: clinician,
                                  clips: speech.map { StarterSets.clips(.ptBR, speech: $0) } ?? [:], pictograms: library, now: now,
                                  today: today, audit: nil, t: t, db)
        for (patient, tutor) in patients {
            let tutorName = try String.fetchOne(db, sql: "SELECT displayName FROM user WHERE id = ?", arguments: [tutor]) ?? ""
            var shared = Observation(patientId: patient, authorId: tutor, authorName: tutorName, authorRole: "tutor",
                                     observedOn: ISODate.adding(-3, to: today),
                                     body: t["demo_observation_tutor"], isPrivate: false, createdAt: now)
            try shared.insert(db)
            var clinical = Observation(patientId: patient, authorId: clinician, authorName: "Ana Souza", authorRole: "clinician",
                                       observedOn: ISODate.adding(-1, to: today),
                                       body: t["demo_observation_clinician"], isPrivate: true, createdAt: now)
            try clinical.insert(db)
        }
    }

    /// The sentence builder's words (seed 001): (pictogram, category, pt-BR, es, role, opens a sentence).
    static let sentenceWords: [(hexcode: String, category: Int, ptBR: String, es: String, role: SentenceWord.Role, isShortcut: Bool)] = [
        ("1F64B", 0, "eu", "yo", .subject, false), ("1F449", 0, "você", "tú", .subject, false),
        ("1F450", 1, "quero", "quiero", .verb, true), ("1F642", 2, "estou", "estoy", .verb, true),
        ("1F3C1", 1, "terminei", "terminé", .verb, false),
        ("26F9", 1, "brincar", "jugar", .complement, false), ("1F374", 1, "comer", "comer", .complement, false),
        ("1F964", 1, "beber", "beber", .complement, false), ("1F634", 1, "dormir", "dormir", .complement, false),
        ("1F600", 2, "feliz", "contento", .complement, false), ("1F622", 2, "triste", "triste", .complement, false),
        ("1F62B", 2, "cansado", "cansado", .complement, false),
    ]

    /// "Eu/você → quero → brincar, comer, beber, dormir"; "estou → feliz, triste, cansado"; "terminei" ends
    /// a sentence on its own. Words are named by their pt-BR text in `symbols`.
    static let sentenceLinks: [String: [String]] = [
        "eu": ["quero", "estou", "terminei"], "você": ["quero", "estou", "terminei"],
        "quero": ["brincar", "comer", "beber", "dormir"], "estou": ["feliz", "triste", "cansado"],
    ]

    static func sentencePlan(_ db: Database, patient: Int64, clinician: Int64, tutor: Int64, name: String,
                             symbols: [String: Int64], today: String, now: Date) throws {
        // Its tile shows "quero", the word most sentences start from, not the "eu" that also opens the core board.
        var plan = Plan(patientId: patient, clinicianId: clinician, tutorId: tutor, name: name, description: "", startsOn: today,
                        type: PlanType.sentence.rawValue, rows: 1, columns: 1, createdAt: now, updatedAt: now,
                        coverSymbolId: symbols["quero"])
        try plan.insert(db)
        var words: [String: Int64] = [:]
        for entry in sentenceWords {
            guard let symbolId = symbols[entry.ptBR] else { continue }
            var word = SentenceWord(planId: plan.id!, symbolId: symbolId, role: entry.role, isShortcut: entry.isShortcut)
            try word.insert(db)
            words[entry.ptBR] = word.id
        }
        for (from, targets) in sentenceLinks {
            guard let fromId = words[from] else { continue }
            for target in targets { if let toId = words[target] { try SentenceLink(fromWordId: fromId, toWordId: toId).insert(db) } }
        }
    }

    static func plan(_ db: Database, patient: Int64, clinician: Int64, tutor: Int64, name: String, rows: Int, columns: Int,
                     symbols: [Symbol], today: String, now: Date, type: PlanType = .board) throws -> Plan {
        var plan = Plan(patientId: patient, clinicianId: clinician, tutorId: tutor, name: name, description: "", startsOn: today,
                        type: type.rawValue, rows: rows, columns: columns, createdAt: now, updatedAt: now)
        try plan.insert(db)
        for (position, symbol) in symbols.prefix(rows * columns).enumerated() {
            try PlanCell(planId: plan.id!, position: position, symbolId: symbol.id, linkPlanId: nil).insert(db)
        }
        return plan
    }

    /// Two weeks of taps, more on school days, some with the tutor beside the child.
    static func seedTaps(_ db: Database, patient: Int64, tutor: Int64, plans: [Plan], now: Date) throws {
        var counter = 0
        for plan in plans {
            let symbols = try Int64.fetchAll(db, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL",
                                             arguments: [plan.id])
            guard !symbols.isEmpty else { continue }
            for day in 1...14 {
                for tap in 0..<(3 + (day * 7 + symbols.count) % 9) {
                    counter += 1
                    let at = now.addingTimeInterval(-Double(day) * 86_400 + Double(tap * 97 % 3600) + 8 * 3600)
                    try db.execute(sql: """
                        INSERT INTO tap (key, patientId, planId, symbolId, assistedBy, at, receivedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: ["demo-\(patient)-\(counter)", patient, plan.id, symbols[(tap * 5 + day) % symbols.count],
                                         counter % 3 == 0 ? nil : tutor, at, at])
                }
            }
        }
    }
}
