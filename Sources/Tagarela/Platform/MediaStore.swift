import Foundation
import HTTPServer

/// Images people upload (patient photos now, symbol pictures later): checked by their content,
/// never by their name, and re-encoded by ffmpeg so what is stored is a plain, bounded JPEG.
struct MediaStore: Sendable {
    let directory: String
    /// `maxPixels` but in tests, which lower it to reach ffmpeg's own check.
    var pixelLimit = MediaStore.maxPixels

    enum ImageKind: String, Sendable { case png, jpeg, webp }

    enum Failure: Error, Equatable {
        /// Not a PNG, JPEG or WebP (an SVG, a PDF, a renamed file…), or a header cut short.
        case notAnImage
        /// More pixels than `maxPixels`: refused from its header, before anything is decoded.
        case tooLarge(ImageHeader.Size)
        /// ffmpeg could not read or write it.
        case unreadable
        /// ffmpeg took longer than `ProcessRunner.TimeLimit.imageConversion`.
        case tookTooLong
    }

    /// The most pixels an image may have: 50 megapixels holds every phone camera's full-resolution
    /// mode up to 8160 × 6120 and costs ffmpeg about a second; a 16 000 × 16 000 picture (256
    /// megapixels) cost 6.5 s and 1 GB. See docs/decisions/0017-limits-before-work.md, "Limits before work".
    static let maxPixels = 50_000_000

    /// What the first bytes say the file is. Pure.
    static func kind(of header: [UInt8]) -> ImageKind? {
        if header.starts(with: ImageHeader.pngSignature) { return .png }
        if header.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if header.count >= 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// The file's format if its header is readable and declares at most `maxPixels`. Pure.
    static func check(_ bytes: [UInt8], maxPixels: Int = MediaStore.maxPixels) throws(Failure) -> ImageHeader.Format {
        guard kind(of: Array(bytes.prefix(16))) != nil, let (format, size) = ImageHeader.read(bytes) else { throw .notAnImage }
        guard size.pixels <= maxPixels else { throw .tooLarge(size) }
        return format
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

    /// A picture a teacher gives a word of a child's game: checked and converted as a symbol's, kept
    /// apart from `images/` (which any signed-in user may fetch) because only that child's adults may see it.
    func storeEduCATPicture(_ upload: UploadedFile) throws -> String {
        try storeImage(upload, folder: Self.educatFolder, fileExtension: "png", maxSide: 400)
    }

    static let educatFolder = "educat"

    /// Whether `relative` is a name `storeEduCATPicture` could have given. Pure.
    static func isEduCATPicture(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == educatFolder, parts[1].hasSuffix(".png") else { return false }
        return UUID(uuidString: String(parts[1].dropLast(4))) != nil
    }

    private func storeImage(_ upload: UploadedFile, folder: String, fileExtension: String, maxSide: Int) throws -> String {
        try storeImage(atPath: upload.temporaryPath, folder: folder, fileExtension: fileExtension, maxSide: maxSide)
    }

    private func storeImage(atPath source: String, folder: String, fileExtension: String, maxSide: Int) throws -> String {
        // Mapped, not read: only the pages the header walk touches are loaded.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: source), options: .alwaysMapped) else { throw Failure.unreadable }
        let format = try Self.check([UInt8](data.prefix(Self.headerBytes)), maxPixels: pixelLimit)

        let relative = "\(folder)/\(UUID().uuidString.lowercased()).\(fileExtension)"
        let target = directory + "/" + relative
        try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        let quality = fileExtension == "jpg" ? ["-q:v", "4"] : []
        // The format read from the header, and the same pixel limit in the decoder: a header that lies
        // about the size, or a file ffmpeg would probe as something else, is refused by ffmpeg too.
        let arguments = ["-nostdin", "-v", "error", "-y", "-max_pixels", "\(Self.decoderLimit(pixelLimit))", "-f", format.demuxer,
                         "-i", source, "-frames:v", "1",
                         "-vf", "scale='min(\(maxSide),iw)':'min(\(maxSide),ih)':force_original_aspect_ratio=decrease"]
            + quality + [target]
        try drawPicture(arguments, to: target)
        return relative
    }

    /// Runs ffmpeg to write one picture at `target`: too slow is `Failure.tookTooLong`; any other failure,
    /// or no file written, `Failure.unreadable`.
    func drawPicture(_ arguments: [String], to target: String) throws {
        do {
            try ProcessRunner.run(SpeechAudio.ffmpeg, arguments, timeLimit: ProcessRunner.TimeLimit.imageConversion, outputs: [target])
        } catch ProcessRunner.Failure.timedOut {
            throw Failure.tookTooLong
        } catch {
            throw Failure.unreadable
        }
        guard FileManager.default.fileExists(atPath: target) else { throw Failure.unreadable }
    }

    /// ffmpeg counts the pixels of its padded buffer (each row rounded up to 64 or 128 pixels): an
    /// 8160 × 6120 picture is 8192 × 6120 to it. An eighth more leaves room for that and nothing else.
    static func decoderLimit(_ pixels: Int) -> Int { pixels + pixels / 8 }

    /// Enough of a file to find a JPEG's frame header behind its EXIF and ICC segments (each at most 64 KiB).
    static let headerBytes = 1 << 20

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

extension ImageHeader.Format {
    /// ffmpeg's reader for exactly this format.
    var demuxer: String { rawValue + "_pipe" }
}

extension MediaStore.Failure {
    /// What the person who sent the picture is told, in their language.
    func message(_ t: Translator, _ format: LocalizedFormat) -> String {
        switch self {
        case .notAnImage, .unreadable: t["error_photo_invalid"]
        case .tooLarge(let size):
            t("limits_error_image_too_large", ["width": Self.whole(size.width, format), "height": Self.whole(size.height, format),
                                               "megapixels": Self.whole(MediaStore.maxPixels / 1_000_000, format)])
        case .tookTooLong: t["limits_error_image_too_slow"]
        }
    }

    private static func whole(_ number: Int, _ format: LocalizedFormat) -> String { format.decimal(Double(number), fractionDigits: 0) }
}
