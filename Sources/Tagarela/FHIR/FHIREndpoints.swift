import Foundation
import HTTPServer

/// Every route of FHIRRoutes, declared once: its method, path and who may call it.
enum FHIREndpoints {
    /// The export's page: a period to choose, the whole record by default.
    static let page = Endpoint<Int64>(.get, "/patients/:id/fhir", .signedIn([.clinician, .trainer]))
    /// The record as a FHIR R4 Bundle (`?from=&to=`, ISO dates, both optional). A write: the export is audited.
    static let bundle = Endpoint<Int64>(.get, "/patients/:id/fhir/bundle.json", .signedIn([.clinician, .trainer]))
    /// What a FHIR file would add, shown before anything is stored (a read: nothing changes).
    static let previewImport = Endpoint<Int64>(.post, "/patients/:id/fhir/import/preview",
                                               .signedIn([.clinician, .trainer], clinicianSpecialty: .nutrition))
    /// Stores the measurements the preview showed (checked again).
    static let saveImport = Endpoint<Int64>(.post, "/patients/:id/fhir/import", .signedIn([.clinician, .trainer], clinicianSpecialty: .nutrition))

    // The read-only API for the clinic's systems: a bearer token, never a session (see FHIRAPIRoutes).
    static let metadata = Endpoint< >(.get, "/fhir/r4/metadata", .anyone)
    static let apiPatient = Endpoint<Int64>(.get, "/fhir/r4/Patient/:id", .anyone)
    static let apiObservations = Endpoint< >(.get, "/fhir/r4/Observation", .anyone)
    static let apiGoals = Endpoint< >(.get, "/fhir/r4/Goal", .anyone)
    /// The API's base, which its CapabilityStatement names: the folder `metadata` is in.
    static var root: String { (metadata.path() as NSString).deletingLastPathComponent }

    // The administrator's tokens.
    static let tokens = Endpoint< >(.get, "/admin/fhir-tokens", .signedIn([.admin]))
    static let issueToken = Endpoint< >(.post, "/admin/fhir-tokens", .signedIn([.admin]))
    static let revokeToken = Endpoint<Int64>(.post, "/admin/fhir-tokens/:id/revoke", .signedIn([.admin]))
}
