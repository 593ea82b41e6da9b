import Foundation
import GRDB

/// Everything Tagarela holds about one patient, as a person downloads it (the right of access and
/// portability, LGPD art. 18 and GDPR art. 15 and 20): one section per kind of record, each read by
/// one query with the patient's id and with the ids of other records turned into names.
///
/// Left out, and said so in the archive: the clinicians' private notes (their own annotations, which
/// Spain's Ley 41/2002 art. 18.3 lets them keep back; the family asks the clinic for them), the
/// clinicians' notes field on the patient, and what only the software needs (sessions, password hashes,
/// the login's second factor, invitations' tokens, counts derived from the taps).
struct ArchiveSection: Sendable {
    /// The section's file name and the suffix of its title's key (`privacy_section_<name>`).
    let name: String
    /// The database tables it tells about (`PatientArchiveTests` checks no table with a patient is forgotten).
    let tables: [String]
    /// One query; `?1` is the patient's id; `{language}` the suffix of the name columns in the reader's language.
    let sql: String
}

enum PatientArchive {
    static let sections: [ArchiveSection] = [
        ArchiveSection(name: "person", tables: ["user", "patient"], sql: """
            SELECT u.displayName AS name, u.username, u.locale AS language, p.birthDate, p.sex, p.diagnosis, p.startedOn,
                   p.contact, p.sharesMeasurements, u.createdAt, u.passwordSetAt
            FROM user u JOIN patient p ON p.userId = u.id WHERE u.id = ?1
            """),
        ArchiveSection(name: "care_team", tables: ["clinicianPatient", "tutorPatient", "trainerClient"], sql: """
            SELECT 'clinician' AS relation, u.displayName AS name, u.specialties, l.createdAt AS since
            FROM clinicianPatient l JOIN user u ON u.id = l.clinicianId WHERE l.patientId = ?1
            UNION ALL SELECT 'tutor', u.displayName, '', l.createdAt FROM tutorPatient l JOIN user u ON u.id = l.tutorId WHERE l.patientId = ?1
            UNION ALL SELECT 'trainer', u.displayName, '', l.createdAt FROM trainerClient l JOIN user u ON u.id = l.trainerId WHERE l.patientId = ?1
            """),
        ArchiveSection(name: "link_requests", tables: ["linkRequest"], sql: """
            SELECT r.kind, a.displayName AS account, b.displayName AS requestedBy, r.createdAt, r.decidedAt, r.decision
            FROM linkRequest r JOIN user a ON a.id = r.accountId JOIN user b ON b.id = r.requestedBy WHERE r.patientId = ?1
            ORDER BY r.createdAt
            """),
        ArchiveSection(name: "access_settings", tables: ["accessSetting"], sql: """
            SELECT cellSize, labelPosition, selectOn, holdMs, scanning, scanMs, switches, dwellMs, theme, textSize, voice, updatedAt
            FROM accessSetting WHERE patientId = ?1
            """),
        ArchiveSection(name: "boards", tables: ["plan", "obfImport", "obfImportBoard"], sql: """
            SELECT p.id AS board, p.name, p.description, p.type, p.rows, p.columns, p.startsOn, c.displayName AS clinician, p.createdAt
            FROM plan p LEFT JOIN user c ON c.id = p.clinicianId WHERE p.patientId = ?1 ORDER BY p.id
            """),
        ArchiveSection(name: "board_cells", tables: ["planCell", "sentenceWord", "sentenceLink"], sql: """
            SELECT c.planId AS board, c.position, s.name AS symbol, s.spokenText AS says, l.name AS opensBoard, NULL AS sentenceRole
            FROM planCell c JOIN plan p ON p.id = c.planId LEFT JOIN symbol s ON s.id = c.symbolId LEFT JOIN plan l ON l.id = c.linkPlanId
            WHERE p.patientId = ?1
            UNION ALL SELECT w.planId, NULL, s.name, s.spokenText, NULL, w.role
            FROM sentenceWord w JOIN plan p ON p.id = w.planId JOIN symbol s ON s.id = w.symbolId WHERE p.patientId = ?1
            ORDER BY 1, 2
            """),
        ArchiveSection(name: "own_symbols", tables: ["symbol", "symbolWordForms"], sql: """
            SELECT s.name, s.spokenText AS says, s.pictogram, s.imagePath AS picture, s.audioFile AS sound, s.audioKind AS soundKind, s.createdAt
            FROM symbol s WHERE s.patientId = ?1 ORDER BY s.id
            """),
        ArchiveSection(name: "taps", tables: ["tap"], sql: """
            SELECT t.at, s.name AS symbol, p.name AS board, a.displayName AS withAdult, t.modeling AS adultModeling
            FROM tap t LEFT JOIN symbol s ON s.id = t.symbolId LEFT JOIN plan p ON p.id = t.planId LEFT JOIN user a ON a.id = t.assistedBy
            WHERE t.patientId = ?1 ORDER BY t.at
            """),
        ArchiveSection(name: "sentences", tables: ["sentence"], sql: """
            SELECT t.at, t.text, t.wordCount, t.negated, t.question, a.displayName AS withAdult, t.modeling AS adultModeling
            FROM sentence t LEFT JOIN user a ON a.id = t.assistedBy WHERE t.patientId = ?1 ORDER BY t.at
            """),
        ArchiveSection(name: "observations", tables: ["observation"], sql: """
            SELECT observedOn, authorName, authorRole, body, createdAt FROM observation
            WHERE patientId = ?1 AND isPrivate = 0 ORDER BY observedOn, id
            """),
        ArchiveSection(name: "goals", tables: ["goal"], sql: """
            SELECT id AS goal, title, kind, direction, target, startsOn, endsOn, reviewOn, closedAt, closedReason, createdAt
            FROM goal WHERE patientId = ?1 ORDER BY id
            """),
        ArchiveSection(name: "goal_notes", tables: ["goalNote", "goalEvent"], sql: """
            SELECT n.goalId AS goal, n.createdAt AS at, n.authorName AS author, 'note' AS what, n.body AS text
            FROM goalNote n JOIN goal g ON g.id = n.goalId WHERE g.patientId = ?1 AND n.isPrivate = 0
            UNION ALL SELECT e.goalId, e.at, e.actorName, e.action, e.changes FROM goalEvent e JOIN goal g ON g.id = e.goalId WHERE g.patientId = ?1
            ORDER BY 1, 2
            """),
        ArchiveSection(name: "games_settings", tables: ["educatSettings", "educatLevel"], sql: """
            SELECT 'settings' AS what, NULL AS area, NULL AS level, secondsPerQuestion, lives, language, untimed, itemsOnScreen, speed,
                   promotion, updatedAt FROM educatSettings WHERE patientId = ?1
            UNION ALL SELECT 'level', area, level, NULL, NULL, NULL, NULL, NULL, NULL, NULL, updatedAt FROM educatLevel WHERE patientId = ?1
            """),
        ArchiveSection(name: "games", tables: ["educatResult", "educatLevelRecord"], sql: """
            SELECT playedAt, area, mode, level, hits, errors, durationSeconds, livesAtStart, livesLeft, secondsPerQuestion, language
            FROM educatResult WHERE patientId = ?1 ORDER BY playedAt
            """),
        ArchiveSection(name: "game_answers", tables: ["educatAnswer"], sql: """
            SELECT answeredAt, area, mode, level, asked, expected, tapped, correct, milliseconds
            FROM educatAnswer WHERE patientId = ?1 ORDER BY answeredAt, sequence
            """),
        ArchiveSection(name: "game_words", tables: ["educatItem"], sql: """
            SELECT area, text, spoken, syllables, pictogram, picture, clip AS sound, language, createdAt FROM educatItem
            WHERE patientId = ?1 ORDER BY id
            """),
        ArchiveSection(name: "meals", tables: ["meal"], sql: """
            SELECT m.id AS meal, m.date, m.time, m.type, m.customName, m.status, m.answeredAt, m.reason, m.eatenInstead, m.hunger,
                   m.eatenShare, m.photoPath AS photo, c.displayName AS prescribedBy
            FROM meal m LEFT JOIN user c ON c.id = m.clinicianId WHERE m.patientId = ?1 ORDER BY m.date, m.time
            """),
        ArchiveSection(name: "meal_foods", tables: ["mealLine"], sql: """
            SELECT l.mealId AS meal, m.date, coalesce(l.foodName{language}, f.name{language}) AS food, l.quantity, l.unit,
                   l.consumedQuantity
            FROM mealLine l JOIN meal m ON m.id = l.mealId JOIN food f ON f.id = l.foodId WHERE m.patientId = ?1 ORDER BY m.date, m.time, l.position
            """),
        ArchiveSection(name: "nutrition_targets", tables: ["nutritionTarget"], sql: """
            SELECT kcal, proteinG, carbohydrateG, fatG, updatedAt FROM nutritionTarget WHERE patientId = ?1
            """),
        ArchiveSection(name: "weights", tables: ["weightEntry"], sql: """
            SELECT measuredOn, grams, source, createdAt FROM weightEntry WHERE patientId = ?1 ORDER BY measuredOn
            """),
        ArchiveSection(name: "evaluations", tables: ["evaluation"], sql: """
            SELECT e.id AS evaluation, e.takenOn, e.skinfoldProtocol, e.sex, e.ageYears, e.weightGrams, e.heightMm, t.displayName AS trainer
            FROM evaluation e LEFT JOIN user t ON t.id = e.trainerId WHERE e.patientId = ?1 ORDER BY e.takenOn
            """),
        ArchiveSection(name: "measurements", tables: ["skinfoldReading", "perimeter"], sql: """
            SELECT r.evaluationId AS evaluation, 'skinfold' AS kind, r.site, r.reading, r.tenthsMm AS value
            FROM skinfoldReading r JOIN evaluation e ON e.id = r.evaluationId WHERE e.patientId = ?1
            UNION ALL SELECT p.evaluationId, 'perimeter', p.site, NULL, p.mm FROM perimeter p JOIN evaluation e ON e.id = p.evaluationId
            WHERE e.patientId = ?1
            ORDER BY 1, 2, 3
            """),
        ArchiveSection(name: "imported_measurements", tables: ["fhirMeasurement"], sql: """
            SELECT effective, kind, value, unit, identifierSystem, identifierValue, importedAt FROM fhirMeasurement
            WHERE patientId = ?1 ORDER BY effective, kind
            """),
        ArchiveSection(name: "record_access", tables: ["auditEntry", "patientOpened"], sql: """
            SELECT at, actorName AS who, action, entity, summary FROM auditEntry
            WHERE (entity IN ('patient', 'tutorPatient') AND entityId = ?1) OR actorId = ?1
            UNION ALL SELECT o.openedAt, u.displayName, 'opened', 'patient', '' FROM patientOpened o JOIN user u ON u.id = o.clinicianId
            WHERE o.patientId = ?1
            ORDER BY 1
            """),
        ArchiveSection(name: "erasure_requests", tables: ["erasureRequest"], sql: """
            SELECT requestedAt, requestedByName AS requestedBy, reason, status, decidedAt, decisionNote FROM erasureRequest
            WHERE patientId = ?1 ORDER BY requestedAt
            """),
    ]

    /// Tables that hold a patient's id but nothing a person would read that the sections do not already
    /// say, each with why (the completeness test reads this list).
    static let leftOut: [String: String] = [
        "tapDay": "daily counts derived from the taps",
        "tapDayTotal": "daily counts derived from the taps",
        "tapSymbolDay": "daily counts derived from the taps",
        "tapSymbolFirst": "first day of each word, derived from the taps",
        "patientChange": "a counter that tells pages to refresh",
        "session": "sign-in tokens",
        "invitation": "one-time sign-in tokens",
        "twoFactor": "staff only",
        "recoveryCode": "staff only",
        "loginChallenge": "sign-in tokens",
    ]

    /// The suffix of a food's name columns in `locale`'s language (`{language}` in a section's query).
    static func nameSuffix(_ locale: AppLocale) -> String {
        switch locale {
        case .ptBR: "PtBR"
        case .es: "Es"
        case .ca: "Ca"
        case .en: "En"
        }
    }

    static func sql(of section: ArchiveSection, locale: AppLocale) -> String {
        section.sql.replacingOccurrences(of: "{language}", with: nameSuffix(locale))
    }

    /// One section's rows: column names and values as text (nil for NULL).
    struct Table: Sendable {
        let section: String
        let columns: [String]
        let rows: [[String?]]
    }

    static func read(patientId: Int64, locale: AppLocale, _ db: Database) throws -> [Table] {
        try sections.map { section in
            let statement = try db.makeStatement(sql: sql(of: section, locale: locale))
            let rows = try Row.fetchAll(statement, arguments: [patientId])
            return Table(section: section.name, columns: statement.columnNames,
                         rows: rows.map { row in row.databaseValues.map(text) })
        }
    }

    /// How many rows each section holds, for the page that offers the download.
    static func counts(patientId: Int64, _ db: Database) throws -> [(section: String, count: Int)] {
        try sections.map { section in
            (section.name, try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql(of: section, locale: .en)))", arguments: [patientId]) ?? 0)
        }
    }

    /// How many of the clinicians' private notes the archive leaves out (it says so, and how to ask).
    static func privateNotes(patientId: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM observation WHERE patientId = ?1 AND isPrivate = 1)
                 + (SELECT count(*) FROM goalNote n JOIN goal g ON g.id = n.goalId WHERE g.patientId = ?1 AND n.isPrivate = 1)
                 + (SELECT length(trim(notes)) > 0 FROM patient WHERE userId = ?1)
            """, arguments: [patientId]) ?? 0
    }

    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let string): string
        case .blob(let data): data.base64EncodedString()
        }
    }

    // MARK: - Files

    /// A picture or sound of the patient's, named inside the archive by what it is.
    struct MediaFile: Sendable, Equatable {
        /// Path inside the archive, under `media/`.
        let name: String
        /// Where it is: the media folder, or the audio folder for sounds.
        let location: Location
        let relativePath: String

        enum Location: Sendable { case media, audio }
    }

    /// The patient's own pictures and recordings: the photo, meal photos, their own symbols' pictures and
    /// recorded or uploaded sounds, and the game words' recordings and pictures. Generated speech is left out (made from the text).
    static func mediaFiles(patientId: Int64, _ db: Database) throws -> [MediaFile] {
        var files: [MediaFile] = []
        if let photo = try String.fetchOne(db, sql: "SELECT photoPath FROM patient WHERE userId = ?", arguments: [patientId]) {
            files.append(MediaFile(name: "media/photo" + suffix(photo), location: .media, relativePath: photo))
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, photoPath FROM meal WHERE patientId = ? AND photoPath IS NOT NULL",
                                    arguments: [patientId]) {
            let path: String = row["photoPath"]
            files.append(MediaFile(name: "media/meals/meal-\(row["id"] as Int64)" + suffix(path), location: .media, relativePath: path))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT id, name, imagePath, CASE WHEN audioKind <> 'generated' THEN audioFile END AS sound
            FROM symbol WHERE patientId = ? AND (imagePath IS NOT NULL OR audioKind <> 'generated')
            """, arguments: [patientId]) {
            let base = "media/symbols/\(row["id"] as Int64)-\(fileSafe(row["name"]))"
            if let image: String = row["imagePath"] { files.append(MediaFile(name: base + suffix(image), location: .media, relativePath: image)) }
            if let sound: String = row["sound"] { files.append(MediaFile(name: base + suffix(sound), location: .audio, relativePath: sound)) }
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT id, text, CASE WHEN clip LIKE 'rec-%' THEN clip END AS clip, picture FROM educatItem
            WHERE patientId = ? AND (clip LIKE 'rec-%' OR picture IS NOT NULL)
            """, arguments: [patientId]) {
            let base = "media/game-words/\(row["id"] as Int64)-\(fileSafe(row["text"]))"
            if let clip: String = row["clip"] { files.append(MediaFile(name: base + suffix(clip), location: .audio, relativePath: clip)) }
            if let picture: String = row["picture"] {
                files.append(MediaFile(name: base + suffix(picture), location: .media, relativePath: picture))
            }
        }
        return files
    }

    private static func suffix(_ path: String) -> String {
        let ext = (path as NSString).pathExtension
        return ext.isEmpty ? "" : "." + ext
    }

    /// A name a person typed, safe as a file name on any system. Pure.
    static func fileSafe(_ name: String) -> String {
        let kept = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(kept).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return String(joined.prefix(40)).isEmpty ? "item" : String(joined.prefix(40))
    }
}
