import Foundation
import GRDB
@testable import Tagarela
import Testing

/// The worklist's order is decided by SQLite (`WorklistRules.weightSQL`) and its words by Swift
/// (`WorklistRules.reasons`): both must say the same of every patient, boundaries included.
@Suite struct WorklistRulesTests {
    static let today = "2026-11-24"

    /// Every combination of the signals around each rule's boundary.
    /// With the meals behind the adherence (followed, answered), which the SQL reads instead of the rate.
    static var grid: [(signals: WorklistRules.Signals, fulfilled: Int, answered: Int)] {
        var all: [(signals: WorklistRules.Signals, fulfilled: Int, answered: Int)] = []
        for goalsBehind in [0, 2] {
            for (hasBoards, lastUse) in [(false, nil), (true, nil), (true, "2026-11-18"), (true, "2026-11-17"), (true, "2025-01-01")] as [(Bool, String?)] {
                for (overdue, answered, fulfilled) in [(0, 0, 0), (1, 0, 0), (0, 10, 7), (0, 10, 6), (0, 3, 2), (2, 7, 4), (0, 1, 1)] {
                    for lastEvaluation in [nil, "2026-11-01", "2026-09-10", "2026-09-09", "2026-08-26", "2026-08-25", "2020-02-29"] as [String?] {
                        for notes in [0, 1] {
                            all.append((WorklistRules.Signals(
                                hasBoards: hasBoards, lastBoardUse: lastUse, goalsBehind: goalsBehind, overdueMeals: overdue,
                                adherence: answered > 0 ? Double(fulfilled) / Double(answered) : nil, lastEvaluation: lastEvaluation,
                                newTutorNotes: notes), fulfilled, answered))
                        }
                    }
                }
            }
        }
        return all
    }

    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func theDatabaseWeighsEachPatientAsTheRulesDo(speech: Bool, nutrition: Bool) throws {
        let scope = WorklistRules.Scope(speech: speech, nutrition: nutrition)
        let queue = try DatabaseQueue()
        let expression = WorklistRules.weightSQL(scope: scope)
        var mismatches: [String] = []
        var flagged = 0
        try queue.read { db in
            for (signals, fulfilled, answered) in Self.grid {
                let weight = try Int.fetchOne(db, sql: """
                    SELECT \(expression) FROM (SELECT ? AS goalsBehind, ? AS hasBoards, ? AS lastBoardUse, ? AS overdueMeals,
                                                      ? AS fulfilled, ? AS answered, ? AS lastEvaluation, ? AS newTutorNotes, ? AS today)
                    """, arguments: [signals.goalsBehind > 0, signals.hasBoards, signals.lastBoardUse, signals.overdueMeals,
                                     fulfilled, answered, signals.lastEvaluation, signals.newTutorNotes, Self.today])
                let reasons = WorklistRules.reasons(signals, today: Self.today, scope: scope)
                let expected = reasons.reduce(0) { $0 + $1.weight }
                if expected > 0 { flagged += 1 }
                if weight != expected { mismatches.append("\(signals): SQL \(weight ?? -1), rules \(expected) \(reasons)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(flagged > 0, "the grid flags someone in every scope (goals behind count for all)")
    }

    /// 7 of 10 is not low and 6 of 10 is: the SQL divides as Swift does, without a rounding slip at 70 %.
    @Test func theAdherenceBoundaryIsTheSameInBoth() throws {
        let queue = try DatabaseQueue()
        let expression = WorklistRules.weightSQL(scope: .init(speech: false, nutrition: true))
        func weight(_ fulfilled: Int, of answered: Int) throws -> Int? {
            try queue.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT \(expression) FROM (SELECT 0 AS goalsBehind, 0 AS hasBoards, NULL AS lastBoardUse, 0 AS overdueMeals,
                                                      ? AS fulfilled, ? AS answered, NULL AS lastEvaluation, 0 AS newTutorNotes, ? AS today)
                    """, arguments: [fulfilled, answered, Self.today])
            }
        }
        #expect(try weight(7, of: 10) == 0)
        #expect(try weight(6, of: 10) == 3)
        #expect(try weight(0, of: 0) == 0, "nothing answered: no rate, nothing low")
    }

    /// The worklist sorts names by their folded keys (cheap) and must land where Foundation's localized
    /// comparison (what `WorklistRules.order` and the page always used) puts them.
    @Test func nameKeysOrderNamesAsTheLocalizedComparisonDoes() {
        let names = ["Ana", "ana", "Ána", "Álvaro", "Alvaro", "Ângela", "Bruno", "Élida", "Eduardo", "Ítalo", "Isabel", "Zé", "Zeca",
                     "Çião", "Carla", "Ñandú", "Nadia", "Nádia", "Ana Maria", "Ana-Maria", "Anabela", "O'Neil", "Oliveira",
                     "Paciente 1000", "Paciente 999", "Paciente 10", "João", "Joao", "Joana", "Úrsula", "Ulisses", "Davi Alves",
                     "davi", "Elisa Martins", "l·l", "Lluís", "Llorenç", "Ødegaard", "Ohm", "Æsa", "Adriana", "Straße", "Strauss"]
        let localized = names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
        let keyed = names.map { (key: WorklistRules.nameKey($0), name: $0) }.sorted(by: WorklistRules.precedes).map(\.name)
        #expect(keyed == localized)
    }

    /// Remembered keys are the keys, and a full memory starts over without answering wrong.
    @Test func foldedNamesAreRememberedAndBounded() {
        let names = ["Ána", "Ødegaard", "Straße", "Zé", "Çião", "Ana-Maria"]
        let folded = FoldedNames(capacity: 4)
        for _ in 0..<3 {
            #expect(names.map(folded.key) == names.map(WorklistRules.nameKey))
        }
        #expect(folded.count <= 4)
    }
}
