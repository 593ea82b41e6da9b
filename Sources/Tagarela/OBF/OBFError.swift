import Foundation

/// Why an Open Board file or package was refused: which board, which field, and what is wrong with it.
/// Nothing is stored when one is thrown; `OBFRoutes` turns it into a sentence in the user's language.
struct OBFError: Error, Equatable, Sendable {
    enum Problem: Equatable, Sendable {
        // A field of a board
        case missing
        case notText
        case notNumber
        case notList
        case notObject
        case notOpenBoard(String)
        case unknownButton(String)
        case unknownImage(String)
        case unknownSound(String)
        case duplicate(String)
        case notInPackage(String)
        case badDataURI
        case outOfRange(Int, ClosedRange<Int>)
        case tooManyEntries(Int, max: Int)
        // The file or the package as a whole
        case notAPackage
        case notJSON
        case jsonTooLarge(maxMiB: Int)
        case tooManyFiles(max: Int)
        case fileTooLarge(maxMiB: Int)
        case packageTooLarge(maxMiB: Int)
        case compressedTooWell
        case unsafePath
        case noManifest
        case tooManyBoards(max: Int)
    }

    /// The board's name (or id, or file) when the problem is inside one board.
    var board: String?
    /// The field's path inside the board, as in the published spec: `buttons[3].id`, `grid.order[1][2]`.
    var field: String?
    /// A file inside the package, for problems with the package itself.
    var file: String?
    var problem: Problem

    init(board: String? = nil, field: String? = nil, file: String? = nil, _ problem: Problem) {
        self.board = board
        self.field = field
        self.file = file
        self.problem = problem
    }

    /// The sentence shown to the user, e.g. "Board 'Comida': buttons[3].id is missing."
    func message(_ t: Translator) -> String {
        let (key, values) = problemText
        let problem = t(key, values)
        if let board, let field { return t("obf_error_board_field", ["board": board, "field": field, "problem": problem]) }
        if let board { return t("obf_error_board", ["board": board, "problem": problem]) }
        if let file, let field { return t("obf_error_file_field", ["file": file, "field": field, "problem": problem]) }
        if let file { return t("obf_error_file", ["file": file, "problem": problem]) }
        return t("obf_error_package", ["problem": problem])
    }

    private var problemText: (String, [String: String]) {
        switch problem {
        case .missing: ("obf_problem_missing", [:])
        case .notText: ("obf_problem_not_text", [:])
        case .notNumber: ("obf_problem_not_number", [:])
        case .notList: ("obf_problem_not_list", [:])
        case .notObject: ("obf_problem_not_object", [:])
        case .notOpenBoard(let value): ("obf_problem_not_open_board", ["value": value])
        case .unknownButton(let id): ("obf_problem_unknown_button", ["id": id])
        case .unknownImage(let id): ("obf_problem_unknown_image", ["id": id])
        case .unknownSound(let id): ("obf_problem_unknown_sound", ["id": id])
        case .duplicate(let id): ("obf_problem_duplicate", ["id": id])
        case .notInPackage(let path): ("obf_problem_not_in_package", ["path": path])
        case .badDataURI: ("obf_problem_bad_data_uri", [:])
        case .outOfRange(let value, let range):
            ("obf_problem_out_of_range", ["value": "\(value)", "min": "\(range.lowerBound)", "max": "\(range.upperBound)"])
        case .tooManyEntries(let count, let max): ("obf_problem_too_many_entries", ["count": "\(count)", "max": "\(max)"])
        case .notAPackage: ("obf_problem_not_a_package", [:])
        case .notJSON: ("obf_problem_not_json", [:])
        case .jsonTooLarge(let max): ("obf_problem_json_too_large", ["max": "\(max)"])
        case .tooManyFiles(let max): ("obf_problem_too_many_files", ["max": "\(max)"])
        case .fileTooLarge(let max): ("obf_problem_file_too_large", ["max": "\(max)"])
        case .packageTooLarge(let max): ("obf_problem_package_too_large", ["max": "\(max)"])
        case .compressedTooWell: ("obf_problem_compressed_too_well", [:])
        case .unsafePath: ("obf_problem_unsafe_path", [:])
        case .noManifest: ("obf_problem_no_manifest", [:])
        case .tooManyBoards(let max): ("obf_problem_too_many_boards", ["max": "\(max)"])
        }
    }
}
