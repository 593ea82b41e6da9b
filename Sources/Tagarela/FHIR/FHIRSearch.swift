import Foundation
import HTTPServer

/// The search parameters the API reads (`patient`, `code`, `date`), and whether a resource matches
/// them. Pure. Unknown parameters are refused (a client should not believe a filter was applied).
struct FHIRSearch: Sendable, Equatable {
    struct Problem: Error, Sendable, Equatable { let text: String }

    enum Comparison: String, Sendable, CaseIterable { case eq, ge, le, gt, lt }

    var patientId: Int64
    /// Each `system|code` or bare `code`: any of them matches.
    var codes: [(system: String?, code: String)] = []
    /// Every condition must hold on the effective day.
    var dates: [(Comparison, String)] = []

    static func == (lhs: FHIRSearch, rhs: FHIRSearch) -> Bool { lhs.summary == rhs.summary }

    var summary: String {
        (["patient=\(patientId)"] + codes.map { "code=\($0.system.map { $0 + "|" } ?? "")\($0.code)" }
            + dates.map { "date=\($0.0.rawValue)\($0.1)" }).joined(separator: "&")
    }

    static func read(_ query: Parameters, allowed: Set<String>) -> Result<FHIRSearch, Problem> {
        for name in query.pairs.map(\.name) where !allowed.contains(name) && !name.hasPrefix("_") {
            return .failure(Problem(text: "Unknown search parameter: \(name)."))
        }
        let patient = query["patient"] ?? ""
        let idText = patient.hasPrefix("Patient/") ? String(patient.dropFirst(8)) : patient
        guard let patientId = Int64(idText), patientId > 0 else {
            return .failure(Problem(text: "The patient parameter is required: patient=<id>."))
        }
        var search = FHIRSearch(patientId: patientId)
        for value in query.values("code") {
            for token in value.split(separator: ",") where !token.isEmpty {
                let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                search.codes.append(parts.count == 2 ? (parts[0].isEmpty ? nil : parts[0], parts[1]) : (nil, parts[0]))
            }
        }
        for value in query.values("date") {
            var text = Substring(value)
            var comparison = Comparison.eq
            if let prefix = Comparison.allCases.first(where: { value.hasPrefix($0.rawValue) }) {
                comparison = prefix
                text = text.dropFirst(2)
            }
            guard text.count == 10, let day = ISODate.dayNumber(String(text)) else {
                return .failure(Problem(text: "A date is a day, with an optional prefix: date=ge2026-01-31."))
            }
            search.dates.append((comparison, ISODate.string(dayNumber: day)))
        }
        return .success(search)
    }

    /// The parts of the record whose Observations the codes can name: all of them when no code is asked.
    var parts: FHIRRecord.Parts {
        guard !codes.isEmpty else { return .observations }
        var parts: FHIRRecord.Parts = []
        for (part, known) in FHIRRecord.Parts.codes
        where codes.contains(where: { wanted in known.contains { $0.code == wanted.code && (wanted.system == nil || wanted.system == $0.system) } }) {
            parts.insert(part)
        }
        return parts
    }

    /// The narrowest period holding every day the dates admit (open ends where none bounds it); the
    /// read keeps to it, and `matches` still decides each resource.
    var period: FHIRQueries.Period {
        var period = FHIRQueries.Period()
        func raise(_ day: String) { if period.from.map({ day > $0 }) ?? true { period.from = day } }
        func lower(_ day: String) { if period.to.map({ day < $0 }) ?? true { period.to = day } }
        for (comparison, day) in dates {
            switch comparison {
            case .eq: raise(day); lower(day)
            case .ge: raise(day)
            case .gt: raise(ISODate.adding(1, to: day))
            case .le: lower(day)
            case .lt: lower(ISODate.adding(-1, to: day))
            }
        }
        return period
    }

    func matches(_ resource: FHIRJSON) -> Bool {
        guard case .members(let pairs) = resource else { return false }
        func value(_ key: String) -> FHIRJSON? { pairs.first { $0.0 == key }?.1 }
        if !codes.isEmpty {
            guard case .members(let code)? = value("code"), case .array(let codings)? = code.first(where: { $0.0 == "coding" })?.1 else { return false }
            let present: [(String, String)] = codings.compactMap { coding in
                guard case .members(let fields) = coding,
                      case .string(let system)? = fields.first(where: { $0.0 == "system" })?.1,
                      case .string(let code)? = fields.first(where: { $0.0 == "code" })?.1 else { return nil }
                return (system, code)
            }
            guard codes.contains(where: { wanted in present.contains { $0.1 == wanted.code && (wanted.system == nil || wanted.system == $0.0) } })
            else { return false }
        }
        if !dates.isEmpty {
            guard case .string(let effective)? = value("effectiveDateTime") else { return false }
            let day = String(effective.prefix(10))
            for (comparison, bound) in dates {
                let holds = switch comparison {
                case .eq: day == bound
                case .ge: day >= bound
                case .le: day <= bound
                case .gt: day > bound
                case .lt: day < bound
                }
                if !holds { return false }
            }
        }
        return true
    }
}

/// The server's CapabilityStatement: what the API serves and how it is entered.
enum FHIRCapability {
    static func statement(base: String, at now: Date, mapper: FHIRMapper) -> FHIRJSON {
        func resource(_ type: String, interactions: [String], search: [(String, String)]) -> FHIRJSON {
            .object([
                "type": .string(type),
                "interaction": .array(interactions.map { .object(["code": .string($0)]) }),
                "searchParam": .array(search.map { .object(["name": .string($0.0), "type": .string($0.1)]) }),
            ])
        }
        return .object([
            "resourceType": .string("CapabilityStatement"),
            "status": .string("active"),
            "date": .string(mapper.instant(now)),
            "kind": .string("instance"),
            "software": .object(["name": .string("Tagarela")]),
            "implementation": .object(["description": .string("Tagarela read-only FHIR API"), "url": .string(base + FHIREndpoints.root)]),
            "fhirVersion": .string("4.0.1"),
            "format": .array([.string("application/fhir+json")]),
            "rest": .array([.object([
                "mode": .string("server"),
                "security": .object([
                    "service": .array([.object(["text": .string("Bearer token issued by the clinic's administrator")])]),
                    "description": .string("Authorization: Bearer <token>. A token reads the patients of one clinician."),
                ]),
                "resource": .array([
                    resource("Patient", interactions: ["read"], search: []),
                    resource("Observation", interactions: ["search-type"], search: [("patient", "reference"), ("code", "token"), ("date", "date")]),
                    resource("Goal", interactions: ["search-type"], search: [("patient", "reference")]),
                ]),
            ])]),
        ])
    }
}
