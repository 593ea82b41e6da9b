import Foundation
import HTTPServer

extension Response {
    /// A JSON answer for the page scripts and the service worker; never cached (it answers a POST, or
    /// describes what the server has now).
    static func json(_ value: some Encodable, status: Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = Headers()
        headers["Content-Type"] = "application/json"
        headers["Cache-Control"] = "no-store"
        return Response(status: status, headers: headers, body: Array(try encoder.encode(value)))
    }

    /// A file to save (an export): never cached, since it holds a patient's data.
    static func download(_ bytes: some Sequence<UInt8>, type: String, name: String) -> Response {
        var response = Response(status: .ok, body: Array(bytes))
        response.headers["Content-Type"] = type
        response.headers["Content-Disposition"] = "attachment; filename=\"\(name)\""
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
