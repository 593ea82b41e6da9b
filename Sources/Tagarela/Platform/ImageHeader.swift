/// The pixel size a PNG, JPEG or WebP file declares in its header, read without decoding a pixel, so
/// an image too large to convert is refused before ffmpeg spends seconds and a gigabyte on it.
///
/// No Swift package on the machine reads image headers, so this is a small parser of the three formats
/// uploads accept: PNG's IHDR chunk, JPEG's SOFn segment, WebP's VP8/VP8L/VP8X chunk. Anything it
/// cannot read to the end (truncated, a zero side, a JPEG with no frame before its scan) is not an image
/// it will let through. ffmpeg is then told the same format and the same pixel limit (`-max_pixels`),
/// so a header that lies about the size is caught by the decoder too.
enum ImageHeader {
    enum Format: String, Sendable { case png, jpeg, webp }

    struct Size: Equatable, Sendable {
        let width: Int
        let height: Int
        var pixels: Int { width * height }
    }

    /// The format and size `bytes` (a whole file, or at least its header) declare; nil when they are
    /// not a readable PNG, JPEG or WebP header.
    static func read(_ bytes: [UInt8]) -> (format: Format, size: Size)? {
        if bytes.starts(with: pngSignature) { return png(bytes).map { (.png, $0) } }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes).map { (.jpeg, $0) } }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return webp(bytes).map { (.webp, $0) }
        }
        return nil
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The first chunk must be IHDR: length 13, then width and height, 4 bytes each, big-endian.
    static func png(_ bytes: [UInt8]) -> Size? {
        guard bytes.count >= 24, bigEndian(bytes, 8, 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return size(bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
    }

    /// Walks the marker segments to the first start-of-frame (SOF0–SOF15 but DHT C4, JPG C8, DAC CC),
    /// whose body is precision (1 byte), height and width (2 bytes each, big-endian). Segments skipped
    /// on the way (EXIF, ICC profiles, a thumbnail inside EXIF) are jumped over by their length.
    static func jpeg(_ bytes: [UInt8]) -> Size? {
        var index = 2
        while index < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            while index < bytes.count, bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { return nil }
            let marker = bytes[index]
            index += 1
            switch marker {
            case 0xD8, 0x01, 0xD0...0xD7: continue  // no length
            case 0xD9, 0xDA: return nil  // the image ended, or its data began, with no frame header
            default: break
            }
            guard index + 2 <= bytes.count else { return nil }
            let length = bigEndian(bytes, index, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, index + 7 <= bytes.count else { return nil }
                // A height of 0 is allowed by the standard (given later by a DNL segment); not here.
                return size(bigEndian(bytes, index + 5, 2), bigEndian(bytes, index + 3, 2))
            }
            index += length
        }
        return nil
    }

    /// The first chunk after "RIFF size WEBP": "VP8 " (lossy), "VP8L" (lossless) or "VP8X" (extended,
    /// with the canvas size of an animation or a picture with alpha or metadata).
    static func webp(_ bytes: [UInt8]) -> Size? {
        guard bytes.count >= 30 else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        let data = 20
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, then 14-bit width and height.
            guard bytes[data] & 1 == 0, Array(bytes[data + 3..<data + 6]) == [0x9D, 0x01, 0x2A] else { return nil }
            return size(littleEndian(bytes, data + 6, 2) & 0x3FFF, littleEndian(bytes, data + 8, 2) & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then width − 1 and height − 1 in 14 bits each.
            guard bytes[data] == 0x2F else { return nil }
            let bits = littleEndian(bytes, data + 1, 4)
            return size((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags (1 byte), reserved (3), canvas width − 1 and height − 1 in 24 bits each.
            return size(littleEndian(bytes, data + 4, 3) + 1, littleEndian(bytes, data + 7, 3) + 1)
        default:
            return nil
        }
    }

    private static func size(_ width: Int, _ height: Int) -> Size? {
        width > 0 && height > 0 ? Size(width: width, height: height) : nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
