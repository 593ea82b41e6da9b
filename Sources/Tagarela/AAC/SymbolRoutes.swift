import Foundation
import GRDB
import HTTPServer

/// A clinician's symbols: pictogram or picture, spoken text, category, and a pre-generated clip.
enum SymbolRoutes {
    static let templates = ["aac/symbols", "aac/symbol-form"]

    static func add(to router: inout Router<Route>) {
        router.legacy(SymbolEndpoints.list, list)
        router.legacy(SymbolEndpoints.newSymbol, newSymbol)
        router.legacy(SymbolEndpoints.create, create)
        router.legacy(SymbolEndpoints.edit, edit)
        router.legacy(SymbolEndpoints.update, update)
        router.legacy(SymbolEndpoints.createCategory, createCategory)
    }

    @Sendable static func list(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let search = context.request.query["q"] ?? ""
        let page = try context.database.read { db in
            let categories = try Category.forClinicianReadOnly(actor.userId, db)
            var request = SymbolScope.usable(by: actor.userId, for: nil).order(Column("name").collating(.nocase))
            if !search.isEmpty { request = request.filter(Column("name").like("%\(search)%")) }
            let symbols = try request.fetchAll(db)
            let patients = try People.patients(visibleTo: actor, matching: "", db)
            return SymbolsPage(categories: categories, symbols: symbols, patients: patients, search: search, context.t)
        }
        return context.render("aac/symbols", title: "symbols_title", page)
    }

    @Sendable static func newSymbol(_ context: RequestContext) throws -> Response {
        let query = context.request.query
        var form = FormState(values: ["scope": query["patient"] ?? "", "voice": (context.signedIn?.user.appLocale ?? context.locale).rawValue])
        if let hexcode = query["pictogram"], let entry = context.app.pictograms.entry(hexcode) {
            form.values["pictogram"] = hexcode
            form.values["name"] = entry.name(context.locale)
            form.values["spokenText"] = entry.name(context.locale)
        }
        return try formPage(context, form: form, action: "/symbols", title: "symbol_new_title")
    }

    static func formPage(_ context: RequestContext, form: FormState, action: String, title: String,
                         status: Status = .ok) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            SymbolFormPage(action: action, form: form, search: context.request.query["q"] ?? "",
                           results: context.app.pictograms.search(context.request.query["q"] ?? "", locale: context.locale),
                           categories: try Category.offered(to: actor.userId, context.t, db),
                           patients: try People.patients(visibleTo: actor, matching: "", db), context: context)
        }
        return context.render("aac/symbol-form", title: title, page, status: status)
    }

    @Sendable static func create(_ context: RequestContext) throws -> Response {
        save(context, existing: nil)
    }

    @Sendable static func edit(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let symbol = try context.database.read { db in
            guard let symbol = try SymbolScope.usable(by: actor.userId, for: nil).filter(key: context.id("symbol")).fetchOne(db)
            else { throw AppError.notFound }
            return symbol
        }
        var form = FormState(values: [
            "name": symbol.name, "spokenText": symbol.spokenText, "categoryId": "\(symbol.categoryId)",
            "scope": symbol.patientId.map { "\($0)" } ?? "", "pictogram": symbol.pictogram ?? "",
            "voice": symbol.voice ?? context.locale.rawValue, "audioKind": symbol.audioKind,
        ])
        // A pictogram chosen from the library replaces the picture; the name stays the symbol's own.
        if let hexcode = context.request.query["pictogram"], context.app.pictograms.entry(hexcode) != nil {
            form.values["pictogram"] = hexcode
        }
        return try formPage(context, form: form, action: "/symbols/\(symbol.id!)", title: "symbol_edit_title")
    }

    @Sendable static func update(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let existing = try context.database.read { db in
            try SymbolScope.usable(by: actor.userId, for: nil).filter(key: context.id("symbol")).fetchOne(db)
        }
        guard let existing else { throw AppError.notFound }
        return save(context, existing: existing)
    }

    /// Reads the form, converts an uploaded picture or sound and generates the clip on the media pool,
    /// then writes the symbol in one transaction. Any problem re-shows the form with what was typed.
    static func save(_ context: RequestContext, existing: Symbol?) -> Response {
        let action = existing.map { "/symbols/\($0.id!)" } ?? "/symbols"
        let title = existing == nil ? "symbol_new_title" : "symbol_edit_title"
        return .deferred(on: context.app.mediaPool) {
            context.app.run({ context in
                let actor = try context.requireActor()
                var form = FormState(context.request.form, fields: ["name", "spokenText", "categoryId", "scope", "pictogram",
                                                                    "voice", "audioSource"])
                form.values["audioKind"] = existing?.audioKind ?? ""
                let input = try context.database.read { db in
                    try SymbolInput.read(&form, actor: actor, existing: existing, library: context.app.pictograms, context.t, db)
                }
                var image: String?
                if let upload = context.request.file(named: "image"), upload.size > 0 {
                    do { image = try context.app.media.storeSymbolImage(upload) } catch {
                        form.fail("image", (error as? MediaStore.Failure ?? .unreadable).message(context.t, context.format))
                    }
                }
                if input != nil, image == nil, form["pictogram"].isEmpty, existing?.imagePath == nil {
                    form.fail("pictogram", context.t["error_symbol_image"])
                }
                var audio: String?
                var audioKind = "generated"
                if let upload = context.request.file(named: "audio"), upload.size > 0 {
                    do {
                        audio = try context.app.speech.normalise(recordingAt: upload.temporaryPath)
                        audioKind = "uploaded"
                    } catch { form.fail("audio", context.t["error_audio_invalid"]) }
                }
                guard form.errors.isEmpty, let input else {
                    context.app.media.remove(image)
                    if let audio { context.app.speech.remove(audio) }
                    return try formPage(context, form: form, action: action, title: title, status: .unprocessableContent)
                }
                var symbol = input.symbol(existing: existing, at: context.now)
                if let image { symbol.imagePath = image; symbol.pictogram = nil }
                if let audio {
                    symbol.audioFile = audio
                    symbol.audioKind = audioKind
                } else if existing == nil || existing?.audioKind == "generated" || form["audioSource"] == "generated" {
                    // Content-addressed: a changed text or voice gets a new clip; an unchanged one is reused.
                    let locale = AppLocale(rawValue: symbol.voice ?? "") ?? .ptBR
                    symbol.audioFile = try? context.app.speech.clip(text: symbol.spokenText, voice: SpeechAudio.voice(for: locale))
                    symbol.audioKind = "generated"
                }
                let saved = symbol
                let id = try context.database.write { db -> Int64 in
                    var symbol = saved
                    symbol.categoryId = try input.category.resolve(clinicianId: actor.userId, context.t, db)
                    try symbol.save(db)
                    try context.audit.record(existing == nil ? .create : .update, "symbol", symbol.id, symbol.name, db)
                    return symbol.id!
                }
                if let old = existing?.imagePath, old != saved.imagePath { context.app.media.remove(old) }
                // A replaced recording is nobody else's; generated clips are shared by text and voice, so they stay.
                if let old = existing?.audioFile, existing?.audioKind == "uploaded", old != saved.audioFile {
                    context.app.speech.remove(old)
                }
                return context.redirect(to: "/symbols?saved=\(id)", flash: existing == nil ? "symbol_created" : "symbol_updated")
            }, context)
        }
    }

    @Sendable static func createCategory(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let form = FormState(context.request.form, fields: ["name", "colour"])
        if form.errors["name"] != nil { return context.redirect(to: "/symbols", flash: "limits_category_name_too_long") }
        let name = form["name"].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, let colour = CategoryColour(rawValue: form["colour"]) else {
            return context.redirect(to: "/symbols", flash: "category_invalid")
        }
        try context.database.write { db in
            let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM category WHERE clinicianId = ?", arguments: [actor.userId]) ?? 0) + 1
            var category = Category(clinicianId: actor.userId, name: name, colour: colour.rawValue, position: position)
            try category.insert(db)
            try context.audit.record(.create, "category", category.id, name, db)
        }
        return context.redirect(to: "/symbols", flash: "category_created")
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
