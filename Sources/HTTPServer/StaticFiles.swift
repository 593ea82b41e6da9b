import Foundation

/// Serves the files below one folder, read into memory once.
///
/// Every file gets a strong `ETag` from its content, so `If-None-Match` answers 304.
/// `url(for:)` prints a fingerprinted URL (`/css/app.css?v=<etag>`); a request carrying the
/// current fingerprint may be cached for a year, any other is revalidated each time.
/// Only files that were found at load time exist, so no path can climb out of the folder.
public struct StaticFiles: Sendable {
    struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let etag: String
        let fingerprint: String
    }

    private let assets: [String: Asset]

    public init(root: String) throws {
        let rootURL = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL
        var assets: [String: Asset] = [:]
        let keys: [URLResourceKey] = [.isRegularFileKey]
        let enumerator = FileManager.default.enumerator(
            at: rootURL, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: Set(keys)).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(rootURL.path.count))
            let body = try [UInt8](Data(contentsOf: url))
            let fingerprint = Self.fingerprint(of: body)
            assets[relative] = Asset(
                body: body, contentType: Self.contentType(forExtension: url.pathExtension),
                etag: "\"\(fingerprint)\"", fingerprint: fingerprint)
        }
        self.assets = assets
    }

    /// The URL to print in pages for the file at `path` (`/css/app.css`).
    public func url(for path: String) -> String {
        guard let asset = assets[path] else { return path }
        return "\(path)?v=\(asset.fingerprint)"
    }

    /// The response for `request` when it names a file here, else `nil`.
    public func response(for request: Request) -> Response? {
        // Only the files found at load time are keys, so a path that climbs (`..`) finds none.
        guard request.method == .get || request.method == .head, let asset = assets[request.path] else { return nil }

        var headers = Headers()
        headers["ETag"] = asset.etag
        headers["Cache-Control"] = request.query["v"] == asset.fingerprint
            ? "public, max-age=31536000, immutable"
            : "no-cache"
        if let tags = request.headers["If-None-Match"], Self.matches(tags, asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers["Content-Type"] = asset.contentType
        return Response(status: .ok, headers: headers, body: asset.body)
    }

    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    /// FNV-1a, 64 bits: enough to tell versions of a file apart; not a security measure.
    static func fingerprint(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    public static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "mp3": "audio/mpeg"
        case "ogg": "audio/ogg"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "ttf": "font/ttf"
        default: "application/octet-stream"
        }
    }
}
