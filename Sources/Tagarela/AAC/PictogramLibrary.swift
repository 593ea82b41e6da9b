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
        search(query, in: [locale], category: category, limit: limit).map(\.entry)
    }

    /// A pictogram found, with the language whose word matched (its name is shown in that language).
    struct Match: Sendable {
        let entry: Entry
        let locale: AppLocale
        var name: String { entry.name(locale) }
    }

    /// Pictograms whose word in any of `locales` (the interface's, the clinician's, the patients')
    /// contains the query: the best match first (the word itself, then a word that starts with it, then
    /// the rest), ties going to the earlier language; each pictogram once, named in the language that
    /// matched best. With no query, the first `limit` pictograms in the first language.
    func search(_ query: String, in locales: [AppLocale], category: String? = nil, limit: Int = 48) -> [Match] {
        let needle = Self.fold(query)
        let languages = locales.reduce(into: [AppLocale]()) { if !$0.contains($1) { $0.append($1) } }
        let first = languages.first ?? .ptBR
        let pool = entries.filter { category == nil || $0.category == category }
        guard !needle.isEmpty else { return pool.prefix(limit).map { Match(entry: $0, locale: first) } }
        let matches = pool.enumerated().compactMap { index, entry -> (match: Match, rank: Int, index: Int)? in
            let ranked = languages.enumerated().compactMap { order, locale -> (rank: Int, locale: AppLocale)? in
                let word = Self.fold(entry.name(locale))
                guard word.contains(needle) else { return nil }
                return ((word == needle ? 0 : word.hasPrefix(needle) ? 1 : 2) * 10 + order, locale)
            }.min { $0.rank < $1.rank }
            guard let ranked else { return nil }
            return (Match(entry: entry, locale: ranked.locale), ranked.rank / 10, index)
        }
        return Array(matches.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.match).prefix(limit))
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }

    static let categories = ["people", "actions", "feelings", "food", "drink", "places", "toys", "school", "body", "clothes",
                             "weather", "time", "social", "animals", "transport", "home"]
}
