import Foundation
import Mustache
@testable import Tagarela
import Testing

/// `CompiledTemplates` prints what swift-mustache prints, byte for byte: each case is rendered both ways
/// from the same parse. Every page of the tests is compared the same way (`TestApp` loads the templates
/// with `comparesTemplates`); these cases name the rules one by one, with the odd states a page model
/// can be in.
@Suite struct CompiledTemplatesTests {
    struct Item: Encodable, Sendable {
        let name: String
        var note: String?
        var tags: [String] = []
    }

    struct Model: Encodable, Sendable {
        let title: String
        let items: [Item]
        let empty: [Item]
        let flag: Bool
        let off: Bool
        let count: Int
        let price: Double
        var missing: String?
        let nested: Item
        let html: String
    }

    /// Not `Encodable` and no `MustacheParent`: read through `Mirror`, as swift-mustache reads it.
    struct Plain: Sendable {
        let name: String
        let maybe: String?
        let none: String?
        let inner: Inner
        struct Inner: Sendable { let value: Int }
    }

    static let model = Model(title: "Board <1> & \"q\"", items: [Item(name: "a", note: "n", tags: ["x", "y"]), Item(name: "canção <b>")],
                             empty: [], flag: true, off: false, count: 0, price: 2.5, nested: Item(name: "deep"),
                             html: "<b>bold</b>")

    static let cases: [String: String] = [
        "variables": "{{title}}|{{{title}}}|{{&title}}|{{count}}|{{price}}|{{missing}}|{{flag}}|{{nested.name}}|{{.nested.name}}|{{html}}",
        "sections": "{{#items}}[{{name}}{{#note}}:{{.}}{{/note}}{{^note}}-{{/note}}{{#tags}}<{{.}}>{{/tags}}]{{/items}}",
        "inverted": "{{^empty}}none {{title}}{{/empty}}{{^items}}never{{/items}}{{^off}}off{{/off}}{{^missing}}no missing{{/missing}}",
        "climbing": "{{#items}}{{name}} of {{title}}, {{#nested}}{{name}} in {{title}}{{/nested}};{{/items}}",
        "booleans and zero": "{{#flag}}on {{title}}{{/flag}}{{#off}}never{{/off}}{{#count}}zero is a value{{/count}}",
        "dotted": "{{#nested}}{{.name}}|{{.title}}|{{title}}{{/nested}}{{nested.missing.deeper}}",
        "standalone lines": "<ul>\n  {{#items}}\n  <li>{{name}}</li>\n  {{/items}}\n  {{^empty}}\n  <li>empty</li>\n  {{/empty}}\n</ul>\n",
        "comments": "a {{! a comment }}b\n  {{! standalone }}\nc",
        "partials": "<div>\n  {{>partial}}\n</div>\n{{#items}}{{>partial}}{{/items}}",
        "inheritance": "{{<parent}}\n{{$body}}\n  <p>{{title}}</p>\n  {{#items}}\n  <i>{{name}}</i>\n  {{/items}}\n{{/body}}\n{{/parent}}\n",
        "unicode": "{{#items}}ação {{name}} ✓\n{{/items}}çã {{title}}",
    ]

    static let partials: [String: String] = [
        "partial": "<p>{{name}}{{title}}</p>\n<p>second line</p>\n",
        "parent": "<html>\n  <main>\n    {{$body}}default {{title}}{{/body}}\n  </main>\n  {{$unused}}<em>{{title}}</em>{{/unused}}\n</html>\n",
    ]

    static func parse(_ texts: [String: String]) throws -> [String: MustacheTemplate] {
        MustacheContentTypes.register(EscapedHTML(), named: EscapedHTML.name)
        return try texts.mapValues { try MustacheTemplate(string: "{{% CONTENT_TYPE: \(EscapedHTML.name)}}" + $0) }
    }

    @Test(arguments: cases.keys.sorted())
    func printsWhatSwiftMustachePrints(_ name: String) throws {
        let parsed = try Self.parse(Self.partials.merging([name: Self.cases[name]!]) { $1 })
        let compiled = try CompiledTemplates(parsed), library = MustacheLibrary(templates: parsed)
        let encoded = try #require(try MustacheEncoder.tree(of: Self.model))
        for context in [encoded, Self.model as Any] {
            let mine = try #require(compiled.render(name, context))
            #expect(mine == library.render(context, withTemplate: name), "\(name), model \(type(of: context))")
            #expect(!mine.isEmpty)
        }
    }

    @Test func aModelReadThroughMirrorPrintsAsInSwiftMustache() throws {
        let parsed = try Self.parse(["page": "{{name}}|{{maybe}}|{{none}}|{{#none}}x{{/none}}{{^none}}no{{/none}}|{{inner.value}}|{{#inner}}{{value}}{{/inner}}"])
        let compiled = try CompiledTemplates(parsed), library = MustacheLibrary(templates: parsed)
        let plain = Plain(name: "p<", maybe: "m", none: nil, inner: .init(value: 7))
        let mine = compiled.render("page", plain)
        #expect(mine == library.render(plain, withTemplate: "page"))
        #expect(mine == "p&lt;|m||no|7|7")
    }

    @Test func anEscapedValueIsEscapedOnceAndATripleMustacheNotAtAll() throws {
        let parsed = try Self.parse(["page": "{{text}} {{{text}}}"])
        #expect(try CompiledTemplates(parsed).render("page", ["text": MustacheText("<a href='x'>&amp;</a>")])
            == "&lt;a href=&#39;x&#39;&gt;&amp;amp;&lt;/a&gt; <a href='x'>&amp;</a>")
    }

    @Test func aTransformFailsAtStartNamingItsTemplate() throws {
        let parsed = try Self.parse(["lists/odd": "{{#items}}{{uppercased(name)}}{{/items}}"])
        #expect(throws: CompiledTemplates.CompileError.self) { try CompiledTemplates(parsed) }
        do { _ = try CompiledTemplates(parsed) } catch { #expect("\(error)".contains("lists/odd")) }
    }

    @Test func anUnknownTemplateIsNil() throws {
        #expect(try CompiledTemplates(Self.parse(["a": "x"])).render("b", Self.model) == nil)
    }
}
