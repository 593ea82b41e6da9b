import GRDB
import HTTPServer

// Shapes for requests whose slow part comes after their write: a file built from what the write
// read (an export, audited in the write), a clip spoken for the sentence the write just logged.
extension Router where Handler == Route {
    /// One write, then `finish` holding no transaction (zipping a package, building a log): the write
    /// answers `.reply` to stop there, or `.next` with what `finish` needs.
    mutating func write<each P, Found: Sendable>(
        _ endpoint: Endpoint<repeat each P>,
        _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Step<Found>,
        then finish: @escaping @Sendable (RequestContext, Found) throws -> Reply
    ) {
        register(endpoint, .write) { dispatch, values in
            try dispatch.then(try dispatch.database.write { db in try handler(dispatch.context, db, repeat each values.all) }) { found in
                dispatch.render(try finish(dispatch.context, found))
            }
        }
    }

    /// One write, then slow work on a pool holding no transaction, then a second short write that keeps
    /// what the work made (a clip's file name). Two accesses, one after the other, never nested; the
    /// first write answers `.reply` to stop there (the common case makes one access).
    mutating func write<each P, Found: Sendable, Made: Sendable>(
        _ endpoint: Endpoint<repeat each P>,
        _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Step<Found>,
        then slow: SlowWork, _ work: @escaping @Sendable (RequestContext, Found) throws -> Step<Made>,
        keeping keep: @escaping @Sendable (RequestContext, Database, Made) throws -> Reply
    ) {
        register(endpoint, .readThenWrite) { dispatch, values in
            try dispatch.then(dispatch.database.write { db in try handler(dispatch.context, db, repeat each values.all) }) { found in
                dispatch.later(on: slow) {
                    try dispatch.then(try work(dispatch.context, found)) { made in
                        try dispatch.write { db in try keep(dispatch.context, db, made) }
                    }
                }
            }
        }
    }
}

/// How a page read in one transaction is finished holding none.
enum Finish: Sendable {
    /// The reply, ready to render.
    case reply(Reply)
    /// Slow work first (a clip the page plays, made once), on a pool; its reply when it ends.
    case later(SlowWork, @Sendable () throws -> Reply)
}

extension Router where Handler == Route {
    /// A page kept whole between requests (see `RequestContext.cachedPage`) whose read finds what it
    /// shows, and whose `finish` builds it after the transaction ended: renders a piece the read found
    /// missing from `FragmentCache`, or makes a clip on a pool.
    mutating func read<each P, Found: Sendable>(
        _ endpoint: Endpoint<repeat each P>, cachedAs cacheKey: @escaping @Sendable (RequestContext, repeat each P) -> String,
        _ query: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Found,
        then finish: @escaping @Sendable (RequestContext, Found) throws -> Finish
    ) {
        register(endpoint, .read) { dispatch, values in
            try dispatch.context.cachedPage(cacheKey(dispatch.context, repeat each values.all)) {
                let found = try dispatch.database.read { db in try query(dispatch.context, db, repeat each values.all) }
                switch try finish(dispatch.context, found) {
                case .reply(let reply): return dispatch.render(reply)
                case .later(let slow, let work): return dispatch.later(on: slow) { dispatch.render(try work()) }
                }
            }
        }
    }
}

extension Router where Handler == Route {
    /// A page not kept between requests whose read finds what it shows, and whose `finish` builds it
    /// after the transaction ended, perhaps after slow work on a pool (the timer's alarm in the patient's voice).
    mutating func read<each P, Found: Sendable>(
        _ endpoint: Endpoint<repeat each P>,
        _ query: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Found,
        then finish: @escaping @Sendable (RequestContext, Found) throws -> Finish
    ) {
        register(endpoint, .read) { dispatch, values in
            let found = try dispatch.database.read { db in try query(dispatch.context, db, repeat each values.all) }
            switch try finish(dispatch.context, found) {
            case .reply(let reply): return dispatch.render(reply)
            case .later(let slow, let work): return dispatch.later(on: slow) { dispatch.render(try work()) }
            }
        }
    }
}
