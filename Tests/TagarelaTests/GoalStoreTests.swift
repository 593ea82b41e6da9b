import Foundation
import GRDB
@testable import Tagarela
import Testing

/// Goals' store and measures against a real migrated SQLite database with the demo clinic (TestDatabase), without a server: what each change
/// writes (the goal, its history event, the audit row), what it refuses, and what each kind measures.
@Suite struct GoalStoreTests {
    /// 2026-11-18 08:06 in São Paulo, the test clinic's time zone.
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let today = "2026-11-18"

    func actor(_ test: TestDatabase, _ username: String) throws -> Actor {
        try test.read { db in Actor(user: try User.filter(Column("username") == username).fetchOne(db)!) }
    }

    func audit(_ actor: Actor) -> AuditContext {
        AuditContext(actorId: actor.userId, actorName: actor.displayName, clientAddress: "test", now: now)
    }

    func lastAudit(_ db: Database) throws -> AuditEntry? { try AuditEntry.order(Column("id").desc).fetchOne(db) }

    /// A patient with no demo data, so every count is the test's own.
    func newPatient(_ db: Database, _ name: String = "Teste Paciente") throws -> Int64 {
        var user = User(username: nil, displayName: name, role: .patient, specialties: "", createdAt: now, updatedAt: now)
        try user.insert(db)
        try Patient(userId: user.id!, birthDate: "2018-01-01", sex: .female, diagnosis: "").insert(db)
        return user.id!
    }

    func input(_ kind: GoalKind, target: Double = 5, from: String = "2026-11-01", to: String = "2026-11-30") -> GoalInput {
        GoalInput(kind: kind, title: "Meta \(kind.rawValue)", target: target, startsOn: from, endsOn: to)
    }

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    // MARK: Writes

    @Test func aGoalIsCreatedEditedClosedAndReopenedEachWithItsEventAndAuditRow() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        let carla = try test.id(of: "Carla Costa")
        try test.write { db in
            var typed = input(.sentences, target: 4)
            typed.minWords = 3
            let goal = try Goals.create(typed, patientId: carla, by: ana, audit: audit(ana), db)
            #expect(goal.minWords == 3 && goal.direction == "atLeast" && goal.version == 1 && goal.createdBy == ana.userId)
            var entry = try #require(try lastAudit(db))
            #expect(entry.action == "create" && entry.entity == "goal" && entry.entityId == goal.id && entry.actorId == ana.userId)

            typed.target = 6
            typed.reviewOn = "2026-11-25"
            let edited = try Goals.update(goal.id!, patientId: carla, from: 1, to: typed, audit: audit(ana), db)
            #expect(edited.target == 6 && edited.version == 2)
            entry = try #require(try lastAudit(db))
            #expect(entry.action == "update" && entry.summary.contains("target: 4.0 → 6.0") && entry.summary.contains("reviewOn:  → 2026-11-25"))

            try Goals.setClosed(.achieved, goalId: goal.id!, patientId: carla, audit: audit(ana), db)
            try Goals.setClosed(.achieved, goalId: goal.id!, patientId: carla, audit: audit(ana), db)  // a second tab: nothing more
            try Goals.setClosed(nil, goalId: goal.id!, patientId: carla, audit: audit(ana), db)
            let events = try GoalEvent.filter(Column("goalId") == goal.id!).order(Column("id")).fetchAll(db)
            #expect(events.map(\.action) == ["create", "edit", "close", "reopen"])
            let changes = try JSONDecoder().decode([Goals.Change].self, from: Data(events[1].changes.utf8))
            #expect(changes.map(\.field) == ["target", "reviewOn"])
            #expect(try Goal.fetchOne(db, key: goal.id!)?.closedAt == nil)
            #expect(try AuditEntry.filter(Column("entity") == "goal" && Column("entityId") == goal.id!).fetchCount(db) == 4)
        }
    }

    @Test func anEditOnAnOldVersionOrAClosedGoalIsRefusedAndChangesNothing() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        let carla = try test.id(of: "Carla Costa")
        try test.write { db in
            var typed = input(.independentTaps, target: 50)
            let goal = try Goals.create(typed, patientId: carla, by: ana, audit: audit(ana), db)
            typed.target = 60
            try Goals.update(goal.id!, patientId: carla, from: 1, to: typed, audit: audit(ana), db)
            typed.target = 70
            #expect(throws: Goals.Conflict.changed) {
                try Goals.update(goal.id!, patientId: carla, from: 1, to: typed, audit: audit(ana), db)
            }
            try Goals.setClosed(.achieved, goalId: goal.id!, patientId: carla, audit: audit(ana), db)
            #expect(throws: Goals.Conflict.closed) {
                try Goals.update(goal.id!, patientId: carla, from: 3, to: typed, audit: audit(ana), db)
            }
            #expect(try Goal.fetchOne(db, key: goal.id!)?.target == 60)
            // Another patient's id with this goal: not found.
            let davi = try test.id(of: "Davi Alves")
            #expect(throws: AppError.self) { try Goals.setClosed(nil, goalId: goal.id!, patientId: davi, audit: audit(ana), db) }
        }
    }

    @Test func notesAreAuditedAndAClinicianSIsPrivate() async throws {
        let test = try await TestDatabase()
        let (ana, bruno) = (try actor(test, "ana"), try actor(test, "bruno"))
        let carla = try test.id(of: "Carla Costa")
        let goalId = try test.write { db -> Int64 in
            let goal = try Goals.create(input(.adherence, target: 80), patientId: carla, by: ana, audit: audit(ana), db)
            let shared = try Goals.addNote(goalId: goal.id!, body: "Comeu tudo na escola", by: bruno, audit: audit(bruno), db)
            let own = try Goals.addNote(goalId: goal.id!, body: "Rever porções", by: ana, audit: audit(ana), db)
            #expect(!shared.isPrivate && shared.authorRole == "tutor")
            #expect(own.isPrivate && own.authorRole == "clinician")
            #expect(try lastAudit(db)?.entity == "goalNote")
            return goal.id!
        }
        let tutorView = try test.read { try GoalQueries.detail(goalId: goalId, patientId: carla, visibleTo: bruno, today: today, timeZone: test.configuration.timeZone, $0) }
        #expect(tutorView.notes.map(\.body) == ["Comeu tudo na escola"], "the clinician's note stays private")
        let clinicianView = try test.read { try GoalQueries.detail(goalId: goalId, patientId: carla, visibleTo: ana, today: today, timeZone: test.configuration.timeZone, $0) }
        #expect(clinicianView.notes.count == 2)
    }

    // MARK: Measures, one kind at a time

    @Test func tapsAreCountedPerClinicDayAtTheBoundariesOfTheWeek() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        try test.write { db in
            let patient = try newPatient(db)
            let symbol = try #require(try Symbol.fetchOne(db))
            let other = try #require(try Symbol.filter(Column("categoryId") != symbol.categoryId).fetchOne(db))
            var counter = 0
            func tap(_ at: String, _ symbolId: Int64, helper: Int64? = nil) throws {
                counter += 1
                try db.execute(sql: "INSERT INTO tap (key, patientId, symbolId, assistedBy, at, receivedAt) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: ["t\(counter)", patient, symbolId, helper, utc(at), utc(at)])
            }
            // The week of 18 Nov is 12–18 Nov in São Paulo (UTC−3).
            try tap("2026-11-12T03:00:00Z", symbol.id!)           // 12 Nov 00:00 local: first instant of the window
            try tap("2026-11-12T02:59:00Z", symbol.id!)           // 11 Nov 23:59 local: outside
            try tap("2026-11-19T02:30:00Z", symbol.id!)           // 18 Nov 23:30 local: today
            try tap("2026-11-15T12:00:00Z", symbol.id!, helper: ana.userId)
            try tap("2026-11-15T12:00:00Z", other.id!)
            var symbolGoal = input(.symbolTaps, target: 3)
            symbolGoal.symbolId = symbol.id
            var categoryGoal = input(.categoryTaps, target: 3)
            categoryGoal.categoryId = symbol.categoryId
            let alone = input(.independentTaps, target: 50)
            let goals = try [symbolGoal, categoryGoal, alone].map { try Goals.create($0, patientId: patient, by: ana, audit: audit(ana), db) }
            let progress = try #require(try GoalQueries.progress(ofPatients: [patient], today: today, db)[patient])
            #expect(progress.map(\.goalId) == goals.map(\.id!))
            #expect(progress[0].measured == 3 && progress[0].status == .onTrack, "\(progress[0])")
            #expect(progress[1].measured == 3, "the other category's tap is not counted")
            #expect(progress[2].measured == 75 && progress[2].status == .onTrack, "3 of 4 taps alone")
            #expect(progress[0].unitKey == "goal_unit_taps_per_week" && progress[2].unitKey == "goal_unit_percent_alone")
        }
    }

    @Test func sentencesCountOnlyFromTheirLength() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        try test.write { db in
            let patient = try newPatient(db)
            for (index, (words, at)) in [(2, "2026-11-17T15:00:00Z"), (3, "2026-11-16T15:00:00Z"), (4, "2026-11-19T02:00:00Z"),
                                          (5, "2026-11-10T15:00:00Z")].enumerated() {
                try db.execute(sql: """
                    INSERT INTO sentence (key, patientId, symbolIds, text, wordCount, at) VALUES (?, ?, '', 'x', ?, ?)
                    """, arguments: ["s\(index)", patient, words, utc(at)])
            }
            var three = input(.sentences, target: 2)
            three.minWords = 3
            let goal = try Goals.create(three, patientId: patient, by: ana, audit: audit(ana), db)
            let progress = try #require(try GoalQueries.progress(ofPatients: [patient], today: today, db)[patient]?.first)
            #expect(progress.goalId == goal.id && progress.measured == 2 && progress.status == .onTrack)
        }
    }

    /// Sentences a few minutes either side of Tokyo's and São Paulo's midnights: a clinic in Tokyo counts
    /// the one of 23:30 on the 18th and not the one of 00:30 on the 19th; a clinic in São Paulo, where both
    /// were said on the 18th, counts both but not the one of 23:30 on the 11th. The goal's days are the
    /// clinic's, not UTC's.
    @Test func aWeekOfSentencesEndsAtTheClinicsMidnight() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        try test.write { db in
            let patient = try newPatient(db)
            // 23:30 in Tokyo on the 18th (3 words), 00:30 in Tokyo on the 19th (4), 23:30 in São Paulo on the 11th (5).
            for (index, (at, words)) in [("2026-11-18T14:30:00Z", 3), ("2026-11-18T15:30:00Z", 4), ("2026-11-12T02:30:00Z", 5)].enumerated() {
                try db.execute(sql: """
                    INSERT INTO sentence (key, patientId, symbolIds, text, wordCount, at) VALUES (?, ?, '', 'x', ?, ?)
                    """, arguments: ["m\(index)", patient, words, utc(at)])
            }
            var four = input(.sentences, target: 2), five = input(.sentences, target: 2)
            (four.minWords, five.minWords) = (4, 5)
            let goals = try [four, five].map { try Goals.create($0, patientId: patient, by: ana, audit: audit(ana), db) }
            func measured(_ zone: String) throws -> [Double?] {
                let progress = try GoalQueries.measure(goals, today: today, timeZone: TimeZone(identifier: zone)!, db)
                return goals.map { progress[$0.id!]?.measured }
            }
            #expect(try measured("Asia/Tokyo") == [1, 1], "12–18 Nov in Tokyo: the 5-word sentence, not the 4-word one of the 19th")
            #expect(try measured("America/Sao_Paulo") == [1, 0], "12–18 Nov in São Paulo: the 4-word one, not the 5-word one of the 11th")
            #expect(try measured("UTC") == [2, 1], "in UTC both fall on 12–18 Nov")
            // Without a zone, the offset the tap days are counted at (the test clinic's, São Paulo's).
            #expect(goals.map { try? GoalQueries.measure([$0], today: today, db)[$0.id!]?.measured } == [1, 0])
        }
    }

    @Test func gamesAreTheBestOrTheAverageOfThePeriodInTheirGameAndMode() async throws {
        let test = try await TestDatabase()
        let ana = try actor(test, "ana")
        try test.write { db in
            let patient = try newPatient(db)
            for (area, mode, hits, at) in [("numbers", "challenge", 4, "2026-11-05T15:00:00Z"), ("numbers", "challenge", 8, "2026-11-10T15:00:00Z"),
                                           ("numbers", "normal", 20, "2026-11-11T15:00:00Z"), ("vowels", "challenge", 30, "2026-11-12T15:00:00Z"),
                                           ("numbers", "challenge", 30, "2026-10-20T15:00:00Z")] {
                try db.execute(sql: """
                    INSERT INTO educatResult (patientId, area, mode, hits, errors, durationSeconds, language, playedAt)
                    VALUES (?, ?, ?, ?, 0, 60, 'ca', ?)
                    """, arguments: [patient, area, mode, hits, utc(at)])
            }
            var best = input(.gameHits, target: 10)
            (best.gameArea, best.gameMode, best.aggregate) = ("numbers", "challenge", .best)
            var average = best
            average.aggregate = .average
            var anyMode = best
            anyMode.gameMode = nil
            var empty = best
            empty.gameArea = "alphabet"
            for typed in [best, average, anyMode, empty] { try Goals.create(typed, patientId: patient, by: ana, audit: audit(ana), db) }
            let progress = try #require(try GoalQueries.progress(ofPatients: [patient], today: today, db)[patient])
            #expect(progress.map(\.measured) == [8, 6, 20, nil])
            #expect(progress.map(\.status) == [.onTrack, .behind, .met, .notStarted], "8 by day 18 of 30 is ahead of the line to 10")
        }
    }

    @Test func adherenceIsFollowedOverAnsweredInThePeriod() async throws {
        let test = try await TestDatabase()
        let nadia = try actor(test, "nadia")
        let elisa = try test.id(of: "Elisa Martins")
        try test.write { db in
            let expected = try Row.fetchOne(db, sql: """
                SELECT sum(status = 'fulfilled'), count(*) FROM meal WHERE patientId = ? AND status <> 'pending' AND date BETWEEN ? AND ?
                """, arguments: [elisa, "2026-11-10", today])!
            let goal = try Goals.create(input(.adherence, target: 50, from: "2026-11-10", to: "2026-11-30"), patientId: elisa, by: nadia,
                                        audit: audit(nadia), db)
            let progress = try #require(try GoalQueries.measure([goal], today: today, db)[goal.id!])
            let answered: Int = expected[1]
            #expect(answered > 0)
            #expect(progress.measured == Double(expected[0] as Int) * 100 / Double(answered))
            let empty = try Goals.create(input(.adherence, target: 50, from: "2026-11-17", to: "2026-11-30"), patientId: try newPatient(db),
                                         by: nadia, audit: audit(nadia), db)
            let none = try #require(try GoalQueries.measure([empty], today: today, db)[empty.id!])
            #expect(none.measured == nil && none.status == .notStarted, "no meal answered: nothing measured, not 0 %")
        }
    }

    /// Fernanda's evaluations changed protocol (3 sites, then 7): a 3-site goal reads only the 3-site ones.
    @Test func aPercentFatGoalReadsOnlyItsProtocolAndWeightReadsEvaluationsAndWeighings() async throws {
        let test = try await TestDatabase()
        let nadia = try actor(test, "nadia")
        try test.write { db in
            let patient = try newPatient(db)
            let trainer = try test.id(of: "dani")
            let trainerAudit = AuditContext(actorId: trainer, actorName: "dani", clientAddress: "test", now: now)
            func evaluation(_ taken: String, _ skinfoldProtocol: SkinfoldProtocol, _ kg: Double, _ folds: [SkinfoldSite: [Double]]) throws {
                _ = try Evaluations.save(EvaluationInput(skinfoldProtocol: skinfoldProtocol, takenOn: taken, weightKg: kg, heightM: 1.65,
                                                         skinfolds: folds, perimeters: [.waist: 80]),
                                         patientId: patient, sex: .female, age: 35, audit: trainerAudit, trainerId: trainer, db)
            }
            let jp3: [SkinfoldSite: [Double]] = [.triceps: [24], .suprailiac: [19], .thigh: [31]]
            try evaluation("2026-10-01", .jp3, 70, jp3)
            try evaluation("2026-11-05", .jp3, 69, [.triceps: [22], .suprailiac: [17], .thigh: [29]])
            try evaluation("2026-11-12", .jp7, 68, [.chest: [8], .midaxillary: [8], .triceps: [12], .subscapular: [9], .abdominal: [10],
                                                    .suprailiac: [8], .thigh: [14]])
            try Weights.add([(date: "2026-11-15", kg: 67.5)], patientId: patient, source: "patient", at: now, db)
            let details = try EvaluationDetails.all(of: patient, db)
            let fat = details.map { $0.result!.percentFat }
            #expect(fat[2] < fat[1] - 3, "the 7-site equation reads much leaner: mixing would fake progress")

            var fatGoal = input(.bodyMeasure, target: (fat[1] - 0.1).rounded(.down))
            (fatGoal.measure, fatGoal.skinfoldProtocol, fatGoal.direction) = (.percentFat, "jp3", .atMost)
            var weight = input(.bodyMeasure, target: 67)
            (weight.measure, weight.direction) = (.weight, .atMost)
            var waist = input(.bodyMeasure, target: 78)
            (waist.measure, waist.perimeterSite, waist.direction) = (.perimeter, "waist", .atMost)
            let goals = try [fatGoal, weight, waist].map { try Goals.create($0, patientId: patient, by: nadia, audit: audit(nadia), db) }
            let progress = try GoalQueries.measure(goals, today: today, db)
            let fatProgress = try #require(progress[goals[0].id!])
            #expect(fatProgress.measured == fat[1] && fatProgress.baseline == fat[0], "the 7-site value is ignored")
            #expect(fatProgress.status != .met)
            #expect(progress[goals[1].id!]?.measured == 67.5 && progress[goals[1].id!]?.baseline == 70, "the weighing is the latest weight")
            #expect(progress[goals[2].id!]?.measured == 80 && progress[goals[2].id!]?.status == .behind)
        }
    }

    // MARK: Many patients at once

    /// The worklist asks for 500 patients' goals: a handful of statements, whatever the number of goals.
    @Test func progressOfFiveHundredPatientsIsAFewAggregateQueries() async throws {
        let test = try await TestDatabase()
        let (ana, nadia) = (try actor(test, "ana"), try actor(test, "nadia"))
        let (patients, symbol) = try test.write { db -> ([Int64], Int64) in
            let symbol = try #require(try Symbol.fetchOne(db)?.id)
            var patients: [Int64] = []
            for index in 0..<500 {
                let patient = try newPatient(db, "P\(index)")
                patients.append(patient)
                var taps = input(.symbolTaps, target: 3)
                taps.symbolId = symbol
                var sentences = input(.sentences, target: 2)
                sentences.minWords = 2
                try Goals.create(taps, patientId: patient, by: ana, audit: audit(ana), db)
                try Goals.create(sentences, patientId: patient, by: ana, audit: audit(ana), db)
                try Goals.create(input(.independentTaps, target: 50), patientId: patient, by: ana, audit: audit(ana), db)
                try Goals.create(input(.adherence, target: 50), patientId: patient, by: nadia, audit: audit(nadia), db)
                var weight = input(.bodyMeasure, target: 60)
                weight.measure = .weight
                try Goals.create(weight, patientId: patient, by: nadia, audit: audit(nadia), db)
                try db.execute(sql: "INSERT INTO tap (key, patientId, symbolId, at, receivedAt) VALUES (?, ?, ?, ?, ?)",
                               arguments: ["p\(index)", patient, symbol, utc("2026-11-17T15:00:00Z"), utc("2026-11-17T15:00:00Z")])
            }
            return (patients, symbol)
        }
        _ = symbol
        var statements = 0
        let started = Date()
        let progress = try test.read { db in
            db.trace { _ in statements += 1 }
            defer { db.trace(options: [], nil) }
            return try GoalQueries.progress(ofPatients: patients, today: today, db)
        }
        let elapsed = Date().timeIntervalSince(started)
        print("goal progress of 500 patients (2 500 goals): \(statements) statements, \(Int(elapsed * 1000)) ms")
        #expect(progress.count == 500 && progress.values.allSatisfy { $0.count == 5 })
        #expect(progress[patients[0]]?.first?.measured == 1)
        #expect(statements <= 12, "\(statements) statements")
        #expect(elapsed < 2, "\(elapsed) s for 2 500 goals")
    }
}
