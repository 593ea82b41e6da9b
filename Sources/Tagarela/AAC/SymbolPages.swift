import Foundation

/// A symbol as every page draws it: picture, word, category colour, clip.
struct SymbolView: PageModel {
    let id: Int64
    let editURL: String
    let name: String
    let imageURL: String
    let audioURL: String?
    let colourClass: String
    let scope: String?
    /// The language the symbol speaks (and is named in), for its word's `lang`. (Not `lang`: a nil would
    /// find the page's.)
    let wordLang: String?

    init(_ symbol: Symbol, colour: CategoryColour, scope: String? = nil) {
        id = symbol.id!
        editURL = SymbolEndpoints.edit.path(symbol.id!)
        wordLang = symbol.voice
        name = symbol.name
        imageURL = symbol.imageURL
        audioURL = symbol.audioURL
        colourClass = colour.cssClass
        self.scope = scope
    }
}

struct SymbolsPage: PageModel {
    struct Group: PageModel {
        let name: String
        let colourClass: String
        let symbols: [SymbolView]
    }

    let groups: [Group]
    let search: String
    let colours: [SelectOption]
    let isEmpty: Bool
    let newSymbolURL = SymbolEndpoints.newSymbol.path()
    let searchURL = SymbolEndpoints.list.path()
    let createCategoryURL = SymbolEndpoints.createCategory.path()

    init(categories: [Category], symbols: [Symbol], patients: [People.PatientSummary], search: String, _ t: Translator) {
        let names = Dictionary(uniqueKeysWithValues: patients.map { ($0.id, $0.displayName) })
        groups = categories.map { category in
            Group(name: category.name, colourClass: category.categoryColour.cssClass,
                  symbols: symbols.filter { $0.categoryId == category.id }.map {
                      SymbolView($0, colour: category.categoryColour, scope: $0.patientId.flatMap { names[$0] })
                  })
        }.filter { !$0.symbols.isEmpty }
        self.search = search
        colours = CategoryColour.allCases.map { SelectOption(value: $0.rawValue, label: t["colour_\($0.rawValue)"], isSelected: false) }
        isEmpty = symbols.isEmpty
    }
}

struct SymbolFormPage: PageModel {
    struct Pictogram: PageModel {
        let hexcode: String
        let imageURL: String
        let name: String
        /// The language the name is in (the one the search matched, or English standing in for it).
        let nameLang: String
        /// The dataset has no word for it in the language searched: the English one is shown, marked.
        let isFallback: Bool
        let link: String
        let isSelected: Bool
    }

    let action: String
    /// The page itself (new or edit): the library's search and choices come back to it.
    let pagePath: String
    let form: FormState
    let search: String
    let results: [Pictogram]
    let hasResults: Bool
    /// "Nothing found for …", in the user's language, when a search found nothing.
    let nothingFound: String?
    /// The chosen pictogram's picture.
    let chosenPictogram: String?
    /// The symbol speaks with a recording, which the clinician may give up for the generated voice.
    let hasRecording: Bool
    let categories: [SelectOption]
    let scopes: [SelectOption]
    let voices: [SelectOption]
    /// The symbol's word forms (a saved symbol only).
    let wordForms: WordFormsSection?
    let listURL = SymbolEndpoints.list.path()

    /// `symbolId` nil: the new-symbol form.
    init(symbolId: Int64?, form: FormState, search: String, results: [PictogramLibrary.Match], categories: [Category],
         patients: [People.PatientSummary], wordForms: WordFormsSection? = nil, context: RequestContext) {
        let t = context.t
        self.wordForms = wordForms
        action = symbolId.map { SymbolEndpoints.update.path($0) } ?? SymbolEndpoints.create.path()
        pagePath = symbolId.map { SymbolEndpoints.edit.path($0) } ?? SymbolEndpoints.newSymbol.path()
        self.form = form
        self.search = search
        self.results = results.map { match in
            let entry = match.entry, name = match.name
            let query: KeyValuePairs = ["pictogram": entry.hexcode, "name": name, "lang": match.locale.rawValue, "q": search,
                                        "patient": form["scope"]]
            return Pictogram(hexcode: entry.hexcode, imageURL: PlanEndpoints.pictogram.path("\(entry.hexcode).svg"), name: name,
                             nameLang: entry.nameLanguage(match.locale).rawValue, isFallback: match.isFallback,
                             link: symbolId.map { SymbolEndpoints.edit.path($0, query: query) } ?? SymbolEndpoints.newSymbol.path(query: query),
                             isSelected: entry.hexcode == form["pictogram"])
        }
        hasResults = !results.isEmpty
        let typed = search.trimmingCharacters(in: .whitespaces)
        nothingFound = results.isEmpty && !typed.isEmpty ? t("wordforms_search_nothing", ["query": typed]) : nil
        chosenPictogram = form["pictogram"].isEmpty ? nil : PlanEndpoints.pictogram.path("\(form["pictogram"]).svg")
        hasRecording = form["audioKind"] == "uploaded"
        self.categories = categories.map {
            SelectOption(value: $0.formValue, label: $0.name, isSelected: form["categoryId"] == $0.formValue)
        }
        scopes = [SelectOption(value: "", label: t["symbol_general"], isSelected: form["scope"].isEmpty)]
            + patients.map { SelectOption(value: "\($0.id)", label: t("symbol_for_patient", ["name": $0.displayName]),
                                          isSelected: form["scope"] == "\($0.id)") }
        voices = AppLocale.allCases.map {
            SelectOption(value: $0.rawValue, label: t["language_\($0.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                         isSelected: form["voice"] == $0.rawValue)
        }
    }
}
