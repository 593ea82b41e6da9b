import Foundation
import GRDB
import HTTPServer

/// The clinician's correction of a symbol's word forms, on the symbol's page: saved, then the clip of
/// every form made on the media pool, so the builder and the strip speak the corrected form at once.
enum SymbolFormsRoutes {
    static func add(to router: inout Router<Route>) {
        router.add(SymbolEndpoints.updateForms) { $0.write(saveForms).slow(.media, makeClips).write(saved) }
    }

    /// What the clips are made of: the forms and the voice that says them.
    struct Saved: Sendable {
        let symbolId: Int64
        let texts: [String]
        let voice: String
    }

    @Sendable static func saveForms(_ context: RequestContext, _ db: Database, symbolId: Int64) throws -> Step<Saved> {
        let actor = try context.requireActor()
        let symbol = try SymbolQueries.symbol(symbolId, of: actor, db)
        var typed = WordFormsInput.fields(context.request.form)
        guard let forms = WordFormsInput.read(&typed, context.t) else {
            var form = SymbolRoutes.editForm(symbol, context)
            form.errors["wordForms"] = context.t["wordforms_errors_title"]
            return .reply(SymbolRoutes.formPage(context, try SymbolQueries.form(actor, context.t, db), form: form, symbolId: symbol.id,
                                                wordForms: WordFormsSection(symbol: symbol, typed: typed, isStored: true, context.t),
                                                status: .unprocessableContent))
        }
        try WordFormStore.save(forms, for: symbol, audit: context.audit, db)
        let voice = SpeechAudio.voice(for: symbol.voice.flatMap(AppLocale.init(rawValue:)) ?? context.locale)
        return .next(Saved(symbolId: symbol.id!, texts: forms.keys.compactMap { forms.forms[$0] }, voice: voice))
    }

    /// Each form's clip, made once (content-addressed); one that cannot be made is made on first use.
    @Sendable static func makeClips(_ context: RequestContext, _ saved: Saved, _: Int64) throws -> Step<Saved> {
        for text in Set(saved.texts) { _ = try? context.speech.clip(text: text, voice: saved.voice) }
        return .next(saved)
    }

    @Sendable static func saved(_ context: RequestContext, _ db: Database, _ saved: Saved, _: Int64) throws -> Reply {
        .redirect(to: SymbolEndpoints.edit.path(saved.symbolId) + "#word-forms", flash: "wordforms_saved")
    }
}

/// The word-forms form, read and checked. Pure.
enum WordFormsInput {
    static let formKeys = WordForms.verbKeys + WordForms.nominalKeys
    static let maxFormLength = 40

    static func fields(_ form: Parameters) -> FormState {
        FormState(form, fields: ["wordClass", "person", "number", "gender"] + formKeys.map { "form_\($0)" })
    }

    /// The grammar the form describes, or nil with the problems recorded against their fields.
    static func read(_ form: inout FormState, _ t: Translator) -> WordForms? {
        let wordClass = WordForms.WordClass(rawValue: form["wordClass"])
        if wordClass == nil { form.fail("wordClass", t["error_choose_option"]) }
        var person: Int?
        if !form["person"].isEmpty {
            person = Int(form["person"]).flatMap { (1...3).contains($0) ? $0 : nil }
            if person == nil { form.fail("person", t["error_choose_option"]) }
        }
        let number = form["number"].isEmpty ? nil : WordForms.Number(rawValue: form["number"])
        if !form["number"].isEmpty, number == nil { form.fail("number", t["error_choose_option"]) }
        let gender = form["gender"].isEmpty ? nil : WordForms.Gender(rawValue: form["gender"])
        if !form["gender"].isEmpty, gender == nil { form.fail("gender", t["error_choose_option"]) }
        if wordClass == .pronoun, person == nil { form.fail("person", t["wordforms_error_person"]) }
        var forms: [String: String] = [:]
        let keys = wordClass.map { WordForms(wordClass: $0).keys } ?? []
        for key in keys {
            let text = form["form_\(key)"].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            guard isWord(text) else {
                form.fail("form_\(key)", t["wordforms_error_form"])
                continue
            }
            forms[key] = text
        }
        guard let wordClass, !form.hasErrors else { return nil }
        return WordForms(wordClass: wordClass, person: wordClass == .pronoun ? person : nil,
                         number: [.pronoun, .noun].contains(wordClass) ? number : nil,
                         gender: [.pronoun, .noun].contains(wordClass) ? gender : nil, forms: forms)
    }

    /// What a form may be: words of letters, with spaces, apostrophes and hyphens ("he acabat",
    /// "l'aigua", "guarda-chuva"), short enough to be one word's form.
    static func isWord(_ text: String) -> Bool {
        text.count <= maxFormLength && text.unicodeScalars.allSatisfy {
            CharacterSet.letters.contains($0) || CharacterSet.nonBaseCharacters.contains($0) || " '’-".unicodeScalars.contains($0)
        }
    }
}
