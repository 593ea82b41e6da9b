import Foundation
import GRDB
import HTTPServer

/// A clinician's symbols: pictogram or picture, spoken text, category, and a pre-generated clip.
enum SymbolRoutes: Feature {
    static let templates = ["aac/symbols", "aac/symbol-form"]

    static func add(to router: inout Router<Route>) {
        router.add(SymbolEndpoints.list) { $0.read(list) }
        router.add(SymbolEndpoints.newSymbol) { $0.read(newSymbol) }
        // Pictures and recordings are converted (ffmpeg) and the clip made (espeak-ng) before the write.
        router.add(SymbolEndpoints.create) { $0.slow(.media, prepareSave).write(create) }
        router.add(SymbolEndpoints.edit) { $0.read(edit) }
        router.add(SymbolEndpoints.update) { $0.slow(.media) { context, _ in try prepareSave(context) }.write(update) }
        router.add(SymbolEndpoints.createCategory) { $0.write(createCategory) }
        SymbolFormsRoutes.add(to: &router)
    }

    @Sendable static func list(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let data = try SymbolQueries.list(actor, matching: search, db)
        return .page("aac/symbols", title: "symbols_title",
                     SymbolsPage(categories: data.categories, symbols: data.symbols, patients: data.patients, search: search, context.t))
    }

    @Sendable static func newSymbol(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let query = context.request.query
        var form = FormState(values: ["scope": query["patient"] ?? "", "voice": (context.signedIn?.user.appLocale ?? context.locale).rawValue])
        if let hexcode = query["pictogram"], let entry = context.pictograms.entry(hexcode) {
            // Found in the patient's language (`lang`): named, and spoken, in it.
            let language = query["lang"].flatMap(AppLocale.init(rawValue:)) ?? context.locale
            form.values["pictogram"] = hexcode
            form.values["name"] = entry.name(language)
            form.values["spokenText"] = entry.name(language)
            if query["lang"] != nil { form.values["voice"] = language.rawValue }
        }
        return formPage(context, try SymbolQueries.form(actor, context.t, db), form: form, symbolId: nil)
    }

    @Sendable static func edit(_ context: RequestContext, _ db: Database, symbolId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let symbol = try SymbolQueries.symbol(symbolId, of: actor, db)
        let grammar = try WordFormStore.forms(for: symbol, db)
        return formPage(context, try SymbolQueries.form(actor, context.t, db), form: editForm(symbol, context), symbolId: symbol.id,
                        wordForms: WordFormsSection(symbol: symbol, forms: grammar.forms, isStored: grammar.isStored, context.t))
    }

    /// The symbol's form as stored.
    static func editForm(_ symbol: Symbol, _ context: RequestContext) -> FormState {
        var form = FormState(values: [
            "name": symbol.name, "spokenText": symbol.spokenText, "categoryId": "\(symbol.categoryId)",
            "scope": symbol.patientId.map { "\($0)" } ?? "", "pictogram": symbol.pictogram ?? "",
            "voice": symbol.voice ?? context.locale.rawValue, "audioKind": symbol.audioKind,
        ])
        // A pictogram chosen from the library replaces the picture; the name stays the symbol's own.
        if let hexcode = context.request.query["pictogram"], context.pictograms.entry(hexcode) != nil {
            form.values["pictogram"] = hexcode
        }
        return form
    }

    /// The new-symbol form (`symbolId` nil) or a symbol's, with the pictogram library's search.
    static func formPage(_ context: RequestContext, _ data: SymbolQueries.Form, form: FormState, symbolId: Int64?,
                         wordForms: WordFormsSection? = nil, status: Status = .ok) -> Reply {
        let search = context.request.query["q"] ?? ""
        return .page("aac/symbol-form", title: symbolId == nil ? "symbol_new_title" : "symbol_edit_title",
                     SymbolFormPage(symbolId: symbolId, form: form, search: search,
                                    results: context.pictograms.search(search, in: [context.locale] + data.languages),
                                    categories: data.categories, patients: data.patients, wordForms: wordForms, context: context),
                     status: status)
    }

    /// Converts an uploaded picture or sound and makes the clip of the form's text, on the media pool
    /// and holding no transaction. A problem is kept for the form, which the write shows again.
    @Sendable static func prepareSave(_ context: RequestContext) throws -> Step<SymbolMedia> {
        let form = SymbolInput.fields(context.request.form)
        var media = SymbolMedia()
        if let upload = context.request.file(named: "image"), upload.size > 0 {
            do { media.image = try context.media.storeSymbolPicture(upload) } catch {
                media.errors["image"] = (error as? MediaStore.Failure ?? .unreadable).message(context.t, context.format)
            }
        } else if let upload = context.request.file(named: "image"), !upload.filename.isEmpty {
            media.errors["image"] = context.t["error_image_empty"]
        }
        if let upload = context.request.file(named: "audio"), upload.size > 0 {
            do { media.recording = try context.speech.normalise(recordingAt: upload.temporaryPath) } catch {
                media.errors["audio"] = context.t["error_audio_invalid"]
            }
        } else if let upload = context.request.file(named: "audio"), !upload.filename.isEmpty {
            // A chosen file of 0 bytes (a recording cut short, a copy that failed): said, not silently
            // replaced by the generated clip, which the clinician would take for her recording.
            media.errors["audio"] = context.t["error_audio_empty"]
        }
        // Content-addressed: a changed text or voice gets a new clip; an unchanged one is found, not made again.
        if media.recording == nil, media.errors.isEmpty, let spoken = SymbolInput.spokenText(form) {
            media.generatedClip = try? context.speech.clip(text: spoken.text, voice: SpeechAudio.voice(for: spoken.voice))
        }
        return .next(media)
    }

    @Sendable static func create(_ context: RequestContext, _ db: Database, media: SymbolMedia) throws -> Reply {
        try save(context, db, media: media, existing: nil)
    }

    @Sendable static func update(_ context: RequestContext, _ db: Database, media: SymbolMedia, symbolId: Int64) throws -> Reply {
        let existing: Symbol
        do { existing = try SymbolQueries.symbol(symbolId, of: try context.requireActor(), db) } catch {
            discard(media, context)
            throw error
        }
        return try save(context, db, media: media, existing: existing)
    }

    /// Checks the form and writes the symbol. Any problem shows the form again with what was typed,
    /// and the files this request made are removed.
    static func save(_ context: RequestContext, _ db: Database, media: SymbolMedia, existing: Symbol?) throws -> Reply {
        do {
            let actor = try context.requireActor()
            var form = SymbolInput.fields(context.request.form)
            form.values["audioKind"] = existing?.audioKind ?? ""
            let input = try SymbolInput.read(&form, actor: actor, existing: existing, library: context.pictograms, context.t, db)
            for (field, message) in media.errors { form.fail(field, message) }
            if input != nil, media.image == nil, form["pictogram"].isEmpty, existing?.imagePath == nil {
                form.fail("pictogram", context.t["error_symbol_image"])
            }
            guard form.errors.isEmpty, let input else {
                discard(media, context)
                let wordForms = try existing.map { symbol in
                    let grammar = try WordFormStore.forms(for: symbol, db)
                    return WordFormsSection(symbol: symbol, forms: grammar.forms, isStored: grammar.isStored, context.t)
                }
                return formPage(context, try SymbolQueries.form(actor, context.t, db), form: form, symbolId: existing?.id,
                                wordForms: wordForms, status: .unprocessableContent)
            }
            let saved = try Symbols.save(input, existing: existing, media: media, useGeneratedVoice: form["audioSource"] == "generated",
                                         audit: context.audit, context.t, db)
            let unused = Symbols.unused(before: existing, after: saved)
            if let image = unused.image { context.media.remove(image) }
            if let recording = unused.recording { context.speech.remove(recording) }
            return .redirect(to: SymbolEndpoints.list.path(query: ["saved": "\(saved.id!)"]),
                             flash: existing == nil ? "symbol_created" : "symbol_updated")
        } catch {
            discard(media, context)
            throw error
        }
    }

    /// Removes the picture and recording a request made for a symbol that was not saved.
    private static func discard(_ media: SymbolMedia, _ context: RequestContext) {
        context.media.remove(media.image)
        if let recording = media.recording { context.speech.remove(recording) }
    }

    @Sendable static func createCategory(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let form = FormState(context.request.form, fields: ["name", "colour"])
        if form.errors["name"] != nil { return .redirect(to: SymbolEndpoints.list.path(), flash: "limits_category_name_too_long") }
        let name = form["name"].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, let colour = CategoryColour(rawValue: form["colour"]) else {
            return .redirect(to: SymbolEndpoints.list.path(), flash: "category_invalid")
        }
        _ = try Categories.create(clinicianId: actor.userId, name: name, colour: colour, audit: context.audit, db)
        return .redirect(to: SymbolEndpoints.list.path(), flash: "category_created")
    }
}

/// The symbol form, read and checked.
struct SymbolInput: Sendable {
    let name: String
    let spokenText: String
    let category: Category.Choice
    let patientId: Int64?
    let pictogram: String?
    let voice: String
    let clinicianId: Int64

    /// The form's fields as typed (cut to their limits).
    static func fields(_ form: Parameters) -> FormState {
        FormState(form, fields: ["name", "spokenText", "categoryId", "scope", "pictogram", "voice", "audioSource"])
    }

    /// What the symbol will say and in which voice, as `read` and `symbol` decide it; nil without a name. Pure.
    static func spokenText(_ form: FormState) -> (text: String, voice: AppLocale)? {
        let name = form["name"].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return nil }
        let spoken = form["spokenText"].trimmingCharacters(in: .whitespaces)
        return (spoken.isEmpty ? name : spoken, AppLocale(rawValue: form["voice"]) ?? .ptBR)
    }

    static func read(_ form: inout FormState, actor: Actor, existing: Symbol?, library: PictogramLibrary,
                     _ t: Translator, _ db: Database) throws -> SymbolInput? {
        let name = form.required("name", t["error_name_required"])
        let spoken = form["spokenText"].trimmingCharacters(in: .whitespaces)
        let category = try Category.Choice.read(form["categoryId"], clinicianId: actor.userId, db)
        if category == nil { form.fail("categoryId", t["error_choose_option"]) }
        var patientId: Int64?
        if let id = Int64(form["scope"]) {
            guard try CareLink.clinician.exists(actor.userId, id, db) else { throw AppError.notFound }
            patientId = id
        }
        let pictogram = form["pictogram"].isEmpty ? nil : form["pictogram"]
        if let pictogram, library.entry(pictogram) == nil, existing?.pictogram != pictogram {
            form.fail("pictogram", t["error_choose_option"])
        }
        let voice = (AppLocale(rawValue: form["voice"]) ?? .ptBR).rawValue
        guard let name, let category, !form.hasErrors else { return nil }
        return SymbolInput(name: name, spokenText: spoken.isEmpty ? name : spoken, category: category,
                           patientId: patientId, pictogram: pictogram, voice: voice, clinicianId: actor.userId)
    }

    /// The symbol as the form describes it; for a default category not created yet, `categoryId` is set
    /// when it is saved (`Category.Choice.resolve`).
    func symbol(existing: Symbol?, at now: Date) -> Symbol {
        let categoryId: Int64 = if case .existing(let id) = category { id } else { existing?.categoryId ?? 0 }
        var symbol = existing ?? Symbol(clinicianId: clinicianId, categoryId: categoryId, name: name, spokenText: spokenText,
                                        audioKind: "generated", createdAt: now, updatedAt: now)
        symbol.name = name
        symbol.spokenText = spokenText
        symbol.categoryId = categoryId
        symbol.patientId = patientId
        if let pictogram {
            symbol.pictogram = pictogram
            symbol.imagePath = nil
        }
        symbol.voice = voice
        symbol.updatedAt = now
        return symbol
    }
}
