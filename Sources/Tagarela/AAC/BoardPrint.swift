import Foundation

/// One printed page: a board, a big-symbol plan or a sentence plan's words, sized to fit one page of
/// A4 or Letter (board.css, "Print"), turned to the grid's shape.
struct PrintSheet: PageModel {
    struct Cell: PageModel {
        let colourClass: String
        let isEmpty: Bool
        let isFolder: Bool
        let imageURL: String?
        let label: String
        let lang: String?
        /// Small print under the label: a folder's page in the book, a sentence word's role.
        let note: String?
    }

    let planId: Int64
    let name: String
    /// The board's language when the page's is another (`AppLocale.lang(of:)`).
    let wordsLang: String?
    let patientName: String
    let description: String?
    /// In a book: this sheet's page number.
    let pageNumber: Int?
    /// 1 for a sheet printed alone, 2 inside a book (under the cover's title).
    let headingLevel: Int
    let orientationClass: String
    let columnsClass: String
    let rowsClass: String
    let labelClass: String
    let cells: [Cell]

    enum Orientation: String, Sendable { case landscape, portrait }

    /// A grid at least as wide as tall prints on its side. Pure.
    static func orientation(rows: Int, columns: Int) -> Orientation { columns >= rows ? .landscape : .portrait }

    /// Rows × columns for `count` words on a sheet on its side: the most even cells, at most 12 columns. Pure.
    static func shape(count: Int) -> (rows: Int, columns: Int) {
        guard count > 0 else { return (1, 1) }
        let columns = min(12, max(1, Int((Double(count) * 1.4).squareRoot().rounded(.up))))
        return (Int((Double(count) / Double(columns)).rounded(.up)), columns)
    }

    /// A board or big-symbol plan; `pages` gives the book page of each board a folder may open.
    init(board: BoardView, patientName: String, wordsLang: String? = nil, description: String, pageNumber: Int? = nil,
         pages: [Int64: Int] = [:], _ t: Translator) {
        planId = board.planId
        name = board.name
        self.wordsLang = wordsLang
        self.patientName = patientName
        self.description = description.isEmpty ? nil : description
        self.pageNumber = pageNumber
        headingLevel = pageNumber == nil ? 1 : 2
        orientationClass = "print-\(PrintSheet.orientation(rows: board.rows, columns: board.columns).rawValue)"
        columnsClass = board.columnsClass
        rowsClass = board.rowsClass
        labelClass = board.labelClass
        cells = board.cells.map { cell in
            let page = cell.linkPlanId.flatMap { pages[$0] }
            return Cell(colourClass: cell.colourClass, isEmpty: cell.isEmpty, isFolder: cell.isFolder, imageURL: cell.imageURL,
                        label: cell.label, lang: cell.lang ?? (cell.isFolder ? wordsLang : nil), note: page.map { t("boards_book_see_page", ["n": "\($0)"]) })
        }
    }

    /// A sentence plan: its words in the order of a sentence (subjects, verbs, complements), each with its role.
    init(sentencePlan plan: Plan, grammar: SentenceGrammar, patientName: String, wordsLang: String? = nil, pageNumber: Int? = nil,
         _ t: Translator) {
        planId = plan.id!
        name = plan.name
        self.wordsLang = wordsLang
        self.patientName = patientName
        description = plan.description.isEmpty ? nil : plan.description
        self.pageNumber = pageNumber
        headingLevel = pageNumber == nil ? 1 : 2
        let words = SentenceWord.Role.allCases.flatMap(grammar.words)
        let shape = PrintSheet.shape(count: words.count)
        orientationClass = "print-\(PrintSheet.orientation(rows: shape.rows, columns: shape.columns).rawValue)"
        columnsClass = "cols-\(shape.columns)"
        rowsClass = "rows-\(shape.rows)"
        labelClass = LabelFit.cssClass(labels: words.map(\.symbol.name))
        cells = words.map { word in
            Cell(colourClass: word.colour.cssClass, isEmpty: false, isFolder: false, imageURL: word.symbol.imageURL,
                 label: word.symbol.name, lang: word.symbol.voice, note: t["boards_role_\(word.role.rawValue)"])
        }
    }
}

struct PrintPage: PageModel {
    let sheet: PrintSheet
}

/// A patient's communication book: a cover, then every plan on a page of its own.
struct BookPage: PageModel {
    struct Entry: PageModel {
        let name: String
        let wordsLang: String?
        let kind: String
        let pageNumber: Int
    }

    let patientId: Int64
    let patientName: String
    let date: String
    let clinicians: String?
    let entries: [Entry]
    let sheets: [PrintSheet]
    let isEmpty: Bool
    let plansURL: String

    /// The book's pages: the cover is page 1, the plans follow in `plans` order. Pure.
    static func pageNumbers(of plans: [Plan]) -> [Int64: Int] {
        Dictionary(uniqueKeysWithValues: plans.enumerated().map { ($0.element.id!, $0.offset + 2) })
    }

    /// Boards first, then big-symbol plans, then sentence plans; by name within each. Pure.
    static func order(_ plans: [Plan]) -> [Plan] {
        let rank: [PlanType: Int] = [.board: 0, .bigSymbol: 1, .sentence: 2]
        return plans.sorted {
            (rank[$0.planType] ?? 3, $0.name.lowercased(), $0.id ?? 0) < (rank[$1.planType] ?? 3, $1.name.lowercased(), $1.id ?? 0)
        }
    }
}

/// How a board comes out on a screen of a given size: the space the header, sentence bar and navigation
/// leave (the same figures as board.css), divided into rows and columns. The editor shows it per device so
/// the clinician learns when a grid cannot keep its 64 px cells on a small phone. Pure.
enum BoardFit {
    struct Device: Sendable {
        let key: String
        let width: Int
        let height: Int
    }

    struct Result: Equatable, Sendable {
        let cellWidth: Int
        let cellHeight: Int
        var fits: Bool { min(cellWidth, cellHeight) >= BoardFit.minimumCell }
    }

    static let minimumCell = 64
    static let devices = [
        Device(key: "phone", width: 360, height: 640), Device(key: "phone_landscape", width: 640, height: 360),
        Device(key: "tablet", width: 768, height: 1024), Device(key: "tablet_landscape", width: 1024, height: 768),
        Device(key: "laptop", width: 1280, height: 800), Device(key: "desktop", width: 1920, height: 1080),
    ]

    /// `control` is the height of Speak, Delete, Clear and the navigation (64 to 80 px with the cell size preset).
    static func cells(rows: Int, columns: Int, width: Int, height: Int, control: Int = 64, hasStrip: Bool = true,
                      scanning: Bool = false) -> Result {
        let header = 56, page = 12, gap = 6
        let narrow = width < 600
        // The bar: the strip and the actions side by side, or stacked on a phone.
        let bar = hasStrip ? (narrow ? (control + 8) + gap + control : control + 8) : 0
        let used = header + page + (hasStrip ? bar + gap : 0) + gap + control
        // A core-vocabulary grid draws thinner gaps and padding (board.css).
        let dense = columns > 8 || rows > 6
        let padding = scanning ? 24 : (dense ? 2 : 6), cellGap = dense ? 2 : (narrow ? 4 : gap)
        let gridWidth = width - page - padding, gridHeight = height - used - padding
        let cellHeight = (gridHeight - (rows - 1) * cellGap) / rows
        // A cell is at most 1.6 times as wide as it is tall (board.css).
        return Result(cellWidth: min((gridWidth - (columns - 1) * cellGap) / columns, cellHeight * 16 / 10), cellHeight: cellHeight)
    }
}
