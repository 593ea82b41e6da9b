import GRDB
import HTTPServer

/// How a route's handler touches the database. Declared with the route, opened by the dispatcher:
/// a handler receives a `Database` and never the pool, so it cannot open a second access.
enum DatabaseUse: Sendable, Equatable {
    case none
    case read
    case write
    /// A read, slow work holding no transaction (a password hash), then a write: logins. Two accesses,
    /// one after the other, never nested.
    case readThenWrite
    /// A read, then a short write only when the read asks for one: a bookmark of what was read (a
    /// clinician's opening of a patient, kept when it told her something new). Most requests write
    /// nothing, so it does not wait for the writer as a write does.
    case readThenMark

    /// Whether a request of this route waits for SQLite's one writer.
    var writes: Bool {
        switch self {
        case .write, .readThenWrite: true
        case .none, .read, .readThenMark: false
        }
    }

    /// How many accesses a request of this route makes at most.
    var accesses: Int {
        switch self {
        case .none: 0
        case .read, .write: 1
        case .readThenWrite, .readThenMark: 2
        }
    }
}

/// Work too slow for a server thread, run on one of the app's pools while the connection waits.
enum SlowWork: Sendable {
    /// ffmpeg and espeak-ng: pictures, recordings, speech clips, imported boards.
    case media
    /// argon2.
    case passwordHashing
}

/// When a step may stop the request early with a reply of its own (a wrong password, a used invitation).
enum Step<Value: Sendable>: Sendable {
    case reply(Reply)
    case next(Value)
}

/// A registered route: who may call it, how it uses the database, and how the dispatcher runs it.
struct Route: Sendable {
    let access: Access
    let database: DatabaseUse
    /// The route printed with example values, and a matched path's parameters parsed and printed
    /// again: the round-trip test of every route compares the two.
    let examplePath: String
    let reprint: @Sendable ([String: String]) -> String?
    /// Answers the request; nil when a path parameter does not parse (an id that is not a number).
    let run: @Sendable (Dispatch) throws -> Response?
}

extension Route {
    init<each P>(_ endpoint: Endpoint<repeat each P>, database: DatabaseUse,
                 run: @escaping @Sendable (Dispatch) throws -> Response?) {
        self.init(access: endpoint.access, database: database, examplePath: endpoint.examplePath,
                  reprint: { endpoint.reprinted($0) }, run: run)
    }
}

/// What the dispatcher hands a route to run it: the request's context and the platform's means (the
/// database, the pools, the renderer). Made by `App` only; feature code never holds one.
struct Dispatch: Sendable {
    let context: RequestContext
    let app: App
    let database: DatabaseScope

    func render(_ reply: Reply) -> Response { app.response(for: reply, context) }

    /// `work` on the pool for `slow`, its result (or the error it throws) answered when it ends.
    func later(on slow: SlowWork, _ work: @escaping @Sendable () throws -> Response?) -> Response {
        let pool = switch slow { case .media: app.mediaPool
                                 case .passwordHashing: app.hashingPool }
        let (app, context) = (app, context)
        return .deferred(on: pool) {
            app.run({ _ in try work() ?? app.errorPage(.notFound, locale: context.locale, context: context) }, context)
        }
    }
}

extension Dispatch {
    /// One read transaction, then its reply rendered after it ended.
    func read(_ handler: (Database) throws -> Reply) throws -> Response { render(try database.read(handler)) }

    /// One write transaction, then its reply rendered after it ended.
    func write(_ handler: (Database) throws -> Reply) throws -> Response { render(try database.write(handler)) }

    /// A step that stopped with a reply, rendered; or the next step, given what it found.
    func then<Value>(_ step: Step<Value>, _ next: (Value) throws -> Response) rethrows -> Response {
        switch step {
        case .reply(let reply): render(reply)
        case .next(let value): try next(value)
        }
    }
}

/// A matched path's parameters, parsed, as a route's steps receive them.
struct PathValues<each P: PathParameter>: Sendable {
    let all: (repeat each P)
}

extension Router where Handler == Route {
    /// The one way a route is registered: its path parameters parsed (one that does not parse is a 404),
    /// then `run`, which makes the request's database accesses through `Dispatch.read`/`Dispatch.write`
    /// and renders after them. Every shape below is a spelling of it, named for what its handler does.
    mutating func register<each P>(_ endpoint: Endpoint<repeat each P>, _ database: DatabaseUse,
                                   _ run: @escaping @Sendable (Dispatch, PathValues<repeat each P>) throws -> Response) {
        add(endpoint.method, endpoint.pattern, Route(endpoint, database: database) { dispatch in
            guard let values = endpoint.parameters(dispatch.context.request.pathParameters) else { return nil }
            return try run(dispatch, PathValues(all: (repeat each values)))
        })
    }

    // MARK: Routes declared as `Endpoint` values

    /// A route that needs no database (a redirect, a static page, a form that is empty).
    mutating func add<each P>(_ endpoint: Endpoint<repeat each P>,
                              _ handler: @escaping @Sendable (RequestContext, repeat each P) throws -> Reply) {
        register(endpoint, .none) { dispatch, values in dispatch.render(try handler(dispatch.context, repeat each values.all)) }
    }

    /// A route that reads: one read transaction, then the reply is rendered.
    mutating func read<each P>(_ endpoint: Endpoint<repeat each P>,
                               _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Reply) {
        register(endpoint, .read) { dispatch, values in try dispatch.read { db in try handler(dispatch.context, db, repeat each values.all) } }
    }

    /// A page read in one transaction that sometimes leaves a mark: the read answers the reply and,
    /// when something must be remembered, the mark; `keep` writes it in a second, short transaction
    /// after the read ended, and the reply is rendered after both. A full disk does not stop the page:
    /// the mark is left for a later opening.
    mutating func read<each P, Mark: Sendable>(
        _ endpoint: Endpoint<repeat each P>,
        _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> (Reply, mark: Mark?),
        thenMarking keep: @escaping @Sendable (RequestContext, Database, Mark) throws -> Void
    ) {
        register(endpoint, .readThenMark) { dispatch, values in
            let (reply, mark) = try dispatch.database.read { db in try handler(dispatch.context, db, repeat each values.all) }
            if let mark {
                do { try dispatch.database.write { db in try keep(dispatch.context, db, mark) } } catch where StorageFull.matches(error) {}
            }
            return dispatch.render(reply)
        }
    }

    /// A page kept whole between requests (see `RequestContext.cachedPage`) under the key `cacheKey` gives.
    mutating func read<each P>(_ endpoint: Endpoint<repeat each P>, cachedAs cacheKey: @escaping @Sendable (RequestContext, repeat each P) -> String,
                               _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Reply) {
        register(endpoint, .read) { dispatch, values in
            try dispatch.context.cachedPage(cacheKey(dispatch.context, repeat each values.all)) {
                try dispatch.read { db in try handler(dispatch.context, db, repeat each values.all) }
            }
        }
    }

    /// A route that writes: one write transaction (which may read first), then the reply is rendered.
    mutating func write<each P>(_ endpoint: Endpoint<repeat each P>,
                                _ handler: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Reply) {
        register(endpoint, .write) { dispatch, values in try dispatch.write { db in try handler(dispatch.context, db, repeat each values.all) } }
    }

    /// A write that needs slow work first, done on a pool before the transaction opens: an upload
    /// decoded by ffmpeg, a clip made by espeak-ng, a password hashed. `prepare` gets no database.
    mutating func write<each P, Prepared: Sendable>(
        _ endpoint: Endpoint<repeat each P>, preparing slow: SlowWork,
        _ prepare: @escaping @Sendable (RequestContext, repeat each P) throws -> Step<Prepared>,
        _ handler: @escaping @Sendable (RequestContext, Database, Prepared, repeat each P) throws -> Reply
    ) {
        register(endpoint, .write) { dispatch, values in
            dispatch.later(on: slow) {
                try dispatch.then(try prepare(dispatch.context, repeat each values.all)) { prepared in
                    try dispatch.write { db in try handler(dispatch.context, db, prepared, repeat each values.all) }
                }
            }
        }
    }

    /// Logins and password changes: a read, a password check on the hashing pool holding no
    /// transaction, then a write. The only shape with two accesses, and they never overlap.
    mutating func readCheckWrite<each P, Found: Sendable, Checked: Sendable>(
        _ endpoint: Endpoint<repeat each P>,
        read: @escaping @Sendable (RequestContext, Database, repeat each P) throws -> Step<Found>,
        check: @escaping @Sendable (RequestContext, Found) throws -> Step<Checked>,
        write: @escaping @Sendable (RequestContext, Database, Checked) throws -> Reply
    ) {
        register(endpoint, .readThenWrite) { dispatch, values in
            try dispatch.then(try dispatch.database.read { db in try read(dispatch.context, db, repeat each values.all) }) { found in
                dispatch.later(on: .passwordHashing) {
                    try dispatch.then(try check(dispatch.context, found)) { checked in
                        try dispatch.write { db in try write(dispatch.context, db, checked) }
                    }
                }
            }
        }
    }
}

/// A feature's routes and the templates its pages name, listed once in `App.features`: `add(to:)`
/// registers every route of the feature, and a template missing from `templates` stops the start.
protocol Feature {
    static var templates: [String] { get }
    static func add(to router: inout Router<Route>)
}
