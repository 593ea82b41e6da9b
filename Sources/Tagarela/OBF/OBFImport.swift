import Crypto
import Foundation
import GRDB
import Synchronization

/// Brings boards read by `OBFReader` into a patient's plans: pictures and sounds first (ffmpeg, espeak-ng),
/// then every plan, symbol and cell in one transaction. When anything fails, the files made so far are
/// deleted and nothing is stored.
struct OBFImporter: Sendable {
    let media: MediaStore
    let speech: SpeechAudio
    let pictograms: PictogramLibrary
    /// Where pictures and sounds taken out of the file wait for ffmpeg.
    let temporaryDirectory: String

    /// Shown when a picture cannot be used (only a URL, a GIF, an SVG that reaches outside itself, unreadable) and no pictogram has the label's word.
    static let placeholderPictogram = "1F5E3"

    struct Result: Equatable, Sendable {
        let rootPlanId: Int64
        /// The import's record (`obfImport`), which its result page shows.
        let importId: Int64
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
        /// The file's picture and sound this face uses (`OBFImage.key`), for the counts.
        var imageKey: String?
        var soundKey: String?
    }

    /// The boards with their pictures and sounds made (ffmpeg, espeak-ng): the slow part, done holding no
    /// transaction. The files made are deleted again by `store` if the boards cannot be stored.
    struct Prepared: Sendable {
        let boards: [OBFBoard]
        let faces: [CellKey: Face]
        let made: MadeFiles
    }

    /// `progress(done, total)` is called as pictures, recordings and clips are made (from several threads).
    func prepare(_ boards: [OBFBoard], fallbackLocale: AppLocale,
                 progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Prepared {
        var made = MadeFiles()
        do {
            return Prepared(boards: boards, faces: try prepareFaces(boards, fallbackLocale: fallbackLocale, made: &made,
                                                                    progress: progress),
                            made: made)
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
                             today: ISODate.string(now, timeZone: timeZone), audit: audit, t: t, made: prepared.made, db)
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

    /// One conversion: a picture or recording of the file (by content hash), or a clip to generate.
    enum Job: Hashable, Sendable {
        case image(hash: String)
        /// An SVG, made safe and drawn as a PNG (`SVGPicture`).
        case svg(hash: String)
        case recording(hash: String)
        case clip(text: String, voice: String)
    }

    /// Decides every button's face first (cheap), then makes each distinct picture, recording and clip
    /// once, on as many threads as there are processors: a set of 80 boards asks for hundreds of clips.
    func prepareFaces(_ boards: [OBFBoard], fallbackLocale: AppLocale, made: inout MadeFiles,
                      progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> [CellKey: Face] {
        var faces: [CellKey: Face] = [:]
        var bytes: [String: Data] = [:]  // by content hash
        var jobs: [Job] = [], planned: Set<Job> = []
        var imageJob: [CellKey: Job] = [:], soundJob: [CellKey: Job] = [:], clipJob: [CellKey: Job] = [:]
        func plan(_ job: Job) -> Job {
            if planned.insert(job).inserted { jobs.append(job) }
            return job
        }
        for (boardIndex, board) in boards.enumerated() {
            let locale = board.locale.flatMap { AppLocale.preferred(byAcceptLanguage: $0.replacingOccurrences(of: "_", with: "-")) }
                ?? fallbackLocale
            for (position, cell) in board.cells.enumerated() {
                guard let button = cell, Self.needsSymbol(button, boards) else { continue }
                let key = CellKey(board: boardIndex, position: position)
                var face = Face(voice: locale.rawValue)
                if let hexcode = button.image?.pictogram, pictograms.entry(hexcode) != nil {
                    face.pictogram = hexcode
                    face.imageKey = button.image?.key
                } else if case .bytes(let data)? = button.image?.media, MediaStore.kind(of: [UInt8](data.prefix(16))) != nil {
                    let hash = Self.hash(data)
                    bytes[hash] = data
                    imageJob[key] = plan(.image(hash: hash))
                } else if case .bytes(let data)? = button.image?.media, SVGPicture.looksLikeSVG(data) {
                    let hash = Self.hash(data)
                    bytes[hash] = data
                    imageJob[key] = plan(.svg(hash: hash))
                }
                if let voice = button.sound?.generatedVoice.flatMap(AppLocale.init(rawValue:)) {
                    face.voice = voice.rawValue
                    face.soundKey = button.sound?.key
                } else if case .bytes(let data)? = button.sound?.media {
                    let hash = Self.hash(data)
                    bytes[hash] = data
                    soundJob[key] = plan(.recording(hash: hash))
                }
                if soundJob[key] == nil {
                    let voice = SpeechAudio.voice(for: AppLocale(rawValue: face.voice) ?? fallbackLocale)
                    clipJob[key] = plan(.clip(text: button.vocalization ?? button.label, voice: voice))
                }
                faces[key] = face
            }
        }

        let results = try run(jobs, bytes: bytes, progress: progress)
        for job in jobs {
            switch (job, results[job] ?? nil) {
            case (.image, let stored?), (.svg, let stored?): made.images.append(stored)
            case (.recording, let stored?): made.recordings.append(stored)
            default: break
            }
        }
        for (boardIndex, board) in boards.enumerated() {
            let locale = board.locale.flatMap { AppLocale.preferred(byAcceptLanguage: $0.replacingOccurrences(of: "_", with: "-")) }
                ?? fallbackLocale
            for (position, cell) in board.cells.enumerated() {
                let key = CellKey(board: boardIndex, position: position)
                guard let button = cell, var face = faces[key] else { continue }
                if let job = imageJob[key], let stored = results[job] ?? nil {
                    face.imagePath = stored
                    face.imageKey = button.image?.key
                }
                if face.pictogram == nil, face.imagePath == nil {
                    face.pictogram = pictogram(for: button.label, locale: locale) ?? Self.placeholderPictogram
                    // A button that never had a picture is not a lost picture.
                    face.isPlaceholder = button.image != nil
                }
                // A recording that ffmpeg could not read leaves the generated clip.
                if let job = soundJob[key], let stored = results[job] ?? nil {
                    face.audioFile = stored
                    face.audioKind = "uploaded"
                    face.soundKey = button.sound?.key
                } else if let job = clipJob[key] {
                    face.audioFile = results[job] ?? nil
                } else {
                    let voice = SpeechAudio.voice(for: AppLocale(rawValue: face.voice) ?? fallbackLocale)
                    face.audioFile = try? speech.clip(text: button.vocalization ?? button.label, voice: voice)
                }
                faces[key] = face
            }
        }
        return faces
    }

    /// Makes each job once, in parallel; a job that fails gives nil (the button falls back).
    private func run(_ jobs: [Job], bytes: [String: Data], progress: @escaping @Sendable (Int, Int) -> Void) throws
        -> [Job: String?] {
        let results = Mutex<[Job: String?]>([:])
        let done = Mutex(0)
        let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        progress(0, jobs.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: jobs.count, by: workers) {
                let job = jobs[index]
                let made: String?
                switch job {
                case .image(let hash):
                    made = try? withTemporaryFile(bytes[hash] ?? Data()) { try media.storeSymbolImage(atPath: $0) }
                case .svg(let hash):
                    made = try? media.storeSymbolSVG(bytes[hash] ?? Data())
                case .recording(let hash):
                    made = try? withTemporaryFile(bytes[hash] ?? Data()) { try speech.normalise(recordingAt: $0) }
                case .clip(let text, let voice):
                    made = try? speech.clip(text: text, voice: voice)
                }
                results.withLock { $0[job] = made }
                progress(done.withLock { $0 += 1; return $0 }, jobs.count)
            }
        }
        return results.withLock { $0 }
    }

    /// A folder button keeps a symbol of its own only when it shows more than the name of the board it opens.
    static func needsSymbol(_ button: OBFButton, _ boards: [OBFBoard]) -> Bool {
        guard let link = button.linkIndex else { return true }
        return button.image != nil || button.label != boards[link].name
    }

    /// A pictogram of the library whose word is exactly the label (ignoring case and accents).
    func pictogram(for label: String, locale: AppLocale) -> String? {
        pictograms.named(label, locale: locale)?.hexcode
    }

    private func withTemporaryFile<T>(_ data: Data, _ body: (String) throws -> T) throws -> T {
        try FileManager.default.createDirectory(atPath: temporaryDirectory, withIntermediateDirectories: true)
        let path = temporaryDirectory + "/obf-" + UUID().uuidString.lowercased()
        guard FileManager.default.createFile(atPath: path, contents: data) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    static func hash(_ data: Data) -> String {
        SHA256.hash(data: data).hexadecimal
    }

    // MARK: - The transaction

    private func store(_ boards: [OBFBoard], faces: [CellKey: Face], patientId: Int64, actor: Actor, now: Date, today: String,
                       audit: AuditContext, t: Translator, made: MadeFiles, _ db: Database) throws -> Result {
        // Checked again inside the transaction: the link may have gone while the media were converted.
        _ = try PatientScope.find(patientId, visibleTo: actor, db)
        let categories = try Category.forClinician(actor.userId, t, db)
        let setCategory = try OBFImportCategory.findOrCreate(named: boards[0].name, clinicianId: actor.userId, among: categories, db)
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
        let existing = try OBFImportCategory.DedupIndex(clinicianId: actor.userId, patientId: patientId, mediaDirectory: media.directory, db)
        // The same button on several boards becomes one symbol.
        var symbols: [String: Int64] = [:]
        var placeholders = 0, buttons = 0, reused = 0
        var images: Set<String> = [], sounds: Set<String> = [], unusedImages: Set<String> = [], usedImages: Set<String> = []
        for (boardIndex, board) in boards.enumerated() {
            for (position, cell) in board.cells.enumerated() {
                guard let button = cell else { continue }
                buttons += 1
                var symbolId: Int64?
                if let face = faces[CellKey(board: boardIndex, position: position)] {
                    face.imageKey.map { _ = images.insert($0) }
                    face.soundKey.map { _ = sounds.insert($0) }
                    // A Tagarela export names the category of each button: kept when the clinician has it.
                    let categoryId = button.category.flatMap { name in categories.first { $0.name == name }?.id } ?? setCategory
                    let key = [button.label, button.vocalization ?? "", face.pictogram ?? "", face.imagePath ?? "",
                               face.audioFile ?? "", face.voice, "\(categoryId)"].joined(separator: "\u{1F}")
                    if let known = symbols[key] {
                        symbolId = known
                    } else if let same = existing.symbol(label: button.label, pictogram: face.pictogram, imagePath: face.imagePath,
                                                             voice: face.voice) {
                        symbols[key] = same
                        symbolId = same
                        reused += 1
                        face.imagePath.map { _ = unusedImages.insert($0) }
                    } else {
                        var symbol = Symbol(clinicianId: actor.userId, patientId: patientId, categoryId: categoryId, name: button.label,
                                            spokenText: button.vocalization ?? button.label, pictogram: face.pictogram,
                                            imagePath: face.imagePath, audioFile: face.audioFile, audioKind: face.audioKind,
                                            voice: face.voice, createdAt: now, updatedAt: now)
                        try symbol.insert(db)
                        symbols[key] = symbol.id
                        symbolId = symbol.id
                        face.imagePath.map { _ = usedImages.insert($0) }
                        if face.isPlaceholder { placeholders += 1 }
                    }
                }
                // Another app's colours are kept on the cell; a Tagarela export's are its categories'.
                let ownColours = button.category == nil
                try PlanCell(planId: planIDs[boardIndex], position: position, symbolId: symbolId,
                             linkPlanId: button.linkIndex.map { planIDs[$0] },
                             backgroundColour: ownColours ? button.backgroundText : nil,
                             borderColour: ownColours ? button.borderText : nil).insert(db)
            }
        }
        var record = OBFImportRecord(
            patientId: patientId, clinicianId: actor.userId, rootPlanId: planIDs[0], categoryId: setCategory, name: boards[0].name,
            boards: boards.count, buttons: buttons, images: images.count, sounds: sounds.count, reusedSymbols: reused,
            placeholders: placeholders,
            warnings: String(decoding: try JSONEncoder().encode(OBFWarning.leftOutFirst(boards.flatMap(\.warnings))), as: UTF8.self), createdAt: now)
        try record.insert(db)
        for (index, board) in boards.enumerated() {
            try OBFImportBoard(planId: planIDs[index], importId: record.id!, isRoot: index == 0, locale: board.locale).insert(db)
        }
        try audit.record(.create, "obfImport", record.id, "\(record.name): \(boards.count) board(s), \(buttons) button(s)", db)
        // Pictures that became an existing symbol's are not kept (unless another new symbol shows them).
        let unused = unusedImages.subtracting(usedImages), media = self.media
        db.afterNextTransaction(onCommit: { _ in unused.forEach { media.remove($0) } })
        return Result(rootPlanId: planIDs[0], importId: record.id!, placeholders: placeholders)
    }
}
