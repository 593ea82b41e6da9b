import Foundation

/// A complete HTTP request, body included, as handed to a ``Responder``.
public struct Request: Sendable {
    public var method: Method
    /// The path, percent-decoded, without the query string.
    public var path: String
    public var query: Parameters
    public var headers: Headers
    public var cookies: [String: String]
    /// Fields and files of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: Parameters
    public var files: [UploadedFile]
    /// The raw body, for any other content type.
    public var body: [UInt8]
    public var clientAddress: String
    /// Values of the `:name` segments of the route that matched.
    public var pathParameters: [String: String] = [:]

    public init(
        method: Method, path: String, query: Parameters = Parameters(), headers: Headers = Headers(),
        cookies: [String: String] = [:], form: Parameters = Parameters(), files: [UploadedFile] = [],
        body: [UInt8] = [], clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.form = form
        self.files = files
        self.body = body
        self.clientAddress = clientAddress
    }

    public func file(named field: String) -> UploadedFile? {
        files.first { $0.field == field }
    }
}

/// Ordered name → values pairs, as found in a query string or a form.
public struct Parameters: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(String, String)] = []) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    public func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    public mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// A file part of a multipart body, streamed to a temporary file while it arrived.
///
/// The temporary file is removed once the response has been sent: a handler that keeps
/// the upload moves it elsewhere first.
public struct UploadedFile: Sendable {
    public let field: String
    public let filename: String
    public let contentType: String
    public let temporaryPath: String
    public let size: Int
}
