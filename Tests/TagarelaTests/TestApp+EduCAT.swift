import Foundation
import HTTPTestSupport
@testable import Tagarela

extension Browser {
    /// Posts a game's result as the game page does: its answers first, under the result's game key (the
    /// hits answered right, the errors run out of time), then the result, which the server checks
    /// against them. A result without a key is given one.
    @discardableResult
    func postGame(_ fields: [(String, String)], csrf: String? = nil) throws -> WireResponse {
        var fields = fields
        let value = { (name: String) in fields.first { $0.0 == name }?.1 }
        let key = value("key") ?? "game-\(UUID().uuidString.lowercased())"
        if value("key") == nil { fields.append(("key", key)) }
        let area = value("area") ?? "numbers"
        let hits = Int(value("hits") ?? "") ?? 0, errors = Int(value("errors") ?? "") ?? 0
        let item = ["vowels": "a", "alphabet": "a", "conta-cops": "casa"][area] ?? "1"
        let right = area == "conta-cops" ? "2" : item
        let answers = (0..<(hits + errors)).map { n in
            n < hits ? #"{"seq":\#(n + 1),"item":"\#(item)","tapped":"\#(right)","outcome":"hit","ms":900}"#
                : #"{"seq":\#(n + 1),"item":"\#(item)","tapped":null,"outcome":"timeout","ms":9000}"#
        }
        if (1...200).contains(answers.count), EduCATGameKey.isValid(key) {
            _ = try post("/educat/answers", [("key", key), ("area", area), ("mode", value("mode") ?? "normal"),
                                             ("level", value("level") ?? "1"), ("answers", "[" + answers.joined(separator: ",") + "]")],
                         csrf: csrf)
        }
        return try post("/educat/results", fields, csrf: csrf)
    }
}

