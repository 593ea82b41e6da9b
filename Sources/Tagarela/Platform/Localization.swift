import Foundation
import Mustache

/// The languages Tagarela speaks. pt-BR is the default.
public enum AppLocale: String, CaseIterable, Sendable {
    case ptBR = "pt-BR"
    case es
    case ca
    case en

    public static let fallback = AppLocale.ptBR

    /// The `lang` of words written in `words` on a page in this language: nil when they agree, so a
    /// Spanish board named on a Portuguese page is read with a Spanish voice. Pure.
    func lang(of words: AppLocale?) -> String? {
        guard let words, words != self else { return nil }
        return words.rawValue
    }

    /// The language's name in itself, the same on every page (a choice offered before anyone signs in).
    var nativeName: String {
        switch self {
        case .ptBR: "Português (Brasil)"
        case .es: "Español"
        case .ca: "Català"
        case .en: "English"
        }
    }

    /// The Foundation locale used to format numbers and dates.
    var foundationLocale: Locale {
        switch self {
        case .ptBR: Locale(identifier: "pt_BR")
        case .es: Locale(identifier: "es_ES")
        case .ca: Locale(identifier: "ca_ES")
        case .en: Locale(identifier: "en_US")
        }
    }

    /// The best of our locales for an `Accept-Language` header, or `nil` when none fits.
    /// Weights (`q=`) are honoured; `pt-PT` still chooses pt-BR, the only Portuguese here.
    static func preferred(byAcceptLanguage header: String) -> AppLocale? {
        let ranges = header.split(separator: ",").enumerated().compactMap { index, item -> (tag: String, q: Double, index: Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { return nil }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (tag.lowercased(), q, index)
        }
        let ordered = ranges.filter { $0.q > 0 }.sorted { ($0.q, -$0.index) > ($1.q, -$1.index) }
        for range in ordered {
            let language = range.tag.split(separator: "-").first.map(String.init) ?? range.tag
            if let locale = AppLocale.allCases.first(where: { $0.rawValue.lowercased() == range.tag })
                ?? AppLocale.allCases.first(where: { $0.rawValue.lowercased().hasPrefix(language) }) {
                return locale
            }
        }
        return nil
    }

    /// The user's own choice first, then what the browser asks for, then pt-BR.
    static func negotiate(userSetting: AppLocale?, acceptLanguage: String?) -> AppLocale {
        userSetting ?? acceptLanguage.flatMap(preferred(byAcceptLanguage:)) ?? .fallback
    }
}

/// The visible texts of every locale, read from `Templates/i18n/<locale>.json` and from
/// `Templates/i18n/<feature>/<locale>.json`, so a feature keeps its texts in its own folder.
public struct Catalogues: Sendable {
    private let texts: [AppLocale: [String: String]]

    struct DuplicateKey: Error, CustomStringConvertible {
        let key: String
        let file: String
        var description: String { "text key \(key) in \(file) is already defined in another catalogue" }
    }

    public init(directory: String) throws {
        let root = URL(fileURLWithPath: directory)
        let features = (try? FileManager.default.contentsOfDirectory(
            at: root, includingPropertiesForKeys: [.isDirectoryKey]
        ))?.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
        var texts: [AppLocale: [String: String]] = [:]
        for locale in AppLocale.allCases {
            var merged = try Self.read(root.appendingPathComponent("\(locale.rawValue).json"))
            for feature in features {
                let file = feature.appendingPathComponent("\(locale.rawValue).json")
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                for (key, value) in try Self.read(file) {
                    guard merged.updateValue(value, forKey: key) == nil else {
                        throw DuplicateKey(key: key, file: file.path)
                    }
                }
            }
            texts[locale] = merged
        }
        self.texts = texts
    }

    private static func read(_ file: URL) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
    }

    public func translator(for locale: AppLocale) -> Translator {
        Translator(locale: locale, texts: texts[locale] ?? [:])
    }

    func keys(of locale: AppLocale) -> Set<String> { Set(texts[locale]?.keys ?? [:].keys) }
}

/// Looks texts up by key; templates reach it as `{{t.some_key}}`.
public struct Translator: Sendable, MustacheParent {
    public let locale: AppLocale
    let texts: [String: String]

    public subscript(key: String) -> String {
        texts[key] ?? "⟦\(key)⟧"
    }

    /// A text with `{name}` placeholders filled in, in one pass: a value that itself contains
    /// `{name}` (a patient called "{count}") is written as it is, never filled in again.
    public func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.fill(self[key], values)
    }

    /// Walks the UTF-8 bytes: the braces are ASCII, and finding them among Characters (grapheme by
    /// grapheme) was a twentieth of a 300-card worklist.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        let bytes = text.utf8
        guard !values.isEmpty, bytes.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        result.reserveCapacity(bytes.count + 16)
        var rest = bytes[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "{")) {
            result += Substring(rest[..<open])
            let afterOpen = bytes.index(after: open)
            if let close = bytes[afterOpen...].firstIndex(of: UInt8(ascii: "}")),
               let value = values[String(Substring(bytes[afterOpen..<close]))] {
                result += value
                rest = bytes[bytes.index(after: close)...]
            } else {
                result += "{"
                rest = bytes[afterOpen...]
            }
        }
        result += Substring(rest)
        return result
    }

    public func child(named name: String) -> Any? { MustacheText(self[name]) }
}
