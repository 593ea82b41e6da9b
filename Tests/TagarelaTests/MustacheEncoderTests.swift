import Foundation
import GRDB
import HTTPServer
import Mustache
import Testing
@testable import Tagarela

/// `MustacheEncoder` must print what `Mirror` printed: each test renders one template twice, once
/// with the value as it is (swift-mustache reads it through `Mirror`) and once with its encoded tree.
@Suite struct MustacheEncoderTests {
    enum Colour: String, Encodable { case red, darkBlue = "dark-blue" }
    enum Level: Int, Encodable { case low = 1, high = 3 }
    enum Answer: Encodable { case yes, later(days: Int) }

    struct Leaves: Encodable {
        var text = "café <b>&</b> \"x\""
        var yes = true
        var no = false
        var int = -42
        var int8: Int8 = -8
        var int16: Int16 = 16
        var int32: Int32 = -32
        var int64: Int64 = 9_007_199_254_740_993
        var uint: UInt = 7
        var uint8: UInt8 = 255
        var uint16: UInt16 = 65_535
        var uint32: UInt32 = 32
        var uint64: UInt64 = 18_446_744_073_709_551_615
        var double = 1.5
        var third = 1.0 / 3
        var float: Float = 0.1
        var decimal = Decimal(string: "12.340")!
        var date = Date(timeIntervalSince1970: 1_795_000_000.25)
        var url = URL(string: "https://example.org/a?b=c&d")!
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var colour = Colour.darkBlue
        var level = Level.high
        var answer = Answer.later(days: 2)
        var plainAnswer = Answer.yes
        var inner = Inner(name: "n", count: 2)
    }

    struct Inner: Encodable {
        let name: String
        let count: Int
    }

    static let leavesTemplate = """
        {{text}}|{{{text}}}|{{yes}}|{{no}}|{{int}}|{{int8}}|{{int16}}|{{int32}}|{{int64}}|{{uint}}|{{uint8}}|{{uint16}}|\
        {{uint32}}|{{uint64}}|{{double}}|{{third}}|{{float}}|{{decimal}}|{{date}}|{{url}}|{{uuid}}|{{colour}}|{{level}}|\
        {{answer}}|{{plainAnswer}}|{{inner}}|{{inner.name}}|{{#yes}}Y{{/yes}}{{^no}}N{{/no}}|{{#inner}}{{count}}{{/inner}}
        """

    /// The template rendered with `value` through `Mirror`, and with its encoded tree.
    static func renderedBothWays(_ template: String, _ value: some Encodable) throws -> (mirror: String, encoder: String) {
        let template = try MustacheTemplate(string: template)
        let tree = try #require(try MustacheEncoder.tree(of: value))
        return (template.render(value), template.render(tree))
    }

    @Test func everyLeafPrintsAsThroughMirror() throws {
        let (mirror, encoder) = try Self.renderedBothWays(Self.leavesTemplate, Leaves())
        #expect(encoder == mirror)
        // What both print, so that a change in swift-mustache cannot make both wrong alike.
        #expect(encoder.hasPrefix("café &lt;b&gt;&amp;&lt;/b&gt; &quot;x&quot;|café <b>&</b> \"x\"|true|false|-42|-8|16|-32|"))
        #expect(encoder.contains("|darkBlue|high|later(days: 2)|yes|"))
        #expect(encoder.contains("|1.5|0.3333333333333333|0.1|12.34|"))
        #expect(encoder.hasSuffix("|n|YN|2"))
    }

    @Test func leavesStayTheSwiftValues() throws {
        let tree = try #require(try MustacheEncoder.tree(of: Leaves()) as? MustacheNode)
        #expect(tree.child(named: "colour") as? Colour == .darkBlue)
        #expect(tree.child(named: "level") as? Level == .high)
        #expect(tree.child(named: "date") as? Date == Leaves().date)
        #expect(tree.child(named: "decimal") as? Decimal == Leaves().decimal)
        #expect(tree.child(named: "url") as? URL == Leaves().url)
        // Text and numbers become text Mustache prints at once; a 64-bit id keeps every digit.
        #expect(tree.child(named: "int64") as? MustacheText == MustacheText("9007199254740993"))
        #expect(tree.child(named: "inner") is MustacheNode)
        #expect(tree.child(named: "noSuchField") == nil)
    }

    struct Listing: Encodable {
        struct Row: Encodable {
            let name: String
            let tags: [String]
            let note: String?
            /// A nil field in a row: Mustache looks the name up in the enclosing objects, as it did.
            let title: String?
        }

        let title: String
        let rows: [Row]
        let grid: [[Int]]
        let empty: [Row]
        let emptyStrings: [String]
        let maybe: String?
        let nothing: String?
        let nested: Inner?
        let absent: Inner?
        let optionals: [String?]
        let flags: Set<Int>
    }

    static let listing = Listing(
        title: "T", rows: [.init(name: "a", tags: ["x", "y"], note: "n", title: nil), .init(name: "b", tags: [], note: nil, title: "own")],
        grid: [[1, 2], [], [3]], empty: [], emptyStrings: [], maybe: "m", nothing: nil, nested: Inner(name: "i", count: 0), absent: nil,
        optionals: ["p", nil, "q"], flags: [5])

    @Test func listsOptionalsAndEmptyArraysBehaveAsThroughMirror() throws {
        let template = """
            {{#rows}}[{{name}}:{{#tags}}{{.}},{{/tags}}{{^tags}}none{{/tags}} {{#note}}{{.}}{{/note}}{{^note}}-{{/note}} {{title}}]{{/rows}}
            {{#grid}}({{#.}}{{.}}{{/.}}){{/grid}}
            {{#empty}}E{{/empty}}{{^empty}}no rows{{/empty}}|{{^emptyStrings}}no strings{{/emptyStrings}}
            {{#maybe}}maybe={{.}}/{{title}}/{{renderText}}{{/maybe}}|{{#nothing}}X{{/nothing}}{{^nothing}}nothing{{/nothing}}|{{nothing}}
            {{#nested}}{{name}}/{{count}}/{{title}}{{/nested}}|{{#absent}}X{{/absent}}{{^absent}}absent{{/absent}}
            {{#optionals}}<{{.}}>{{/optionals}}|{{#flags}}{{.}}{{/flags}}
            """
        let (mirror, encoder) = try Self.renderedBothWays(template, Self.listing)
        // Inside a section over a text, names go on up the stack; the text has none of its own.
        #expect(encoder == mirror)
        #expect(encoder.hasPrefix("[a:x,y, n T][b:none - own]\n(12)()(3)\nno rows|no strings\nmaybe=m/T/|nothing|\ni/0/T|absent\n<p>"))
    }

    /// Answers `shout`, a name no stored property has: proof that the encoder kept the value itself.
    struct Loud: Encodable, MustacheParent {
        let word: String
        func child(named name: String) -> Any? { name == "shout" ? word.uppercased() : nil }
    }

    struct Holder: Encodable {
        let loud: Loud
        let louds: [Loud]
        let form: FormState
        let labels: [String: String]
        let counts: [String: Int]
        let byId: [Int: String]
    }

    @Test func parentsAndDictionariesAreKeptAsTheyAre() throws {
        var form = FormState(values: ["name": "Ana"])
        form.errors["name"] = "too short"
        let holder = Holder(loud: Loud(word: "hi"), louds: [Loud(word: "a"), Loud(word: "b")], form: form,
                            labels: ["pt": "Olá", "en": "Hello"], counts: ["taps": 3], byId: [7: "seven"])
        let template = """
            {{loud.shout}}|{{#louds}}{{shout}}{{/louds}}|{{form.values.name}}|{{form.errors.name}}|{{#form.hasErrors}}E{{/form.hasErrors}}|\
            {{labels.pt}}|{{#labels}}{{en}}{{/labels}}|{{counts.taps}}|{{labels.xx}}
            """
        let (mirror, encoder) = try Self.renderedBothWays(template, holder)
        #expect(encoder == mirror)
        #expect(encoder == "HI|AB|Ana|too short|E|Olá|Hello|3|")
        let tree = try #require(try MustacheEncoder.tree(of: holder) as? MustacheNode)
        #expect(tree.child(named: "loud") is Loud)
        #expect(tree.child(named: "form") is FormState)
        #expect(tree.child(named: "labels") is [String: String])
    }

    // MARK: - Pages: each converted model renders its template as it did through Mirror

    /// A request of `username` for `path` (with its path parameters), to build page models as handlers do.
    static func context(_ test: TestApp, _ username: String, path: String, parameters: [String: String],
                        query: String = "") throws -> RequestContext {
        let user = try #require(try test.read { try User.filter(Column("username") == username).fetchOne($0) })
        var request = Request(method: .get, path: path + query)
        request.pathParameters = parameters
        return RequestContext(request: request, app: test.app, signedIn: nil, actor: Actor(user: user), locale: .ptBR,
                              csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
    }

    /// The page through `Mirror` (as before) and through the encoder; a create form's one-time key differs at every render.
    static func expectSamePage<Model: Sendable>(_ test: TestApp, _ template: String, _ model: Model, context: RequestContext,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let app = test.app
        let translator = app.catalogues.translator(for: context.locale)
        func render(_ lookup: PageContext<Model>.ModelLookup, in locale: AppLocale? = nil) -> String {
            let page = PageContext(model: model, translator: translator, assets: app.assets, pageTitle: "T",
                                   chrome: PageChrome(context, flash: nil), lookup: lookup)
            return app.templates.render(template, page, in: locale)
                .replacing(#/name="_once" value="[^"]*"/#, with: "name=\"_once\"")
        }
        let mirror = render(.mirror), encoder = render(.automatic)
        #expect(encoder == mirror, sourceLocation: sourceLocation)
        // The library with the texts written in prints what the lookups printed.
        #expect(render(.automatic, in: context.locale) == encoder, sourceLocation: sourceLocation)
        #expect(encoder.count > 2_000, sourceLocation: sourceLocation)
    }

    @Test func convertedPagesRenderAsThroughMirror() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), elisa = try test.id(of: "elisa")
        for patient in [carla, elisa] {
            let context = try Self.context(test, "nadia", path: "/patients/\(patient)/nutrition", parameters: ["id": "\(patient)"],
                                           query: "?from=2020-01-01&to=2030-12-31")
            let review = try test.read { try NutritionRoutes.reviewModel(context, patientId: patient, $0) }
            // Each meal is a piece of the page, rendered on its own: pending ones (to edit) and answered ones.
            let meals = review.days.flatMap(\.cells).flatMap(\.meals).map { ($0.child(named: "html") as? MustacheText)?.renderText ?? "" }
            #expect(meals.count > 5)
            #expect(meals.contains { $0.contains(#"class="week-edit""#) } && meals.contains { !$0.contains(#"class="week-edit""#) })
            try Self.expectSamePage(test, "nutrition/review", review, context: context)
            var refused = FormState(values: ["kg": "abc"])
            refused.errors["kg"] = "not a number"
            let withErrors = try test.read { try NutritionRoutes.reviewModel(context, patientId: patient, weightForm: refused, $0) }
            try Self.expectSamePage(test, "nutrition/review", withErrors, context: context)
        }
        for person in ["ana", "nadia", "bruno"] {
            let context = try Self.context(test, person, path: "/patients/\(carla)", parameters: ["id": "\(carla)"])
            let page = try test.read { db in
                let patient = try PatientScope.find(carla, visibleTo: context.actor!, db)
                let user = try User.fetchOne(db, key: carla)!
                return PatientPage(patient: patient, user: user, tutors: try People.tutors(of: carla, db), actor: context.actor!,
                                   form: FormState(values: ["tutorName": "x"]), context: context)
            }
            #expect(!page.tutors.isEmpty)
            try Self.expectSamePage(test, "people/patient", page, context: context)
        }
    }
}
