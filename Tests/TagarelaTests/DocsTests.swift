import Foundation
import Testing

/// The guide cannot drift from the code again (issue 50): every type, member and file that
/// docs/architecture.md names in code must exist in Sources and Templates; and every relative link
/// of the README and of docs/ must reach a file (and, into a Markdown file, a heading).
@Suite struct DocsTests {
    static let root = TestApp.repositoryRoot

    /// Every Swift file of Sources and Tests (the guide names the tests that enforce its rules), read once.
    static let sources: [(path: String, text: String)] = ["/Sources", "/Tests"].flatMap { folder in
        FileManager.default.enumerator(at: URL(fileURLWithPath: root + folder), includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .compactMap { url in (try? String(contentsOf: url, encoding: .utf8)).map { (url.path, $0) } }
    }

    /// Types of the libraries the guide names, not declared in this repository.
    static let libraryTypes: Set<String> = ["Database", "DatabasePool", "Deque"]

    @Test func everyNameTheGuideUsesExistsInSources() throws {
        let guide = try String(contentsOfFile: Self.root + "/docs/architecture.md", encoding: .utf8)
        let names = GuideNames.extract(from: guide)
        #expect(names.count >= 40, "the extraction found only \(names.count) names: \(names.sorted())")
        let declared = GuideNames.Declarations(Self.sources)
        var missing: [String] = []
        for name in names.sorted() where !Self.libraryTypes.contains(name) && !GuideNames.exists(name, in: declared, root: Self.root) {
            missing.append(name)
        }
        #expect(missing.isEmpty, "docs/architecture.md names what Sources does not have: \(missing.joined(separator: ", "))")
    }

    @Test func theCheckerRefusesWhatDoesNotExist() {
        let sources = [(path: "/x/A.swift", text: """
            enum Catalog {
                static func add(to router: inout Router) {}
                struct Entry { let key: String }
            }
            extension Catalog { static var count: Int { 0 } }
            """)]
        for present in ["Catalog", "Catalog.add(to:)", "Catalog.add(router)", "Catalog.count", "Catalog.Entry", "Catalog.Entry.key"] {
            #expect(GuideNames.exists(present, in: sources, root: "/nowhere"), "\(present) should be found")
        }
        for absent in ["Catalogue", "Catalog.remove", "Catalog.Entry.value", "Catalog.Item", "Catalog.add(from:)", "Catalog.count.nothing"] {
            #expect(!GuideNames.exists(absent, in: sources, root: "/nowhere"), "\(absent) should be missing")
        }
        #expect(GuideNames.extract(from: "see `People.patients(visibleTo:)` and `x = 1` and `Sources/A.swift`")
            == ["People.patients(visibleTo:)", "Sources/A.swift"])
    }

    @Test func everyRelativeLinkOfTheDocsResolves() throws {
        let folder = Self.root + "/docs"
        let files = ["README.md"] + FileManager.default.enumerator(atPath: folder)!
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        #expect(files.count >= 8, "found only \(files)")
        var broken: [String] = []
        var checked = 0
        for file in files {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            let directory = (file as NSString).deletingLastPathComponent
            for target in DocLinks.targets(in: text) {
                guard let problem = DocLinks.problem(target, from: directory, root: Self.root, of: file) else {
                    checked += 1
                    continue
                }
                broken.append("\(file): \(target): \(problem)")
            }
        }
        #expect(checked >= 30, "only \(checked) links checked: the extraction broke")
        #expect(broken.isEmpty, "\(broken.count) broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func theLinkCheckerReadsMarkdownLinksAndHeadings() {
        #expect(DocLinks.targets(in: "a [x](b.md) ![i](s/p.png) [w](https://a.b) [m](mailto:a) `[c](code.md)`\n```\n[d](e.md)\n```")
            == ["b.md", "s/p.png"])
        #expect(DocLinks.slug("The restore drill: 3 s, `make test`!") == "the-restore-drill-3-s-make-test")
        #expect(DocLinks.slug("Nutrition (issue 7)") == "nutrition-issue-7")
    }
}

/// The code names of a Markdown guide, and whether Sources declares them.
enum GuideNames {
    /// Inline code that is a Swift name path (`App.respond`, `Endpoint.path(…)`, `PageChrome.Links`,
    /// `.write(preparing:)`) or a file of the repository (`Dashboards/DashboardRoutes.swift`,
    /// `Templates/goals/list.mustache`); other code (`{{t.key}}`, shell lines) is not checked.
    static func extract(from markdown: String) -> Set<String> {
        var names: Set<String> = []
        let withoutFences = markdown.replacing(#/```[\s\S]*?```/#, with: "")
        for match in withoutFences.matches(of: #/`([^`\n]+)`/#) {
            let code = String(match.1).trimmingCharacters(in: .whitespaces)
            if code.wholeMatch(of: #/[A-Za-z0-9_\-/<>.]+\.(swift|mustache|json|md)/#) != nil, code.contains("/") {
                names.insert(code)
            } else if code.wholeMatch(of: #/\.?[A-Z][A-Za-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\([A-Za-z_:…]*\))?/#) != nil {
                names.insert(code)
            } else if code.wholeMatch(of: #/\.[a-z][A-Za-z0-9]*(\([A-Za-z_:…]*\))?/#) != nil {
                names.insert(code)
            }
        }
        return names
    }

    static func exists(_ name: String, in sources: [(path: String, text: String)], root: String) -> Bool {
        exists(name, in: Declarations(sources), root: root)
    }

    static func exists(_ name: String, in declared: Declarations, root: String) -> Bool {
        if name.contains("/") { return fileExists(name, root: root) }
        // `Endpoint.path(…)`: the argument labels, when given without `…`, must be the function's.
        var path = name
        var labels: [String]? = nil
        if let open = path.firstIndex(of: "(") {
            let inside = path[path.index(after: open)...].dropLast()
            // `path(id)` is a call with an argument, not a list of labels.
            if !inside.contains("…") && inside.contains(":") { labels = inside.split(separator: ":").map(String.init) }
            path = String(path[..<open])
        }
        var parts = path.split(separator: ".").map(String.init)
        // `.read`: a member of some type (a case, a function or a property).
        if path.hasPrefix(".") { return declared.declares(member: parts[0], labels: labels, in: nil) }
        var files = declared.types[parts[0]] ?? []
        parts.removeFirst()
        guard !files.isEmpty else { return false }
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            if part.first!.isUppercase {
                let nested = files.intersection(declared.types[part] ?? [])
                files = nested.isEmpty ? declared.types[part] ?? [] : nested
            } else {
                guard declared.declares(member: part, labels: last ? labels : nil, in: files) else { return false }
                // `GoalEndpoints.list.path(id)`: the property's type is not read; what follows must be
                // declared somewhere.
                files = declared.all
            }
            if files.isEmpty { return false }
        }
        return true
    }

    static func fileExists(_ path: String, root: String) -> Bool {
        let manager = FileManager.default
        for base in ["", "Sources/Tagarela/", "Sources/"] where manager.fileExists(atPath: root + "/" + base + path) {
            return true
        }
        return false
    }

    /// Which files declare which names, read once: types (and their extensions), members, and each
    /// function's first argument label (`_` when it has none).
    struct Declarations {
        var types: [String: Set<Int>] = [:]
        var members: [String: Set<Int>] = [:]
        var firstLabels: [String: [(file: Int, label: String)]] = [:]
        var initializers: Set<Int> = []
        let all: Set<Int>

        init(_ sources: [(path: String, text: String)]) {
            all = Set(sources.indices)
            let type = try! NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|actor|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
            let member = try! NSRegularExpression(pattern: #"\b(?:func|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
            let cases = try! NSRegularExpression(pattern: #"\bcase\s+([^\n]*)"#)
            let word = try! NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*"#)
            let function = try! NSRegularExpression(pattern: #"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)(?:<[^>]*>)?\(\s*([A-Za-z_][A-Za-z0-9_]*)"#)
            for (index, source) in sources.enumerated() {
                let text = source.text as NSString
                let range = NSRange(location: 0, length: text.length)
                for match in type.matches(in: source.text, range: range) {
                    types[text.substring(with: match.range(at: 1)), default: []].insert(index)
                }
                for match in member.matches(in: source.text, range: range) {
                    members[text.substring(with: match.range(at: 1)), default: []].insert(index)
                }
                for match in cases.matches(in: source.text, range: range) {
                    let line = text.substring(with: match.range(at: 1))
                    for name in word.matches(in: line, range: NSRange(location: 0, length: (line as NSString).length)) {
                        members[(line as NSString).substring(with: name.range), default: []].insert(index)
                    }
                }
                for match in function.matches(in: source.text, range: range) {
                    firstLabels[text.substring(with: match.range(at: 1)), default: []]
                        .append((index, text.substring(with: match.range(at: 2))))
                }
                if source.text.contains("init(") { initializers.insert(index) }
            }
        }

        /// Whether `member` is declared in one of `files` (any file when nil), with `labels`' first one.
        func declares(member: String, labels: [String]?, in files: Set<Int>?) -> Bool {
            let files = files ?? all
            if member == "init" { return !initializers.isDisjoint(with: files) }
            guard let labels else { return !(members[member] ?? []).isDisjoint(with: files) }
            return (firstLabels[member] ?? []).contains { files.contains($0.file) && $0.label == labels[0] }
        }
    }
}

/// Relative links of Markdown files, and the anchors GitHub makes of headings.
enum DocLinks {
    static func targets(in markdown: String) -> [String] {
        let prose = markdown.replacing(#/```[\s\S]*?```/#, with: "").replacing(#/`[^`\n]*`/#, with: "")
        return prose.matches(of: #/\]\(([^)\s]+)\)/#).map { String($0.1) }
            .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") && !$0.hasPrefix("#") }
    }

    /// Nil when the link resolves; else what is wrong.
    static func problem(_ target: String, from directory: String, root: String, of file: String) -> String? {
        let pieces = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let relative = pieces[0].removingPercentEncoding ?? pieces[0]
        let path = ((root + "/" + directory) as NSString).appendingPathComponent(relative)
        let standardized = (path as NSString).standardizingPath
        guard standardized.hasPrefix(root + "/") || standardized == root else { return "leaves the repository" }
        guard FileManager.default.fileExists(atPath: standardized) else { return "no such file" }
        if pieces.count == 2, standardized.hasSuffix(".md") {
            let text = (try? String(contentsOfFile: standardized, encoding: .utf8)) ?? ""
            let anchors = text.split(separator: "\n").filter { $0.hasPrefix("#") }
                .map { slug(String($0.drop(while: { $0 == "#" }))) }
            if !anchors.contains(pieces[1]) { return "no heading #\(pieces[1])" }
        }
        return nil
    }

    /// GitHub's anchor: lower case, punctuation dropped, spaces become hyphens.
    static func slug(_ heading: String) -> String {
        heading.trimmingCharacters(in: .whitespaces).lowercased()
            .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
            .replacingOccurrences(of: " ", with: "-")
    }
}
