import Foundation
@testable import Tagarela
import Testing

/// The pure parts of the FHIR feature: decimals as written, the export's period, the import's reading
/// of a file (whole-file refusals, entry refusals, unit conversion), and the API's search parameters.
@Suite struct FHIRRulesTests {
    @Test func decimalsKeepTheirDigitsAndNoMore() {
        #expect(FHIRJSON.decimal(72.5, digits: 2).serialized() == "72.5")
        #expect(FHIRJSON.decimal(72.499999999999986, digits: 2).serialized() == "72.5")
        #expect(FHIRJSON.decimal(3.0, digits: 1).serialized() == "3")
        #expect(FHIRJSON.decimal(-0.0001, digits: 2).serialized() == "0")
        #expect(FHIRJSON.object(["a": .string("x\"\u{1}"), "b": nil, "c": .array([])]).serialized() == #"{"a":"x\"\u0001"}"#)
    }

    @Test func thePeriodIsOptionalAtEachEndAndInOrder() throws {
        #expect(try FHIRPeriod.read(from: "", to: "").get() == FHIRQueries.Period())
        #expect(try FHIRPeriod.read(from: "2026-01-01", to: "").get() == FHIRQueries.Period(from: "2026-01-01", to: nil))
        #expect(FHIRPeriod.read(from: "2026-02-30", to: "") == .failure(.from))
        #expect(FHIRPeriod.read(from: "", to: "tomorrow") == .failure(.to))
        #expect(FHIRPeriod.read(from: "2026-05-01", to: "2026-04-01") == .failure(.order))
    }

    static func bundle(_ observations: [String], patient: String = #"{"resourceType":"Patient","id":"p1"}"#) -> [UInt8] {
        Array(#"{"resourceType":"Bundle","entry":[{"resource":\#(patient)}\#(observations.map { #",{"resource":\#($0)}"# }.joined())]}"#.utf8)
    }

    static func weight(_ value: String, unit: String = "kg", subject: String = "Patient/p1", date: String = "2026-10-01") -> String {
        #"{"resourceType":"Observation","status":"final","subject":{"reference":"\#(subject)"},"effectiveDateTime":"\#(date)","#
            + #""code":{"coding":[{"system":"http://loinc.org","code":"29463-7"}]},"valueQuantity":{"value":\#(value),"code":"\#(unit)"}}"#
    }

    @Test func aFileThatCannotBeTrustedIsRefusedWhole() {
        func read(_ bytes: [UInt8], birth: String? = nil) -> Result<FHIRImport.Reading, FHIRImport.FileProblem> {
            FHIRImport.read(bytes, patientId: 7, birthDate: birth, ownSystem: "http://here/fhir/sid/patient")
        }
        #expect(read([]) == .failure(.empty))
        #expect(read(Array(String(repeating: "[", count: 100_000).utf8)) == .failure(.tooDeep))
        #expect(read(Array("{oops".utf8)) == .failure(.notJSON))
        #expect(read(Array(#"{"resourceType":"Patient"}"#.utf8)) == .failure(.notBundle))
        #expect(read(Self.bundle([Self.weight("70", subject: "Patient/other")])) == .failure(.otherPatient))
        #expect(read(Self.bundle([], patient: #"{"resourceType":"Patient","identifier":[{"system":"http://here/fhir/sid/patient","value":"8"}]}"#))
                == .failure(.otherPatient))
        #expect(read(Self.bundle([], patient: #"{"resourceType":"Patient","birthDate":"2001-01-01"}"#), birth: "2002-02-02") == .failure(.otherPatient))
        #expect(read(Self.bundle([#"{"resourceType":"Patient"}"#])) == .failure(.severalPatients))
        // Nesting is counted outside strings only: brackets in a name are text.
        #expect(FHIRImport.nesting(of: Array(#"{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}"#.utf8), limit: 32) == 1)
    }

    @Test func eachMeasurementIsKeptConvertedOrRefusedWithItsReason() throws {
        let reading = try FHIRImport.read(Self.bundle([
            Self.weight("70.5"), Self.weight("160", unit: "[lb_av]", date: "2026-10-02"), Self.weight("70", unit: "cm"),
            Self.weight("1e300"), Self.weight("70", date: "soon"),
            #"{"resourceType":"Observation","status":"final","code":{"coding":[{"system":"http://loinc.org","code":"2339-0"}]},"valueQuantity":{"value":90}}"#,
        ]) + [], patientId: 7, birthDate: nil, ownSystem: "x").get()
        #expect(reading.measurements.map(\.value) == [70.5, 72.574779])
        #expect(reading.measurements.allSatisfy { $0.kind == "weight" && $0.unit == "kg" })
        #expect(reading.refusals.map(\.reason) == [.wrongUnit, .implausible, .noDate, .unknownCode])
        #expect(reading.refusals.map(\.entry) == [4, 5, 6, 7])
        #expect(FHIRImport.isValid(reading.measurements[0]))
        var forged = reading.measurements[0]
        forged.value = 1e9
        #expect(!FHIRImport.isValid(forged))
    }

    @Test func searchParametersAreReadOrRefused() throws {
        func read(_ pairs: [(String, String)], allowed: Set<String> = ["patient", "code", "date"]) -> Result<FHIRSearch, FHIRSearch.Problem> {
            FHIRSearch.read(.init(pairs), allowed: allowed)
        }
        let search = try read([("patient", "Patient/7"), ("code", "http://loinc.org|29463-7,8302-2"), ("date", "ge2026-01-01"),
                               ("date", "lt2026-02-01")]).get()
        #expect(search.patientId == 7 && search.codes.count == 2 && search.dates.count == 2)
        let weight = FHIRJSON.object(["resourceType": .string("Observation"),
                                      "code": .object(["coding": .array([.object(["system": .string("http://loinc.org"), "code": .string("29463-7")])])]),
                                      "effectiveDateTime": .string("2026-01-15")])
        #expect(search.matches(weight))
        #expect(!(try read([("patient", "7"), ("date", "2026-01-16")]).get()).matches(weight))
        #expect(!(try read([("patient", "7"), ("code", "http://snomed.info/sct|29463-7")]).get()).matches(weight))
        #expect((try read([("patient", "7"), ("code", "29463-7")]).get()).matches(weight))
        #expect((try? read([("patient", "x")]).get()) == nil)
        #expect((try? read([("patient", "7"), ("category", "exam")]).get()) == nil)
        #expect((try? read([("patient", "7"), ("date", "ge26-01-01")]).get()) == nil)
    }
}
