import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// A Spanish board named or drawn on a Portuguese page carries `lang="es"`, so a screen reader reads it with
/// a Spanish voice (issue 53 item 7). The language is the one the boards speak (their words' voice), not the
/// child's screen: Carla's screen is Catalan, her boards Portuguese.
@Suite struct WordsLanguageTests {
    @Test func davisSpanishBoardsAreMarkedOnAnasPortuguesePages() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves"), carla = try test.id(of: "Carla Costa")
        let board = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND name = 'Mi día'", arguments: [davi])! }
        let sentences = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [davi])! }
        #expect(try ana.get("/patients/\(davi)/plans").text.contains(#"<strong lang="es">Mi día</strong>"#))
        let editor = try ana.get("/plans/\(board)/edit").text
        #expect(editor.contains(#"<span lang="es">Mi día</span>"#))
        #expect(editor.contains(#"class="board editor-board cols-5" role="group" aria-label="Mi día" lang="es""#))
        #expect(try ana.get("/plans/\(board)/print").text.contains(#"id="sheet-\#(board)" lang="es">Mi día"#))
        #expect(try ana.get("/patients/\(davi)/book").text.contains(#"<li><span lang="es">Mi día</span>"#))
        #expect(try ana.get("/patients/\(davi)/usage").text.contains(#"<td lang="es">Mi día</td>"#))
        #expect(try ana.get("/plans/\(sentences)/edit").text.contains(#"<span lang="es">quiero</span>"#))

        // Carla's boards speak the page's Portuguese: nothing to mark, though her own screen is Catalan.
        let carlas = try ana.get("/patients/\(carla)/plans").text
        #expect(carlas.contains("<strong>Meu dia</strong>"))
        #expect(!carlas.contains(#"lang="ca""#))
    }
}
