import HTTPServer

/// Every route of EduCATRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`EduCATEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum EduCATEndpoints {
    static let menu = Endpoint< >(.get, "/educat", .signedIn([.patient]))
    static let screen = Endpoint<String>(.get, "/educat/:screen", .signedIn([.patient]))
    static let activity = Endpoint<String, String>(.get, "/educat/:screen/:mode", .signedIn([.patient]))
    static let postResult = Endpoint< >(.post, "/educat/results", .signedIn([.patient]))
    static let results = Endpoint<Int64>(.get, "/patients/:id/educat", .signedIn([.clinician, .tutor], clinicianSpecialty: .speech))
    static let postAnswers = Endpoint< >(.post, "/educat/answers", .signedIn([.patient]))
    static let settings = Endpoint<Int64>(.get, "/patients/:id/educat/settings", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let addItem = Endpoint<Int64>(.post, "/patients/:id/educat/items", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let removeItem = Endpoint<Int64, Int64>(.post, "/patients/:id/educat/items/:item/delete",
                                                   .signedIn([.clinician], clinicianSpecialty: .speech))
    /// A new recorded voice for a word or letter the clinician added (or back to the generated one).
    static let replaceClip = Endpoint<Int64, Int64>(.post, "/patients/:id/educat/items/:item/clip",
                                                    .signedIn([.clinician], clinicianSpecialty: .speech))
    /// The teacher's own picture of a word: the patient, and the adults linked to them, only.
    static let itemPicture = Endpoint<Int64, Int64>(.get, "/patients/:id/educat/items/:item/picture",
                                                    .signedIn([.patient, .clinician, .tutor], clinicianSpecialty: .speech))
    static let saveSettings = Endpoint<Int64>(.post, "/patients/:id/educat/settings", .signedIn([.clinician], clinicianSpecialty: .speech))
}
