import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The starter core board set (issue 54, item 4): one motor plan in four languages, assigned in one step,
/// personalised as the patient's own copy; the demo's Carla uses it.
@Suite struct StarterSetTests {
    @Test func theSetIsSixtyCellsWithFourFoldersAndEveryWordInFourLanguages() {
        #expect(StarterSet.core.count == StarterSet.rows * StarterSet.columns)
        #expect(StarterSet.core.filter { if case .folder = $0 { true } else { false } }.count == StarterSet.fringe.count)
        #expect(StarterSet.fringe.map(\.key) == ["food", "places", "people", "feelings"])
        for fringe in StarterSet.fringe { #expect(fringe.words.count == fringe.rows * fringe.columns, "\(fringe.key)") }
        for language in AppLocale.allCases {
            for board in [StarterSet.core.compactMap { if case .word(let word) = $0 { word } else { nil } }] + StarterSet.fringe.map(\.words) {
                let labels = board.map { $0.name(language) }
                #expect(labels.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
                #expect(Set(labels).count == labels.count, "a label said twice on one board in \(language): \(labels)")
            }
        }
        // The core board's longest word sets its labels' size: 10 letters at most keep them ≥ 10 px on paper.
        for language in AppLocale.allCases {
            let labels = StarterSet.core.map { cell in
                switch cell {
                case .word(let word): word.name(language)
                case .folder(let index): StarterSet.fringe[index].name(language)
                }
            }
            let longest = labels.flatMap { $0.split(separator: " ") }.map(\.count).max() ?? 0
            #expect(longest <= 10, "\(language): \(labels.filter { $0.split(separator: " ").contains { $0.count > 10 } })")
        }
        // The Universal Core 36, in the order Project Core publishes it, fills the left six columns.
        let universalCore = ["like", "want", "get", "make", "good", "more", "not", "go", "look", "turn", "help", "different",
                             "I", "he", "open", "do", "put", "same", "you", "she", "that", "up", "all", "some",
                             "it", "here", "in", "on", "can", "finished", "where", "what", "why", "who", "when", "stop"]
        let leftBlock = (0..<StarterSet.rows).flatMap { row in (0..<6).map { StarterSet.core[row * StarterSet.columns + $0] } }
        #expect(leftBlock.map { if case .word(let word) = $0 { word.key } else { "folder" } } == universalCore)
    }

    /// Cells of a plan by position: symbol name, category colour, voice, clip, the linked plan's name.
    struct Cell: Equatable {
        let name: String, colour: String, voice: String, audio: String?, link: String?
    }

    func cells(_ test: TestApp, plan: Int64) throws -> [Int: Cell] {
        try test.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT c.position, s.name, k.colour, s.voice, s.audioFile, l.name AS link
                FROM planCell c JOIN symbol s ON s.id = c.symbolId JOIN category k ON k.id = s.categoryId
                LEFT JOIN plan l ON l.id = c.linkPlanId WHERE c.planId = ?
                """, arguments: [plan]).map {
                ($0["position"] as Int, Cell(name: $0["name"], colour: $0["colour"], voice: $0["voice"], audio: $0["audioFile"], link: $0["link"]))
            })
        }
    }

    func newestPlan(_ test: TestApp, named name: String, patient: Int64) throws -> Plan {
        try #require(try test.read {
            try Plan.filter(Column("patientId") == patient && Column("name") == name).order(Column("id").desc).fetchOne($0)
        })
    }

    @Test func eachCoreWordHoldsTheSamePositionInAllFourLanguages() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        var boards: [AppLocale: [Int: Cell]] = [:], cores: [AppLocale: Int64] = [:]
        for language in AppLocale.allCases {
            let response = try ana.post("/patients/\(davi)/boards/starter", [("language", language.rawValue)])
            #expect(response.status == 303, "\(language): \(response.text.prefix(300))")
            let core = try newestPlan(test, named: StarterSet.names[language]!, patient: davi)
            #expect(response.header("Location") == "/plans/\(core.id!)/edit", "the clinician lands on the copy to personalise it")
            #expect(core.rows == 6 && core.columns == 10)
            boards[language] = try cells(test, plan: core.id!)
            cores[language] = core.id!
        }
        for (position, cell) in StarterSet.core.enumerated() {
            switch cell {
            case .word(let word):
                let places = AppLocale.allCases.map { language in
                    boards[language]!.first { $0.value.name == word.name(language) }?.key
                }
                #expect(places.allSatisfy { $0 == position }, "'\(word.key)' at \(places), not all at \(position)")
                for language in AppLocale.allCases {
                    let stored = try #require(boards[language]![position])
                    #expect(stored.colour == word.part.colour.rawValue, "\(word.key) is coloured as a \(word.part)")
                    #expect(stored.voice == language.rawValue)
                    let clip = try #require(stored.audio, "\(word.key) in \(language) has its clip")
                    #expect(FileManager.default.fileExists(atPath: TestApp.repositoryRoot + "/.build/test-data/audio/" + clip))
                }
            case .folder(let index):
                for language in AppLocale.allCases {
                    #expect(boards[language]![position]?.name == StarterSet.fringe[index].name(language), "folder \(index) in \(language)")
                    #expect(boards[language]![position]?.link == "\(StarterSet.names[language]!) · \(StarterSet.fringe[index].name(language))")
                }
            }
        }
        // The fringe boards keep their words in place too, and the child's list shows only the core board.
        for (position, cell) in StarterSet.core.enumerated() {
            guard case .folder(let index) = cell else { continue }
            let fringe = StarterSet.fringe[index]
            for language in AppLocale.allCases {
                let folder = try #require(try test.read {
                    try Int64.fetchOne($0, sql: "SELECT linkPlanId FROM planCell WHERE planId = ? AND position = ?",
                                       arguments: [cores[language], position])
                })
                let board = try cells(test, plan: folder)
                #expect((0..<fringe.words.count).map { board[$0]?.name } == fringe.words.map { $0.name(language) }, "\(fringe.key)")
            }
        }
        let listed = try test.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM plan WHERE patientId = ? AND \(OBFSets.listedToChild)", arguments: [davi])
        }
        #expect(AppLocale.allCases.allSatisfy { listed.contains(StarterSet.names[$0]!) })
        #expect(!listed.contains { $0.contains(" · ") }, "the folders' boards open from the core board: \(listed)")
    }

    @Test func eachWordHasItsFormsWhereTheLanguageAgrees() throws {
        // Verbs conjugate with their subject, descriptors agree in gender, in pt-BR, es and ca.
        for language in [AppLocale.ptBR, .es, .ca] {
            for word in StarterSet.allWords where [.verb, .descriptor].contains(word.part) {
                guard !["like", "finished", "up", "here", "in", "on", "now", "there", "out", "pain", "hot", "cold", "scared"]
                    .contains(word.key) else { continue }
                let forms = WordLexicon.lookup(word.name(language), language: language.rawValue)
                #expect(forms?.wordClass == (word.part == .verb ? .verb : .adjective), "\(word.key) in \(language): \(String(describing: forms))")
            }
            for key in ["I", "you", "he", "she", "we", "they"] {
                let word = try #require(StarterSet.allWords.first { $0.key == key })
                #expect(WordLexicon.lookup(word.name(language), language: language.rawValue)?.wordClass == .pronoun, "\(key) \(language)")
            }
        }
        #expect(Agreement.sentence([(text: "ela", forms: WordLexicon.lookup("ela", language: "pt-BR")),
                                    (text: "querer", forms: WordLexicon.lookup("querer", language: "pt-BR")),
                                    (text: "abrir", forms: WordLexicon.lookup("abrir", language: "pt-BR"))]) == ["ela", "quer", "abrir"])
        #expect(Agreement.sentence([(text: "jo", forms: WordLexicon.lookup("jo", language: "ca")),
                                    (text: "fer", forms: WordLexicon.lookup("fer", language: "ca"))]) == ["jo", "faig"])
    }

    @Test func aCopyIsPersonalisedWithoutTouchingAnotherPatientsCopy() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa"), davi = try test.id(of: "Davi Alves")
        #expect(try ana.post("/patients/\(davi)/boards/starter", [("language", "pt-BR")]).status == 303)
        let carlas = try newestPlan(test, named: "Núcleo 60", patient: carla), davis = try newestPlan(test, named: "Núcleo 60", patient: davi)
        let before = try cells(test, plan: carlas.id!)
        #expect(try ana.post("/plans/\(davis.id!)/cells/0", [("clear", "1")]).status == 303)
        #expect(try ana.post("/plans/\(davis.id!)/cells/1", [("moveTo", "2")]).status == 303)
        let changed = try cells(test, plan: davis.id!)
        #expect(changed[0] == nil && changed[1]?.name == "pegar" && changed[2]?.name == "querer")
        #expect(try cells(test, plan: carlas.id!) == before, "Carla's copy is untouched")
        let shared = try test.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM planCell a JOIN planCell b ON a.symbolId = b.symbolId WHERE a.planId = ? AND b.planId = ?
                """, arguments: [carlas.id, davis.id])
        }
        #expect(shared == 0, "each copy has its own symbols, so renaming or re-recording a word changes one child's board")
    }

    @Test func aDoubleTapGivesOneCopyAndALaterOneAnother() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let plans = { try test.read { try Plan.filter(Column("patientId") == davi).fetchCount($0) } }
        let before = try plans()
        let first = try ana.post("/patients/\(davi)/boards/starter", [("language", "es")])
        let second = try ana.post("/patients/\(davi)/boards/starter", [("language", "es")])
        #expect(first.status == 303 && second.header("Location") == first.header("Location"), "the second tap lands on the first copy")
        #expect(try plans() == before + 5)
        #expect(try ana.post("/patients/\(davi)/boards/starter", [("language", "ca")]).status == 303)
        #expect(try plans() == before + 10, "another language is another copy")
        test.clock.advance(by: 60)
        let later = try ana.post("/patients/\(davi)/boards/starter", [("language", "es")])
        let after = try plans()
        #expect(later.header("Location") != first.header("Location") && after == before + 15, "a copy asked for later is a new one")
    }

    @Test func theDemosCarlaUsesTheSet() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let core = try newestPlan(test, named: "Núcleo 60", patient: carla)
        let board = try cells(test, plan: core.id!)
        #expect(board.count == 60 && board[20]?.name == "eu" && board[9]?.link == "Núcleo 60 · Comida")
        #expect(board.values.allSatisfy { $0.voice == "pt-BR" && $0.audio != nil })
        let page = try test.browser(loggedInAs: "ana").get("/plans/\(core.id!)/edit")
        #expect(page.status == 200 && page.text.contains("gostar"))
    }

    @Test func aLanguageNotOfferedOrAnotherRoleChangesNothing() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let davi = try test.id(of: "Davi Alves")
        let plans = { try test.read { try Plan.fetchCount($0) } }
        let count = try plans()
        let refused = try ana.post("/patients/\(davi)/boards/starter", [("language", "fr")])
        #expect(refused.status == 422 && refused.text.contains("Escolha um dos quatro idiomas"))
        #expect(try ana.post("/patients/\(davi)/boards/starter", [("language", "pt-BR")], csrf: "wrong").status == 403)
        #expect(try test.browser(loggedInAs: "beatriz").post("/patients/\(davi)/boards/starter", [("language", "es")]).status == 403)
        #expect([403, 404].contains(try test.browser(loggedInAs: "nadia").post("/patients/\(davi)/boards/starter", [("language", "es")]).status))
        #expect(try plans() == count)
        let list = try ana.get("/patients/\(davi)/plans")
        #expect(list.text.contains("action=\"/patients/\(davi)/boards/starter\"") && list.text.contains("value=\"ca\""))
    }
}
