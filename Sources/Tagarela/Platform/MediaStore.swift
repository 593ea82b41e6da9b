import Foundation
import HTTPServer

/// Images people upload (patient photos now, symbol pictures later): checked by their content,
/// never by their name, and re-encoded by ffmpeg so what is stored is a plain, bounded JPEG.
struct MediaStore: Sendable {
    let directory: String

    enum ImageKind: String, Sendable { case png, jpeg, webp }

    enum Failure: Error, Equatable {
        /// Not a PNG, JPEG or WebP (an SVG, a PDF, a renamed file…).
        case notAnImage
        /// ffmpeg could not read or write it.
        case unreadable
    }

    /// What the first bytes say the file is. Pure.
    static func kind(of header: [UInt8]) -> ImageKind? {
        if header.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if header.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if header.count >= 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// Stores `upload` as a JPEG at most `maxSide` pixels on its longer side, keeping proportions;
    /// returns its path relative to the media directory.
    func storePhoto(_ upload: UploadedFile, maxSide: Int = 512) throws -> String {
        try storeImage(upload, folder: "photos", fileExtension: "jpg", maxSide: maxSide)
    }

    /// A symbol picture: PNG, so transparent backgrounds stay transparent on the board.
    func storeSymbolImage(_ upload: UploadedFile) throws -> String {
        try storeSymbolImage(atPath: upload.temporaryPath)
    }

    /// The same for a picture that did not arrive as an upload (one taken out of an imported board).
    func storeSymbolImage(atPath path: String) throws -> String {
        try storeImage(atPath: path, folder: "images", fileExtension: "png", maxSide: 400)
    }

    private func storeImage(_ upload: UploadedFile, folder: String, fileExtension: String, maxSide: Int) throws -> String {
        try storeImage(atPath: upload.temporaryPath, folder: folder, fileExtension: fileExtension, maxSide: maxSide)
    }

    private func storeImage(atPath source: String, folder: String, fileExtension: String, maxSide: Int) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        let header = [UInt8](try handle.read(upToCount: 16) ?? Data())
        try handle.close()
        guard Self.kind(of: header) != nil else { throw Failure.notAnImage }

        let relative = "\(folder)/\(UUID().uuidString.lowercased()).\(fileExtension)"
        let target = directory + "/" + relative
        try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        let quality = fileExtension == "jpg" ? ["-q:v", "4"] : []
        ffmpeg.arguments = ["-nostdin", "-v", "error", "-y", "-i", source, "-frames:v", "1",
                            "-vf", "scale='min(\(maxSide),iw)':'min(\(maxSide),ih)':force_original_aspect_ratio=decrease"]
            + quality + [target]
        ffmpeg.standardOutput = FileHandle.nullDevice
        ffmpeg.standardError = FileHandle.nullDevice
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0, FileManager.default.fileExists(atPath: target) else {
            try? FileManager.default.removeItem(atPath: target)
            throw Failure.unreadable
        }
        return relative
    }

    func remove(_ relative: String?) {
        guard let relative, !relative.contains("..") else { return }
        try? FileManager.default.removeItem(atPath: directory + "/" + relative)
    }

    /// The stored file as a response, for a path that came from the database.
    func response(for relative: String, request: Request) -> Response? {
        Self.file(at: directory + "/" + relative, request: request, cacheControl: "private, max-age=86400")
    }

    /// A file whose name never changes content (random or content-addressed names), with an ETag.
    static func file(at path: String, request: Request, cacheControl: String) -> Response? {
        guard !path.contains(".."), let data = FileManager.default.contents(atPath: path) else { return nil }
        var headers = Headers()
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        let etag = "\"\(name)\""
        headers["ETag"] = etag
        headers["Cache-Control"] = cacheControl
        if request.headers["If-None-Match"] == etag { return Response(status: .notModified, headers: headers) }
        headers["Content-Type"] = StaticFiles.contentType(forExtension: (name as NSString).pathExtension)
        return Response(status: .ok, headers: headers, body: [UInt8](data))
    }
}

extension RequestContext {
    /// Runs `save` with the photo uploaded in `field` stored (or the reason it was refused). Converting
    /// an image takes ffmpeg a while, so with a photo the work moves to the media pool.
    func withUploadedPhoto(
        _ field: String, _ save: @escaping @Sendable (_ photo: String?, _ problem: String?) throws -> Response
    ) -> Response {
        guard let upload = request.file(named: field), upload.size > 0 else {
            return app.run({ _ in try save(nil, nil) }, self)
        }
        return .deferred(on: app.mediaPool) { [self] in
            app.run({ context in
                do {
                    return try save(try context.app.media.storePhoto(upload), nil)
                } catch is MediaStore.Failure {
                    return try save(nil, context.t["error_photo_invalid"])
                }
            }, self)
        }
    }
}
