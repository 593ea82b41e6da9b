import Foundation
import GRDB

/// The JSON Tagarela writes, field for field as the published spec names them (camelCase here,
/// snake_case on disk through the encoder). Extras carry the `ext_tagarela_` prefix the spec reserves.
enum OBFFile {
    struct Board: Encodable {
        let format = "open-board-0.1"
        let id: String
        let locale: String
        let name: String
        let descriptionHtml: String?
        let buttons: [Button]
        let images: [Image]
        let sounds: [Sound]
        let grid: Grid
        let license: License
        let extTagarelaPlanType: String
        /// On the first board of an exported sentence plan: its words and which may follow which.
        var extTagarelaSentence: SentenceExtension?
    }

    /// A sentence plan as boards: one board per role (subjects, verbs, complements), each word a button
    /// that speaks, and a folder button to the next role's board; the grammar Tagarela plays is here.
    struct SentenceExtension: Encodable {
        let format = "tagarela-sentence-1"
        /// The board of each role, by id: `subject`, `verb`, `complement`.
        let boards: [String: String]
        let words: [SentenceWordEntry]
        /// Which word may follow which, by the words' `id`s.
        let links: [[String]]
    }

    struct SentenceWordEntry: Encodable {
        /// `<board id>/<button id>`, unique in the package.
        let id: String
        let boardId: String
        let buttonId: String
        let role: String
        let shortcut: Bool
    }

    struct Grid: Encodable {
        let rows: Int
        let columns: Int
        let order: [[String?]]
    }

    struct Button: Encodable {
        let id: String
        let label: String
        let vocalization: String?
        let backgroundColor: String
        let borderColor: String
        let imageId: String?
        let soundId: String?
        let loadBoard: LoadBoard?
        let extTagarelaCategory: String?
    }

    struct LoadBoard: Encodable {
        let id: String
        let name: String
        let path: String?
    }

    struct Image: Encodable {
        let id: String
        let contentType: String
        let width: Int?
        let height: Int?
        let path: String?
        let data: String?
        let license: License
        let extTagarelaPictogram: String?
    }

    struct Sound: Encodable {
        let id: String
        let contentType: String
        let path: String?
        let data: String?
        let license: License
        let extTagarelaVoice: String?
    }

    struct License: Encodable {
        let type: String
        let copyrightNoticeUrl: String?
        let sourceUrl: String?
        let authorName: String
        let authorUrl: String?

        static let openMoji = License(type: "CC BY-SA 4.0", copyrightNoticeUrl: "https://creativecommons.org/licenses/by-sa/4.0/",
                                      sourceUrl: "https://openmoji.org/", authorName: "OpenMoji", authorUrl: "https://openmoji.org/")

        /// Pictures uploaded, voices recorded and the boards themselves: the clinic's, all rights reserved.
        static func clinic(_ name: String) -> License {
            License(type: "private", copyrightNoticeUrl: nil, sourceUrl: nil, authorName: name, authorUrl: nil)
        }
    }

    struct Manifest: Encodable {
        let format = "open-board-0.1"
        let root: String
        let paths: Paths
    }

    struct Paths: Encodable {
        let boards: [String: String]
        let images: [String: String]
        let sounds: [String: String]
    }

    static func json(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return (try? encoder.encode(value)) ?? Data()
    }
}

/// What an export needs from the database: the boards reachable from one plan through folder cells,
/// each once, the root first, with the names of their categories and of the clinician who owns them.
struct OBFExportSource: Sendable {
    let screens: [BoardScreen]
    let categoryNames: [Int64: String]
    let owner: String
    let locale: String
    /// The `locale` a board was imported with, kept on re-export.
    var boardLocales: [Int64: String] = [:]
    /// A sentence plan's boards (see `sentenceScreens`): their ids, and the extension of the first.
    var boardIDs: [Int64: String] = [:]
    var sentence: OBFFile.SentenceExtension?

    func id(_ planId: Int64) -> String { boardIDs[planId] ?? "\(planId)" }
    func locale(_ planId: Int64) -> String { boardLocales[planId] ?? locale }

    /// `roleName` names the boards of a sentence plan (in the clinician's language).
    static func fetch(root: Plan, followLinks: Bool, roleName: (SentenceWord.Role) -> String = { $0.rawValue },
                      _ db: Database) throws -> OBFExportSource {
        let owner = try User.fetchOne(db, key: root.clinicianId)?.displayName ?? ""
        let locale = try User.fetchOne(db, key: root.patientId)?.appLocale ?? User.fetchOne(db, key: root.clinicianId)?.appLocale
            ?? AppLocale.fallback
        if root.planType == .sentence {
            let grammar = try SentenceGrammar.fetch(planId: root.id!, db)
            let names = Dictionary(uniqueKeysWithValues: try Category.fetchAll(db, keys: Set(grammar.words.map(\.symbol.categoryId)))
                .map { ($0.id!, $0.name) })
            let made = sentenceScreens(root, grammar, roleName: roleName, followLinks: followLinks)
            return OBFExportSource(screens: made.screens, categoryNames: names, owner: owner, locale: locale.rawValue,
                                   boardIDs: made.ids, sentence: followLinks ? made.sentence : nil)
        }
        var screens: [BoardScreen] = []
        var queue = [root], seen: Set<Int64> = [root.id!]
        while !queue.isEmpty {
            let screen = try BoardScreen.fetch(queue.removeFirst(), db)
            screens.append(screen)
            guard followLinks else { break }
            for link in screen.cells.compactMap(\.link) where link.patientId == root.patientId && !seen.contains(link.id!) {
                seen.insert(link.id!)
                queue.append(link)
            }
        }
        let categoryIDs = Set(screens.flatMap { $0.cells.compactMap(\.symbol?.categoryId) })
        let names = Dictionary(uniqueKeysWithValues: try Category.fetchAll(db, keys: categoryIDs).map { ($0.id!, $0.name) })
        // Each board in its own language: the one it was imported with, else the voice most of its words speak
        // (Carla's Portuguese boards stay "pt-BR" though her screens are in Catalan), else the child's.
        var boardLocales = spokenLocales(screens)
        boardLocales.merge(try OBFSets.locales(of: screens.map { $0.plan.id! }, db)) { _, imported in imported }
        return OBFExportSource(screens: screens, categoryNames: names, owner: owner, locale: locale.rawValue,
                               boardLocales: boardLocales)
    }

    /// The language most of a board's words are spoken in (`Symbol.voice`), by board; ties go to the
    /// language of the first such word. Pure.
    static func spokenLocales(_ screens: [BoardScreen]) -> [Int64: String] {
        var found: [Int64: String] = [:]
        for screen in screens {
            let voices = screen.cells.compactMap { $0.symbol?.voice }.compactMap { AppLocale(rawValue: $0)?.rawValue }
            let counts = Dictionary(voices.map { ($0, 1) }, uniquingKeysWith: +)
            if let top = voices.first(where: { counts[$0] == counts.values.max() }) { found[screen.plan.id!] = top }
        }
        return found
    }

    /// A sentence plan as one board per role, the words in the plan's order and, on the subjects' and the
    /// verbs' boards, a last folder button to the next role. The boards other than the first have no plan
    /// of their own: they get stand-in ids (negative, never written) and ids `<plan>-verb`, `<plan>-complement`.
    static func sentenceScreens(_ root: Plan, _ grammar: SentenceGrammar, roleName: (SentenceWord.Role) -> String,
                                followLinks: Bool)
        -> (screens: [BoardScreen], ids: [Int64: String], sentence: OBFFile.SentenceExtension) {
        let roles = SentenceWord.Role.allCases
        func standIn(_ index: Int) -> Int64 { index == 0 ? root.id! : -(root.id! * 4 + Int64(index)) }
        var plans: [Plan] = []
        var ids: [Int64: String] = [:]
        for (index, role) in roles.enumerated() {
            let count = grammar.words(role).count + (role.next == nil ? 0 : 1)
            let columns = min(8, max(2, count)), rows = max(1, (count + columns - 1) / columns)
            var plan = root
            plan.id = standIn(index)
            plan.name = index == 0 ? root.name : "\(root.name): \(roleName(role))"
            plan.rows = rows
            plan.columns = columns
            plans.append(plan)
            ids[plan.id!] = index == 0 ? "\(root.id!)" : "\(root.id!)-\(role.rawValue)"
        }
        var screens: [BoardScreen] = []
        var entries: [OBFFile.SentenceWordEntry] = [], entryOfWord: [Int64: String] = [:]
        for (index, role) in roles.enumerated() {
            let words = grammar.words(role)
            var cells = words.enumerated().map { position, word in
                BoardScreen.Cell(position: position, symbol: word.symbol, colour: word.colour, link: nil)
            }
            if index + 1 < roles.count {
                cells.append(BoardScreen.Cell(position: words.count, symbol: nil, colour: .white, link: plans[index + 1]))
            }
            let plan = plans[index]
            cells += (cells.count..<plan.cellCount).map { BoardScreen.Cell(position: $0, symbol: nil, colour: .white, link: nil) }
            screens.append(BoardScreen(plan: plan, cells: cells))
            for (position, word) in words.enumerated() {
                let boardId = ids[plan.id!]!, buttonId = OBFExporter.buttonID(position)
                entries.append(OBFFile.SentenceWordEntry(id: "\(boardId)/\(buttonId)", boardId: boardId, buttonId: buttonId,
                                                        role: role.rawValue, shortcut: word.isShortcut))
                entryOfWord[word.id] = "\(boardId)/\(buttonId)"
            }
        }
        let links = grammar.words.flatMap { word in
            (grammar.next[word.id] ?? []).compactMap { next in
                entryOfWord[word.id].flatMap { from in entryOfWord[next].map { [from, $0] } }
            }
        }
        let boards = Dictionary(uniqueKeysWithValues: roles.enumerated().map { ($1.rawValue, ids[plans[$0].id!]!) })
        return (followLinks ? screens : [screens[0]], ids, OBFFile.SentenceExtension(boards: boards, words: entries, links: links))
    }
}

/// Turns boards into `.obf` JSON and an `.obz` package, reading pictures and clips from the data folders.
struct OBFExporter: Sendable {
    let pictogramFolder: String
    let mediaDirectory: String
    let audioFolder: String

    static func boardPath(_ id: String) -> String { "boards/\(id).obf" }
    static func buttonID(_ position: Int) -> String { "c\(position)" }

    /// A whole `.obz`: the boards, and every picture and clip as a file inside.
    func package(_ source: OBFExportSource) throws -> Data {
        var files: [String: Data] = [:]
        var imagePaths: [String: String] = [:], soundPaths: [String: String] = [:]
        var boardPaths: [String: String] = [:]
        let writer = try OBZWriter()
        for screen in source.screens {
            let board = board(screen, source, inline: false, files: &files)
            board.images.forEach { image in image.path.map { imagePaths[image.id] = $0 } }
            board.sounds.forEach { sound in sound.path.map { soundPaths[sound.id] = $0 } }
            boardPaths[board.id] = Self.boardPath(board.id)
            try writer.add(Self.boardPath(board.id), OBFFile.json(board))
        }
        for (path, data) in files.sorted(by: { $0.key < $1.key }) { try writer.add(path, data) }
        let manifest = OBFFile.Manifest(root: Self.boardPath(source.id(source.screens[0].plan.id!)),
                                        paths: .init(boards: boardPaths, images: imagePaths, sounds: soundPaths))
        try writer.add("manifest.json", OBFFile.json(manifest))
        return writer.data
    }

    /// One board as a lone `.obf`, its pictures and clips inlined as data: URIs.
    func single(_ source: OBFExportSource) -> Data {
        var unused: [String: Data] = [:]
        return OBFFile.json(board(source.screens[0], source, inline: true, files: &unused))
    }

    private func board(_ screen: BoardScreen, _ source: OBFExportSource, inline: Bool, files: inout [String: Data]) -> OBFFile.Board {
        let plan = screen.plan
        var buttons: [OBFFile.Button] = []
        var images: [String: OBFFile.Image] = [:], sounds: [String: OBFFile.Sound] = [:]
        var order = [[String?]](repeating: [String?](repeating: nil, count: plan.columns), count: plan.rows)
        for cell in screen.cells where cell.symbol != nil || cell.link != nil {
            let id = Self.buttonID(cell.position)
            order[cell.position / plan.columns][cell.position % plan.columns] = id
            var imageID: String?, soundID: String?
            if let symbol = cell.symbol {
                if let image = image(symbol, source, inline: inline, files: &files) {
                    images[image.id] = image
                    imageID = image.id
                }
                // A folder cell opens its board; it does not speak.
                if cell.link == nil, let sound = sound(symbol, source, inline: inline, files: &files) {
                    sounds[sound.id] = sound
                    soundID = sound.id
                }
            }
            let label = cell.symbol?.name ?? cell.link?.name ?? ""
            let spoken = cell.symbol?.spokenText
            buttons.append(OBFFile.Button(
                id: id, label: label, vocalization: spoken == label ? nil : spoken,
                backgroundColor: cell.background ?? RGB.white.css,
                borderColor: cell.border ?? (cell.link == nil ? cell.colour : .white).rgb.css,
                imageId: imageID, soundId: soundID,
                loadBoard: cell.link.map {
                    OBFFile.LoadBoard(id: source.id($0.id!), name: $0.name, path: inline ? nil : Self.boardPath(source.id($0.id!)))
                },
                extTagarelaCategory: cell.symbol.flatMap { source.categoryNames[$0.categoryId] }))
        }
        let isFirst = plan.id == source.screens.first?.plan.id
        return OBFFile.Board(
            id: source.id(plan.id!), locale: source.locale(plan.id!), name: plan.name,
            descriptionHtml: plan.description.isEmpty ? nil : Self.html(plan.description), buttons: buttons,
            images: images.values.sorted { $0.id < $1.id }, sounds: sounds.values.sorted { $0.id < $1.id },
            grid: OBFFile.Grid(rows: plan.rows, columns: plan.columns, order: order), license: .clinic(source.owner),
            extTagarelaPlanType: plan.type, extTagarelaSentence: isFirst ? source.sentence : nil)
    }

    private func image(_ symbol: Symbol, _ source: OBFExportSource, inline: Bool, files: inout [String: Data]) -> OBFFile.Image? {
        let id = "image-\(symbol.id!)"
        if let hexcode = symbol.pictogram {
            let path = "images/\(hexcode).svg"
            let data = FileManager.default.contents(atPath: pictogramFolder + "/\(hexcode).svg")
            if !inline, let data { files[path] = data }
            return OBFFile.Image(id: id, contentType: "image/svg+xml", width: 72, height: 72,
                                 path: inline || data == nil ? nil : path,
                                 data: inline ? data.map { DataURI.encode($0, contentType: "image/svg+xml") } : nil,
                                 license: .openMoji, extTagarelaPictogram: hexcode)
        }
        guard let stored = symbol.imagePath, !stored.contains(".."),
              let data = FileManager.default.contents(atPath: mediaDirectory + "/" + stored) else { return nil }
        let path = "images/" + (stored.split(separator: "/").last.map(String.init) ?? "\(id).png")
        if !inline { files[path] = data }
        let size = Self.pngSize(data)
        return OBFFile.Image(id: id, contentType: "image/png", width: size?.width, height: size?.height,
                             path: inline ? nil : path, data: inline ? DataURI.encode(data, contentType: "image/png") : nil,
                             license: .clinic(source.owner), extTagarelaPictogram: nil)
    }

    private func sound(_ symbol: Symbol, _ source: OBFExportSource, inline: Bool, files: inout [String: Data]) -> OBFFile.Sound? {
        guard let file = symbol.audioFile, !file.contains("/"),
              let data = FileManager.default.contents(atPath: audioFolder + "/" + file) else { return nil }
        let path = "sounds/\(file)"
        if !inline { files[path] = data }
        return OBFFile.Sound(id: "sound-\(symbol.id!)", contentType: "audio/mpeg", path: inline ? nil : path,
                             data: inline ? DataURI.encode(data, contentType: "audio/mpeg") : nil, license: .clinic(source.owner),
                             extTagarelaVoice: symbol.audioKind == "generated" ? (symbol.voice ?? AppLocale.fallback.rawValue) : nil)
    }

    /// A PNG's width and height from its IHDR chunk. Pure.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, MediaStore.kind(of: bytes) == .png else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    static func html(_ text: String) -> String {
        "<p>" + HTML.escape(text) + "</p>"
    }

    /// A file name from a board's name: letters and digits without accents, hyphens between words.
    static func fileName(_ name: String, extension ext: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let slug = folded.unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
        return (slug.isEmpty ? "board" : String(slug.prefix(60))) + "." + ext
    }
}
