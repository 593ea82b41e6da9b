/// An HTTP request method.
public enum Method: Hashable, Sendable, CustomStringConvertible {
    case get, head, post, put, patch, delete, options
    case other(String)

    public init(_ name: String) {
        switch name {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = .other(name)
        }
    }

    public var description: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .other(let name): name
        }
    }
}

/// An HTTP status code with its reason phrase.
public struct Status: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public init(_ code: Int) { self.code = code }

    public static let ok = Status(200)
    public static let created = Status(201)
    public static let noContent = Status(204)
    public static let movedPermanently = Status(301)
    public static let found = Status(302)
    public static let seeOther = Status(303)
    public static let notModified = Status(304)
    public static let badRequest = Status(400)
    public static let forbidden = Status(403)
    public static let notFound = Status(404)
    public static let methodNotAllowed = Status(405)
    public static let conflict = Status(409)
    public static let gone = Status(410)
    public static let contentTooLarge = Status(413)
    public static let unsupportedMediaType = Status(415)
    public static let unprocessableContent = Status(422)
    public static let tooManyRequests = Status(429)
    public static let internalServerError = Status(500)
    public static let serviceUnavailable = Status(503)
    public static let insufficientStorage = Status(507)

    public var isError: Bool { code >= 400 }
    public var description: String { String(code) }
}
