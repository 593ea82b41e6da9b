import Foundation
import Testing

/// Handlers ask named queries and stores; they hold no SQL and no query chain of their own (issue 21:
/// "queries beside their page"). A record's query chain in a `*Routes.swift` file ends in one of GRDB's
/// fetch or persistence calls on the handler's `db`, or passes `sql:`; neither may appear there.
@Suite struct HandlerFilesTests {
    @Test func noHandlerFileQueriesTheDatabaseItself() throws {
        let databaseCall = try Regex(
            #"\.(fetchAll|fetchOne|fetchCount|fetchSet|fetchCursor|deleteAll|updateAll|insert|inserted|update|updateChanges|save|saved|delete|upsert|exists)\(db\b|sql:|db\.execute"#)
        let sources = URL(fileURLWithPath: TestApp.repositoryRoot + "/Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix("Routes.swift") }
        #expect(files.count >= 20, "found only \(files.count) handler files under \(sources.path)")
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains(databaseCall) {
                found.append("\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Page models live beside their pages, in `<Feature>Pages.swift` (issue 50, item 6); a handler file
    /// registers routes and holds handlers. An eager render is for steps that hold no transaction only:
    /// the two that remain are named here, so a new one is looked at.
    @Test func handlerFilesHoldNoPageModelAndNoEagerRenderInsideAnAccess() throws {
        let sources = URL(fileURLWithPath: TestApp.repositoryRoot + "/Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let model = try Regex(#"^\s*struct \w+\s*:[^{]*\bPageModel\b"#)
        var models: [String] = [], renders: [String] = []
        for file in files {
            let name = file.lastPathComponent
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                if name.hasSuffix("Routes.swift"), line.contains(model) { models.append("\(name):\(index + 1)") }
                if !name.hasPrefix("RequestContext"), line.contains("context.renderFragmentHTML(") || line.contains("context.renderPieceHTML(") {
                    renders.append(name)
                }
            }
        }
        #expect(models.isEmpty, "page models in handler files: \(models)")
        // `PlayerRoutes.play` is a `Finish` and `PrivacyRoutes.archive` a write's `then`: both run after the access.
        #expect(Set(renders) == ["PlayerRoutes.swift", "PrivacyRoutes.swift"], "eager renders: \(renders)")
    }
}
