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
        let sentenceEditor = try ana.get("/plans/\(sentences)/edit").text
        #expect(sentenceEditor.contains(#"<span lang="es">quiero</span>"#))
        // The legend is Portuguese around the Spanish word it quotes.
        #expect(sentenceEditor.contains(#"<legend>Verbos depois de «<span lang="es">"#), "\(sentenceEditor.components(separatedBy: "<legend>").dropFirst().first?.prefix(120) ?? "no legend")")
        #expect(try ana.get("/patients/\(davi)/usage").text.contains(#"lang="es">Mi día</option>"#))
        let overview = try ana.get("/patients/\(davi)").text
        let newWords = overview.components(separatedBy: #"class="word-list""#).dropFirst().first ?? ""
        #expect(newWords.contains(#"<li><span lang="es">"#), "the new words of Davi's boards are Spanish")
        #expect(try ana.get("/patients/\(davi)/report").text.contains(#"<li><span lang="es">"#), "and so in the report for the family")

        // Carla's boards speak the page's Portuguese: nothing to mark, though her own screen is Catalan.
        let carlas = try ana.get("/patients/\(carla)/plans").text
        #expect(carlas.contains("<strong>Meu dia</strong>"))
        #expect(!carlas.contains(#"lang="ca""#))
        let carlasWords = (try ana.get("/patients/\(carla)").text).components(separatedBy: #"class="word-list""#).dropFirst().first ?? ""
        #expect(carlasWords.contains("<li><span>"), "her new words carry no lang of their own")
        #expect(!carlasWords.prefix(2_000).contains("lang="))
        #expect(!(try ana.get("/patients/\(carla)/usage").text).contains(#"<option value="1"  lang"#))
    }
}
