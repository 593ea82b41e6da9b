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
}
