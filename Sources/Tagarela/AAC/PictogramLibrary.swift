import Foundation

/// The curated OpenMoji pictograms (`Data/pictograms.json`) with their words in each language,
/// searchable in the user's language. The SVG files live in `<data>/pictograms/` (scripts/install-pictograms).
struct PictogramLibrary: Sendable {
    struct Entry: Sendable, Decodable {
        let hexcode: String
        let category: String
        let names: [String: String]

        func name(_ locale: AppLocale) -> String { names[locale.rawValue] ?? names["pt-BR"] ?? hexcode }
    }

    private struct File: Decodable {
        let pictograms: [Entry]
    }

    let entries: [Entry]
    private let byHexcode: [String: Entry]

    init(entries: [Entry]) {
        self.entries = entries
        byHexcode = Dictionary(entries.map { ($0.hexcode, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// An empty library when the file is missing: symbols can still use uploaded images.
    static func load(from path: String) throws -> PictogramLibrary {
        guard let data = FileManager.default.contents(atPath: path) else { return PictogramLibrary(entries: []) }
        return PictogramLibrary(entries: try JSONDecoder().decode(File.self, from: data).pictograms)
    }

    func entry(_ hexcode: String) -> Entry? { byHexcode[hexcode] }

    /// Pictograms whose word in `locale` contains the query, ignoring case and accents: the word itself
    /// first, then words that start with it ("water" before "watermelon"), then the rest.
    func search(_ query: String, locale: AppLocale, category: String? = nil, limit: Int = 48) -> [Entry] {
        let needle = Self.fold(query)
        let pool = entries.filter { category == nil || $0.category == category }
        guard !needle.isEmpty else { return Array(pool.prefix(limit)) }
        let matches = pool.enumerated().compactMap { index, entry -> (entry: Entry, rank: Int, index: Int)? in
            let word = Self.fold(entry.name(locale))
            guard word.contains(needle) else { return nil }
            return (entry, word == needle ? 0 : word.hasPrefix(needle) ? 1 : 2, index)
        }
        return Array(matches.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.entry).prefix(limit))
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }

    static let categories = ["people", "actions", "feelings", "food", "drink", "places", "toys", "school", "body", "clothes",
                             "weather", "time", "social", "animals", "transport", "home"]
}
