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
        register(endpoint, .read) { dispatch, values in
            let run: @Sendable () throws -> Response = {
                try dispatch.then(try prepare(dispatch.context, repeat each values.all)) { prepared in
                    try dispatch.read { db in try handler(dispatch.context, db, prepared, repeat each values.all) }
                }
            }
            return needsPool(dispatch.context) ? dispatch.later(on: slow, run) : try run()
        }
    }
}
