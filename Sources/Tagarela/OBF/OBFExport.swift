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

    static func fetch(root: Plan, followLinks: Bool, _ db: Database) throws -> OBFExportSource {
        // A sentence plan is a vocabulary with links, not a grid: OBF has no way to say it.
        guard root.planType != .sentence else { throw AppError.notFound }
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
        let owner = try User.fetchOne(db, key: root.clinicianId)?.displayName ?? ""
        let locale = try User.fetchOne(db, key: root.patientId)?.appLocale ?? User.fetchOne(db, key: root.clinicianId)?.appLocale
            ?? AppLocale.fallback
        return OBFExportSource(screens: screens, categoryNames: names, owner: owner, locale: locale.rawValue)
    }
}

/// Turns boards into `.obf` JSON and an `.obz` package, reading pictures and clips from the data folders.
struct OBFExporter: Sendable {
    let pictogramFolder: String
    let mediaDirectory: String
    let audioFolder: String

    static func boardPath(_ id: Int64) -> String { "boards/\(id).obf" }
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
            boardPaths[board.id] = Self.boardPath(screen.plan.id!)
            try writer.add(Self.boardPath(screen.plan.id!), OBFFile.json(board))
        }
        for (path, data) in files.sorted(by: { $0.key < $1.key }) { try writer.add(path, data) }
        let manifest = OBFFile.Manifest(root: Self.boardPath(source.screens[0].plan.id!),
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
                backgroundColor: RGB.white.css, borderColor: (cell.link == nil ? cell.colour : .white).rgb.css,
                imageId: imageID, soundId: soundID,
                loadBoard: cell.link.map { OBFFile.LoadBoard(id: "\($0.id!)", name: $0.name, path: inline ? nil : Self.boardPath($0.id!)) },
                extTagarelaCategory: cell.symbol.flatMap { source.categoryNames[$0.categoryId] }))
        }
        return OBFFile.Board(
            id: "\(plan.id!)", locale: source.locale, name: plan.name,
            descriptionHtml: plan.description.isEmpty ? nil : Self.html(plan.description), buttons: buttons,
            images: images.values.sorted { $0.id < $1.id }, sounds: sounds.values.sorted { $0.id < $1.id },
            grid: OBFFile.Grid(rows: plan.rows, columns: plan.columns, order: order), license: .clinic(source.owner),
            extTagarelaPlanType: plan.type)
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
