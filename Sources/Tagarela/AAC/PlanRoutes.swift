import Foundation
import GRDB
import HTTPServer

/// Plans (boards and big-symbol plans): the list per patient, creation, the board editor, printing.
enum PlanRoutes: Feature {
    static let templates = ["aac/plans", "aac/plan-form", "aac/editor", "aac/print", "aac/print-sheet", "aac/book"]

    static func add(to router: inout Router<Route>) {
        router.add(PlanEndpoints.list) { $0.read(list) }
        router.add(PlanEndpoints.newPlan) { $0.read(newPlan) }
        router.add(PlanEndpoints.create) { $0.write(create) }
        StarterRoutes.add(to: &router)
        router.add(PlanEndpoints.editor) { $0.read(editor) }
        router.add(PlanEndpoints.setCell) { $0.write(setCell) }
        // The clip of the new symbol's word is made (espeak-ng) before the write.
        router.add(PlanEndpoints.cellPicture) { $0.slow(.media, prepareCellPicture).write(setCellPicture) }
        // Printing is audited (health data leaving on paper): a write.
        router.add(PlanEndpoints.printView) { $0.write(printView) }
        router.add(PlanEndpoints.book) { $0.write(book) }
        router.add(PlanEndpoints.pictogram) { $0.reply(pictogram) }
        router.add(PlanEndpoints.audio) { $0.read(audio) }
        router.add(PlanEndpoints.image) { $0.read(image) }
    }

    @Sendable static func list(_ context: RequestContext, _ db: Database, patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let data = try PlanQueries.list(patientId: patientId, visibleTo: actor, db)
        return .page("aac/plans", title: "plans_title",
                     PlansPage(patient: data.patient, plans: data.plans, tutors: data.tutors,
                               actor: actor, context: context))
    }

    @Sendable static func newPlan(_ context: RequestContext, _ db: Database, patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let data = try PlanQueries.newPlan(patientId: patientId, visibleTo: actor, db)
        let today = context.today
        return .page("aac/plan-form", title: "plan_new_title",
                     PlanFormPage(patientId: data.patient.id, patientName: data.patient.name,
                                  form: FormState(values: ["type": "board", "rows": "3", "columns": "3", "startsOn": today]),
                                  tutors: data.tutors, context.t))
    }

    @Sendable static func create(_ context: RequestContext, _ db: Database, patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["name", "description", "type", "rows", "columns", "startsOn", "tutorId"])
        let data = try PlanQueries.newPlan(patientId: patientId, visibleTo: actor, db)
        guard let plan = PlanInput.read(&form, patientId: data.patient.id, clinicianId: actor.userId,
                                        tutorIds: Set(data.tutors.compactMap(\.id)), now: context.now, context.format, context.t)
        else {
            return .page("aac/plan-form", title: "plan_new_title",
                         PlanFormPage(patientId: data.patient.id, patientName: data.patient.name, form: form, tutors: data.tutors, context.t),
                         status: .unprocessableContent)
        }
        let planId = try Plans.create(plan, audit: context.audit, db)
        return .redirect(to: PlanEndpoints.editor.path(planId), flash: "plan_created")
    }

    /// The board editor: pick a cell (a link, so it works by touch, mouse and keyboard), then choose
    /// what goes in it: a symbol by category or word, a folder link to another board, or nothing.
    /// A sentence plan's editor has the same address (`SentenceEditorPage`).
    @Sendable static func editor(_ context: RequestContext, _ db: Database, planId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let query = context.request.query
        let filter = PlanQueries.SymbolFilter(category: query["category"].flatMap(Int64.init), search: query["q"] ?? "")
        switch try PlanQueries.editor(planId: planId, by: actor, filter: filter, add: query["add"].flatMap(SentenceWord.Role.init(rawValue:)), db) {
        case .sentence(let data):
            return SentenceRoutes.editor(context, data, search: query["q"] ?? "", category: query["category"] ?? "")
        case .board(let data):
            let search = query["q"] ?? ""
            // The board's language first, then the interface's, then any: a word typed in another finds its picture too.
            let language = EditorPage.language(of: data.screen, fallback: context.locale)
            return .page("aac/editor", title: "editor_title", EditorPage(
                screen: data.screen, patient: data.patient, selected: query["cell"].flatMap(Int.init),
                categories: data.categories, symbols: data.symbols, boards: data.boards,
                pictures: search.trimmingCharacters(in: .whitespaces).isEmpty ? [] : context.pictograms.search(search, in: [language, context.locale] + AppLocale.allCases, limit: 24),
                search: search, category: query["category"] ?? "", context.t))
        }
    }

    /// One change to one cell. Publishing is instant: the patient's next load shows it.
    @Sendable static func setCell(_ context: RequestContext, _ db: Database, planId: Int64, position: Int) throws -> Reply {
        let actor = try context.requireActor()
        let changed = try Plans.setCell(planId: planId, position: position, Plans.CellChange.read(context.request.form),
                                        by: actor, audit: context.audit, db)
        return .redirect(to: PlanEndpoints.editor.path(changed.plan.id!, query: ["cell": "\(changed.select)"]))
    }

    /// The library picture's word and clip, made on the media pool before the write. A folder cell's form
    /// sends the name of the board it opens, which stays its label.
    @Sendable static func prepareCellPicture(_ context: RequestContext, planId: Int64, position: Int) throws -> Step<Plans.CellPicture> {
        let form = context.request.form
        guard let hexcode = form["pictogram"], let entry = context.pictograms.entry(hexcode) else { throw AppError.badRequest }
        let language = form["lang"].flatMap(AppLocale.init(rawValue:)) ?? context.locale
        let typed = String((form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.pictureNameLimit))
        let name = typed.isEmpty ? entry.name(language) : typed
        return .next(Plans.CellPicture(hexcode: hexcode, name: name, voice: language,
                                       clip: try? context.speech.clip(text: name, voice: SpeechAudio.voice(for: language)),
                                       categoryId: form["category"].flatMap(Int64.init)))
    }

    static let pictureNameLimit = 80

    @Sendable static func setCellPicture(_ context: RequestContext, _ db: Database, _ picture: Plans.CellPicture, planId: Int64,
                                         position: Int) throws -> Reply {
        let plan = try Plans.setCellPicture(planId: planId, position: position, picture, by: try context.requireActor(),
                                            audit: context.audit, context.t, db)
        return .redirect(to: PlanEndpoints.editor.path(plan.id!, query: ["cell": "\(position)"]), flash: "library_cell_picture_set")
    }

    /// One plan on one sheet of paper (a sentence plan prints its words).
    @Sendable static func printView(_ context: RequestContext, _ db: Database, planId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let plan = try Plans.recordPrint(planId: planId, visibleTo: actor, audit: context.audit, db)
        let patient = try PlanQueries.person(plan.patientId, db)
        return .page("aac/print", title: "print_title",
                     PrintPage(sheet: try PlanQueries.sheet(plan, patient: patient, pageNumber: nil, pages: [:], context.t, db)))
    }

    /// The communication book: a cover (patient, date, clinicians, contents), then every plan of the
    /// patient on a page of its own; a folder cell names the page of the board it opens.
    @Sendable static func book(_ context: RequestContext, _ db: Database, patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let data = try PlanQueries.book(patientId: patientId, visibleTo: actor, db)
        try Plans.recordBook(patientId: data.patient.id, plans: data.plans.count, audit: context.audit, db)
        let pages = BookPage.pageNumbers(of: data.plans)
        return .page("aac/book", title: "boards_book_title", BookPage(
            patientId: data.patient.id, patientName: data.patient.name, date: context.format.longDate(context.now),
            clinicians: data.clinicianNames.isEmpty ? nil : data.clinicianNames.joined(separator: ", "),
            entries: data.plans.map { BookPage.Entry(name: $0.name, wordsLang: context.t.locale.lang(of: data.patient.locale), kind: context.t["plan_type_\($0.type)"], pageNumber: pages[$0.id!]!) },
            sheets: try data.plans.map {
                try PlanQueries.sheet($0, patient: data.patient, pageNumber: pages[$0.id!], pages: pages, context.t, db)
            },
            isEmpty: data.plans.isEmpty, plansURL: PlanEndpoints.list.path(data.patient.id)))
    }

    // MARK: - Files

    @Sendable static func pictogram(_ context: RequestContext, file: String) throws -> Reply {
        guard file.wholeMatch(of: /[0-9A-Fa-f-]+\.svg/) != nil,
              let response = MediaStore.file(at: context.configuration.pictogramFolder + "/" + file, request: context.request,
                                             cacheControl: "public, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return Reply(response)
    }

    /// A clip. Generated speech is named by its text and voice, shared by every board that says it and by
    /// the games' words: whoever can name it knows what it says, so any signed-in user may fetch it. A
    /// recording ("rec-…", a person's voice) only by someone who sees a record that uses it.
    @Sendable static func audio(_ context: RequestContext, _ db: Database, file: String) throws -> Reply {
        let mayFetch = try !SpeechAudio.isRecording(file) || MediaAccess.mayFetch(audio: file, try context.requireActor(), db)
        guard mayFetch, file.hasSuffix(".mp3"), !file.contains("/"),
              let response = MediaStore.file(at: context.configuration.audioFolder + "/" + file, request: context.request,
                                             cacheControl: "private, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return Reply(response)
    }

    /// An uploaded or imported picture, only for someone who sees a record that uses it.
    @Sendable static func image(_ context: RequestContext, _ db: Database, file: String) throws -> Reply {
        guard !file.contains("/"), try MediaAccess.mayFetch(image: file, try context.requireActor(), db),
              let response = MediaStore.file(at: context.configuration.mediaDirectory + "/images/" + file, request: context.request,
                                             cacheControl: "private, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return Reply(response)
    }
}

/// A plan's form, read and checked.
enum PlanInput {
    static func read(_ form: inout FormState, patientId: Int64, clinicianId: Int64, tutorIds: Set<Int64>, now: Date,
                     _ format: LocalizedFormat, _ t: Translator) -> Plan? {
        let name = form.required("name", t["error_name_required"])
        let type = PlanType(rawValue: form["type"])
        if type == nil { form.fail("type", t["error_choose_option"]) }
        var rows = Int(form["rows"]) ?? 0, columns = Int(form["columns"]) ?? 0
        if type == .bigSymbol || type == .sentence { (rows, columns) = (1, 1) }
        if let type, !BoardRules.isValidSize(rows: rows, columns: columns, type: type) {
            form.fail("rows", t["error_board_size"])
        }
        let startsOn = form["startsOn"].isEmpty ? now : format.parseDate(form["startsOn"])
        if startsOn == nil { form.fail("startsOn", t["error_date_invalid"]) }
        let tutorId = Int64(form["tutorId"])
        if let tutorId, !tutorIds.contains(tutorId) { form.fail("tutorId", t["error_choose_option"]) }
        guard !form.hasErrors, let name, let type, let startsOn else { return nil }
        return Plan(patientId: patientId, clinicianId: clinicianId, tutorId: tutorId, name: name,
                    description: form["description"].trimmingCharacters(in: .whitespacesAndNewlines),
                    startsOn: ISODate.string(startsOn, timeZone: format.timeZone), type: type.rawValue, rows: rows,
                    columns: columns, createdAt: now, updatedAt: now)
    }
}
