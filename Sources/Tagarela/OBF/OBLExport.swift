import Foundation
import GRDB

/// The usage history as an Open Board Log (`open-board-log-0.1`, as CoughDrop writes it): one session per
/// clinic day, a `button` event per tap and an `utterance` event per sentence spoken from the strip.
/// Board and button ids are the ones the `.obz` export gives the same boards (`OBFExporter`).
enum OBLFile {
    struct Log: Encodable {
        let format = "open-board-log-0.1"
        let userId: String
        let source = "Tagarela"
        let locale: String
        let sessions: [Session]
    }

    struct Session: Encodable {
        let id: String
        let type = "log"
        let started: String
        let ended: String
        let events: [Event]
    }

    struct Event: Encodable {
        let id: String
        let timestamp: String
        let type: String
        var buttonId: String?
        var boardId: String?
        var label: String?
        var vocalization: String?
        var spoken: Bool?
        var text: String?
        var buttons: [UtteranceButton]?
        /// An adult tapped it to show the child ("an adult is modeling" in patient mode).
        let modeling: Bool
        /// An adult had opened patient mode (Tagarela's "assisting"), which OBL has no word for.
        let extTagarelaAssisted: Bool
    }

    struct UtteranceButton: Encodable {
        let id: String?
        let boardId: String?
        let label: String
        let vocalization: String?
    }
}

/// Builds the log from plain rows. Pure.
enum OBLBuilder {
    struct Tap: Sendable {
        let id: Int64
        let at: Date
        let planId: Int64?
        let position: Int?
        let label: String
        let spokenText: String?
        let assisted: Bool
        var modeling = false
    }

    struct Word: Sendable {
        let planId: Int64?
        let position: Int?
        let label: String
        let spokenText: String?
    }

    struct Sentence: Sendable {
        let id: Int64
        let at: Date
        let text: String
        let words: [Word]
        let assisted: Bool
        var modeling = false
    }

    static func log(patientId: Int64, locale: String, taps: [Tap], sentences: [Sentence], timeZone: TimeZone) -> OBLFile.Log {
        let stamp = ISO8601DateFormatter()
        stamp.timeZone = TimeZone(identifier: "UTC")
        var events: [(at: Date, event: OBLFile.Event)] = taps.map { tap in
            (tap.at, OBLFile.Event(id: "tap-\(tap.id)", timestamp: stamp.string(from: tap.at), type: "button",
                                   buttonId: tap.position.map(OBFExporter.buttonID), boardId: tap.planId.map { "\($0)" },
                                   label: tap.label, vocalization: tap.spokenText == tap.label ? nil : tap.spokenText,
                                   spoken: true, modeling: tap.modeling, extTagarelaAssisted: tap.assisted))
        }
        events += sentences.map { sentence in
            (sentence.at, OBLFile.Event(
                id: "sentence-\(sentence.id)", timestamp: stamp.string(from: sentence.at), type: "utterance", text: sentence.text,
                buttons: sentence.words.map {
                    OBLFile.UtteranceButton(id: $0.position.map(OBFExporter.buttonID), boardId: $0.planId.map { "\($0)" },
                                            label: $0.label, vocalization: $0.spokenText == $0.label ? nil : $0.spokenText)
                },
                modeling: sentence.modeling, extTagarelaAssisted: sentence.assisted))
        }
        events.sort { $0.at < $1.at }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var sessions: [OBLFile.Session] = []
        var day: [(at: Date, event: OBLFile.Event)] = []
        func close() {
            guard let first = day.first, let last = day.last else { return }
            let date = ISODate.string(first.at, timeZone: timeZone)
            sessions.append(OBLFile.Session(id: "day-\(date)", started: stamp.string(from: first.at), ended: stamp.string(from: last.at),
                                            events: day.map(\.event)))
            day = []
        }
        for event in events {
            if let first = day.first, !calendar.isDate(first.at, inSameDayAs: event.at) { close() }
            day.append(event)
        }
        close()
        return OBLFile.Log(userId: "tagarela:patient:\(patientId)", locale: locale, sessions: sessions)
    }

    /// The taps and sentences that the usage page's filter selects, as the builder wants them.
    static func fetch(_ filter: UsageRoutes.Filter, patientId: Int64, timeZone: TimeZone, _ db: Database)
        throws -> (taps: [Tap], sentences: [Sentence]) {
        let (condition, arguments) = filter.condition(patientId: patientId, timeZone: timeZone)
        let taps = try Row.fetchAll(db, sql: """
            SELECT tap.id, tap.at, tap.planId, tap.assistedBy, tap.modeling, symbol.name, symbol.spokenText,
                   (SELECT min(position) FROM planCell WHERE planCell.planId = tap.planId AND planCell.symbolId = tap.symbolId) AS position
            FROM tap LEFT JOIN symbol ON symbol.id = tap.symbolId WHERE \(condition) ORDER BY tap.at
            """, arguments: arguments).map {
            Tap(id: $0["id"], at: $0["at"], planId: $0["planId"], position: $0["position"], label: $0["name"] ?? "",
                spokenText: $0["spokenText"], assisted: ($0["assistedBy"] as Int64?) != nil, modeling: $0["modeling"])
        }
        let (sentenceCondition, sentenceArguments) = filter.condition(patientId: patientId, timeZone: timeZone, table: "sentence")
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, at, planId, symbolIds, text, assistedBy, modeling FROM sentence WHERE \(sentenceCondition) ORDER BY at
            """, arguments: sentenceArguments)
        let ids = Set(rows.flatMap { ($0["symbolIds"] as String).split(separator: ",").compactMap { Int64($0) } })
        let symbols = Dictionary(uniqueKeysWithValues: try Symbol.fetchAll(db, keys: ids).map { ($0.id!, $0) })
        // Where each word sits: on the sentence's own board if it is there, else on any of the patient's boards.
        var places: [Int64: [Int64: Int]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT planCell.planId, planCell.symbolId, min(planCell.position) AS position FROM planCell
            JOIN plan ON plan.id = planCell.planId WHERE plan.patientId = ? AND planCell.symbolId IS NOT NULL
            GROUP BY planCell.planId, planCell.symbolId
            """, arguments: [patientId]) {
            places[row["symbolId"], default: [:]][row["planId"]] = row["position"]
        }
        let sentences = rows.map { row -> Sentence in
            let planId: Int64? = row["planId"]
            let words = (row["symbolIds"] as String).split(separator: ",").compactMap { Int64($0) }.map { id -> Word in
                let symbol = symbols[id]
                let onBoards = places[id] ?? [:]
                let place = planId.flatMap { plan in onBoards[plan].map { (plan, $0) } } ?? onBoards.min { $0.key < $1.key }.map { ($0.key, $0.value) }
                return Word(planId: place?.0, position: place?.1, label: symbol?.name ?? "", spokenText: symbol?.spokenText)
            }
            return Sentence(id: row["id"], at: row["at"], text: row["text"], words: words, assisted: (row["assistedBy"] as Int64?) != nil,
                            modeling: row["modeling"])
        }
        return (taps, sentences)
    }
}
