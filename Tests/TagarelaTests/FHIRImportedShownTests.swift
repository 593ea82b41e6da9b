import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Measurements imported from FHIR Bundles are shown where clinicians read weights (issue 47): the
/// trainer's client page lists them and draws them beside the evaluations, the nutritionist's week page
/// and the patient's own measurements page list imported weights; each marked as imported, with where it
/// came from, in the reader's language.
@Suite struct FHIRImportedShownTests {
    static let hospital = "https://hospital.example/fhir/sid/obs"

    /// Stores `rows` (kind, value, unit, day) for `patient` as an import by `by` would.
    static func importing(_ rows: [(String, Double, String, String)], for patient: Int64, by: Int64, system: String? = hospital,
                          _ test: TestApp) throws {
        let audit = AuditContext(actorId: by, actorName: "test", clientAddress: "127.0.0.1", now: test.clock.now)
        let found = rows.enumerated().map { index, row in
            FHIRImport.Measurement(kind: row.0, value: row.1, unit: row.2, effective: row.3,
                                   identifierSystem: system, identifierValue: system.map { _ in "obs-\(patient)-\(index)" })
        }
        let added = try test.write { db in try FHIRMeasurements.add(found, patientId: patient, ownObservations: "https://clinic.example/obs", audit: audit, db) }
        #expect(added == rows.count)
    }

    static func translator(of username: String, _ test: TestApp) throws -> Translator {
        let locale = try test.read { db in try User.filter(Column("username") == username).fetchOne(db)?.appLocale } ?? .ptBR
        return test.app.catalogues.translator(for: locale)
    }

    @Test func theTrainersClientPageListsAndDrawsWhatWasImported() async throws {
        let test = try await TestApp()
        let fernanda = try test.id(of: "Fernanda Dias")
        let dani = try test.id(of: "dani")
        let t = try Self.translator(of: "dani", test)
        let browser = try test.browser(loggedInAs: "dani")
        let before = try browser.get(BodyCompositionEndpoints.showClient.path(fernanda)).text
        #expect(!before.contains("imported-measurements"))
        let charts = before.matches(of: /<svg/).count

        try Self.importing([("weight", 71.4, "kg", "2026-10-02"), ("percent-fat", 24.5, "%", "2026-10-02"),
                            ("perimeter-waist", 80.5, "cm", "2026-10-09T08:30:00-03:00")], for: fernanda, by: dani, test)
        try Self.importing([("weight", 70.9, "kg", "2026-10-20")], for: fernanda, by: dani, system: nil, test)
        let page = try browser.get(BodyCompositionEndpoints.showClient.path(fernanda))
        #expect(page.status == 200)
        let table = try #require(page.text.firstMatch(of: /<table class="table" id="imported-measurements">[\s\S]*?<\/table>/)).0
        #expect(table.matches(of: /<tr><td>/).count == 4)
        #expect(table.contains(t("fhir_imported_from", ["source": "hospital.example"])))
        #expect(table.contains(t["fhir_imported_unknown"]))
        #expect(table.contains(t[PerimeterSite.waist.catalogueKey]) && table.contains("80"))
        #expect(!page.text.contains("⟦"), "every text in the catalogues")
        // The weight, % fat and waist charts gain an imported series each (a waist chart appears if there was none).
        #expect(page.text.contains(t("fhir_imported_series", ["measure": t["result_weight"]])))
        #expect(page.text.contains(t("fhir_imported_series", ["measure": t["result_percent_fat"]])))
        #expect(page.text.contains(t("fhir_imported_series", ["measure": t[PerimeterSite.waist.catalogueKey]])))
        #expect(page.text.matches(of: /<svg/).count >= charts)
    }

    @Test func theNutritionistAndThePatientSeeImportedWeightsMarked() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let nadia = try test.id(of: "nadia")
        try Self.importing([("weight", 64.25, "kg", "2026-09-15"), ("weight", 63.5, "kg", "2026-10-15")], for: elisa, by: nadia, test)
        try Self.importing([("height", 165, "cm", "2026-10-15")], for: elisa, by: nadia, system: "urn:oid:1.2.3", test)

        let t = try Self.translator(of: "nadia", test)
        let week = try test.browser(loggedInAs: "nadia").get(NutritionEndpoints.review.path(elisa))
        #expect(week.status == 200)
        let weights = try #require(week.text.firstMatch(of: /<section aria-labelledby="weights-title">[\s\S]*?<\/section>/)).0
        #expect(weights.matches(of: /class="muted imported"/).count == 2, "the two weights, not the height")
        #expect(weights.contains(t("fhir_imported_from", ["source": "hospital.example"])))
        #expect(weights.contains(t("fhir_imported_series", ["measure": t["field_weight"]])), "a series of the chart")

        let own = try Self.translator(of: "elisa", test)
        let measurements = try test.browser(loggedInAs: "elisa").get(CheckInEndpoints.showMeasurements.path())
        #expect(measurements.status == 200)
        #expect(measurements.text.components(separatedBy: own("fhir_imported_from", ["source": "hospital.example"])).count - 1 == 2)
        #expect(!measurements.text.contains(own["weights_empty"]))
    }
}
