import Foundation
import GRDB
import HTTPServer

/// Plans (boards and big-symbol plans): the list per patient, creation, the board editor, printing.
enum PlanRoutes {
    static let templates = ["aac/plans", "aac/plan-form", "aac/editor", "aac/print", "aac/print-sheet", "aac/book"]

    static func add(to router: inout Router<Route>) {
        router.legacy(PlanEndpoints.list, list)
        router.legacy(PlanEndpoints.newPlan, newPlan)
        router.legacy(PlanEndpoints.create, create)
        router.legacy(PlanEndpoints.editor, editor)
        router.legacy(PlanEndpoints.setCell, setCell)
        router.legacy(PlanEndpoints.printView, printView)
        router.legacy(PlanEndpoints.book, book)
        router.legacy(PlanEndpoints.pictogram, pictogram)
        router.legacy(PlanEndpoints.audio, audio)
        router.legacy(PlanEndpoints.image, image)
    }

    @Sendable static func list(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            let user = try User.fetchOne(db, key: patient.userId)!
            let plans = try Plan.filter(Column("patientId") == patient.userId).order(Column("startsOn").desc, Column("id")).fetchAll(db)
            let tutors = try People.tutors(of: patient.userId, db)
            return PlansPage(patientId: patient.userId, patientName: user.displayName, plans: plans, tutors: tutors,
                             actor: actor, context: context)
        }
        return context.render("aac/plans", title: "plans_title", page)
    }

    @Sendable static func newPlan(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.read { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            let user = try User.fetchOne(db, key: patient.userId)!
            let today = ISODate.string(context.now, timeZone: context.app.configuration.timeZone)
            return PlanFormPage(patientId: patient.userId, patientName: user.displayName,
                                form: FormState(values: ["type": "board", "rows": "3", "columns": "3", "startsOn": today]),
                                tutors: try People.tutors(of: patient.userId, db), context.t)
        }
        return context.render("aac/plan-form", title: "plan_new_title", page)
    }

    @Sendable static func create(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        var form = FormState(context.request.form, fields: ["name", "description", "type", "rows", "columns", "startsOn", "tutorId"])
        return try context.database.write { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            let tutors = try People.tutors(of: patient.userId, db)
            guard let plan = PlanInput.read(&form, patientId: patient.userId, clinicianId: actor.userId,
                                            tutorIds: Set(tutors.compactMap(\.id)), now: context.now, context.format, context.t)
            else {
                let user = try User.fetchOne(db, key: patient.userId)!
                return context.render("aac/plan-form", title: "plan_new_title",
                                      PlanFormPage(patientId: patient.userId, patientName: user.displayName, form: form,
                                                   tutors: tutors, context.t), status: .unprocessableContent)
            }
            var saved = plan
            try saved.insert(db)
            try context.audit.record(.create, "plan", saved.id, saved.name, db)
            return context.redirect(to: "/plans/\(saved.id!)/edit", flash: "plan_created")
        }
    }

    /// The board editor: pick a cell (a link, so it works by touch, mouse and keyboard), then choose
    /// what goes in it: a symbol by category or word, a folder link to another board, or nothing.
    @Sendable static func editor(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let query = context.request.query
        let sentencePlan = try context.database.read { db in
            try PlanScope.editable(context.id("plan"), by: actor, db)
        }
        if sentencePlan.planType == .sentence { return try SentenceRoutes.editor(context, plan: sentencePlan, actor: actor) }
        let page = try context.database.read { db in
            let plan = try PlanScope.editable(context.id("plan"), by: actor, db)
            let screen = try BoardScreen.fetch(plan, db)
            let categories = try Category.forClinicianReadOnly(actor.userId, db)
            var symbols = SymbolScope.usable(by: actor.userId, for: plan.patientId).order(Column("name").collating(.nocase))
            if let category = query["category"].flatMap(Int64.init) { symbols = symbols.filter(Column("categoryId") == category) }
            if let search = query["q"], !search.isEmpty { symbols = symbols.filter(Column("name").like("%\(search)%")) }
            let otherBoards = try Plan.filter(Column("patientId") == plan.patientId && Column("id") != plan.id
                                              && Column("type") == PlanType.board.rawValue).fetchAll(db)
            let patient = try User.fetchOne(db, key: plan.patientId)!
            return EditorPage(screen: screen, patientName: patient.displayName, selected: query["cell"].flatMap(Int.init),
                              categories: categories, symbols: try symbols.limit(60).fetchAll(db), boards: otherBoards,
                              search: query["q"] ?? "", category: query["category"] ?? "", context.t)
        }
        return context.render("aac/editor", title: "editor_title", page)
    }

    /// One change to one cell. Publishing is instant: the patient's next load shows it.
    @Sendable static func setCell(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let form = context.request.form
        return try context.database.write { db in
            let plan = try PlanScope.editable(context.id("plan"), by: actor, db)
            guard let position = context.parameter("position").flatMap(Int.init), (0..<plan.cellCount).contains(position)
            else { throw AppError.notFound }
            var cell = try PlanCell.fetchOne(db, key: ["planId": plan.id, "position": position])
                ?? PlanCell(planId: plan.id!, position: position, symbolId: nil, linkPlanId: nil)
            var selectAfter = position
            if form["clear"] == "1" {
                cell.symbolId = nil
                cell.linkPlanId = nil
            } else if let symbolId = form["symbol"].flatMap(Int64.init) {
                guard try SymbolScope.usable(by: actor.userId, for: plan.patientId).filter(key: symbolId).fetchCount(db) == 1
                else { throw AppError.notFound }
                cell.symbolId = symbolId
            } else if let linkId = form["link"].flatMap(Int64.init) {
                guard linkId != plan.id,
                      try Plan.filter(key: linkId).filter(Column("patientId") == plan.patientId).fetchCount(db) == 1
                else { throw AppError.notFound }
                cell.linkPlanId = linkId
            } else if let target = form["moveTo"].flatMap(Int.init), (0..<plan.cellCount).contains(target), target != position {
                // Swap, so a move never loses the cell that was there.
                var other = try PlanCell.fetchOne(db, key: ["planId": plan.id, "position": target])
                    ?? PlanCell(planId: plan.id!, position: target, symbolId: nil, linkPlanId: nil)
                (cell.symbolId, other.symbolId) = (other.symbolId, cell.symbolId)
                (cell.linkPlanId, other.linkPlanId) = (other.linkPlanId, cell.linkPlanId)
                try other.save(db)
                selectAfter = target
            } else {
                throw AppError.badRequest
            }
            try cell.save(db)
            try db.execute(sql: "UPDATE plan SET updatedAt = ? WHERE id = ?", arguments: [context.now, plan.id])
            try context.audit.record(.update, "plan", plan.id, "cell \(position)", db)
            return context.redirect(to: "/plans/\(plan.id!)/edit?cell=\(selectAfter)")
        }
    }

    /// One plan on one sheet of paper (a sentence plan prints its words).
    @Sendable static func printView(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.write { db in
            let plan = try PlanScope.find(context.id("plan"), visibleTo: actor, db)
            let patient = try User.fetchOne(db, key: plan.patientId)!
            try context.audit.record(.export, "patient", plan.patientId, "print plan \(plan.id!) '\(plan.name)'", db)
            return PrintPage(sheet: try sheet(plan, patientName: patient.displayName, pageNumber: nil, pages: [:], context.t, db))
        }
        return context.render("aac/print", title: "print_title", page)
    }

    /// The communication book: a cover (patient, date, clinicians, contents), then every plan of the
    /// patient on a page of its own; a folder cell names the page of the board it opens.
    @Sendable static func book(_ context: RequestContext) throws -> Response {
        let actor = try context.requireActor()
        let page = try context.database.write { db in
            let patient = try PatientScope.find(context.id("id"), visibleTo: actor, db)
            let user = try User.fetchOne(db, key: patient.userId)!
            let plans = BookPage.order(try Plan.filter(Column("patientId") == patient.userId).fetchAll(db))
            try context.audit.record(.export, "patient", patient.userId, "communication book (\(plans.count) plans)", db)
            let pages = BookPage.pageNumbers(of: plans)
            let clinicians = try User.fetchAll(db, keys: Set(plans.map(\.clinicianId))).map(\.displayName).sorted()
            return BookPage(
                patientId: patient.userId, patientName: user.displayName, date: context.format.longDate(context.now),
                clinicians: clinicians.isEmpty ? nil : clinicians.joined(separator: ", "),
                entries: plans.map { BookPage.Entry(name: $0.name, kind: context.t["plan_type_\($0.type)"], pageNumber: pages[$0.id!]!) },
                sheets: try plans.map { try sheet($0, patientName: user.displayName, pageNumber: pages[$0.id!], pages: pages, context.t, db) },
                isEmpty: plans.isEmpty)
        }
        return context.render("aac/book", title: "boards_book_title", page)
    }

    static func sheet(_ plan: Plan, patientName: String, pageNumber: Int?, pages: [Int64: Int], _ t: Translator,
                      _ db: Database) throws -> PrintSheet {
        if plan.planType == .sentence {
            return PrintSheet(sentencePlan: plan, grammar: try SentenceGrammar.fetch(planId: plan.id!, db), patientName: patientName,
                              pageNumber: pageNumber, t)
        }
        return PrintSheet(board: BoardView(try BoardScreen.fetch(plan, db), t), patientName: patientName,
                          description: plan.description, pageNumber: pageNumber, pages: pages, t)
    }

    // MARK: - Files

    @Sendable static func pictogram(_ context: RequestContext) throws -> Response {
        let file = context.parameter("file") ?? ""
        guard file.wholeMatch(of: /[0-9A-Fa-f-]+\.svg/) != nil,
              let response = MediaStore.file(at: context.app.configuration.pictogramFolder + "/" + file, request: context.request,
                                             cacheControl: "public, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return response
    }

    @Sendable static func audio(_ context: RequestContext) throws -> Response {
        let file = context.parameter("file") ?? ""
        guard file.hasSuffix(".mp3"), !file.contains("/"),
              let response = MediaStore.file(at: context.app.configuration.audioFolder + "/" + file, request: context.request,
                                             cacheControl: "private, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return response
    }

    @Sendable static func image(_ context: RequestContext) throws -> Response {
        let file = context.parameter("file") ?? ""
        guard !file.contains("/"),
              let response = MediaStore.file(at: context.app.configuration.mediaDirectory + "/images/" + file, request: context.request,
                                             cacheControl: "private, max-age=31536000, immutable")
        else { throw AppError.notFound }
        return response
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
