import Foundation
import Mustache

/// A board as the player, the editor and the print view draw it.
///
/// NB: the player page is the hottest page of the product; its view models answer Mustache's lookups
/// directly (`MustacheParent`) instead of through `Mirror`, which made a 20-cell board several times slower.
struct BoardView: Sendable, MustacheParent, Encodable {
    func child(named name: String) -> Any? {
        switch name {
        case "planId": planId
        case "name": self.name
        case "columnsClass": columnsClass
        case "rowsClass": rowsClass
        case "labelClass": labelClass
        case "cells": cells
        default: nil
        }
    }

    struct Cell: Sendable, MustacheParent, Encodable {
        func child(named name: String) -> Any? {
            switch name {
            case "position": position
            case "number": number
            case "isEmpty": isEmpty
            case "symbolId": symbolId
            case "label": label
            case "imageURL": imageURL
            case "audioURL": audioURL
            case "colourClass": colourClass
            case "linkPlanId": linkPlanId
            case "isFolder": isFolder
            case "lang": lang
            default: nil
            }
        }

        let position: Int
        let number: Int
        let isEmpty: Bool
        let symbolId: Int64?
        let label: String
        let imageURL: String?
        let audioURL: String?
        let colourClass: String
        let linkPlanId: Int64?
        let isFolder: Bool
        /// The language the label is written in (the symbol's voice), for `lang`.
        let lang: String?
    }

    /// What a folder cell shows until it is given a picture of its own: OpenMoji's open folder.
    static let folderPicture = PlanEndpoints.pictogram.path("1F4C2.svg")

    let planId: Int64
    let name: String
    let rows: Int
    let columns: Int
    let columnsClass: String
    let rowsClass: String
    /// One label size per board, from its longest word (`LabelFit`, board.css).
    let labelClass: String
    var cells: [Cell]

    init(_ screen: BoardScreen, _ t: Translator) {
        planId = screen.plan.id!
        name = screen.plan.name
        rows = screen.plan.rows
        columns = screen.plan.columns
        columnsClass = "cols-\(screen.plan.columns)"
        rowsClass = "rows-\(screen.plan.rows)"
        cells = screen.cells.map { cell in
            let own = CellColours.classes(background: cell.background, border: cell.border)
            if let link = cell.link {
                return Cell(position: cell.position, number: cell.position + 1, isEmpty: false, symbolId: nil,
                            label: cell.symbol?.name ?? link.name, imageURL: cell.symbol?.imageURL ?? Self.folderPicture, audioURL: nil,
                            colourClass: own.isEmpty ? CategoryColour.white.cssClass : "\(CategoryColour.white.cssClass) \(own)",
                            linkPlanId: link.id, isFolder: true,
                            lang: cell.symbol?.voice)
            }
            guard let symbol = cell.symbol else {
                return Cell(position: cell.position, number: cell.position + 1, isEmpty: true, symbolId: nil, label: "",
                            imageURL: nil, audioURL: nil, colourClass: "", linkPlanId: nil, isFolder: false, lang: nil)
            }
            return Cell(position: cell.position, number: cell.position + 1, isEmpty: false, symbolId: symbol.id,
                        label: symbol.name, imageURL: symbol.imageURL, audioURL: symbol.audioURL,
                        colourClass: own.isEmpty ? cell.colour.cssClass : "\(cell.colour.cssClass) \(own)", linkPlanId: nil,
                        isFolder: false, lang: symbol.voice)
        }
        labelClass = LabelFit.cssClass(labels: cells.map(\.label))
    }
}

/// One label size for a whole board: the size that lets its longest word fit a cell's width. The
/// stylesheet turns the class into a font size from the cell's width (container units); the player's
/// script only shrinks it further where a real font's word came out wider than the estimate.
enum LabelFit {
    static let shortest = 4
    static let longest = 16

    /// Characters in the longest word of any label (words are never broken, so the longest one decides).
    static func longestWord(_ labels: [String]) -> Int {
        labels.flatMap { $0.split(whereSeparator: \.isWhitespace) }.map(\.count).max() ?? 0
    }

    static func cssClass(labels: [String]) -> String {
        "label-chars-\(min(longest, max(shortest, longestWord(labels))))"
    }
}

/// A patient's plans, grouped by the tutor each was made for.
struct PlansPage: PageModel {
    struct Item: PageModel {
        let id: Int64
        let name: String
        let wordsLang: String?
        let detail: String
        let editURL: String
        let exportURL: String
        let printURL: String
        /// A sentence plan has no grid to print or export.
        let hasGrid: Bool
    }

    struct Group: PageModel {
        let title: String
        let plans: [Item]
    }

    let patientId: Int64
    let patientName: String
    let groups: [Group]
    let isEmpty: Bool
    let isClinician: Bool
    let isTutor: Bool
    let newPlanURL: String
    let importURL: String
    let usageURL: String
    let observationsURL: String
    let bookURL: String
    /// A tutor opens a plan on this device in patient mode.
    let patientModeURL: String
    /// The clinician gives the patient a copy of the starter core board set, in one of the four languages.
    let starterURL: String
    let starterLanguages: [SelectOption]
    let starterError: String?

    init(patient: PlanQueries.Patient, plans: [Plan], tutors: [User], actor: Actor, context: RequestContext,
         starterError: String? = nil) {
        let t = context.t
        let patientId = patient.id
        starterURL = PlanEndpoints.assignStarter.path(patientId)
        // The set in the language the patient's boards already speak (Davi's Spanish), else the clinician's.
        let starterLanguage = patient.locale ?? context.locale
        starterLanguages = AppLocale.allCases.map { SelectOption(value: $0.rawValue, label: $0.nativeName, isSelected: $0 == starterLanguage) }
        self.starterError = starterError
        self.patientId = patientId
        patientName = patient.name
        let wordsLang = t.locale.lang(of: patient.locale)
        isClinician = actor.role == .clinician
        isTutor = actor.role == .tutor
        newPlanURL = PlanEndpoints.newPlan.path(patientId)
        importURL = OBFEndpoints.importForm.path(patientId)
        usageURL = UsageEndpoints.usage.path(patientId)
        observationsURL = UsageEndpoints.observations.path(patientId)
        bookURL = PlanEndpoints.book.path(patientId)
        patientModeURL = AccountsEndpoints.openPatientMode.path(patientId)
        func item(_ plan: Plan) -> Item {
            let kind = plan.planType == .board ? "\(plan.rows) × \(plan.columns)" : t["plan_type_\(plan.type)"]
            return Item(id: plan.id!, name: plan.name, wordsLang: wordsLang, detail: "\(kind) · \(context.format.shortDate(iso: plan.startsOn))",
                        editURL: PlanEndpoints.editor.path(plan.id!), exportURL: OBFEndpoints.exportPackage.path(plan.id!),
                        printURL: PlanEndpoints.printView.path(plan.id!),
                        hasGrid: plan.planType != .sentence)
        }
        var groups = tutors.compactMap { tutor -> Group? in
            let mine = plans.filter { $0.tutorId == tutor.id }
            return mine.isEmpty ? nil : Group(title: t("plans_for_tutor", ["name": tutor.displayName]), plans: mine.map(item))
        }
        let others = plans.filter { plan in !tutors.contains { $0.id == plan.tutorId } }
        if !others.isEmpty { groups.append(Group(title: t["plans_for_everyone"], plans: others.map(item))) }
        self.groups = groups
        isEmpty = plans.isEmpty
    }
}

struct PlanFormPage: PageModel {
    let patientId: Int64
    let patientName: String
    let form: FormState
    let types: [SelectOption]
    let tutors: [SelectOption]
    let createURL: String
    let plansURL: String

    init(patientId: Int64, patientName: String, form: FormState, tutors: [User], _ t: Translator) {
        self.patientId = patientId
        self.patientName = patientName
        self.form = form
        createURL = PlanEndpoints.create.path(patientId)
        plansURL = PlanEndpoints.list.path(patientId)
        types = PlanType.allCases.map { SelectOption(value: $0.rawValue, label: t["plan_type_\($0.rawValue)"], isSelected: form["type"] == $0.rawValue) }
        self.tutors = [SelectOption(value: "", label: t["plan_any_tutor"], isSelected: form["tutorId"].isEmpty)]
            + tutors.map { SelectOption(value: "\($0.id!)", label: $0.displayName, isSelected: form["tutorId"] == "\($0.id!)") }
    }
}

/// The board editor: the grid with links to pick a cell, and the chooser for the picked cell.
struct EditorPage: PageModel {
    struct Choice: PageModel {
        let id: Int64
        let name: String
        /// The word's language (its voice) when the page's is another.
        let lang: String?
        let imageURL: String
        let colourClass: String
    }

    /// A library picture the picked cell can take (`PlanEndpoints.cellPicture`).
    struct Picture: PageModel {
        let hexcode: String
        let name: String
        let imageURL: String
        /// The language of the word shown (English where the dataset has no word in the searched one).
        let nameLang: String
        /// The language the symbol made of it speaks.
        let lang: String
        let isFallback: Bool
    }

    struct EditorCell: PageModel {
        let position: Int
        /// The editor with this cell picked.
        let url: String
        let number: Int
        let isEmpty: Bool
        let label: String
        let imageURL: String?
        let colourClass: String
        let isFolder: Bool
        let isSelected: Bool
    }

    let board: BoardView
    let cells: [EditorCell]
    let patientId: Int64
    let patientName: String
    /// The board's language when the page's is another (`AppLocale.lang(of:)`).
    let wordsLang: String?
    let selected: Int?
    let selectedNumber: Int
    let hasSelection: Bool
    let selectedLabel: String
    /// The picked cell's picture can become the board's picture on the child's tiles (`BoardCovers`).
    let canChooseCover: Bool
    /// The picked cell's picture is the board's chosen picture.
    let isCover: Bool
    let categories: [SelectOption]
    let symbols: [Choice]
    /// The library's pictures for the search, beside the clinician's own symbols.
    let pictures: [Picture]
    let hasPictures: Bool
    /// Where a library picture goes: it becomes a symbol of the patient in this cell.
    let pictureURL: String
    /// The picked cell opens a board: a picture keeps its link, and the board's name as its word.
    let selectedFolderName: String?
    /// The chooser's category filter, which a symbol made from a picture joins.
    let categoryFilter: String
    /// Searched and found neither a symbol nor a picture.
    let nothingFound: String?
    let boards: [SelectOption]
    let positions: [SelectOption]
    let search: String
    /// The board on each kind of screen (`BoardFit`), and the devices where its cells fall under 64 px.
    let fit: [FitDevice]
    let fitWarning: String?
    let printURL: String
    let exportPackageURL: String
    let exportBoardURL: String
    let plansURL: String
    /// The chooser's search: the editor itself.
    let editorURL: String
    /// Where the picked cell's forms post.
    let cellURL: String
    let newSymbolURL: String

    struct FitDevice: PageModel {
        let name: String
        let size: String
        let verdict: String
        let fits: Bool
        let orientationClass: String
        let spans: [Int]
    }

    /// The language most of the board's words speak, else `fallback`: the library is searched in it first.
    static func language(of screen: BoardScreen, fallback: AppLocale) -> AppLocale {
        let voices = screen.cells.compactMap { $0.symbol?.voice.flatMap(AppLocale.init(rawValue:)) }
        let counts = Dictionary(voices.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? fallback
    }

    init(screen: BoardScreen, patient: PlanQueries.Patient, selected: Int?, categories: [Category], symbols: [Symbol], boards: [Plan],
         pictures: [PictogramLibrary.Match] = [], search: String, category: String, _ t: Translator) {
        let board = BoardView(screen, t)
        self.board = board
        patientId = screen.plan.patientId
        patientName = patient.name
        wordsLang = t.locale.lang(of: patient.locale)
        let selected = selected.flatMap { (0..<screen.plan.cellCount).contains($0) ? $0 : nil }
        self.selected = selected
        let planId = screen.plan.id!
        printURL = PlanEndpoints.printView.path(planId)
        exportPackageURL = OBFEndpoints.exportPackage.path(planId)
        exportBoardURL = OBFEndpoints.exportBoard.path(planId)
        plansURL = PlanEndpoints.list.path(screen.plan.patientId)
        editorURL = PlanEndpoints.editor.path(planId)
        cellURL = selected.map { PlanEndpoints.setCell.path(planId, $0) } ?? ""
        newSymbolURL = SymbolEndpoints.newSymbol.path(query: ["patient": "\(screen.plan.patientId)"])
        cells = board.cells.map {
            EditorCell(position: $0.position, url: PlanEndpoints.editor.path(planId, query: ["cell": "\($0.position)"]), number: $0.number, isEmpty: $0.isEmpty, label: $0.label, imageURL: $0.imageURL,
                       colourClass: $0.colourClass, isFolder: $0.isFolder, isSelected: $0.position == selected)
        }
        selectedNumber = (selected ?? 0) + 1
        hasSelection = selected != nil
        selectedLabel = selected.map { board.cells[$0].isEmpty ? t["cell_empty"] : board.cells[$0].label } ?? ""
        let selectedSymbol = selected.flatMap { position in screen.cells.first { $0.position == position }?.symbol?.id }
        isCover = selectedSymbol != nil && selectedSymbol == screen.plan.coverSymbolId
        canChooseCover = selectedSymbol != nil && !isCover
        self.categories = categories.map { SelectOption(value: "\($0.id!)", label: $0.name, isSelected: category == "\($0.id!)") }
        let colours = Dictionary(uniqueKeysWithValues: categories.map { ($0.id!, $0.categoryColour) })
        self.symbols = symbols.map { Choice(id: $0.id!, name: $0.name,
                                            lang: t.locale.lang(of: $0.voice.flatMap(AppLocale.init(rawValue:))), imageURL: $0.imageURL,
                                            colourClass: (colours[$0.categoryId] ?? .white).cssClass) }
        self.pictures = pictures.map { match in
            Picture(hexcode: match.entry.hexcode, name: match.name, imageURL: PlanEndpoints.pictogram.path("\(match.entry.hexcode).svg"),
                    nameLang: match.entry.nameLanguage(match.locale).rawValue, lang: match.locale.rawValue, isFallback: match.isFallback)
        }
        hasPictures = !pictures.isEmpty
        pictureURL = selected.map { PlanEndpoints.cellPicture.path(planId, $0) } ?? ""
        selectedFolderName = selected.flatMap { screen.cells[$0].link?.name }
        categoryFilter = category
        let typed = search.trimmingCharacters(in: .whitespaces)
        nothingFound = !typed.isEmpty && symbols.isEmpty && pictures.isEmpty ? t("library_nothing_found", ["query": typed]) : nil
        self.boards = boards.map { SelectOption(value: "\($0.id!)", label: $0.name, isSelected: false) }
        positions = (0..<screen.plan.cellCount).filter { $0 != selected }.map {
            SelectOption(value: "\($0)", label: t("cell_number", ["n": "\($0 + 1)"]), isSelected: false)
        }
        self.search = search
        let plan = screen.plan
        fit = BoardFit.devices.map { device in
            let result = BoardFit.cells(rows: plan.rows, columns: plan.columns, width: device.width, height: device.height,
                                        hasStrip: plan.planType != .bigSymbol)
            let size = ["w": "\(max(0, result.cellWidth))", "h": "\(max(0, result.cellHeight))"]
            return FitDevice(name: t["boards_fit_device_\(device.key)"], size: "\(device.width) × \(device.height)",
                             verdict: result.fits ? t("boards_fit_ok", size) : t("boards_fit_too_small", size), fits: result.fits,
                             orientationClass: device.width > device.height ? "fit-landscape" : "fit-portrait",
                             spans: Array(0..<plan.cellCount))
        }
        let tooSmall = fit.filter { !$0.fits }.map { "\($0.name) (\($0.size))" }
        fitWarning = tooSmall.isEmpty ? nil : t("boards_fit_warning", ["devices": tooSmall.joined(separator: ", ")])
    }
}
