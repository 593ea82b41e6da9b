import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct BodyCompositionTests {
    /// A complete 7-site evaluation for Gustavo (a man of 47 in the demo clinic), typed the way a
    /// Brazilian trainer types it: comma decimals, height in centimetres, three readings on one site.
    static let fullEvaluation: [(String, String)] = [
        ("protocol", "jp7"), ("weight", "85,4"), ("height", "178"),
        ("sf_chest_1", "16"), ("sf_midaxillary_1", "17,5"), ("sf_abdominal_1", "21"),
        ("sf_triceps_1", "10"), ("sf_triceps_2", "12"), ("sf_triceps_3", "30"),
        ("sf_subscapular_1", "19"), ("sf_suprailiac_1", "16"), ("sf_thigh_1", "15"),
        ("p_waist", "91"), ("p_hip", "100,5"),
    ]

    @Test func theFormAsksForTheProtocolsSites() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let page = try dani.get("/clients/\(try test.id(of: "Gustavo Pereira"))/evaluations/new")
        #expect(page.status == 200)
        #expect(page.text.contains(#"value="jp7" checked"#))
        for site in SkinfoldSite.allCases { #expect(page.text.contains(#"name="sf_\#(site.rawValue)_1""#)) }
        #expect(page.text.contains(#"inputmode="decimal""#))
    }

    @Test func aFullEvaluationIsSavedWithTheMedianAndShownAsAReport() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let saved = try dani.post("/clients/\(gustavo)/evaluations", Self.fullEvaluation)
        #expect(saved.status == 303)
        let location = try #require(saved.header("Location"))
        #expect(location.hasSuffix("?saved=1"))
        let report = try dani.get(location)
        #expect(report.text.contains("Avaliação salva."))
        // Σ7 = 16 + 17.5 + 21 + 12 (median of 10, 12, 30) + 19 + 16 + 15 = 116.5 mm
        #expect(report.text.contains("116,5 mm"))
        #expect(report.text.contains("12 mm (10 · 12 · 30)"))
        #expect(report.text.contains("1,78 m"))
        #expect(report.text.contains(#"data-saved-draft="evaluation-\#(gustavo)""#))
        let stored = try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM skinfoldReading WHERE evaluationId = (SELECT max(id) FROM evaluation)")
        }
        #expect(stored == 9)
    }

    @Test(arguments: [
        ("weight", "", "Peso: preencha este campo."),
        ("weight", "setenta", "Peso: informe um número"),
        ("weight", "400", "Peso: o valor deve ficar entre 20 e 300 kg."),
        ("height", "3,5", "Altura: informe entre 1,00 e 2,30 m"),
        ("height", "", "Altura: preencha este campo."),
        ("sf_triceps_1", "", "Tríceps: preencha este campo."),
        ("sf_triceps_1", "1", "Tríceps: o valor deve ficar entre 2 e 80 mm."),
        ("sf_thigh_2", "x", "Coxa: informe um número"),
        ("p_waist", "900", "Cintura: o valor deve ficar entre 40 e 200 cm."),
    ])
    func eachFieldSaysWhatIsWrongAndKeepsWhatWasTyped(_ field: String, _ value: String, _ message: String) async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let before = try test.snapshot()
        let fields = Self.fullEvaluation.filter { $0.0 != field } + [(field, value)]
        let refused = try dani.post("/clients/\(gustavo)/evaluations", fields)
        #expect(refused.status == 422)
        #expect(refused.text.contains(message), "\(field)=\(value)")
        #expect(refused.text.contains(#"value="17,5""#), "the other values stay")
        #expect(try test.snapshot() == before)
    }

    /// Every skinfold and perimeter field: a non-number and an out-of-range value, each named in its message.
    @Test func everySiteAndPerimeterNamesItselfInItsErrors() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let names = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: URL(
            fileURLWithPath: TestApp.repositoryRoot + "/Templates/i18n/pt-BR.json")))
        var cases: [(field: String, label: String)] = SkinfoldSite.allCases.map {
            (EvaluationInput.skinfoldField($0, 2), names["skinfold_\($0.rawValue)"]!)
        }
        cases += PerimeterSite.allCases.map { (EvaluationInput.perimeterField($0), names[$0.catalogueKey]!) }
        for (field, label) in cases {
            for (value, message) in [("abc", "\(label): informe um número"), ("999", "\(label): o valor deve ficar entre")] {
                let fields = Self.fullEvaluation.filter { $0.0 != field } + [(field, value)]
                let refused = try dani.post("/clients/\(gustavo)/evaluations", fields)
                #expect(refused.status == 422, "\(field)=\(value)")
                #expect(refused.text.contains(message), "\(field)=\(value)")
            }
        }
    }

    @Test func thePreviewFragmentShowsResultsBeforeSaving() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let fragment = try dani.client.postForm("/clients/\(gustavo)/evaluations/preview", [("_csrf", dani.csrf)] + Self.fullEvaluation,
                                                headers: dani.cookieHeader + [("X-Fragment", "results")])
        #expect(fragment.status == 200)
        #expect(!fragment.text.contains("<html"))
        #expect(fragment.text.contains("116,5 mm"))
        #expect(fragment.text.contains("Relação cintura-quadril"))
        let partial = try dani.client.postForm("/clients/\(gustavo)/evaluations/preview", [("_csrf", dani.csrf), ("weight", "80")],
                                               headers: dani.cookieHeader + [("X-Fragment", "results")])
        #expect(partial.text.contains("Os resultados aparecem quando"))
    }

    @Test func anotherTrainersClientIsNotFound() async throws {
        let test = try await TestApp()
        _ = try Accounts.addStaff(test.app.poolForTests, role: "trainer", username: "teo", name: "Teo Ramos", specialties: [],
                                  password: DemoClinic.password, hasher: test.app.passwords)
        let teo = try test.browser(loggedInAs: "teo")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let evaluation = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        for path in ["/clients/\(gustavo)", "/clients/\(gustavo)/evaluations/new", "/clients/\(gustavo)/evaluations/\(evaluation)",
                     "/clients/\(gustavo)/compare?first=\(evaluation)&second=\(evaluation)"] {
            #expect(try teo.get(path).status == 404, "\(path)")
        }
        let before = try test.snapshot()
        #expect(try teo.post("/clients/\(gustavo)/evaluations", Self.fullEvaluation).status == 404)
        #expect(try test.snapshot() == before)
        #expect(try test.browser(loggedInAs: "ana").get("/clients/\(gustavo)/evaluations/new").status == 403)
    }

    @Test func percentFatIsNotComparedAcrossProtocols() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let fernanda = try test.id(of: "Fernanda Dias")
        let ids = try test.read { try Int64.fetchAll($0, sql: "SELECT id FROM evaluation WHERE patientId = ? ORDER BY takenOn", arguments: [fernanda]) }
        let across = try dani.get("/clients/\(fernanda)/compare?first=\(ids[1])&second=\(ids[2])")
        #expect(across.status == 200)
        #expect(across.text.contains("usam protocolos diferentes"))
        #expect(!across.text.contains(#"<th scope="row">Gordura</th>"#))
        #expect(across.text.contains(#"<th scope="row">Tríceps</th>"#))
        let same = try dani.get("/clients/\(fernanda)/compare?first=\(ids[0])&second=\(ids[1])")
        #expect(same.text.contains(#"<th scope="row">Gordura</th>"#))
        #expect(!same.text.contains("usam protocolos diferentes"))
    }

    @Test func smallChangesAreMarkedAsNoRealChange() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let gustavo = try test.id(of: "Gustavo Pereira")
        let last = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        var again = Self.fullEvaluation.filter { $0.0 != "weight" }
        again.append(("weight", "86,8"))  // the last demo visit weighed 86.6 kg
        #expect(try dani.post("/clients/\(gustavo)/evaluations", again).status == 303)
        let newest = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM evaluation WHERE patientId = ?", arguments: [gustavo]) }!
        let page = try dani.get("/clients/\(gustavo)/compare?first=\(last)&second=\(newest)")
        let weightRow = try #require(page.text.firstMatch(of: /<th scope="row">Peso<\/th>.*?<\/tr>/)?.0)
        #expect(weightRow.contains("+0,2 kg"))
        #expect(weightRow.contains("sem mudança real"))
    }

    @Test func theTrainerDashboardListsOverdueClients() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let dashboard = try dani.get("/trainer").text
        let reminders = try #require(dashboard.firstMatch(of: /id="reminders-title".*?<\/section>/.dotMatchesNewlines())?.0)
        #expect(reminders.contains("Fernanda Dias"))
        #expect(reminders.contains("Reavaliação atrasada"))
        #expect(!reminders.contains("Gustavo Pereira"))
        let gustavo = try test.id(of: "Gustavo Pereira")
        #expect(try dani.post("/clients/\(gustavo)", [("displayName", "Gustavo Pereira"), ("sex", "male"),
                                                      ("birthDate", "1979-11-11"), ("reevaluationDays", "21")]).status == 303)
        #expect(try dani.get("/trainer").text.contains("Reavaliação prevista para"))
        let refused = try dani.post("/clients/\(gustavo)", [("displayName", "Gustavo Pereira"), ("reevaluationDays", "3")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("entre 7 e 730"))
    }

    @Test func aClientWithoutBirthDateCannotBeCalculatedAndIsToldWhy() async throws {
        let test = try await TestApp()
        let dani = try test.browser(loggedInAs: "dani")
        let created = try dani.post("/clients", [("displayName", "Hugo Lima"), ("sex", "male")])
        let location = try #require(created.header("Location"))
        #expect(try dani.get(location + "/evaluations/new").text.contains("precisa de sexo e data de nascimento"))
        let refused = try dani.post(location + "/evaluations", Self.fullEvaluation)
        #expect(refused.status == 422)
    }

    @Test func reevaluationIsDueTwoWeeksBeforeAndOverdueAfter() {
        #expect(Reevaluation.status(lastTakenOn: nil, intervalDays: 90, today: "2026-11-21").status == .never)
        #expect(Reevaluation.status(lastTakenOn: "2026-10-01", intervalDays: 90, today: "2026-11-21") == (.upToDate, "2026-12-30"))
        #expect(Reevaluation.status(lastTakenOn: "2026-09-01", intervalDays: 90, today: "2026-11-21") == (.due, "2026-11-30"))
        #expect(Reevaluation.status(lastTakenOn: "2026-08-01", intervalDays: 90, today: "2026-11-21") == (.overdue, "2026-10-30"))
        #expect(Reevaluation.status(lastTakenOn: "2026-08-23", intervalDays: 90, today: "2026-11-21").status == .due, "due today")
    }

    @Test func chartsEscapeTheirTextAndDrawOnePointPerValue() {
        let chart = LineChart(title: "Peso <b>", unit: "kg", labels: ["01/01", "02/02", "03/03"],
                              series: [.init(name: "A&B", values: [80, nil, 78.5], colour: "#000")], format: { String($0) })
        let svg = chart.svg
        #expect(svg.contains("Peso &lt;b&gt;"))
        #expect(!svg.contains("<b>"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 2)
        #expect(svg.contains("A&amp;B"))
        #expect(!svg.contains("style="), "the CSP forbids inline styles")
    }

    @Test func aChartOfCountsNeverShowsANegativeAxis() {
        let counts = LineChart(title: "Toques", unit: "toques", labels: ["a", "b", "c"],
                               series: [.init(name: "n", values: [0, 3, 10], colour: "#000")], format: { String($0) }).svg
        #expect(!counts.contains(">-"), "no label below zero: \(counts)")
        #expect(counts.contains(">0.0</text>"), "the axis starts at zero")
        let below = LineChart(title: "Saldo", unit: "kg", labels: ["a", "b"],
                              series: [.init(name: "n", values: [-2, 3], colour: "#000")], format: { String($0) }).svg
        #expect(below.contains(">-"), "negative values keep their room")
    }
}
