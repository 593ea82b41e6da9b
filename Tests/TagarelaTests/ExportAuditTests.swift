import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Every file or printed page of health data leaves one `export` row in the audit log, naming the
/// patient, written in the request's one database access.
@Suite struct ExportAuditTests {
    struct Export: Equatable {
        let actorName: String
        let patientId: Int64?
        let summary: String
    }

    func exports(_ test: TestApp) throws -> [Export] {
        try test.read { db in
            try Row.fetchAll(db, sql: "SELECT actorName, entityId, summary FROM auditEntry WHERE action = 'export' AND entity = 'patient' ORDER BY id")
                .map { Export(actorName: $0["actorName"], patientId: $0["entityId"], summary: $0["summary"]) }
        }
    }

    func boardPlan(of patient: Int64, _ test: TestApp) throws -> Int64 {
        try #require(try test.read {
            try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'board' ORDER BY id", arguments: [patient])
        })
    }

    @Test func eachExportWritesExactlyOneAuditRowNamingWhatAndWhichPatient() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let plan = try boardPlan(of: carla, test)
        let cases: [(path: String, type: String?, summary: String)] = [
            ("/patients/\(carla)/usage.csv?from=2026-10-01&to=2026-11-20", "text/csv", "usage.csv 2026-10-01…2026-11-20"),
            ("/patients/\(carla)/usage.obl?from=2026-10-01&to=2026-11-20", "application/json", "usage.obl 2026-10-01…2026-11-20"),
            ("/plans/\(plan)/export.obz", "application/zip", ".obz"),
            ("/plans/\(plan)/export.obf", "application/json", ".obf"),
            ("/plans/\(plan)/print", "text/html", "print plan \(plan)"),
            ("/patients/\(carla)/observations/print", "text/html", "print observations"),
        ]
        for (index, export) in cases.enumerated() {
            let response = try ana.get(export.path)
            #expect(response.status == 200, "\(export.path)")
            #expect(response.header("Content-Type")?.hasPrefix(export.type ?? "") == true, "\(export.path)")
            let rows = try exports(test)
            #expect(rows.count == index + 1, "\(export.path): exactly one row")
            #expect(rows.last?.patientId == carla && rows.last?.actorName == "Ana Souza", "\(export.path)")
            #expect(rows.last?.summary.contains(export.summary) == true, "\(export.path): \(rows.last?.summary ?? "")")
        }
        // Viewing is not exporting.
        try ana.get("/patients/\(carla)/observations")
        try ana.get("/patients/\(carla)/usage")
        #expect(try exports(test).count == cases.count)
    }

    @Test func aTutorsPrintsAreAuditedUnderTheirNameAndShowOnlyTheirNotes() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.id(of: "Carla Costa")
        try bruno.get("/patients/\(carla)/observations")
        #expect(try bruno.post("/patients/\(carla)/observations", [("observedOn", "2026-11-01"), ("body", "Pediu água sozinha")]).status == 303)
        let page = try bruno.get("/patients/\(carla)/observations/print")
        #expect(page.status == 200)
        #expect(page.text.contains("Pediu água sozinha"))
        #expect(try bruno.get("/patients/\(carla)/observations").text.contains("/patients/\(carla)/observations/print"))
        let privateNotes = try test.read {
            try String.fetchAll($0, sql: "SELECT body FROM observation WHERE patientId = ? AND isPrivate = 1", arguments: [carla])
        }
        for note in privateNotes { #expect(!page.text.contains(note), "a clinician's private note is not printed for a tutor") }
        #expect(try exports(test).map(\.actorName) == ["Bruno Costa"])
    }

    @Test func aRefusedExportWritesNothing() async throws {
        let test = try await TestApp()
        let davi = try test.id(of: "Davi Alves")
        let plan = try boardPlan(of: davi, test)
        let nadia = try test.browser(loggedInAs: "nadia")
        let before = try test.snapshot()
        for path in ["/patients/\(davi)/usage.csv", "/patients/\(davi)/usage.obl", "/plans/\(plan)/export.obz",
                     "/plans/\(plan)/export.obf", "/plans/\(plan)/print", "/patients/\(davi)/observations/print",
                     "/patients/999999/usage.csv", "/plans/999999/print", "/patients/abc/observations/print"] {
            #expect(try nadia.get(path).status == 403, "\(path)")  // a nutritionist: these are speech therapy's
        }
        #expect(try test.browser().get("/patients/\(davi)/usage.csv").status == 303, "anonymous: to the login")
        #expect(try test.snapshot() == before)
        #expect(try exports(test).isEmpty)
    }
}
