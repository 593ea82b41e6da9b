import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The audit log speaks the administrator's language (issue 53 item 7): what an entry is about is named in
/// it, with the person's or the board's name instead of "patient #8".
@Suite struct AuditPageTests {
    @Test func everyRecordCallNamesAnEntityThePageCanName() throws {
        let sources = FileManager.default.enumerator(atPath: TestApp.repositoryRoot + "/Sources/Tagarela")!
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var named = Set<String>()
        for file in sources {
            let text = try String(contentsOfFile: TestApp.repositoryRoot + "/Sources/Tagarela/" + file, encoding: .utf8)
            for match in text.matches(of: #/audit\.record\([^,]+,\s*"([A-Za-z]+)"/#) { named.insert(String(match.output.1)) }
        }
        #expect(named.count >= 20, "the pattern still finds the calls")
        #expect(named.subtracting(AuditEntry.entities).isEmpty, "add to AuditEntry.entities and audit_entity_*: \(named.subtracting(AuditEntry.entities))")
        let catalogues = try Catalogues(directory: TestApp.repositoryRoot + "/Templates/i18n")
        for locale in AppLocale.allCases {
            let t = catalogues.translator(for: locale)
            for entity in AuditEntry.entities { #expect(!t["audit_entity_\(entity)"].hasPrefix("⟦"), "\(locale) \(entity)") }
        }
    }

    @Test func theLogNamesPeopleAndBoardsInTheReadersLanguage() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let board = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND name = 'Mi día'", arguments: [davi])! }
        #expect(try ana.get("/plans/\(board)/print").status == 200)
        #expect(try ana.post("/plans/\(board)/cells/1", [("cover", "1")]).status == 303)
        let admin = try test.browser(loggedInAs: "admin")
        let log = try admin.get("/admin/audit?action=export").text
        #expect(log.contains("Paciente · Davi Alves"), "not \"patient #\(davi)\"")
        #expect(!log.contains("patient #"))
        let filtered = try admin.get("/admin/audit?entity=plan").text
        #expect(filtered.contains(#"<option value="plan" selected>Prancha</option>"#))
        #expect(filtered.contains("Prancha · Mi día"))
    }
}
