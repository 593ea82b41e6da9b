import HTTPServer

/// Every route of GoalRoutes, declared once: its method, path and who may call it. Which kinds of goal a
/// clinician may set follows their specialties (`GoalArea.specialty`); a trainer sets body-composition
/// goals for their clients; both checked by the handlers (`GoalAccess`).
enum GoalEndpoints {
    static let list = Endpoint<Int64>(.get, "/patients/:id/goals", .signedIn([.clinician, .tutor, .trainer]))
    static let new = Endpoint<Int64>(.get, "/patients/:id/goals/new", .signedIn([.clinician, .trainer]))
    static let create = Endpoint<Int64>(.post, "/patients/:id/goals", .signedIn([.clinician, .trainer]))
    static let show = Endpoint<Int64, Int64>(.get, "/patients/:id/goals/:goal", .signedIn([.clinician, .tutor, .trainer]))
    static let edit = Endpoint<Int64, Int64>(.get, "/patients/:id/goals/:goal/edit", .signedIn([.clinician, .trainer]))
    static let update = Endpoint<Int64, Int64>(.post, "/patients/:id/goals/:goal", .signedIn([.clinician, .trainer]))
    static let close = Endpoint<Int64, Int64>(.post, "/patients/:id/goals/:goal/close", .signedIn([.clinician, .trainer]))
    static let reopen = Endpoint<Int64, Int64>(.post, "/patients/:id/goals/:goal/reopen", .signedIn([.clinician, .trainer]))
    static let addNote = Endpoint<Int64, Int64>(.post, "/patients/:id/goals/:goal/notes", .signedIn([.clinician, .tutor]))
    /// The signed-in patient's own goals, in plain words.
    static let mine = Endpoint< >(.get, "/my-goals", .signedIn([.patient]))
}
