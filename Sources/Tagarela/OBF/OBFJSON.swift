import Foundation

/// Any JSON value, decoded without a schema so that every field can be checked by hand and a
/// problem reported with its path (`buttons[3].id`) instead of a decoder's generic message.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case text(String)
    case list([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .text(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .list(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) -> JSONValue? {
        // A UTF-8 byte order mark is legal in files written by some Windows tools.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        return try? JSONDecoder().decode(JSONValue.self, from: Data(body))
    }
}

/// A JSON value with the path that led to it inside one board (or one file, such as the manifest),
/// for reading fields and naming them in errors.
struct JSONField: Sendable {
    let value: JSONValue?
    let path: String
    /// The board's name, or the file's name when `isFile`.
    let owner: String
    let isFile: Bool

    init(_ value: JSONValue?, path: String = "", board: String) {
        self.init(value, path: path, owner: board, isFile: false)
    }

    init(_ value: JSONValue?, path: String = "", file: String) {
        self.init(value, path: path, owner: file, isFile: true)
    }

    private init(_ value: JSONValue?, path: String, owner: String, isFile: Bool) {
        self.value = value
        self.path = path
        self.owner = owner
        self.isFile = isFile
    }

    func error(_ problem: OBFError.Problem) -> OBFError {
        isFile ? OBFError(field: path, file: owner, problem) : OBFError(board: owner, field: path, problem)
    }

    private func child(_ value: JSONValue?, _ path: String) -> JSONField {
        JSONField(value, path: path, owner: owner, isFile: isFile)
    }

    subscript(key: String) -> JSONField {
        let path = path.isEmpty ? key : "\(path).\(key)"
        guard case .object(let fields) = value else { return child(nil, path) }
        return child(fields[key], path)
    }

    /// The keys and values of an object (empty for anything else).
    var fields: [(key: String, value: JSONField)] {
        guard case .object(let fields) = value else { return [] }
        return fields.keys.sorted().map { ($0, self[$0]) }
    }

    var isPresent: Bool {
        if case .null = value { return false }
        return value != nil
    }

    func object() throws -> JSONField {
        guard case .object = value else { throw error(isPresent ? .notObject : .missing) }
        return self
    }

    var optionalObject: JSONField? {
        if case .object = value { return self }
        return nil
    }

    func list() throws -> [JSONField] {
        guard isPresent else { throw error(.missing) }
        guard case .list(let items) = value else { throw error(.notList) }
        return items.enumerated().map { child($1, "\(path)[\($0)]") }
    }

    func optionalList() throws -> [JSONField] {
        isPresent ? try list() : []
    }

    func text() throws -> String {
        guard let text = try optionalText() else { throw error(.missing) }
        return text
    }

    func optionalText() throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .text(let text)?: return text
        default: throw error(.notText)
        }
    }

    /// Ids are strings in the spec, but "cast numeric ids to strings" says files in the wild hold numbers.
    func id() throws -> String {
        switch value {
        case .text(let text)? where !text.trimmingCharacters(in: .whitespaces).isEmpty: return text
        case .integer(let number)?: return String(number)
        case nil, .null?, .text?: throw error(.missing)
        default: throw error(.notText)
        }
    }

    var optionalID: String? { try? id() }

    /// `true` only for a JSON `true` (or the string "true" some writers use); anything else is false.
    var isTrue: Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .text(let text)?: return text.lowercased() == "true"
        default: return false
        }
    }

    func integer() throws -> Int {
        switch value {
        case .integer(let number)? where abs(number) < 1_000_000: return Int(number)
        case .number(let number)? where number == number.rounded() && abs(number) < 1_000_000: return Int(number)
        case nil, .null?: throw error(.missing)
        default: throw error(.notNumber)
        }
    }
}
