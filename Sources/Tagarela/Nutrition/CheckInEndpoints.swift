import HTTPServer

/// Every route of CheckInRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`CheckInEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum CheckInEndpoints {
    static let showCheckIn = Endpoint< >(.get, "/meals", .signedIn([.patient]))
    static let showHistory = Endpoint< >(.get, "/meals/history", .signedIn([.patient]))
    static let showPlan = Endpoint< >(.get, "/meals/plan", .signedIn([.patient]))
    static let showMeal = Endpoint<Int64>(.get, "/meals/:meal", .signedIn([.patient]))
    static let showMealPhoto = Endpoint<Int64>(.get, "/meals/:meal/photo", .signedIn([.patient, .clinician], clinicianSpecialty: .nutrition))
    static let showAnswerForm = Endpoint<Int64>(.get, "/meals/:meal/answer", .signedIn([.patient]))
    static let answer = Endpoint<Int64>(.post, "/meals/:meal/answer", .signedIn([.patient]))
    static let showMeasurements = Endpoint< >(.get, "/measurements", .signedIn([.patient]))
    /// A consent: the patient's own, never given from patient mode.
    static let setSharing = Endpoint< >(.post, "/measurements/sharing", .ownAccount([.patient]))
    static let addWeight = Endpoint< >(.post, "/measurements", .signedIn([.patient]))
    static let importWeights = Endpoint< >(.post, "/measurements/import", .signedIn([.patient]))
}
