import Foundation
@testable import Tagarela
import Testing

@Suite struct TemplateTests {
    @Test func valuesAreHTMLEscapedByDefault() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "<p>{{name}}</p>".write(to: directory.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
        struct Model: Sendable { let name: String }
        let templates = try await Templates.load(from: directory.path, required: ["page"])
        #expect(templates.render("page", Model(name: #"<script>alert("x")</script>"#))
            == "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>")
    }

    @Test func aMissingTemplateStopsTheStart() async throws {
        await #expect(throws: StartupError.self) {
            _ = try await Templates.load(from: TestApp.repositoryRoot + "/Templates", required: ["no/such/page"])
        }
    }
}
