import HTTPServer

/// A handler and who may call it.
struct Route: Sendable {
    let access: Access
    let handler: App.Handler
}

extension Router where Handler == Route {
    mutating func get(_ pattern: String, _ access: Access, _ handler: @escaping App.Handler) {
        add(.get, pattern, Route(access: access, handler: handler))
    }

    mutating func post(_ pattern: String, _ access: Access, _ handler: @escaping App.Handler) {
        add(.post, pattern, Route(access: access, handler: handler))
    }
}
