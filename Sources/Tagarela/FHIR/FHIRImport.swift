import Foundation

/// Reading measurements out of a FHIR Bundle that another system sent (issue 47, step 2). Pure: bytes
/// in, what would be added and what is refused (each with its reason) out; the database is asked
/// only for duplicates, by `FHIRMeasurements`.
///
/// A file is refused whole, and nothing of it stored, when it cannot be trusted as a whole: not JSON,
/// too large or too deeply nested, not a Bundle, or about another person (a Patient of this clinic
/// with another id, another birth date, a measurement whose subject is not the file's patient).
/// Inside a file that can be read, each measurement that cannot be kept (a code Tagarela does not
/// measure, a unit that is not one of the measure's, a value no person has, no date) is refused alone
/// and named; the others may be stored.
enum FHIRImport {
    static let largestFile = 4 * 1024 * 1024
    static let deepestNesting = 32
    static let mostEntries = 5000

    enum FileProblem: String, Error, Sendable, Equatable {
        case empty, tooLarge, notJSON, tooDeep, notBundle, tooManyEntries, otherPatient, severalPatients
    }

    enum Reason: String, Error, Sendable, Equatable {
        case unknownCode, wrongUnit, implausible, noValue, noDate, notFinal
    }

    /// A measure Tagarela keeps: its key, the code it is stored under, its unit and plausible range, and
    /// the other units it is accepted in with their factor to it.
    struct Kind: Sendable, Equatable {
        let key: String
        let code: FHIRCodes.Code
        let unit: String
        let plausible: ClosedRange<Double>
        let factors: [String: Double]
        /// Every code the kind is known by (a perimeter's LOINC or SNOMED CT code and its Tagarela one).
        var codes: [FHIRCodes.Code] { [code] + also }
        var also: [FHIRCodes.Code] = []
    }

    /// One measurement to add, in its kind's unit.
    struct Measurement: Codable, Sendable, Equatable {
        var kind: String
        var value: Double
        var unit: String
        /// The date (or date and time) as the file gave it.
        var effective: String
        var identifierSystem: String?
        var identifierValue: String?
    }

    struct Refusal: Sendable, Equatable {
        /// The entry's position in the file, from 1.
        let entry: Int
        /// What the entry said it was: its code's display or code, or its id.
        let what: String
        let reason: Reason
        /// The unit or value that was refused.
        let detail: String
    }

    struct Reading: Sendable, Equatable {
        var patientName: String?
        var patientBirthDate: String?
        var measurements: [Measurement] = []
        var refusals: [Refusal] = []
        /// Resources that are not measurements (goals, meals…): counted, never imported.
        var skipped: [String: Int] = [:]
    }

    static let kinds: [Kind] = {
        let mass = ["kg": 1.0, "g": 0.001, "[lb_av]": 0.45359237]
        let length = ["cm": 1.0, "m": 100, "mm": 0.1, "[in_i]": 2.54]
        var kinds = [
            Kind(key: "weight", code: FHIRCodes.weight.codes[0], unit: "kg", plausible: 2...400, factors: mass),
            Kind(key: "height", code: FHIRCodes.height.codes[0], unit: "cm", plausible: 40...250, factors: length),
            Kind(key: "bmi", code: FHIRCodes.bmi.codes[0], unit: "kg/m2", plausible: 5...100, factors: ["kg/m2": 1]),
            Kind(key: "percent-fat", code: FHIRCodes.percentFat.codes[0], unit: "%", plausible: 1...75, factors: ["%": 1]),
            Kind(key: "skinfold-sum", code: FHIRCodes.sumOfSkinfolds.codes[0], unit: "mm", plausible: 3...700, factors: ["mm": 1, "cm": 10]),
            Kind(key: "body-density", code: FHIRCodes.bodyDensity.codes[0], unit: "g/mL", plausible: 0.9...1.2,
                 factors: ["g/mL": 1, "g/cm3": 1, "kg/L": 1]),
            Kind(key: "fat-mass", code: FHIRCodes.fatMass.codes[0], unit: "kg", plausible: 0.1...300, factors: mass),
            Kind(key: "lean-mass", code: FHIRCodes.leanMass.codes[0], unit: "kg", plausible: 1...300, factors: mass),
        ]
        for site in SkinfoldSite.allCases {
            kinds.append(Kind(key: "skinfold-\(site.rawValue)", code: FHIRCodes.skinfold(site).codes[0], unit: "mm", plausible: 1...100,
                              factors: ["mm": 1, "cm": 10]))
        }
        for site in PerimeterSite.allCases {
            let range = site.plausibleCm
            let codes = FHIRCodes.perimeter(site).codes
            kinds.append(Kind(key: "perimeter-\(site.rawValue)", code: codes[0], unit: "cm",
                              plausible: (range.lowerBound * 0.5)...(range.upperBound * 1.5), factors: length, also: Array(codes.dropFirst())))
        }
        return kinds
    }()

    /// The kind a coding names: LOINC's other body-weight code (3141-9, measured) counts as weight, and a
    /// perimeter's own Tagarela code is found whatever coding comes first.
    static func kind(system: String, code: String) -> Kind? {
        if system == FHIRCodes.loinc && code == "3141-9" { return kinds[0] }
        return kinds.first { kind in kind.codes.contains { $0.system == system && $0.code == code } }
    }

    /// A measurement sent back by the preview's form: a kind Tagarela keeps, in its unit, within its range, dated.
    static func isValid(_ measurement: Measurement) -> Bool {
        guard let kind = kinds.first(where: { $0.key == measurement.kind }) else { return false }
        return measurement.unit == kind.unit && measurement.value.isFinite && kind.plausible.contains(measurement.value)
            && measurement.effective.count >= 10 && measurement.effective.count <= 35
            && ISODate.dayNumber(String(measurement.effective.prefix(10))) != nil
            && (measurement.identifierSystem?.count ?? 0) <= 300 && (measurement.identifierValue?.count ?? 0) <= 200
    }

    /// The measure's value in its kind's unit, or why not.
    static func convert(_ value: Double, unit: String, to kind: Kind) -> Result<Double, Reason> {
        guard let factor = kind.factors[unit] else { return .failure(.wrongUnit) }
        let converted = value * factor
        guard converted.isFinite, kind.plausible.contains(converted) else { return .failure(.implausible) }
        return .success(converted)
    }

    /// The deepest nesting of arrays and objects, counted on the bytes before any parsing (a parser's
    /// recursion is what a hostile file aims at); stops as soon as `limit` is passed.
    static func nesting(of bytes: [UInt8], limit: Int) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Reads `bytes` for the patient `patientId` of this clinic (whose Patient identifiers have `ownSystem`).
    static func read(_ bytes: [UInt8], patientId: Int64, birthDate: String?, ownSystem: String) -> Result<Reading, FileProblem> {
        if bytes.isEmpty { return .failure(.empty) }
        if bytes.count > largestFile { return .failure(.tooLarge) }
        if nesting(of: bytes, limit: deepestNesting) > deepestNesting { return .failure(.tooDeep) }
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return .failure(.notJSON) }
        guard root["resourceType"] as? String == "Bundle", let entries = root["entry"] as? [[String: Any]] ?? (root["entry"] == nil ? [] : nil)
        else { return .failure(.notBundle) }
        if entries.count > mostEntries { return .failure(.tooManyEntries) }
        let resources = entries.map { ($0["resource"] as? [String: Any], $0["fullUrl"] as? String) }

        // The file's patient: at most one, and not another of this clinic's.
        var reading = Reading()
        var patientReferences: Set<String> = []
        let patients = resources.filter { $0.0?["resourceType"] as? String == "Patient" }
        if patients.count > 1 { return .failure(.severalPatients) }
        if let (patient, fullUrl) = patients.first, let patient {
            for identifier in patient["identifier"] as? [[String: Any]] ?? [] where identifier["system"] as? String == ownSystem {
                if identifier["value"] as? String != String(patientId) { return .failure(.otherPatient) }
            }
            let theirBirth = patient["birthDate"] as? String
            if let theirBirth, let birthDate, theirBirth != birthDate { return .failure(.otherPatient) }
            reading.patientBirthDate = theirBirth
            reading.patientName = ((patient["name"] as? [[String: Any]])?.first).flatMap { name in
                name["text"] as? String ?? ([(name["given"] as? [String])?.joined(separator: " "), name["family"] as? String]
                    .compactMap { $0 }.joined(separator: " "))
            }
            if let id = patient["id"] as? String { patientReferences.insert("Patient/\(id)") }
            if let fullUrl { patientReferences.insert(fullUrl) }
        }

        for (index, (resource, _)) in resources.enumerated() {
            guard let resource, let type = resource["resourceType"] as? String else {
                reading.skipped["?", default: 0] += 1
                continue
            }
            guard type == "Observation" else {
                if type != "Patient" { reading.skipped[type, default: 0] += 1 }
                continue
            }
            if let subject = (resource["subject"] as? [String: Any])?["reference"] as? String {
                let ownReference = "Patient/\(patientId)"
                if patientReferences.isEmpty ? subject != ownReference && !subject.hasSuffix("/" + ownReference)
                    : !patientReferences.contains(subject) && !patientReferences.contains { $0.hasSuffix("/" + subject) } {
                    return .failure(.otherPatient)
                }
            }
            switch measurement(resource) {
            case .success(let found): reading.measurements.append(found)
            case .failure(let refusal):
                reading.refusals.append(Refusal(entry: index + 1, what: refusal.what, reason: refusal.reason, detail: refusal.detail))
            }
        }
        return .success(reading)
    }

    private struct EntryRefusal: Error {
        let what: String
        let reason: Reason
        var detail = ""
    }

    private static func measurement(_ resource: [String: Any]) -> Result<Measurement, EntryRefusal> {
        let codings = ((resource["code"] as? [String: Any])?["coding"] as? [[String: Any]]) ?? []
        let named = codings.first.flatMap { $0["display"] as? String ?? $0["code"] as? String }
            ?? (resource["code"] as? [String: Any])?["text"] as? String ?? resource["id"] as? String ?? "?"
        guard let kind = codings.lazy.compactMap({ coding in
            (coding["system"] as? String).flatMap { system in (coding["code"] as? String).flatMap { kind(system: system, code: $0) } }
        }).first else { return .failure(EntryRefusal(what: named, reason: .unknownCode)) }
        let what = kind.code.display
        let status = resource["status"] as? String ?? ""
        guard ["final", "amended", "corrected"].contains(status) else { return .failure(EntryRefusal(what: what, reason: .notFinal, detail: status)) }
        guard let effective = (resource["effectiveDateTime"] as? String) ?? ((resource["effectivePeriod"] as? [String: Any])?["start"] as? String)
                ?? (resource["effectiveInstant"] as? String),
              effective.count >= 10, ISODate.dayNumber(String(effective.prefix(10))) != nil, effective.count <= 35
        else { return .failure(EntryRefusal(what: what, reason: .noDate)) }
        guard let quantity = resource["valueQuantity"] as? [String: Any], let number = quantity["value"] as? NSNumber
        else { return .failure(EntryRefusal(what: what, reason: .noValue)) }
        let unit = quantity["code"] as? String ?? quantity["unit"] as? String ?? ""
        switch convert(number.doubleValue, unit: unit, to: kind) {
        case .failure(let reason):
            return .failure(EntryRefusal(what: what, reason: reason, detail: reason == .wrongUnit ? unit : "\(number) \(unit)"))
        case .success(let value):
            let identifier = (resource["identifier"] as? [[String: Any]])?.first
            return .success(Measurement(kind: kind.key, value: (value * 1_000_000).rounded() / 1_000_000, unit: kind.unit, effective: effective,
                                        identifierSystem: identifier?["system"] as? String,
                                        identifierValue: (identifier?["value"] as? String).map { String($0.prefix(200)) }))
        }
    }
}
