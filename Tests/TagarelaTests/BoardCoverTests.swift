import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Each board has its own picture on the child's tiles (issue 53 item 5): chosen from its cells in the
/// editor, the first picture until then, and never a picture that has left the board.
@Suite struct BoardCoverTests {
    func plan(_ test: TestApp, patient: String, named name: String) throws -> Plan {
        let id = try test.id(of: patient)
        return try test.read { try Plan.filter(Column("patientId") == id && Column("name") == name).fetchOne($0)! }
    }

    /// The picture of each tile on `/play` (and on the child's home), by the board's name.
    func tilePictures(_ page: String) -> [String: String] {
        let tiles = page.matches(of: #/<a class="(?:home-)?tile" href="[^"]+">(?:<img src="([^"]+)"[^>]*>)?<span class="(?:home-)?tile-label">([^<]+)</span>/#)
        return Dictionary(tiles.map { (String($0.output.2), String($0.output.1 ?? "")) }, uniquingKeysWith: { first, _ in first })
    }

    func imageURL(_ test: TestApp, symbol: Int64) throws -> String {
        try test.read { try Symbol.fetchOne($0, key: symbol)!.imageURL ?? "" }
    }

    @Test func theDemoBoardsShowDifferentPictures() async throws {
        let test = try await TestApp()
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [])
        for path in ["/play", "/patient"] {
            let pictures = tilePictures(try bruno.get(path).text)
            let shown = ["Palavras principais", "Meu dia", "Frases"].compactMap { pictures[$0] }
            #expect(shown.count == 3, "\(path): \(pictures)")
            #expect(Set(shown).count == 3, "\(path): each board its own picture, \(pictures)")
            #expect(!shown.contains(""), "\(path)")
        }
    }

    @Test func theClinicianChoosesACellsPictureAndTheTileFollowsTheBoard() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana"), bruno = try test.browser(loggedInAs: "bruno")
        let board = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let cells = try test.read { try PlanCell.filter(Column("planId") == board.id!).order(Column("position")).fetchAll($0) }
        let first = cells[0].symbolId!, fourth = cells[3].symbolId!
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode", [])
        #expect(tilePictures(try bruno.get("/play").text)["Palavras principais"] == (try imageURL(test, symbol: first)))

        let editor = try ana.get("/plans/\(board.id!)/edit?cell=3").text
        #expect(editor.contains(#"name="cover" value="1""#))
        #expect(try ana.post("/plans/\(board.id!)/cells/3", [("cover", "1")]).header("Location") == "/plans/\(board.id!)/edit?cell=3")
        #expect(tilePictures(try bruno.get("/play").text)["Palavras principais"] == (try imageURL(test, symbol: fourth)))
        #expect(tilePictures(try bruno.get("/patient").text)["Palavras principais"] == (try imageURL(test, symbol: fourth)))
        let chosen = try ana.get("/plans/\(board.id!)/edit?cell=3").text
        #expect(!chosen.contains(#"name="cover" value="1""#), "already the board's picture")
        #expect(chosen.contains("Esta figura representa a prancha"))

        // The picture leaves the board: the tile goes back to the first picture, never to a word not on it.
        #expect(try ana.post("/plans/\(board.id!)/cells/3", [("clear", "1")]).status == 303)
        #expect(tilePictures(try bruno.get("/play").text)["Palavras principais"] == (try imageURL(test, symbol: first)))
        let audit = try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE entityId = ? AND entity = 'plan'", arguments: [board.id!]) }
        #expect(audit.contains("cover cell 3"))
    }

    @Test func anEmptyCellOrAnotherPersonCannotChooseTheCover() async throws {
        let test = try await TestApp()
        let board = try plan(test, patient: "Carla Costa", named: "Meu dia")
        let ana = try test.browser(loggedInAs: "ana"), bruno = try test.browser(loggedInAs: "bruno"), elisa = try test.browser(loggedInAs: "elisa")
        let before = try test.snapshot()
        #expect(try ana.post("/plans/\(board.id!)/cells/19", [("cover", "1")]).status == 400, "a folder cell has no picture")
        #expect(try ana.post("/plans/\(board.id!)/cells/99", [("cover", "1")]).status == 404)
        #expect(try bruno.post("/plans/\(board.id!)/cells/0", [("cover", "1")]).status == 403)
        #expect(try elisa.post("/plans/\(board.id!)/cells/0", [("cover", "1")]).status == 403)
        #expect(try test.snapshot() == before)
    }

    /// A sentence plan has no cells: its cover is one of its words' pictures, chosen in its editor.
    @Test func theClinicianChoosesASentenceWordsPictureAndOnlySheMay() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana"), bruno = try test.browser(loggedInAs: "bruno")
        let carla = try test.id(of: "Carla Costa")
        let sentences = try plan(test, patient: "Carla Costa", named: "Frases")
        let words = try test.read { try Row.fetchAll($0, sql: "SELECT id, symbolId FROM sentenceWord WHERE planId = ? ORDER BY id",
                                                     arguments: [sentences.id!]) }
        let chosen = words.first { ($0["symbolId"] as Int64) != sentences.coverSymbolId }!
        let (wordId, symbolId): (Int64, Int64) = (chosen["id"], chosen["symbolId"])
        _ = try bruno.post("/patients/\(carla)/patient-mode", [])
        #expect(tilePictures(try bruno.get("/play").text)["Frases"] != (try imageURL(test, symbol: symbolId)))

        let editor = try ana.get("/plans/\(sentences.id!)/edit").text
        #expect(editor.contains(#"action="/plans/\#(sentences.id!)/words/\#(wordId)/cover""#))
        let saved = try ana.post("/plans/\(sentences.id!)/words/\(wordId)/cover", [])
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/plans/\(sentences.id!)/edit#word-\(wordId)")
        #expect(tilePictures(try bruno.get("/play").text)["Frases"] == (try imageURL(test, symbol: symbolId)))
        let after = try ana.get("/plans/\(sentences.id!)/edit").text
        #expect(!after.contains(#"action="/plans/\#(sentences.id!)/words/\#(wordId)/cover""#), "already the plan's picture")
        #expect(after.contains("Figura das frases no início da criança."))
        let audit = try test.read { try String.fetchAll($0, sql: "SELECT summary FROM auditEntry WHERE entityId = ? AND entity = 'plan'",
                                                        arguments: [sentences.id!]) }
        #expect(audit.contains("cover word \(wordId)"))

        // A tutor may not; a word of another plan is not this plan's; nothing changes.
        let board = try plan(test, patient: "Carla Costa", named: "Palavras principais")
        let other = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM sentenceWord WHERE planId <> ? LIMIT 1", arguments: [sentences.id!]) }
        #expect(try bruno.post("/plans/\(sentences.id!)/words/\(wordId)/cover", []).status == 403)
        if let other { #expect(try ana.post("/plans/\(sentences.id!)/words/\(other)/cover", []).status == 404) }
        #expect(try ana.post("/plans/\(board.id!)/words/\(wordId)/cover", []).status == 404, "a board is not a sentence plan")
        #expect(try plan(test, patient: "Carla Costa", named: "Frases").coverSymbolId == symbolId)
    }
}
