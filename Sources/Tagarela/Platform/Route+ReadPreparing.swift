import GRDB
import HTTPServer

extension Router where Handler == Route {
    /// A page that may need slow work before it can be read and shown: a speech clip made by espeak-ng
    /// (the timer's alarm). `needsPool` says whether this request needs the pool at all: when it does
    /// not, `prepare` runs on the request's thread (it must then be quick: a file check), so a plain
    /// page never queues behind an upload being converted. `prepare` gets no database; the read follows.
    mutating func read<each P, Prepared: Sendable>(
        _ endpoint: Endpoint<repeat each P>, preparing slow: SlowWork,
        when needsPool: @escaping @Sendable (RequestContext) -> Bool,
        _ prepare: @escaping @Sendable (RequestContext, repeat each P) throws -> Step<Prepared>,
        _ handler: @escaping @Sendable (RequestContext, Database, Prepared, repeat each P) throws -> Reply
    ) {
        add(endpoint.method, endpoint.pattern, Route(endpoint, database: .read) { dispatch in
            guard let values = endpoint.parameters(dispatch.context.request.pathParameters) else { return nil }
            let run: @Sendable () throws -> Response = {
                switch try prepare(dispatch.context, repeat each values) {
                case .reply(let reply): return dispatch.render(reply)
                case .next(let prepared):
                    let reply = try dispatch.database.read { db in try handler(dispatch.context, db, prepared, repeat each values) }
                    return dispatch.render(reply)
                }
            }
            return needsPool(dispatch.context) ? dispatch.later(on: slow, run) : try run()
        })
    }
}
