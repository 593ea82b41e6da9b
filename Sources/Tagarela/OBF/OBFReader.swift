import Foundation

/// A picture or sound as an Open Board file gives it.
enum OBFMedia: Equatable, Sendable {
    /// From a data: URI or a file inside the package; still to be checked by content.
    case bytes(Data)
    /// Only a `url` (or a proprietary `symbol` set): Tagarela does not fetch from the network.
    case unavailable
}

struct OBFImage: Equatable, Sendable {
    /// The board and the image's id: one picture of the file, however many buttons show it.
    let key: String
    let media: OBFMedia
    /// `ext_tagarela_pictogram`: an OpenMoji pictogram of Tagarela's own library.
    let pictogram: String?
}

struct OBFSound: Equatable, Sendable {
    /// The board and the sound's id, as for pictures.
    let key: String
    let media: OBFMedia
    /// `ext_tagarela_voice` on a clip Tagarela generated: generated again from the text, not copied.
    let generatedVoice: String?
}

/// `load_board` as written: the board it names by `path` inside the package or by `id`, and the `url`
/// (never fetched) that names it when neither does.
struct OBFLink: Equatable, Sendable {
    let id: String?
    let path: String?
    var url: String? = nil
}

struct OBFButton: Equatable, Sendable {
    let id: String
    let label: String
    let vocalization: String?
    let backgroundColour: RGB?
    let borderColour: RGB?
    let image: OBFImage?
    let sound: OBFSound?
    let loadBoard: OBFLink?
    /// The board of the package `loadBoard` resolved to.
    var linkIndex: Int?
    /// `ext_tagarela_category`: the category's name, kept for a round trip.
    let category: String?
    /// The colours as the file wrote them, kept on the cell (`CellColours.kept`).
    var backgroundText: String? = nil
    var borderText: String? = nil
}

struct OBFBoard: Equatable, Sendable {
    let id: String
    let name: String
    let locale: String?
    let description: String
    let rows: Int
    let columns: Int
    /// `rows × columns` cells in reading order; nil keeps a cell empty (a `null` in `grid.order`).
    var cells: [OBFButton?]
    /// Where the board sits inside its package (nil for a lone `.obf`), for resolving `load_board.path`.
    let path: String?
    /// What the import left out of this board's buttons (`OBFWarning`).
    var warnings: [OBFWarning] = []
}

/// Reads `.obf` and `.obz` files into boards, checking every field it uses and naming the first one that is
/// wrong. Pure apart from reading the given file.
enum OBFReader {
    static let rowRange = BoardRules.rowRange
    static let columnRange = BoardRules.columnRange

    /// The boards in `file` (a `.obf` or an `.obz`, told apart by content), the root first, links resolved.
    /// `name` is what the user called the file, for messages about a lone `.obf`.
    static func read(file path: String, name: String = "board.obf", limits: OBZLimits = .standard) throws -> [OBFBoard] {
        let handle = FileHandle(forReadingAtPath: path)
        let head = (try? handle?.read(upToCount: 4)) ?? nil
        try? handle?.close()
        guard let head, !head.isEmpty else { throw OBFError(.notAPackage) }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try readPackage(OBZArchive(path: path, limits: limits), limits: limits)
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limits.maxJSONBytes else { throw OBFError(.jsonTooLarge(maxMiB: limits.maxJSONBytes >> 20)) }
        guard let data = FileManager.default.contents(atPath: path), let json = JSONValue.parse(data) else {
            throw OBFError(.notAPackage)
        }
        var boards = [try board(json, fallbackName: name, path: nil, package: nil)]
        resolveLinks(&boards)
        return boards
    }

    static func readPackage(_ package: OBZArchive, limits: OBZLimits) throws -> [OBFBoard] {
        guard package.contains("manifest.json") else { throw OBFError(.noManifest) }
        guard let manifestJSON = JSONValue.parse(try package.data(at: "manifest.json", isJSON: true)) else {
            throw OBFError(file: "manifest.json", .notJSON)
        }
        let manifest = try JSONField(manifestJSON, file: "manifest.json").object()
        try checkFormat(manifest["format"])
        let root = try manifest["root"].text()
        guard let rootPath = OBZArchive.normalised(root) else { throw manifest["root"].error(.unsafePath) }
        guard package.contains(rootPath) else { throw manifest["root"].error(.notInPackage(root)) }
        var paths = [rootPath]
        for (_, entry) in manifest["paths"]["boards"].fields {
            let text = try entry.text()
            guard let path = OBZArchive.normalised(text) else { throw entry.error(.unsafePath) }
            guard package.contains(path) else { throw entry.error(.notInPackage(text)) }
            if !paths.contains(path) { paths.append(path) }
        }
        guard paths.count <= limits.maxBoards else { throw OBFError(.tooManyBoards(max: limits.maxBoards)) }
        var boards = try paths.map { path in
            guard let json = JSONValue.parse(try package.data(at: path, isJSON: true)) else { throw OBFError(file: path, .notJSON) }
            return try board(json, fallbackName: path, path: path, package: package)
        }
        resolveLinks(&boards)
        return boards
    }

    private static func checkFormat(_ field: JSONField) throws {
        let format = try field.text()
        guard format.hasPrefix("open-board-") else { throw field.error(.notOpenBoard(format)) }
    }

    /// One board. `package` resolves `path` fields of pictures and sounds (nil for a lone `.obf`).
    static func board(_ json: JSONValue, fallbackName: String, path: String?, package: OBZArchive?) throws -> OBFBoard {
        guard case .object = json else { throw OBFError(file: path ?? fallbackName, .notJSON) }
        let probe = JSONField(json, board: fallbackName)
        let name = ((try? probe["name"].optionalText()) ?? nil).flatMap { $0.trimmed.isEmpty ? nil : $0.trimmed }
            ?? probe["id"].optionalID ?? fallbackName
        let root = JSONField(json, board: name)
        try checkFormat(root["format"])
        let id = try root["id"].id()

        let images = try descriptors(root["images"])
        let sounds = try descriptors(root["sounds"])
        var buttons: [String: (field: JSONField, index: Int)] = [:]
        for (index, button) in try root["buttons"].list().enumerated() {
            let buttonID = try button.object()["id"].id()
            guard buttons[buttonID] == nil else { throw button["id"].error(.duplicate(buttonID)) }
            buttons[buttonID] = (button, index)
        }

        let grid = try root["grid"].object()
        let rows = try grid["rows"].integer(), columns = try grid["columns"].integer()
        guard rowRange.contains(rows) else { throw grid["rows"].error(.outOfRange(rows, rowRange)) }
        guard columnRange.contains(columns) else { throw grid["columns"].error(.outOfRange(columns, columnRange)) }
        let order = try grid["order"].list()
        guard order.count <= rows else { throw grid["order"].error(.tooManyEntries(order.count, max: rows)) }
        var cells = [OBFButton?](repeating: nil, count: rows * columns)
        var warnings: [OBFWarning] = []
        for (row, line) in order.enumerated() {
            let entries = try line.list()
            guard entries.count <= columns else { throw line.error(.tooManyEntries(entries.count, max: columns)) }
            for (column, entry) in entries.enumerated() where entry.isPresent {
                let buttonID = try entry.id()
                guard let button = buttons[buttonID] else { throw entry.error(.unknownButton(buttonID)) }
                if let left = leftOut(button.field, board: name) {
                    warnings.append(left)
                    continue
                }
                cells[row * columns + column] = try self.button(button.field, board: (id, name), images: images, sounds: sounds,
                                                                package: package, warnings: &warnings)
            }
        }
        let description = try root["description_html"].optionalText().map(plainText) ?? ""
        return OBFBoard(id: id, name: name, locale: try root["locale"].optionalText(), description: description,
                        rows: rows, columns: columns, cells: cells, path: path, warnings: warnings)
    }

    private static func descriptors(_ list: JSONField) throws -> [String: JSONField] {
        var byID: [String: JSONField] = [:]
        for item in try list.optionalList() {
            let id = try item.object()["id"].id()
            guard byID[id] == nil else { throw item["id"].error(.duplicate(id)) }
            byID[id] = item
        }
        return byID
    }

    /// One button. An `image_id` or `sound_id` that names nothing on the board (as in the format's own
    /// `lots_of_stuff.obz`) leaves the button without it and adds a warning; an empty one is no reference.
    private static func button(_ field: JSONField, board: (id: String, name: String), images: [String: JSONField],
                               sounds: [String: JSONField], package: OBZArchive?, warnings: inout [OBFWarning]) throws -> OBFButton {
        let loadBoard = field["load_board"].optionalObject
        let label = try field["label"].optionalText()?.trimmed ?? ""
        let vocalization = try field["vocalization"].optionalText()?.trimmed
        let linkName = try loadBoard?["name"].optionalText()?.trimmed
        guard let shown = [label, vocalization ?? "", linkName ?? ""].first(where: { !$0.isEmpty }) else {
            throw field["label"].error(.missing)
        }
        var image: OBFImage?
        if let id = try reference(field["image_id"]) {
            if let descriptor = images[id] {
                image = OBFImage(key: board.id + "\u{1F}" + id, media: try media(descriptor, package: package),
                                 pictogram: try descriptor["ext_tagarela_pictogram"].optionalText())
                if let absent = try absentPath(descriptor, package: package) {
                    warnings.append(OBFWarning(kind: .missingImage, board: board.name, button: shown, id: absent))
                }
            } else {
                warnings.append(OBFWarning(kind: .missingImage, board: board.name, button: shown, id: id))
            }
        }
        var sound: OBFSound?
        if let id = try reference(field["sound_id"]) {
            if let descriptor = sounds[id] {
                sound = OBFSound(key: board.id + "\u{1F}" + id, media: try media(descriptor, package: package),
                                 generatedVoice: try descriptor["ext_tagarela_voice"].optionalText())
                if let absent = try absentPath(descriptor, package: package) {
                    warnings.append(OBFWarning(kind: .missingSound, board: board.name, button: shown, id: absent))
                }
            } else {
                warnings.append(OBFWarning(kind: .missingSound, board: board.name, button: shown, id: id))
            }
        }
        return OBFButton(
            id: try field["id"].id(), label: shown, vocalization: vocalization.flatMap { $0.isEmpty || $0 == shown ? nil : $0 },
            backgroundColour: (try field["background_color"].optionalText()).flatMap(RGB.init(css:)),
            borderColour: (try field["border_color"].optionalText()).flatMap(RGB.init(css:)),
            image: image, sound: sound,
            loadBoard: try loadBoard.map { OBFLink(id: $0["id"].optionalID, path: try $0["path"].optionalText(), url: try? $0["url"].optionalText()) },
            linkIndex: nil, category: try field["ext_tagarela_category"].optionalText(),
            backgroundText: CellColours.kept(try field["background_color"].optionalText()),
            borderText: CellColours.kept(try field["border_color"].optionalText()))
    }

    /// The player's own controls do what these specialty actions do (Speak, Delete, Clear, Home, Back), and
    /// a space is a gap between words already: a cell holding one would speak its label instead.
    static let playerActions: Set<String> = [":speak", ":backspace", ":clear", ":home", ":back", ":space"]

    /// A button kept out of the grid, with why: hidden by the other app, or an action of the player's own
    /// with no word of its own to say.
    /// Its place stays empty, so every other word keeps its position.
    private static func leftOut(_ field: JSONField, board: String) -> OBFWarning? {
        let shown = [field["label"], field["vocalization"]].compactMap { try? $0.optionalText() }.first { !$0.isEmpty } ?? ""
        let id = field["id"].optionalID ?? ""
        if field["hidden"].isTrue { return OBFWarning(kind: .hidden, board: board, button: shown.isEmpty ? id : shown, id: id) }
        // A word with its own vocalization says it (LoveWords marks its greetings `:speak`): only a bare
        // control is left out.
        guard !field["load_board"].isPresent, ((try? field["vocalization"].optionalText()) ?? nil)?.isEmpty ?? true else { return nil }
        let actions = ([field["action"]] + ((try? field["actions"].optionalList()) ?? []))
            .compactMap { try? $0.optionalText() }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let action = actions.first(where: playerActions.contains) {
            return OBFWarning(kind: .action, board: board, button: shown.isEmpty ? action : shown, id: action)
        }
        return nil
    }

    /// An `image_id` or `sound_id`: nil when absent or blank (CommuniKate writes `""` for "no picture").
    private static func reference(_ field: JSONField) throws -> String? {
        guard field.isPresent, (try? field.optionalText())?.trimmingCharacters(in: .whitespaces).isEmpty != true else { return nil }
        return try field.id()
    }

    /// The spec's order: `data`, then `path`, then `url` (and `symbol`), which cannot be fetched here.
    private static func media(_ descriptor: JSONField, package: OBZArchive?) throws -> OBFMedia {
        if let uri = try descriptor["data"].optionalText() {
            guard let bytes = DataURI.decode(uri) else { throw descriptor["data"].error(.badDataURI) }
            return .bytes(bytes)
        }
        if let path = try descriptor["path"].optionalText() {
            // A lone .obf taken out of its package (CoughDrop's pc36.obf names its pictures by path and url):
            // nothing to read, so the picture is replaced like one given only by url.
            guard let package else { return .unavailable }
            guard OBZArchive.normalised(path) != nil else { throw descriptor["path"].error(.unsafePath) }
            // A package that lacks one of its pictures (a set shared without its `images/` folder) still
            // imports: the spec's next source is `url`, which cannot be fetched, so it is replaced and listed.
            guard package.contains(path) else { return .unavailable }
            return .bytes(try package.data(at: path))
        }
        return .unavailable
    }

    /// The `path` of a picture or sound that a package names but does not hold (read before any `url`).
    private static func absentPath(_ descriptor: JSONField, package: OBZArchive?) throws -> String? {
        guard let package, try descriptor["data"].optionalText() == nil, let path = try descriptor["path"].optionalText(),
              !package.contains(path) else { return nil }
        return path
    }

    /// Points every `load_board` at a board of the package, by path first, then by id. A link to a board
    /// the package does not hold, or to its own board, stays nil: the button becomes an ordinary symbol,
    /// and a link to a board not in the file is listed.
    static func resolveLinks(_ boards: inout [OBFBoard]) {
        let byPath = Dictionary(boards.enumerated().compactMap { index, board in board.path.map { ($0, index) } },
                                uniquingKeysWith: { first, _ in first })
        let byID = Dictionary(boards.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for boardIndex in boards.indices {
            for cellIndex in boards[boardIndex].cells.indices {
                guard let link = boards[boardIndex].cells[cellIndex]?.loadBoard else { continue }
                let target = link.path.flatMap(OBZArchive.normalised).flatMap { byPath[$0] } ?? link.id.flatMap { byID[$0] }
                boards[boardIndex].cells[cellIndex]?.linkIndex = target == boardIndex ? nil : target
                if target == nil, let button = boards[boardIndex].cells[cellIndex] {
                    boards[boardIndex].warnings.append(OBFWarning(kind: .brokenLink, board: boards[boardIndex].name, button: button.label,
                                                                  id: link.path ?? link.id ?? link.url ?? ""))
                }
            }
        }
    }

    /// `description_html` as plain text: tags dropped, the common entities read.
    static func plainText(_ html: String) -> String {
        var text = html.replacing(/<[^>]*>/, with: " ")
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// data: URIs (RFC 2397), base64 or percent-encoded.
enum DataURI {
    static func decode(_ uri: String) -> Data? {
        guard uri.hasPrefix("data:"), let comma = uri.firstIndex(of: ",") else { return nil }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
        let payload = String(uri[uri.index(after: comma)...])
        if header.hasSuffix(";base64") {
            return Data(base64Encoded: payload.filter { !$0.isWhitespace }, options: .ignoreUnknownCharacters)
                .flatMap { $0.isEmpty ? nil : $0 }
        }
        return payload.removingPercentEncoding.map { Data($0.utf8) }
    }

    static func encode(_ data: Data, contentType: String) -> String {
        "data:\(contentType);base64,\(data.base64EncodedString())"
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
