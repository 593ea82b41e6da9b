import Foundation
import Mustache

struct PlayListPage: PageModel {
    struct Tile: PageModel {
        let id: Int64
        /// The board's player.
        let url: String
        let name: String
        let imageURL: String?
    }
    let plans: [Tile]
    let timerURL = TimerEndpoints.timer.path()

    init(_ tiles: [PlayerQueries.Tile]) {
        plans = tiles.map { Tile(id: $0.planId, url: PlayerEndpoints.play.path($0.planId), name: $0.name, imageURL: $0.imageURL) }
    }
}

/// The boards a child went through by folder cells to reach this one, root first: carried in the
/// links as `?from=3,8` so Back and Home need no state on the tablet (and work from a kept offline copy).
/// Pure.
struct BoardTrail: Equatable, Sendable {
    static let longest = 8
    var boards: [Int64]

    /// `from=3,8` → [3, 8]; junk, repeats and anything past the eighth board are dropped.
    static func parse(_ text: String?) -> [Int64] {
        var seen = Set<Int64>()
        return (text ?? "").split(separator: ",").prefix(longest).compactMap { Int64($0) }.filter { $0 > 0 && seen.insert($0).inserted }
    }

    /// A board's player reached through `trail`.
    static func link(_ board: Int64, through trail: some Collection<Int64>) -> String {
        PlayerEndpoints.play.path(board, query: ["from": trail.map(String.init).joined(separator: ",")])
    }

    /// The board one step back, with the trail that led to it.
    var backURL: String? { boards.last.map { BoardTrail.link($0, through: boards.dropLast()) } }
    /// The root of the board set: where the child entered it.
    var homeURL: String? { boards.first.map { PlayerEndpoints.play.path($0) } }

    /// The grid is cached with folder links one step deep (`?from=<this board>`); here they get the whole trail.
    func folderLinks(in grid: String, from board: Int64) -> String {
        guard !boards.isEmpty else { return grid }
        let trail = (boards + [board]).suffix(BoardTrail.longest)
        return grid.replacingOccurrences(of: "?from=\(board)\"", with: "?from=" + trail.map(String.init).joined(separator: ",") + "\"")
    }
}

/// A board's cells as the player shows them (`aac/board-grid`), rendered once per version of the board.
///
/// Each cell is rendered alone (`aac/board-cell`) and kept under everything it shows (`Cell.key`): the
/// boards of a clinician's children are made of the same few dozen symbols, so a grid not rendered yet is
/// mostly cells already rendered for another board. Rendering the twenty cells of a grid through Mustache
/// was a seventh of the server's time in the first run of `bench/mixed --scale 10`, where every grid is new.
struct PlayerGrid: PageModel, MustacheParent {
    struct Cell: PageModel, MustacheParent {
        let isEmpty: Bool
        let isFolder: Bool
        /// A folder's board, one step deep (`BoardTrail.folderLinks` adds the rest of the way).
        let folderURL: String?
        let symbolId: Int64?
        let label: String
        let imageURL: String?
        let audioURL: String?
        let colourClass: String
        let lang: String?
        /// The symbol's grammar and forms for the strip (`BoardWord`), as JSON.
        let word: String?

        /// Texts as `MustacheText`, which Mustache prints at once, where a `String` or an `Int64` went through
        /// its casts first: a grid not rendered yet is every board once after a start, and all of them in the
        /// first run of `bench/mixed --scale 10`.
        func child(named name: String) -> Any? {
            switch name {
            case "word": word.map(MustacheText.init)
            case "isEmpty": isEmpty
            case "isFolder": isFolder
            case "folderURL": folderURL.map(MustacheText.init)
            case "symbolId": symbolId.map { MustacheText(String($0)) }
            case "label": MustacheText(label)
            case "imageURL": imageURL.map(MustacheText.init)
            case "audioURL": audioURL.map(MustacheText.init)
            case "colourClass": MustacheText(colourClass)
            case "lang": lang.map(MustacheText.init)
            default: nil
            }
        }

        /// Everything the cell's HTML is made of: its fields and the page's language, which a cell without a
        /// language of its own prints (`{{lang}}` then finds the page's). The cell template prints nothing
        /// else (no other translation, no asset), so two cells with the same key print the same. A new
        /// field must be added here, or cells would keep their old text.
        func key(in locale: AppLocale) -> String {
            let fields: [String?] = [folderURL, symbolId.map { String($0) }, label, imageURL, audioURL, colourClass, lang, word]
            return "board cell \(locale.rawValue) \(isEmpty) \(isFolder)" + fields.map { "\u{1F}" + ($0 ?? "\u{0}") }.joined()
        }
    }

    /// One cell as `aac/board-cell` renders it: inside `{{#cell}}`, so the cell's names come before the
    /// page's (`lang`), as they did when the grid template listed the cells itself.
    struct CellFragment: PageModel, MustacheParent {
        let cell: Cell

        func child(named name: String) -> Any? { name == "cell" ? cell : nil }
    }

    let name: String
    let columnsClass: String
    let rowsClass: String
    let labelClass: String
    let cells: [Cell]
    /// Each cell's HTML, in order (`renderingCells`).
    private(set) var cellsHTML: [String] = []

    init(_ board: BoardView, words: [Int64: BoardWord] = [:]) {
        name = board.name
        columnsClass = board.columnsClass
        rowsClass = board.rowsClass
        labelClass = board.labelClass
        cells = board.cells.map { cell in
            Cell(isEmpty: cell.isEmpty, isFolder: cell.isFolder,
                 folderURL: cell.linkPlanId.map { BoardTrail.link($0, through: [board.planId]) }, symbolId: cell.symbolId,
                 label: cell.label, imageURL: cell.imageURL, audioURL: cell.audioURL, colourClass: cell.colourClass, lang: cell.lang,
                 word: cell.symbolId.flatMap { words[$0]?.json })
        }
    }

    func child(named name: String) -> Any? {
        switch name {
        case "name": MustacheText(self.name)
        case "columnsClass": MustacheText(columnsClass)
        case "rowsClass": MustacheText(rowsClass)
        case "labelClass": MustacheText(labelClass)
        case "cells": cells
        case "cellsHTML": cellsHTML.map(MustacheText.init)
        default: nil
        }
    }

    /// The grid with each cell's HTML, as `render` gives it.
    func renderingCells(_ render: (Cell) -> String) -> PlayerGrid {
        var grid = self
        grid.cellsHTML = cells.map(render)
        return grid
    }
}

struct PlayerPage: PageModel, MustacheParent {
    let planId: Int64
    let patientId: Int64
    let name: String
    let isBigSymbol: Bool
    /// The board's cells, rendered once per version of the board (see `FragmentCache`).
    let grid: String
    let offlineText: String
    let backURL: String?
    let homeURL: String?
    let access: AccessView
    /// Where the script sends each tap.
    let tapURL = PlayerEndpoints.recordTap.path()
    let boardsURL = PlayerEndpoints.list.path()

    func child(named name: String) -> Any? {
        switch name {
        case "planId": planId
        case "patientId": patientId
        case "name": self.name
        case "isBigSymbol": isBigSymbol
        case "grid": grid
        case "offlineText": offlineText
        case "backURL": backURL
        case "homeURL": homeURL
        case "access": access
        case "tapURL": tapURL
        case "boardsURL": boardsURL
        default: nil
        }
    }
}
