import Foundation
import HTTPServer

/// SVG pictures (an imported board's own, a clinician's upload) turned into a plain PNG like any other
/// picture: the text checked and stripped of anything that reaches outside the file, then rasterised by
/// ffmpeg's librsvg decoder at a bounded size. Nothing of the SVG is ever served as it came.
enum SVGPicture {
    /// Larger than any symbol's drawing needs (OpenMoji's largest is under 100 kB).
    static let maxBytes = 1 << 20
    /// The longer side of the PNG made, as for uploaded pictures.
    static let maxSide = 400

    /// Whether the bytes start like an SVG document (after an XML declaration, comments, an `svg` DOCTYPE
    /// and blanks). Pure.
    static func looksLikeSVG(_ data: Data) -> Bool {
        guard let head = String(data: data.prefix(4096), encoding: .utf8) ?? String(data: data.prefix(4095), encoding: .utf8)
        else { return false }
        return head.range(of: #"^\s*(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*)*(<!DOCTYPE\s+svg\b[^\[>]*(\[[^\]]*\]\s*)?>\s*)?(<!--.*?-->\s*)*<svg[\s>]"#,
                          options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// The SVG as it will be drawn, or nil when it is refused: too large, not UTF-8, not an `<svg>`
    /// document, or a DOCTYPE other than `internalEntitiesExpanded` takes. References to anything outside
    /// the file (`href` other than `#…` or an inline PNG/JPEG/GIF/WebP, `url(…)` other than `url(#…)`,
    /// `@import`) are blanked: the drawing keeps its own shapes, never a file or address. Pure.
    static func sanitized(_ data: Data) -> Data? {
        guard data.count <= maxBytes, looksLikeSVG(data), var text = String(data: data, encoding: .utf8) else { return nil }
        if text.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil {
            guard let expanded = internalEntitiesExpanded(text) else { return nil }
            text = expanded
        }
        if text.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil || text.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            return nil
        }
        text = text.replacingOccurrences(
            of: #"(href\s*=\s*)(["'])(?!\s*#|\s*data:image/(png|jpeg|gif|webp)[;,])[^"']*\2"#, with: "$1$2#$2",
            options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: #"url\(\s*(?!['"]?\s*#)[^)]*\)"#, with: "none", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: #"@import[^;]*;?"#, with: "", options: [.regularExpression, .caseInsensitive])
        return Data(text.utf8)
    }

    /// The document without its DOCTYPE, each of its internal entities written out where it is used, or nil.
    /// Illustrator, which drew the Mulberry symbols CoughDrop and OpenSymbols hand out, declares its
    /// namespaces so (`<!ENTITY ns_svg "http://www.w3.org/2000/svg">`, used as `xmlns="&ns_svg;"`). Only
    /// plain text is taken: a value holding `&`, `%`, `<` or a quote (nesting, markup), a `SYSTEM`/`PUBLIC`
    /// entity (a file or an address), a parameter entity or any other declaration refuses the whole file,
    /// and the result is refused past `maxBytes`, so nothing grows as entity expansion attacks do. Pure.
    static func internalEntitiesExpanded(_ text: String) -> String? {
        guard let doctype = text.firstMatch(of: #/<!DOCTYPE\s+svg\b[^\[>]*(?:\[(?<subset>[^\]]*)\]\s*)?>/#.ignoresCase()) else { return nil }
        var values: [String: String] = [:]
        var rest = Substring(doctype.output.subset ?? "")
        let entity = #/^\s*<!ENTITY\s+(?<name>[A-Za-z_][\w.-]*)\s+(?:"(?<double>[^"&%<']*)"|'(?<single>[^'&%<"]*)')\s*>/#
        while let declaration = rest.prefixMatch(of: entity) {
            guard values.count < 32 else { return nil }
            values[String(declaration.output.name)] = String(declaration.output.double ?? declaration.output.single ?? "")
            rest = rest[declaration.range.upperBound...]
        }
        guard rest.allSatisfy(\.isWhitespace) else { return nil }
        var result = String(text[..<doctype.range.lowerBound])
        var remaining = text[doctype.range.upperBound...]
        while let reference = remaining.firstMatch(of: #/&(?<name>[A-Za-z_][\w.-]*);/#) {
            result += remaining[..<reference.range.lowerBound]
            result += values[String(reference.output.name)] ?? String(reference.output.0)
            remaining = remaining[reference.range.upperBound...]
            guard result.utf8.count <= maxBytes else { return nil }
        }
        result += remaining
        return result.utf8.count <= maxBytes ? result : nil
    }
}

extension MediaStore {
    /// A symbol's uploaded picture: an SVG drawn safely (`storeSymbolSVG`), anything else as `storeSymbolImage`.
    func storeSymbolPicture(_ upload: UploadedFile) throws -> String {
        guard upload.size <= SVGPicture.maxBytes,
              let handle = FileHandle(forReadingAtPath: upload.temporaryPath),
              let data = try? handle.readToEnd(), SVGPicture.looksLikeSVG(data)
        else { return try storeSymbolImage(upload) }
        return try storeSymbolSVG(data)
    }

    /// An SVG picture stored as a PNG under `images/` (as `storeSymbolImage` stores a PNG or JPEG);
    /// its path relative to the media directory. `Failure.notAnImage` for an SVG `SVGPicture` refuses.
    func storeSymbolSVG(_ data: Data) throws -> String {
        guard let safe = SVGPicture.sanitized(data) else { throw Failure.notAnImage }
        let relative = "images/\(UUID().uuidString.lowercased()).png"
        let target = directory + "/" + relative
        let source = directory + "/images/.svg-\(UUID().uuidString.lowercased()).svg"
        try FileManager.default.createDirectory(atPath: directory + "/images", withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: source, contents: safe) else { throw Failure.unreadable }
        defer { try? FileManager.default.removeItem(atPath: source) }
        // Drawn at most maxSide × maxSide whatever size the file claims, its proportions kept.
        let side = "\(SVGPicture.maxSide)"
        let arguments = ["-nostdin", "-v", "error", "-y", "-f", "svg_pipe", "-c:v", "librsvg", "-width", side, "-height", side,
                         "-keep_ar", "1", "-i", source, "-frames:v", "1", target]
        try drawPicture(arguments, to: target)
        return relative
    }
}
