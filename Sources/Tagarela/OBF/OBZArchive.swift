import Foundation
import ZIPFoundation

/// How much an uploaded package may hold. An `.obz` is a zip a stranger made, so every size is
/// counted while it is inflated, not taken from the zip's own headers, which may lie.
struct OBZLimits: Sendable {
    var maxEntries = 2_000
    var maxEntryBytes = 8 << 20
    var maxTotalBytes = 64 << 20
    /// Inflated bytes per compressed byte, checked once an entry passes `ratioFloorBytes`.
    var maxRatio = 100
    var ratioFloorBytes = 1 << 20
    /// A board's JSON, or a whole `.obf` with its pictures inlined as data: URIs.
    var maxJSONBytes = 8 << 20
    /// Board sets of other apps run to hundreds of boards (CommuniKate's has 81).
    var maxBoards = 500

    static let standard = OBZLimits()
}

/// A read-only view of an `.obz` that refuses unsafe names and zip bombs.
final class OBZArchive {
    private let archive: Archive
    private let entries: [String: Entry]
    private let limits: OBZLimits
    private var remainingBytes: Int
    /// Files already inflated: a picture on many buttons is read (and counted) once.
    private var inflated: [String: Data] = [:]

    /// Opens the zip at `path` and checks its table of contents: how many files, their names, their declared sizes.
    init(path: String, limits: OBZLimits = .standard) throws {
        self.limits = limits
        remainingBytes = limits.maxTotalBytes
        do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
            throw OBFError(.notAPackage)
        }
        var entries: [String: Entry] = [:]
        var declared: UInt64 = 0
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else { throw OBFError(.tooManyFiles(max: limits.maxEntries)) }
            guard entry.type != .symlink, let name = Self.normalised(entry.path) else {
                throw OBFError(file: entry.path, .unsafePath)
            }
            guard entry.type == .file else { continue }
            guard entry.uncompressedSize <= UInt64(limits.maxEntryBytes) else {
                throw OBFError(file: name, .fileTooLarge(maxMiB: limits.maxEntryBytes >> 20))
            }
            declared += entry.uncompressedSize
            guard declared <= UInt64(limits.maxTotalBytes) else { throw OBFError(.packageTooLarge(maxMiB: limits.maxTotalBytes >> 20)) }
            entries[name] = entry
        }
        self.entries = entries
    }

    /// A name inside the package without "./" steps, or nil when it could reach outside the package
    /// (`..`, an absolute path, a drive letter, a backslash) or is empty. Pure.
    static func normalised(_ path: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains(":"), !path.contains("\0")
        else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        return parts.joined(separator: "/")
    }

    func contains(_ path: String) -> Bool {
        Self.normalised(path).map { entries[$0] != nil } ?? false
    }

    /// The bytes of one file, inflated under the limits: at most `maxJSONBytes` for a board or the
    /// manifest, else `maxEntryBytes`, within the package's remaining allowance, and at most `maxRatio`
    /// times its compressed size.
    func data(at path: String, isJSON: Bool = false) throws -> Data {
        guard let name = Self.normalised(path) else { throw OBFError(file: path, .unsafePath) }
        guard let entry = entries[name] else { throw OBFError(file: name, .notInPackage(name)) }
        if let data = inflated[name] { return data }
        let cap = isJSON ? min(limits.maxJSONBytes, limits.maxEntryBytes) : limits.maxEntryBytes
        let compressed = max(Int(clamping: entry.compressedSize), 1)
        var data = Data()
        var refusal: OBFError?
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                data.append(chunk)
                if data.count > cap {
                    refusal = OBFError(file: name, isJSON ? .jsonTooLarge(maxMiB: cap >> 20) : .fileTooLarge(maxMiB: cap >> 20))
                } else if data.count > remainingBytes {
                    refusal = OBFError(.packageTooLarge(maxMiB: limits.maxTotalBytes >> 20))
                } else if data.count > limits.ratioFloorBytes, data.count / compressed > limits.maxRatio {
                    refusal = OBFError(file: name, .compressedTooWell)
                }
                if let refusal { throw refusal }
            }
        } catch {
            throw refusal ?? OBFError(file: name, .notAPackage)
        }
        remainingBytes -= data.count
        inflated[name] = data
        return data
    }
}

/// Writes a package in memory.
struct OBZWriter {
    private let archive: Archive

    init() throws {
        archive = try Archive(data: Data(), accessMode: .create)
    }

    func add(_ path: String, _ data: Data) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
                             provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
    }

    var data: Data { archive.data ?? Data() }
}
