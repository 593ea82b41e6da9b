import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The player's and the usage pages' store functions against the demo clinic's real database, and the
/// database accesses the tap route makes (issue 21).
@Suite struct PlayerStoreTests {
    func actor(_ test: TestApp, _ name: String, supervisedBy tutor: String? = nil) throws -> Actor {
        let id = try test.id(of: name), supervisor = try tutor.map { try test.id(of: $0) }
        return Actor(user: try test.read { try User.find(id, $0)! }, supervisorId: supervisor)
    }

    func board(_ test: TestApp, of patient: String, named name: String) throws -> (plan: Int64, symbols: [Int64]) {
        let id = try test.id(of: patient)
        return try test.read { db in
            let plan = try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND name = ?", arguments: [id, name])!
            return (plan, try Int64.fetchAll(db, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL ORDER BY position",
                                             arguments: [plan]))
        }
    }

    func audited(_ test: TestApp, _ summary: String) throws -> [Row] {
        try test.read { try Row.fetchAll($0, sql: "SELECT * FROM auditEntry WHERE summary LIKE ?", arguments: ["%\(summary)%"]) }
    }

    @Test func aTapIsStoredOnceAndOnlyOnThePatientsOwnBoard() async throws {
        let test = try await TestApp()
        let carla = try actor(test, "Carla Costa", supervisedBy: "bruno")
        let (plan, symbols) = try board(test, of: "Carla Costa", named: "Meu dia")
        let at = test.clock.now
        for _ in 1...2 {
            try test.write { try Taps.record(symbolId: symbols[0], key: "store-tap-0001", planId: plan, at: at, receivedAt: at, actor: carla, $0) }
        }
        let stored = try test.read { try Row.fetchAll($0, sql: "SELECT * FROM tap WHERE key = 'store-tap-0001'") }
        #expect(stored.count == 1, "the same key twice is one tap")
        #expect(stored.first?["symbolId"] == symbols[0] && stored.first?["planId"] == plan)
        #expect(stored.first?["assistedBy"] == (try test.id(of: "bruno")), "patient mode logs the tutor who helps")

        let notOnBoard = try test.read { try Int64.fetchOne($0, sql: "SELECT max(id) + 1 FROM symbol")! }
        let davi = try test.id(of: "Davi Alves")
        let davisBoard = try test.read { try Int64.fetchOne($0, sql: "SELECT id FROM plan WHERE patientId = ?", arguments: [davi])! }
        let before = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tap")! }
        #expect(throws: AppError.notFound) {
            try test.write { try Taps.record(symbolId: notOnBoard, key: "store-tap-0002", planId: plan, at: at, receivedAt: at, actor: carla, $0) }
        }
        #expect(throws: AppError.notFound) {
            try test.write { try Taps.record(symbolId: symbols[0], key: "store-tap-0003", planId: davisBoard, at: at, receivedAt: at, actor: carla, $0) }
        }
        #expect(throws: AppError.notFound, "a strip sentence with a symbol from no board of hers") {
            try test.write { try Taps.recordStrip(symbolIds: [symbols[0], notOnBoard], key: "store-strip-0001", planId: plan, at: at, actor: carla, $0) }
        }
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tap")! } == before)
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentence WHERE key = 'store-strip-0001'")! } == 0)
    }

    @Test func aSentencePlansSentenceIsLoggedAndItsClipKeptOnce() async throws {
        let test = try await TestApp()
        let carla = try actor(test, "Carla Costa")
        let carlaId = carla.userId
        let (plan, words) = try test.read { db -> (Int64, [Int64]) in
            let plan = try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [carlaId])!
            let ids = try ["eu", "quero", "brincar"].map { name in
                try Int64.fetchOne(db, sql: """
                    SELECT sentenceWord.id FROM sentenceWord JOIN symbol ON symbol.id = sentenceWord.symbolId
                    WHERE sentenceWord.planId = ? AND symbol.name = ?
                    """, arguments: [plan, name])!
            }
            return (plan, ids)
        }
        let spoken = try test.write {
            try Taps.recordSentence(wordIds: words, negated: false, question: true, key: "store-sentence-01", planId: plan,
                                    at: test.clock.now, actor: carla, fallback: .ptBR, $0)
        }
        #expect(spoken.text == "Eu quero brincar?" && spoken.wordIds == words.map(String.init).joined(separator: ","))
        #expect(try test.write { try Taps.keepClip("clip-a.mp3", for: spoken, $0) }, "a clip newly known")
        #expect(try !test.write { try Taps.keepClip("clip-b.mp3", for: spoken, $0) }, "kept once: the first clip stays")
        #expect(try test.read { try String.fetchOne($0, sql: "SELECT clip FROM sentence WHERE key = 'store-sentence-01'") } == "clip-a.mp3")
        #expect(throws: AppError.badRequest, "links the plan does not allow") {
            try test.write {
                try Taps.recordSentence(wordIds: words.reversed(), negated: false, question: false, key: "store-sentence-02", planId: plan,
                                        at: test.clock.now, actor: carla, fallback: .ptBR, $0)
            }
        }
    }

    @Test func aNoteIsAuditedAndReadOnlyByThoseItIsFor() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let ana = try actor(test, "ana"), bruno = try actor(test, "bruno")
        let audit = AuditContext(actorId: bruno.userId, actorName: bruno.displayName, clientAddress: "", now: test.clock.now)
        let note = try test.write {
            try Observations.add(patientId: carla, by: bruno, observedOn: "2026-11-20", body: "Pediu água sozinha", audit: audit, $0)
        }
        #expect(note.isPrivate == false && note.authorRole == "tutor")
        #expect(try test.read { try Observation.fetchOne($0, key: note.id) }?.body == "Pediu água sozinha")
        let createdEntry = try test.read {
            try Row.fetchOne($0, sql: "SELECT * FROM auditEntry WHERE entity = 'observation' AND entityId = ?", arguments: [note.id])
        }
        #expect(createdEntry?["action"] == "create" && createdEntry?["actorId"] == bruno.userId)

        let clinicians = try test.write {
            try Observations.add(patientId: carla, by: ana, observedOn: "2026-11-21", body: "Nota clínica", audit: audit, $0)
        }
        #expect(clinicians.isPrivate)
        let seenByBruno = try test.read { try Observations.visible(patientId: carla, to: bruno, $0) }.notes.map(\.body)
        let seenByAna = try test.read { try Observations.visible(patientId: carla, to: ana, $0) }.notes.map(\.body)
        #expect(seenByBruno.contains("Pediu água sozinha") && !seenByBruno.contains("Nota clínica"), "a tutor reads their own notes")
        #expect(seenByAna.contains("Pediu água sozinha") && seenByAna.contains("Nota clínica"))

        let beatriz = try actor(test, "beatriz")
        let before = try test.read { try Observation.fetchCount($0) }
        #expect(throws: AppError.notFound) {
            try test.write { try Observations.add(patientId: carla, by: beatriz, observedOn: "2026-11-21", body: "x", audit: audit, $0) }
        }
        #expect(try test.read { try Observation.fetchCount($0) } == before)

        _ = try test.write { try Observations.printed(patientId: carla, for: ana, audit: audit, $0) }
        #expect(try audited(test, "print observations (").count == 1, "printing is an audited export")
    }

    @Test func theUsageExportsAreAuditedWithTheirPeriod() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), ana = try actor(test, "ana")
        let audit = AuditContext(actorId: ana.userId, actorName: ana.displayName, clientAddress: "", now: test.clock.now)
        let context = RequestContext(request: Request(method: .get, path: "/"), app: test.app, signedIn: nil, actor: nil,
                                     locale: .ptBR, csrf: CSRFToken(existing: "token"), cacheGeneration: 0)
        let filter = UsageRoutes.Filter(Parameters([("from", "2026-01-01"), ("to", "2026-12-31")]), context: context)
        let taps = try test.write {
            try UsageQueries.exportTaps(patientId: carla, visibleTo: ana, filter, timeZone: test.app.configuration.timeZone, audit: audit, $0)
        }
        #expect(try audited(test, "usage.csv 2026-01-01…2026-12-31").count == 1)
        let all = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tap WHERE patientId = ?", arguments: [carla])! }
        #expect(taps.count == all, "the demo's taps all fall in 2026")
        let log = try test.write {
            try OBFQueries.usageLog(patientId: carla, visibleTo: ana, filter, timeZone: test.app.configuration.timeZone, audit: audit, $0)
        }
        #expect(log.taps.count == all && log.patientId == carla)
        #expect(log.locale == (try test.read { try User.find(carla, $0)?.appLocale }))
        #expect(try audited(test, "usage.obl 2026-01-01…2026-12-31").count == 1)
        let (plan, _) = try board(test, of: "Carla Costa", named: "Meu dia")
        let source = try test.write {
            try OBFQueries.exportSource(planId: plan, editableBy: ana, followLinks: false, as: "obf", audit: audit, $0)
        }
        #expect(source.screens.count == 1)
        #expect(try audited(test, "'Meu dia' .obf, 1 board(s)").count == 1)
    }

    @Test func aBoardTapMakesOneDatabaseAccessAndASentenceKeepsItsClipAfter() async throws {
        let test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        let (plan, symbols) = try board(test, of: "Carla Costa", named: "Meu dia")
        let tapped = try tablet.client.postForm("/taps", [("key", "access-tap-0001"), ("symbol", "\(symbols[0])"), ("plan", "\(plan)")],
                                                headers: tablet.cookieHeader + [("X-CSRF-Token", tablet.csrf)])
        #expect(tapped.status == 204)
        #expect(tapped.header("X-Tagarela-DB-Accesses") == "1")
        let carla = try test.id(of: "Carla Costa")
        let (sentencePlan, words) = try test.read { db -> (Int64, String) in
            let plan = try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [carla])!
            let ids = try ["eu", "quero"].map { name in
                try Int64.fetchOne(db, sql: """
                    SELECT sentenceWord.id FROM sentenceWord JOIN symbol ON symbol.id = sentenceWord.symbolId
                    WHERE sentenceWord.planId = ? AND symbol.name = ?
                    """, arguments: [plan, name])!
            }
            return (plan, ids.map(String.init).joined(separator: ","))
        }
        let said = try tablet.client.postForm("/taps", [("key", "access-sentence-01"), ("plan", "\(sentencePlan)"), ("words", words)],
                                              headers: tablet.cookieHeader + [("X-CSRF-Token", tablet.csrf)])
        #expect(said.status == 200 && said.text.contains("/media/audio/"))
        // Logged, then the clip made on the media pool and kept by a second write, never nested. (The
        // header is set when the request leaves for the pool, so it counts the first write only.)
        #expect(said.header("X-Tagarela-DB-Nested") == "0")
        let kept = try test.read { try String.fetchOne($0, sql: "SELECT clip FROM sentence WHERE key = 'access-sentence-01'") }
        #expect(kept.map { said.text.contains($0) } == true, "the second write kept the clip it answers")
        let page = try tablet.get("/play/\(plan)")
        #expect(page.status == 200 && page.header("X-Tagarela-DB-Accesses").flatMap(Int.init).map { $0 <= 1 } == true)
    }

    /// Records by a list of ids (one JSON argument) are those `fetchAll(db, keys:)` finds: none for an
    /// empty list, each once when an id repeats, nothing for an id that is gone; and a symbol read by
    /// column (`Symbol.init(row:)`) writes back exactly the row it was read from.
    @Test func recordsByAListOfIdsAreThoseOfTheirKeys() async throws {
        let test = try await TestApp()
        try test.read { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM symbol ORDER BY id LIMIT 3")
            #expect(ids.count == 3)
            #expect(try Symbol.fetchAll(db, ids: [Int64]()).isEmpty)
            let asked = ids + [ids[0], 987_654]
            let found = try Symbol.fetchAll(db, ids: asked).sorted { $0.id! < $1.id! }
            let expected = try Symbol.fetchAll(db, keys: asked).sorted { $0.id! < $1.id! }
            #expect(found.map(\.id) == ids)
            #expect(expected.map(\.id) == ids)
            for symbol in found {
                let stored = try Row.fetchOne(db, sql: "SELECT * FROM symbol WHERE id = ?", arguments: [symbol.id])!
                #expect(try symbol.databaseDictionary == Dictionary(stored.map { ($0, $1) }, uniquingKeysWith: { first, _ in first }))
            }
            #expect(try Plan.fetchAll(db, ids: [987_654]).isEmpty)
        }
    }

    /// The list of boards shows each plan's first picture, read in one statement: what the whole board
    /// (`BoardScreen`, `SentenceGrammar`) would show first, also when its first cells are empty, a cell
    /// lies outside the grid, a sentence's first word is gone, or the board has no picture at all.
    @Test func eachBoardOfTheListShowsItsFirstPicture() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        // The pictures the clinician chose stand first (BoardCoverTests); without them, the first picture.
        try test.write { try $0.execute(sql: "UPDATE plan SET coverSymbolId = NULL WHERE patientId = ?", arguments: [carla]) }
        func expected() throws -> [Int64: String?] {
            try test.read { db in
                let plans = try Plan.filter(Column("patientId") == carla).filter(sql: OBFSets.listedToChild).fetchAll(db)
                return Dictionary(uniqueKeysWithValues: try plans.map { plan in
                    let first = plan.planType == .sentence
                        ? try SentenceGrammar.fetch(planId: plan.id!, db).words.first?.symbol
                        : try BoardScreen.fetch(plan, db).cells.first { $0.symbol != nil }?.symbol
                    return (plan.id!, first?.imageURL)
                })
            }
        }
        func listed() throws -> [Int64: String?] {
            Dictionary(uniqueKeysWithValues: try test.read { try PlayerQueries.boards(patientId: carla, $0) }.map { ($0.planId, $0.imageURL) })
        }
        let before = try listed()
        #expect(before.count >= 3 && before.values.allSatisfy { $0 != nil }, "every demo plan of Carla's has a picture")
        #expect(try before == expected())

        let (board, sentence) = try test.read { db in
            (try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND name = 'Meu dia'", arguments: [carla])!,
             try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? AND type = 'sentence'", arguments: [carla])!)
        }
        try test.write { db in
            // The first two cells emptied, the sentence's first word's symbol deleted.
            try db.execute(sql: "UPDATE planCell SET symbolId = NULL WHERE planId = ? AND position IN (0, 1)", arguments: [board])
            let firstWord = try Int64.fetchOne(db, sql: "SELECT symbolId FROM sentenceWord WHERE planId = ? ORDER BY id LIMIT 1", arguments: [sentence])!
            try db.execute(sql: "DELETE FROM symbol WHERE id = ?", arguments: [firstWord])
        }
        let after = try listed()
        #expect(after[board] != before[board] && after[sentence] != before[sentence], "the next picture stands for them")
        #expect(try after == expected())

        try test.write { db in
            // Only a cell beyond the grid keeps a symbol (left from a larger size): the board shows no picture.
            let kept = try Int64.fetchOne(db, sql: "SELECT symbolId FROM planCell WHERE planId = ? AND symbolId IS NOT NULL LIMIT 1", arguments: [board])!
            try db.execute(sql: "UPDATE planCell SET symbolId = NULL WHERE planId = ?", arguments: [board])
            try db.execute(sql: "INSERT OR REPLACE INTO planCell (planId, position, symbolId) VALUES (?, 47, ?)", arguments: [board, kept])
        }
        #expect(try listed()[board] == .some(nil))
        #expect(try listed() == expected())
    }
}
