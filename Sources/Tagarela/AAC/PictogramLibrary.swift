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
    /// Each language's search index, made on the first search in that language: most processes (and
    /// every browser test's server) never search, and all four made at start were half of a start's CPU.
    private let indexes: Indexes

    /// One language's words of every entry, folded, as bytes: a search scans them in one pass (a debug
    /// build's String comparisons over 3 730 pictures cost 90 ms a search). Entry `i` owns
    /// `bytes[starts[i]..<starts[i + 1]]`: "\u{1}name\u{1}word\u{1}word…".
    private struct Blob: Sendable {
        var bytes: [UInt8] = []
        var starts: [Int] = []
    }

    /// One language's blob, and the first entry of each folded name: an imported board asks for hundreds of labels.
    private struct Index: Sendable {
        let blob: Blob
        let byName: [String: Int]

        init(_ entries: [Entry], _ locale: AppLocale) {
            var blob = Blob()
            var names: [String: Int] = [:]
            for (index, entry) in entries.enumerated() {
                let name = PictogramLibrary.fold(entry.name(locale))
                if names[name] == nil { names[name] = index }
                let words = Set(name.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," || $0 == "-" }).map(String.init)
                                + (entry.words[locale.rawValue] ?? []).map(PictogramLibrary.fold)).subtracting([name, ""]).sorted()
                blob.starts.append(blob.bytes.count)
                for term in [name] + words {
                    blob.bytes.append(PictogramLibrary.separator)
                    blob.bytes.append(contentsOf: term.utf8)
                }
            }
            blob.starts.append(blob.bytes.count)
            blob.bytes.append(PictogramLibrary.separator)
            self.blob = blob
            byName = names
        }
    }

    private final class Indexes: Sendable {
        private let made = Mutex<[AppLocale: Index]>([:])

        func index(_ locale: AppLocale, of entries: [Entry]) -> Index {
            made.withLock { made in
                if let index = made[locale] { return index }
                let index = Index(entries, locale)
                made[locale] = index
                return index
            }
        }
    }

    private static let separator: UInt8 = 1

    init(entries: [Entry]) {
        self.entries = entries
        byHexcode = Dictionary(entries.map { ($0.hexcode, $0) }, uniquingKeysWith: { first, _ in first })
        indexes = Indexes()
    }

    /// The first picture whose name in `locale` is `label`, ignoring case and accents (curated words first).
    func named(_ label: String, locale: AppLocale) -> Entry? {
        indexes.index(locale, of: entries).byName[Self.fold(label)].map { entries[$0] }
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
        guard !needle.isEmpty else {
            return entries.lazy.filter { category == nil || $0.category == category }.prefix(limit).map { Match(entry: $0, locale: first) }
        }
        let bytes = Array(needle.utf8)
        var best: [Int: (score: Int, locale: AppLocale)] = [:]
        for (order, locale) in languages.enumerated() {
            Self.scan(indexes.index(locale, of: entries).blob, for: bytes) { index, rank in
                guard category == nil || entries[index].category == category else { return }
                let score = rank.rawValue * 10 + order
                if let known = best[index], known.score <= score { return }
                best[index] = (score, locale)
            }
        }
        return best.sorted { ($0.value.score, $0.key) < ($1.value.score, $1.key) }.prefix(limit)
            .map { Match(entry: entries[$0.key], locale: $0.value.locale) }
    }

    /// Calls `found(entry, rank)` once for each entry whose terms hold `needle`, with its best rank. One pass
    /// over the blob: at the first occurrence inside an entry, that entry's terms are ranked, then the scan
    /// goes on at the next entry.
    private static func scan(_ blob: Blob, for needle: [UInt8], _ found: (Int, Rank) -> Void) {
        let count = needle.count
        guard count > 0, !needle.contains(separator) else { return }
        blob.bytes.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let first = pin[0], end = hay.count - count
                var entry = 0, position = 0
                while position <= end {
                    if hay[position] != first { position += 1; continue }
                    var offset = 1
                    while offset < count, hay[position + offset] == pin[offset] { offset += 1 }
                    guard offset == count else { position += 1; continue }
                    while blob.starts[entry + 1] <= position { entry += 1 }
                    found(entry, rank(of: pin, in: UnsafeBufferPointer(rebasing: hay[blob.starts[entry]..<blob.starts[entry + 1]])))
                    position = blob.starts[entry + 1]
                }
            }
        }
    }

    /// The best rank of the needle among one entry's terms ("\u{1}name\u{1}word…"), known to hold it.
    private static func rank(of needle: UnsafeBufferPointer<UInt8>, in terms: UnsafeBufferPointer<UInt8>) -> Rank {
        var best = Rank.inside
        var termStart = 1, isName = true
        while termStart <= terms.count {
            var termEnd = termStart
            while termEnd < terms.count, terms[termEnd] != separator { termEnd += 1 }
            let length = termEnd - termStart
            if length >= needle.count {
                var same = true
                for offset in 0..<needle.count where terms[termStart + offset] != needle[offset] { same = false; break }
                if same {
                    let rank: Rank = length == needle.count ? (isName ? .name : .word) : (isName ? .namePrefix : .wordPrefix)
                    if rank < best { best = rank }
                    if best == .name { return best }
                }
            }
            termStart = termEnd + 1
            isName = false
        }
        return best
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
