/// A response to send: status, headers and a body held in memory.
public struct Response: Sendable {
    public var status: Status
    public var headers: Headers
    public var body: [UInt8]
    /// Set by ``Response/deferred(on:_:)``: the real response is still to be computed.
    public internal(set) var deferred: Deferred?

    public init(status: Status = .ok, headers: Headers = Headers(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func html(_ html: String, status: Status = .ok) -> Response {
        var headers = Headers()
        headers["Content-Type"] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: Array(html.utf8))
    }

    public static func text(_ text: String, status: Status = .ok) -> Response {
        var headers = Headers()
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A redirect; `303 See Other` by default, which turns a POST into a GET (Post/Redirect/Get).
    public static func redirect(to location: String, status: Status = .seeOther) -> Response {
        var headers = Headers()
        headers["Location"] = location
        return Response(status: status, headers: headers)
    }

    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }
}

/// A `Set-Cookie` header value.
public struct SetCookie: Sendable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path = "/"
    public var maxAgeSeconds: Int?
    public var httpOnly = true
    public var secure = false
    public var sameSite: SameSite = .lax

    public init(name: String, value: String, maxAgeSeconds: Int? = nil, secure: Bool = false,
                httpOnly: Bool = true, sameSite: SameSite = .lax) {
        self.name = name
        self.value = value
        self.maxAgeSeconds = maxAgeSeconds
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// A cookie that tells the browser to forget `name`.
    public static func expired(_ name: String, secure: Bool = false) -> SetCookie {
        SetCookie(name: name, value: "", maxAgeSeconds: 0, secure: secure)
    }

    public var headerValue: String {
        var parts = ["\(name)=\(value)", "Path=\(path)"]
        if let maxAgeSeconds { parts.append("Max-Age=\(maxAgeSeconds)") }
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        parts.append("SameSite=\(sameSite.rawValue)")
        return parts.joined(separator: "; ")
    }
}
