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

    @Test func textsAreWrittenInEscapedAndEverythingElseIsLeftAlone() {
        let translator = Translator(locale: .ca, texts: ["hi": "Hola & <benvinguda>", "braces": "a {{x}} b", "n": "{count} més"])
        let template = "{{t.hi}}|{{ t.hi }}|{{{t.hi}}}|{{#t.hi}}s{{/t.hi}}|{{t.braces}}|{{t.n}}|{{t.missing}}|{{tx.hi}}|{{name}}"
        #expect(Templates.localize(template, translator)
            == "Hola &amp; &lt;benvinguda&gt;|Hola &amp; &lt;benvinguda&gt;|{{{t.hi}}}|{{#t.hi}}s{{/t.hi}}|{{t.braces}}|{count} més|⟦missing⟧|{{tx.hi}}|{{name}}")
    }

    @Test func constantsAreWrittenInEscapedAndOnlyAsPlainVariables() {
        let translator = Translator(locale: .en, texts: ["hi": "Hi"])
        let constants = ["assets.css": "/css/app.css?v=a&b", "chrome.links.site": "/", "odd": "{{x}}"]
        let template = "{{assets.css}}|{{ chrome.links.site }}|{{{assets.css}}}|{{#assets.css}}s{{/assets.css}}|{{assets.js}}|{{odd}}|{{t.hi}}|{{assets}}"
        #expect(Templates.localize(template, translator, constants: constants)
            == "/css/app.css?v=a&amp;b|/|{{{assets.css}}}|{{#assets.css}}s{{/assets.css}}|{{assets.js}}|{{odd}}|Hi|{{assets}}")
    }

    @Test func aLocalizedLibraryRendersAsTheLookupDoes() async throws {
        let app = try await TestApp().app
        struct Model: Sendable, Encodable { let code: Int; let message: String }
        for locale in AppLocale.allCases {
            let page = PageContext(model: Model(code: 404, message: "<x>"), translator: app.catalogues.translator(for: locale),
                                   assets: app.assets, pageTitle: "T", chrome: PageChrome())
            let looked = app.templates.render("errors/error", page), written = app.templates.render("errors/error", page, in: locale)
            #expect(written == looked)
            #expect(written.contains(HTML.escape(app.catalogues.translator(for: locale)["error_home_link"])))
        }
    }
}
