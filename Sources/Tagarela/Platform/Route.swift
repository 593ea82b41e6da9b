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

    /// The use of a route whose chain of steps (`Steps`) makes `next` after this one.
    func then(_ next: DatabaseUse) -> DatabaseUse {
        switch (self, next) {
        case (_, .none): self
        case (.none, _): next
        case (.read, .write), (.write, .write): .readThenWrite
        case (.read, .readThenMark): .readThenMark
        default: preconditionFailure("a route makes at most two accesses, one after the other: \(self) then \(next)")
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

/// A feature's routes and the templates its pages name, listed once in `App.features`: `add(to:)`
/// registers every route of the feature, and a template missing from `templates` stops the start.
protocol Feature: SendableMetatype {
    static var templates: [String] { get }
    static func add(to router: inout Router<Route>)
}
