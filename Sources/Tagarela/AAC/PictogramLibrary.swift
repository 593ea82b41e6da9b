import Foundation
import Synchronization

/// The pictures a symbol, a cell or a game's word can take: the curated AAC words (`Data/pictograms.json`,
/// OpenMoji pictures named by hand as a board says them, grouped in categories), then the whole OpenMoji set
/// named from Unicode CLDR in each language (`<pictograms>/library.json`, written by scripts/install-pictograms).
/// The SVG files live in `<data>/pictograms/`. Searchable in any of the four languages.
struct PictogramLibrary: Sendable {
    struct Entry: Sendable, Decodable {
        let hexcode: String
        /// One of `categories` for a curated word; empty for the rest of the set.
        let category: String
        let names: [String: String]
        /// More words that find the picture, per language (CLDR's keywords).
        let words: [String: [String]]
        /// Languages whose name is English, as the dataset has none in them.
        let fallback: [String]

        init(hexcode: String, category: String, names: [String: String], words: [String: [String]] = [:], fallback: [String] = []) {
            self.hexcode = hexcode
            self.category = category
            self.names = names
            self.words = words
            self.fallback = fallback
        }

        private enum Keys: String, CodingKey { case hexcode, category, names, words, fallback }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            hexcode = try container.decode(String.self, forKey: .hexcode)
            category = try container.decodeIfPresent(String.self, forKey: .category) ?? ""
            names = try container.decode([String: String].self, forKey: .names)
            words = try container.decodeIfPresent([String: [String]].self, forKey: .words) ?? [:]
            fallback = try container.decodeIfPresent([String].self, forKey: .fallback) ?? []
        }

        func name(_ locale: AppLocale) -> String { names[locale.rawValue] ?? names["pt-BR"] ?? hexcode }

        /// The language the name shown for `locale` is really in (English where the dataset has none).
        func nameLanguage(_ locale: AppLocale) -> AppLocale { fallback.contains(locale.rawValue) ? .en : locale }

        /// The curated word with the dataset's words for the same picture added to its own.
        func adding(_ other: Entry) -> Entry {
            var words = self.words
            for locale in AppLocale.allCases.map(\.rawValue) {
                let extra = (other.fallback.contains(locale) ? [] : [other.names[locale]].compactMap { $0 }) + (other.words[locale] ?? [])
                if !extra.isEmpty { words[locale, default: []] += extra }
            }
            return Entry(hexcode: hexcode, category: category, names: names, words: words, fallback: fallback)
        }
    }

    private struct File: Decodable {
        let pictograms: [Entry]
    }

    let entries: [Entry]
    private let byHexcode: [String: Entry]
    /// Per entry, per language (`AppLocale.allCases` order): its name and words folded, ready to compare.
    private let folded: [[Terms]]

    /// The folded name and every word that finds an entry in one language.
    private struct Terms: Sendable {
        let name: String
        /// The name's own words and the dataset's words.
        let words: [String]
        /// All of them in one string's bytes, for the first look (a search reads every entry).
        let all: [UInt8]
    }

    init(entries: [Entry]) {
        self.entries = entries
        byHexcode = Dictionary(entries.map { ($0.hexcode, $0) }, uniquingKeysWith: { first, _ in first })
        folded = entries.map { entry in
            AppLocale.allCases.map { locale in
                let name = Self.fold(entry.name(locale))
                let words = Set(name.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," || $0 == "-" }).map(String.init)
                                + (entry.words[locale.rawValue] ?? []).map(Self.fold)).subtracting([name, ""]).sorted()
                return Terms(name: name, words: words, all: Array(([name] + words).joined(separator: "\u{1}").utf8))
            }
        }
    }

    /// The curated words only, or an empty library when the file is missing (symbols can still use uploaded images).
    static func load(from path: String) throws -> PictogramLibrary {
        PictogramLibrary(entries: try entries(at: path))
    }

    /// The curated words, then every other picture of the installed set (`library`, absent before
    /// scripts/install-pictograms ran). Read once per process for the same files: a test run starts many servers.
    static func load(curated: String, library: String) throws -> PictogramLibrary {
        let key = curated + "\u{0}" + library
        if let loaded = loaded.withLock({ $0[key] }) { return loaded }
        let own = try entries(at: curated)
        let set = try entries(at: library)
        let fromSet = Dictionary(set.map { ($0.hexcode, $0) }, uniquingKeysWith: { first, _ in first })
        let ownHexcodes = Set(own.map(\.hexcode))
        let merged = own.map { entry in fromSet[entry.hexcode].map(entry.adding) ?? entry } + set.filter { !ownHexcodes.contains($0.hexcode) }
        let made = PictogramLibrary(entries: merged)
        loaded.withLock { $0[key] = made }
        return made
    }

    private static let loaded = Mutex<[String: PictogramLibrary]>([:])

    private static func entries(at path: String) throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return try JSONDecoder().decode(File.self, from: data).pictograms
    }

    func entry(_ hexcode: String) -> Entry? { byHexcode[hexcode] }

    /// Pictograms whose words in `locale` hold the query, ignoring case and accents, best first (see `rank`).
    func search(_ query: String, locale: AppLocale, category: String? = nil, limit: Int = 48) -> [Entry] {
        search(query, in: [locale], category: category, limit: limit).map(\.entry)
    }

    /// A pictogram found, with the language whose word matched (its name is shown in that language).
    struct Match: Sendable {
        let entry: Entry
        let locale: AppLocale
        var name: String { entry.name(locale) }
        /// The name is English standing in for `locale`'s, which the dataset lacks.
        var isFallback: Bool { entry.nameLanguage(locale) != locale }
    }

    /// How well a query matches one language's words, best first.
    enum Rank: Int, Comparable {
        /// The name is the query ("água").
        case name
        /// One of its words is the query ("gota" for "gota de suor", or a keyword).
        case word
        /// The name starts with it ("água" for "ag").
        case namePrefix
        /// A word starts with it.
        case wordPrefix
        /// The query is inside a word.
        case inside

        static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// Pictograms whose words in any of `locales` (the interface's, the clinician's, the patients')
    /// hold the query: exact words first (`Rank`), ties going to the earlier language, then the curated
    /// words before the rest of the set; each pictogram once, named in the language that matched best.
    /// With no query, the first `limit` pictograms (the curated words) in the first language.
    func search(_ query: String, in locales: [AppLocale], category: String? = nil, limit: Int = 48) -> [Match] {
        let needle = Self.fold(query)
        let languages = locales.reduce(into: [AppLocale]()) { if !$0.contains($1) { $0.append($1) } }
        let first = languages.first ?? .ptBR
        let columns = languages.map { locale in (locale, AppLocale.allCases.firstIndex(of: locale)!) }
        guard !needle.isEmpty else {
            return entries.lazy.filter { category == nil || $0.category == category }.prefix(limit).map { Match(entry: $0, locale: first) }
        }
        let bytes = Array(needle.utf8)
        var found: [(match: Match, rank: Int, index: Int)] = []
        for (index, entry) in entries.enumerated() where category == nil || entry.category == category {
            var best: (rank: Int, locale: AppLocale)?
            for (order, (locale, column)) in columns.enumerated() {
                let terms = folded[index][column]
                guard Self.holds(terms.all, bytes), let rank = Self.rank(needle, terms) else { continue }
                let score = rank.rawValue * 10 + order
                if best == nil || score < best!.rank { best = (score, locale) }
            }
            if let best { found.append((Match(entry: entry, locale: best.locale), best.rank, index)) }
        }
        found.sort { ($0.rank, $0.index) < ($1.rank, $1.index) }
        return found.prefix(limit).map(\.match)
    }

    /// Whether `needle` (not empty) occurs in `haystack`: a plain byte scan, a few microseconds per entry.
    private static func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let count = needle.count
        guard haystack.count >= count else { return false }
        let first = needle[0]
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var start = 0
                let last = hay.count - count
                while start <= last {
                    if hay[start] == first {
                        var offset = 1
                        while offset < count, hay[start + offset] == pin[offset] { offset += 1 }
                        if offset == count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    private static func rank(_ needle: String, _ terms: Terms) -> Rank? {
        if terms.name == needle { return .name }
        if terms.words.contains(needle) { return .word }
        if terms.name.hasPrefix(needle) { return .namePrefix }
        if terms.words.contains(where: { $0.hasPrefix(needle) }) { return .wordPrefix }
        if terms.name.contains(needle) || terms.words.contains(where: { $0.contains(needle) }) { return .inside }
        return nil
    }

    /// Lowercase, without accents, trimmed: "Água " and "agua" are the same word.
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }

    static let categories = ["people", "actions", "feelings", "food", "drink", "places", "toys", "school", "body", "clothes",
                             "weather", "time", "social", "animals", "transport", "home"]
}
