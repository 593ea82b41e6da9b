import Foundation
import GRDB
import HTTPServer
import Mustache
import Testing
@testable import Tagarela

/// View models of hot pages answer Mustache by name (`MustacheParent`) instead of through `Mirror`;
/// a property left out of `child(named:)` would silently render as nothing. Each stored property,
/// as `Mirror` sees it, must be answered.
@Suite struct MustacheLookupTests {
    static func expectAnswersEveryProperty(_ value: some MustacheParent, sourceLocation: SourceLocation = #_sourceLocation) {
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let isNil = Mirror(reflecting: child.value).displayStyle == .optional && Mirror(reflecting: child.value).children.isEmpty
            if isNil {
                #expect(value.child(named: label) == nil, "\(type(of: value)).\(label)", sourceLocation: sourceLocation)
            } else {
                #expect(value.child(named: label) != nil, "\(type(of: value)).\(label) is not answered", sourceLocation: sourceLocation)
            }
        }
        #expect(value.child(named: "noSuchProperty") == nil)
    }

    @Test func hotPageModelsAnswerEveryProperty() async throws {
        let test = try await TestApp(seedDemo: false)
        let context = RequestContext(request: Request(method: .get, path: "/"), app: test.app, signedIn: nil, actor: nil,
                                     locale: .ptBR, csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
        let summary = People.PatientSummary(id: 7, displayName: "Carla Costa", username: nil, birthDate: "2018-03-01", sex: .female,
                                            diagnosis: "TEA", photoPath: "p.jpg", tutorNames: "Bruno Costa")
        Self.expectAnswersEveryProperty(PatientRow(summary, today: "2026-11-21", context: context))
        let user = User(id: 3, username: "ana", displayName: "Ana Souza", role: .clinician, specialties: "speech nutrition",
                        createdAt: Date(), updatedAt: Date())
        let entry = DashboardQueries.Clinician.Entry(patient: summary, signals: WorklistRules.Signals(newTutorNotes: 1),
                                                     adherence: NutritionRules.Adherence(fulfilled: 1, notFulfilled: 1, pending: 1, overdue: 1))
        let dashboard = ClinicianDashboard(actor: Actor(user: user), search: "x",
                                           data: .init(total: 1, attention: [entry], others: [entry], nutrition: [entry]), context: context)
        Self.expectAnswersEveryProperty(dashboard)
        #expect(dashboard.others.count == 1 && dashboard.nutrition.count == 1)
        for row in dashboard.others + dashboard.nutrition { Self.expectAnswersEveryProperty(row) }
        Self.expectAnswersEveryProperty(ClinicianDashboard.NutritionRow(entry, context: context))
        #expect(dashboard.attention.count == 1)
        for card in dashboard.attention { Self.expectAnswersEveryProperty(card) }
        Self.expectAnswersEveryProperty(ClinicianDashboard.WorklistRow(patient: PatientRow(summary, today: "2026-11-21", context: context),
                                                                       reasons: ["New tutor notes: 1"]))
        let filter = UsageRoutes.Filter(Parameters([("from", "2026-11-01"), ("to", "2026-11-30")]), context: context)
        let usage = UsagePage(patientId: 7, patientName: "Carla Costa", patientLocale: .es, filter: filter, total: 3,
                              perDay: [(day: "2026-11-02", count: 3)], top: [(name: "água", count: 3)],
                              longest: [(text: "eu quero água", words: 3, at: Date(), assisted: "Bruno")],
                              rows: [], plans: [], people: [], context: context)
        Self.expectAnswersEveryProperty(usage)
        Self.expectAnswersEveryProperty(UsagePage.Row(when: "1", plan: "p", symbol: "s", wordsLang: "es", assisted: "a"))
        Self.expectAnswersEveryProperty(UsagePage.RenderedRow(html: Piece { "<tr></tr>" }))
        for item in usage.top { Self.expectAnswersEveryProperty(item) }
        for item in usage.sentences { Self.expectAnswersEveryProperty(item) }
        for item in usage.plans { Self.expectAnswersEveryProperty(item) }
        Self.expectAnswersEveryProperty(FoodChoices([FoodOption(id: 1, name: "Arroz", unit: "colher")], chosen: "1"))
    }

    /// The board's grid and each of its cells, folders and empty cells among them, as the demo has them.
    @Test func theBoardGridAnswersEveryProperty() async throws {
        let test = try await TestApp()
        let screens = try test.read { db in
            try Plan.filter(Column("type") == PlanType.board.rawValue).fetchAll(db).map { try BoardScreen.fetch($0, db) }
        }
        let grids = screens.map { PlayerGrid(BoardView($0, test.app.catalogues.translator(for: .ptBR))) }
        let cells = grids.flatMap(\.cells)
        #expect(cells.contains(where: \.isFolder) && cells.contains(where: \.isEmpty) && cells.contains { $0.symbolId != nil })
        for grid in grids { Self.expectAnswersEveryProperty(grid) }
        for cell in cells {
            Self.expectAnswersEveryProperty(cell)
            Self.expectAnswersEveryProperty(PlayerGrid.CellFragment(cell: cell))
        }
        for grid in grids { Self.expectAnswersEveryProperty(grid.renderingCells { $0.label }) }
    }

    /// A usage row is rendered alone (`renderPieceHTML`), without the page's context: it must print what
    /// it printed inside it, with and without its badge, escaped, in every language.
    @Test func aUsageRowRendersAloneAsInsideThePage() async throws {
        let test = try await TestApp(seedDemo: false)
        let rows = [UsagePage.Row(when: "02/11 10:15", plan: "Casa & <escola>", symbol: "\"água\"", wordsLang: nil, assisted: "Bruno's"),
                    UsagePage.Row(when: "1", plan: "p", symbol: "s", wordsLang: "es", assisted: "a", kind: "Modelagem <m>")]
        for locale in AppLocale.allCases {
            let context = RequestContext(request: Request(method: .get, path: "/"), app: test.app, signedIn: nil, actor: nil,
                                         locale: locale, csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
            for row in rows {
                let alone = context.renderPieceHTML("aac/usage-row", row)
                #expect(alone == context.renderFragmentHTML("aac/usage-row", row))
                #expect(alone.contains(HTML.escape(row.plan)) && alone.contains(HTML.escape(row.symbol)))
                #expect(alone.contains("badge") == (row.kind != nil))
            }
        }
    }
}
