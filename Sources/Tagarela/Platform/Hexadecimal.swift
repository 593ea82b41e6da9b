extension Sequence<UInt8> {
    /// Lower-case hexadecimal, two digits per byte, e.g. of a SHA-256 digest.
    /// (`String(format: "%02x", byte)` per byte boxes every byte as a `CVarArg`: a conta-cops lesson
    /// names about sixty clips this way, and that formatting was half of the page's time.)
    var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
