import HTTPServer

/// Every route of RecordRoutes, declared once: its method, path and who may call it. The overview
/// itself is `PeopleEndpoints.showPatient`.
enum RecordEndpoints {
    /// The progress report of a period (`?from=&to=`, ISO dates): for the family, the school or an insurer.
    static let report = Endpoint<Int64>(.get, "/patients/:id/report", .signedIn([.clinician, .tutor, .trainer]))
    /// The signed-in adult patient's own report, as a family's (never in patient mode: a child's is the tutor's).
    static let mine = Endpoint< >(.get, "/my-report", .signedIn([.patient]))
}
