import Foundation
import GRDB
import HTTPServer

/// The symbol page's word-forms card.
struct WordFormsSection: PageModel {
    struct Field: PageModel {
        let key: String
        let label: String
        let value: String
        let error: String?
    }

    let action: String
    let lang: String
    let isFromLexicon: Bool
    let classes: [SelectOption]
    let showsSubject: Bool
    let persons: [SelectOption]
    let numbers: [SelectOption]
    let genders: [SelectOption]
    let hasForms: Bool
    let formsLegend: String
    let fields: [Field]
    let errors: [String: String]

    /// From the symbol's grammar (stored or the lexicon's), or what was typed.
    init(symbol: Symbol, forms: WordForms?, isStored: Bool, _ t: Translator) {
        var typed = FormState()
        let forms = forms ?? WordForms(wordClass: .other)
        typed.values["wordClass"] = forms.wordClass.rawValue
        typed.values["person"] = forms.person.map(String.init) ?? ""
        typed.values["number"] = forms.number?.rawValue ?? ""
        typed.values["gender"] = forms.gender?.rawValue ?? ""
        for (key, value) in forms.forms { typed.values["form_\(key)"] = value }
        self.init(symbol: symbol, typed: typed, isStored: isStored, t)
    }

    init(symbol: Symbol, typed: FormState, isStored: Bool, _ t: Translator) {
        action = SymbolEndpoints.updateForms.path(symbol.id!)
        lang = symbol.voice ?? ""
        isFromLexicon = !isStored && typed["wordClass"] != WordForms.WordClass.other.rawValue
        let wordClass = WordForms.WordClass(rawValue: typed["wordClass"]) ?? .other
        classes = WordForms.WordClass.allCases.map {
            SelectOption(value: $0.rawValue, label: t["wordforms_class_\($0.rawValue)"], isSelected: $0 == wordClass)
        }
        showsSubject = wordClass == .pronoun || wordClass == .noun
        let unset = t["wordforms_unset"]
        persons = [SelectOption(value: "", label: unset, isSelected: typed["person"].isEmpty)]
            + (1...3).map { SelectOption(value: "\($0)", label: t["wordforms_person_\($0)"], isSelected: typed["person"] == "\($0)") }
        numbers = [SelectOption(value: "", label: unset, isSelected: typed["number"].isEmpty)]
            + WordForms.Number.allCases.map { SelectOption(value: $0.rawValue, label: t["wordforms_number_\($0.rawValue)"],
                                                           isSelected: typed["number"] == $0.rawValue) }
        genders = [SelectOption(value: "", label: unset, isSelected: typed["gender"].isEmpty)]
            + WordForms.Gender.allCases.map { SelectOption(value: $0.rawValue, label: t["wordforms_gender_\($0.rawValue)"],
                                                           isSelected: typed["gender"] == $0.rawValue) }
        let keys = WordForms(wordClass: wordClass).keys
        hasForms = !keys.isEmpty
        formsLegend = t[wordClass == .verb ? "wordforms_verb_legend" : "wordforms_nominal_legend"]
        fields = keys.map { Field(key: $0, label: t["wordforms_key_\($0)"], value: typed["form_\($0)"], error: typed.errors["form_\($0)"]) }
        errors = typed.errors
    }
}
