import HTTPServer

/// Every route of SentenceRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`SentenceEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum SentenceEndpoints {
    static let addWord = Endpoint<Int64>(.post, "/plans/:plan/words", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let removeWord = Endpoint<Int64, Int64>(.post, "/plans/:plan/words/:word/remove", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let setShortcut = Endpoint<Int64, Int64>(.post, "/plans/:plan/words/:word/shortcut", .signedIn([.clinician], clinicianSpecialty: .speech))
    /// The whole-sentence clips of the sentence being built (`?words=`), made if missing: asked by the
    /// builder as each word is chosen, so "?" and NO sound whole when Speak is pressed.
    static let clips = Endpoint<Int64>(.get, "/play/:plan/sentence-clips", .signedIn([.patient]))
    /// The word's picture becomes the plan's picture on the child's tiles (`BoardCovers`).
    static let setCover = Endpoint<Int64, Int64>(.post, "/plans/:plan/words/:word/cover", .signedIn([.clinician], clinicianSpecialty: .speech))
    static let setLinks = Endpoint<Int64, Int64>(.post, "/plans/:plan/words/:word/links", .signedIn([.clinician], clinicianSpecialty: .speech))
}
