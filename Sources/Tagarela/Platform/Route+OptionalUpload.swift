import GRDB
import HTTPServer

extension Router where Handler == Route {
    /// `write(_:preparing:_:_:)` for a form whose slow part may be left out (a meal answer's plate
    /// photo): `prepare` runs on the pool for `slow` only when the request carries a non-empty file
    /// in `field`, and on the request's own thread otherwise. The media pool runs one job at a time,
    /// so an answer without a photo (nearly all of them) never waits behind someone's ffmpeg.
    mutating func write<each P, Prepared: Sendable>(
        _ endpoint: Endpoint<repeat each P>, preparing slow: SlowWork, whenUploaded field: String,
        _ prepare: @escaping @Sendable (RequestContext, repeat each P) throws -> Step<Prepared>,
        _ handler: @escaping @Sendable (RequestContext, Database, Prepared, repeat each P) throws -> Reply
    ) {
        register(endpoint, .write) { dispatch, values in
            let run: @Sendable () throws -> Response = {
                try dispatch.then(try prepare(dispatch.context, repeat each values.all)) { prepared in
                    try dispatch.write { db in try handler(dispatch.context, db, prepared, repeat each values.all) }
                }
            }
            guard let upload = dispatch.context.request.file(named: field), upload.size > 0 else { return try run() }
            return dispatch.later(on: slow, run)
        }
    }
}
