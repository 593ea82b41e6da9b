import GRDB
import HTTPServer

/// What a route does, as a chain of steps, each one thing: a database access (`read`, `write`), slow
/// work on one of the app's pools holding no transaction (`slow`), or work after the accesses ended
/// (`finish`). A route is registered with its chain, and the chain is the only way one is registered:
///
///     router.add(NutritionEndpoints.review) { $0.read(review) }
///     router.add(CheckInEndpoints.answer) { $0.slow(.media, whenUploaded: "photo", storePhoto).write(answer) }
///     router.add(AccountsEndpoints.login) { $0.read(account).slow(.passwordHashing, verify).write(signIn) }
///     router.add(OBFEndpoints.exportBoard) { $0.write(exportSource).finish(exportBoard) }
///
/// Each step is given the request's context, the database when it is an access, what the step before
/// found (the first step, nothing), and the path's parameters. A step whose handler returns a `Step`
/// may stop the chain with a reply of its own (a wrong password). The reply is rendered after the last
/// step, never inside a transaction, and how the chain uses the database (`DatabaseUse`) follows from
/// its steps: at most two accesses, one after the other, never nested.
struct Steps<Value: Sendable, each P: PathParameter>: Sendable {
    typealias Next = @Sendable (Value) throws -> Response
    fileprivate let database: DatabaseUse
    fileprivate let cacheKey: (@Sendable (RequestContext, repeat each P) -> String)?
    /// Runs the steps so far on the request, then `next` with what the last one found.
    fileprivate let run: @Sendable (Dispatch, PathValues<repeat each P>, @escaping Next) throws -> Response

    fileprivate func then<Found>(_ access: DatabaseUse,
                                 _ step: @escaping @Sendable (Dispatch, PathValues<repeat each P>, Value,
                                                              @escaping Steps<Found, repeat each P>.Next) throws -> Response)
    -> Steps<Found, repeat each P> {
        let run = run
        return Steps<Found, repeat each P>(database: database.then(access), cacheKey: cacheKey) { dispatch, values, next in
            try run(dispatch, values) { value in try step(dispatch, values, value, next) }
        }
    }
}

extension Steps where Value == Void {
    static var start: Steps {
        Steps(database: .none, cacheKey: nil) { _, _, next in try next(()) }
    }

    /// The page kept whole between requests (see `RequestContext.cachedPage`) under the key `key` gives;
    /// the steps run only when it is not kept.
    func cached(as key: @escaping @Sendable (RequestContext, repeat each P) -> String) -> Steps {
        Steps(database: database, cacheKey: key, run: run)
    }

    /// A reply made without the database (a redirect, a static page, a form that is empty).
    func reply(_ make: @escaping @Sendable (RequestContext, repeat each P) throws -> Reply) -> Steps<Reply, repeat each P> {
        then(.none) { dispatch, values, _, next in try next(try make(dispatch.context, repeat each values.all)) }
    }

    /// One read transaction.
    func read<Found>(_ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Found)
    -> Steps<Found, repeat each P> { access(.read) { context, db, values in .next(try handler(context, db, repeat each values.all)) } }

    /// One read transaction that may stop the chain with its own reply.
    func read<Found>(_ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Step<Found>)
    -> Steps<Found, repeat each P> { access(.read) { context, db, values in try handler(context, db, repeat each values.all) } }

    /// One write transaction (which may read first).
    func write<Found>(_ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Found)
    -> Steps<Found, repeat each P> { access(.write) { context, db, values in .next(try handler(context, db, repeat each values.all)) } }

    /// One write transaction that may stop the chain with its own reply (an export refused).
    func write<Found>(_ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Step<Found>)
    -> Steps<Found, repeat each P> { access(.write) { context, db, values in try handler(context, db, repeat each values.all) } }

    private func access<Found>(_ use: DatabaseUse,
                               _ body: @escaping @Sendable (RequestContext, Database, PathValues<repeat each P>) throws -> Step<Found>)
    -> Steps<Found, repeat each P> {
        then(use) { dispatch, values, _, next in
            let step = use == .read ? try dispatch.database.read { db in try body(dispatch.context, db, values) }
                                    : try dispatch.database.write { db in try body(dispatch.context, db, values) }
            return try dispatch.then(step, next)
        }
    }

    /// Slow work before any access (an upload decoded by ffmpeg, a password hashed), on the pool for
    /// `pool`. With `field`, only when the request carries a non-empty file there, and on the request's
    /// own thread otherwise: the media pool runs one job at a time, and a meal answered without a photo
    /// (nearly all of them) never waits behind someone's ffmpeg.
    func slow<Made>(_ pool: SlowWork, whenUploaded field: String? = nil,
                    _ work: @escaping @Sendable (RequestContext, repeat each P) throws -> Step<Made>) -> Steps<Made, repeat each P> {
        then(.none) { dispatch, values, _, next in
            let run: @Sendable () throws -> Response = {
                try dispatch.then(try work(dispatch.context, repeat each values.all), next)
            }
            if let field, (dispatch.context.request.file(named: field)?.size ?? 0) == 0 { return try run() }
            return dispatch.later(on: pool, run)
        }
    }
}

extension Steps {
    /// A write transaction after an earlier step, given what it found.
    func write<Found>(_ handler: @escaping @Sendable (RequestContext, Database, Value, repeat each P) throws -> Found)
    -> Steps<Found, repeat each P> {
        then(.write) { dispatch, values, value, next in
            try next(try dispatch.database.write { db in try handler(dispatch.context, db, value, repeat each values.all) })
        }
    }

    /// Slow work after an earlier step, on the pool for `pool`, holding no transaction: a password
    /// checked against the hash the read found, a clip made for the sentence the write logged.
    func slow<Made>(_ pool: SlowWork, _ work: @escaping @Sendable (RequestContext, Value, repeat each P) throws -> Step<Made>)
    -> Steps<Made, repeat each P> {
        then(.none) { dispatch, values, value, next in
            dispatch.later(on: pool) { try dispatch.then(try work(dispatch.context, value, repeat each values.all), next) }
        }
    }

    /// The reply, built from what the accesses found after they ended (a file zipped, a piece rendered).
    func finish(_ build: @escaping @Sendable (RequestContext, Value, repeat each P) throws -> Reply) -> Steps<Reply, repeat each P> {
        then(.none) { dispatch, values, value, next in try next(try build(dispatch.context, value, repeat each values.all)) }
    }

    /// The reply, or slow work on a pool that makes it (a clip the page plays, made once).
    func finish(_ build: @escaping @Sendable (RequestContext, Value, repeat each P) throws -> Finish) -> Steps<Reply, repeat each P> {
        then(.none) { dispatch, values, value, next in
            switch try build(dispatch.context, value, repeat each values.all) {
            case .reply(let reply): return try next(reply)
            case .later(let pool, let work): return dispatch.later(on: pool) { try next(try work()) }
            }
        }
    }

    /// A read that sometimes leaves a mark (a clinician's opening of a patient): when the read found
    /// one, `keep` writes it in a second, short transaction. A full disk does not stop the page: the
    /// mark is left for a later opening.
    func marking<Mark: Sendable>(_ keep: @escaping @Sendable (RequestContext, Database, Mark, repeat each P) throws -> Void)
    -> Steps<Reply, repeat each P> where Value == (Reply, mark: Mark?) {
        then(.readThenMark) { dispatch, values, found, next in
            if let mark = found.mark {
                do { try dispatch.database.write { db in try keep(dispatch.context, db, mark, repeat each values.all) } }
                catch where StorageFull.matches(error) {}
            }
            return try next(found.0)
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
    /// Registers `endpoint`'s route as the chain of steps `steps` makes from the start. A path parameter
    /// that does not parse (an id that is not a number) is a 404.
    mutating func add<each P>(_ endpoint: Endpoint<repeat each P>,
                              _ steps: (Steps<Void, repeat each P>) -> Steps<Reply, repeat each P>) {
        let chain = steps(.start)
        add(endpoint.method, endpoint.pattern, Route(endpoint, database: chain.database) { dispatch in
            guard let parsed = endpoint.parameters(dispatch.context.request.pathParameters) else { return nil }
            let values = PathValues(all: (repeat each parsed))
            let answer = { try chain.run(dispatch, values) { reply in dispatch.render(reply) } }
            guard let key = chain.cacheKey else { return try answer() }
            return try dispatch.context.cachedPage(key(dispatch.context, repeat each values.all), build: answer)
        })
    }
}
