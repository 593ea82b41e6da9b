import Crypto
import Foundation
import GRDB

/// Brings boards read by `OBFReader` into a patient's plans: pictures and sounds first (ffmpeg, espeak-ng),
/// then every plan, symbol and cell in one transaction. When anything fails, the files made so far are
/// deleted and nothing is stored.
struct OBFImporter: Sendable {
    let media: MediaStore
    let speech: SpeechAudio
    let pictograms: PictogramLibrary
    /// Where pictures and sounds taken out of the file wait for ffmpeg.
    let temporaryDirectory: String

    /// Shown when a picture cannot be used (only a URL, an SVG, a GIF, unreadable) and no pictogram has the label's word.
    static let placeholderPictogram = "1F5E3"

    struct Result: Equatable, Sendable {
        let rootPlanId: Int64
        /// Buttons whose picture was replaced by a pictogram.
        let placeholders: Int
    }

    /// What a button becomes once its media are ready.
    struct Face: Sendable {
        var pictogram: String?
        var imagePath: String?
        var audioFile: String?
        var audioKind = "generated"
        var voice: String
        var isPlaceholder = false
    }

    /// The boards with their pictures and sounds made (ffmpeg, espeak-ng): the slow part, done holding no
    /// transaction. The files made are deleted again by `store` if the boards cannot be stored.
    struct Prepared: Sendable {
        let boards: [OBFBoard]
        let faces: [CellKey: Face]
        let made: MadeFiles
    }

    func prepare(_ boards: [OBFBoard], fallbackLocale: AppLocale) throws -> Prepared {
        var made = MadeFiles()
        do {
            return Prepared(boards: boards, faces: try prepareFaces(boards, fallbackLocale: fallbackLocale, made: &made), made: made)
        } catch {
            made.remove(media: media, speech: speech)
            throw error
        }
    }

    /// Every plan, symbol and cell of `prepared`, in the caller's transaction; when anything fails (the
    /// patient no longer linked), the files made for them are deleted and the error goes on.
    func store(_ prepared: Prepared, patientId: Int64, actor: Actor, now: Date, timeZone: TimeZone, audit: AuditContext,
               t: Translator, _ db: Database) throws -> Result {
        do {
            return try store(prepared.boards, faces: prepared.faces, patientId: patientId, actor: actor, now: now,
                             today: ISODate.string(now, timeZone: timeZone), audit: audit, t: t, db)
        } catch {
            prepared.made.remove(media: media, speech: speech)
            throw error
        }
    }

    /// Files this import created, to delete if it does not complete. Generated clips are shared by
    /// content address with every other symbol saying the same words, so they are never deleted here.
    struct MadeFiles: Sendable {
        var images: [String] = []
        var recordings: [String] = []

        func remove(media: MediaStore, speech: SpeechAudio) {
            images.forEach { media.remove($0) }
            recordings.forEach { speech.remove($0) }
        }
    }

    struct CellKey: Hashable, Sendable { let board: Int, position: Int }

    // MARK: - Pictures and sounds

    func prepareFaces(_ boards: [OBFBoard], fallbackLocale: AppLocale, made: inout MadeFiles) throws -> [CellKey: Face] {
        var faces: [CellKey: Face] = [:]
        var storedImages: [String: String?] = [:], storedSounds: [String: String?] = [:]  // by content hash
        for (boardIndex, board) in boards.enumerated() {
            let locale = board.locale.flatMap { AppLocale.preferred(byAcceptLanguage: $0.replacingOccurrences(of: "_", with: "-")) }
                ?? fallbackLocale
            for (position, cell) in board.cells.enumerated() {
                guard let button = cell, Self.needsSymbol(button, boards) else { continue }
                var face = Face(voice: locale.rawValue)
                // Image
                if let hexcode = button.image?.pictogram, pictograms.entry(hexcode) != nil {
                    face.pictogram = hexcode
                } else if case .bytes(let data)? = button.image?.media, MediaStore.kind(of: [UInt8](data.prefix(16))) != nil {
                    let hash = Self.hash(data)
                    if storedImages[hash] == nil {
                        let stored = try? withTemporaryFile(data) { try media.storeSymbolImage(atPath: $0) }
                        if let stored { made.images.append(stored) }
                        storedImages[hash] = .some(stored)
                    }
                    face.imagePath = storedImages[hash] ?? nil
                }
                if face.pictogram == nil, face.imagePath == nil {
                    face.pictogram = pictogram(for: button.label, locale: locale) ?? Self.placeholderPictogram
                    // A button that never had a picture is not a lost picture.
                    face.isPlaceholder = button.image != nil
                }
                // Sound: a Tagarela clip is generated again; a recording is normalised like an upload; else generated.
                let spoken = button.vocalization ?? button.label
                if let voice = button.sound?.generatedVoice.flatMap(AppLocale.init(rawValue:)) {
                    face.voice = voice.rawValue
                } else if case .bytes(let data)? = button.sound?.media {
                    let hash = Self.hash(data)
                    if storedSounds[hash] == nil {
                        let stored = try? withTemporaryFile(data) { try speech.normalise(recordingAt: $0) }
                        if let stored { made.recordings.append(stored) }
                        storedSounds[hash] = .some(stored)
                    }
                    if let recording = storedSounds[hash] ?? nil {
                        face.audioFile = recording
                        face.audioKind = "uploaded"
                    }
                }
                if face.audioFile == nil {
                    let voice = AppLocale(rawValue: face.voice) ?? fallbackLocale
                    face.audioFile = try? speech.clip(text: spoken, voice: SpeechAudio.voice(for: voice))
                }
                faces[CellKey(board: boardIndex, position: position)] = face
            }
        }
        return faces
    }

    /// A folder button keeps a symbol of its own only when it shows more than the name of the board it opens.
    static func needsSymbol(_ button: OBFButton, _ boards: [OBFBoard]) -> Bool {
        guard let link = button.linkIndex else { return true }
        return button.image != nil || button.label != boards[link].name
    }

    /// A pictogram of the library whose word is exactly the label (ignoring case and accents).
    func pictogram(for label: String, locale: AppLocale) -> String? {
        let word = PictogramLibrary.fold(label)
        return pictograms.search(label, locale: locale, limit: 1).first { PictogramLibrary.fold($0.name(locale)) == word }?.hexcode
    }

    private func withTemporaryFile<T>(_ data: Data, _ body: (String) throws -> T) throws -> T {
        try FileManager.default.createDirectory(atPath: temporaryDirectory, withIntermediateDirectories: true)
        let path = temporaryDirectory + "/obf-" + UUID().uuidString.lowercased()
        guard FileManager.default.createFile(atPath: path, contents: data) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    static func hash(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - The transaction

    private func store(_ boards: [OBFBoard], faces: [CellKey: Face], patientId: Int64, actor: Actor, now: Date, today: String,
                       audit: AuditContext, t: Translator, _ db: Database) throws -> Result {
        // Checked again inside the transaction: the link may have gone while the media were converted.
        _ = try PatientScope.find(patientId, visibleTo: actor, db)
        let categories = try Category.forClinician(actor.userId, t, db)
        var planIDs: [Int64] = []
        for board in boards {
            var plan = Plan(patientId: patientId, clinicianId: actor.userId, tutorId: nil, name: board.name,
                            description: board.description, startsOn: today,
                            type: board.cells.count == 1 ? PlanType.bigSymbol.rawValue : PlanType.board.rawValue,
                            rows: board.rows, columns: board.columns, createdAt: now, updatedAt: now)
            try plan.insert(db)
            try audit.record(.create, "plan", plan.id, plan.name, db)
            planIDs.append(plan.id!)
        }
        // The same button on several boards becomes one symbol.
        var symbols: [String: Int64] = [:]
        var placeholders = 0
        for (boardIndex, board) in boards.enumerated() {
            for (position, cell) in board.cells.enumerated() {
                guard let button = cell else { continue }
                var symbolId: Int64?
                if let face = faces[CellKey(board: boardIndex, position: position)] {
                    let category = CategoryMatch.category(named: button.category, background: button.backgroundColour,
                                                          border: button.borderColour, among: categories)
                    guard let categoryId = category?.id else { throw AppError.conflict }
                    let key = [button.label, button.vocalization ?? "", face.pictogram ?? "", face.imagePath ?? "",
                               face.audioFile ?? "", face.voice, "\(categoryId)"].joined(separator: "\u{1F}")
                    if let existing = symbols[key] {
                        symbolId = existing
                    } else {
                        var symbol = Symbol(clinicianId: actor.userId, patientId: patientId, categoryId: categoryId, name: button.label,
                                            spokenText: button.vocalization ?? button.label, pictogram: face.pictogram,
                                            imagePath: face.imagePath, audioFile: face.audioFile, audioKind: face.audioKind,
                                            voice: face.voice, createdAt: now, updatedAt: now)
                        try symbol.insert(db)
                        symbols[key] = symbol.id
                        symbolId = symbol.id
                        if face.isPlaceholder { placeholders += 1 }
                    }
                }
                try PlanCell(planId: planIDs[boardIndex], position: position, symbolId: symbolId,
                             linkPlanId: button.linkIndex.map { planIDs[$0] }).insert(db)
            }
        }
        return Result(rootPlanId: planIDs[0], placeholders: placeholders)
    }
}
