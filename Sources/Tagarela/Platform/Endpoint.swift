import Foundation
import HTTPServer

/// A value that fills a `:name` segment of a path: record ids, tokens, slugs.
protocol PathParameter: Sendable, Equatable {
    init?(pathSegment: String)
    var pathSegment: String { get }
    /// A value for the `index`th hole of a pattern, different for every index: what the round-trip
    /// test of every route prints and matches.
    static func example(_ index: Int) -> Self
}

extension Int64: PathParameter {
    init?(pathSegment: String) { self.init(pathSegment, radix: 10) }
    var pathSegment: String { String(self) }
    static func example(_ index: Int) -> Int64 { 41 + Int64(index) }
}

extension Int: PathParameter {
    init?(pathSegment: String) { self.init(pathSegment, radix: 10) }
    var pathSegment: String { String(self) }
    static func example(_ index: Int) -> Int { 3 + index }
}

extension String: PathParameter {
    init?(pathSegment: String) {
        guard !pathSegment.isEmpty else { return nil }
        self = pathSegment
    }

    /// Clip and pictogram file names rarely need escaping, and a page prints dozens of them: Foundation's
    /// percent-encoding, which looks each character up in a `CharacterSet`, runs only when one does.
    var pathSegment: String {
        utf8.allSatisfy(Self.isPlainInPathSegment) ? self : addingPercentEncoding(withAllowedCharacters: .urlPathSegmentAllowed) ?? self
    }

    /// The ASCII of `CharacterSet.urlPathSegmentAllowed` (a test holds the two together).
    static func isPlainInPathSegment(_ byte: UInt8) -> Bool {
        switch Unicode.Scalar(byte) {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", "=", ":", "@": true
        default: false
        }
    }

    static func example(_ index: Int) -> String { "word \(index) é.svg" }
}

extension CharacterSet {
    /// What a path segment may hold unescaped: `urlPathAllowed` without the `/` that would split it.
    static let urlPathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}

/// One route, declared once by its feature: the method, the path pattern with its typed holes, and
/// who may call it. It registers itself with a handler (`Router.add(_:_:)`) and prints its own URLs,
/// so that a link and the route it names cannot drift apart:
///
///     static let list = Endpoint<Int64>(.get, "/patients/:id/goals", .signedIn([.clinician, .tutor, .trainer]))
///     GoalEndpoints.list.path(patientId)   // "/patients/7/goals"
///
/// The holes are filled in order; their number must match the pattern's (checked when declared).
struct Endpoint<each Parameter: PathParameter>: Sendable {
    let method: HTTPServer.Method
    let pattern: String
    let access: Access
    /// The pattern split at `/`: literal text, or nil where a parameter goes.
    private let segments: [Substring?]
    /// The names of the pattern's `:parameters`, in order.
    let parameterNames: [String]

    init(_ method: HTTPServer.Method, _ pattern: String, _ access: Access) {
        self.method = method
        self.pattern = pattern
        self.access = access
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true)
        segments = parts.map { $0.hasPrefix(":") ? nil : $0 }
        parameterNames = parts.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
        var count = 0
        for _ in repeat (each Parameter).self { count += 1 }
        precondition(count == parameterNames.count, "\(pattern) has \(parameterNames.count) parameters, its type \(count)")
    }

    /// The URL path with `values` in the holes, plus an optional query (`?a=1&b=2`, in the given order;
    /// pairs with an empty value are left out).
    func path(_ values: repeat each Parameter, query: KeyValuePairs<String, String> = [:]) -> String {
        var filled: [String] = []
        for value in repeat each values { filled.append(value.pathSegment) }
        var next = filled.makeIterator()
        var path = ""
        for segment in segments {
            path += "/"
            path += segment.map(String.init) ?? next.next() ?? ""
        }
        if path.isEmpty { path = "/" }
        let pairs = query.filter { !$0.value.isEmpty }
        guard !pairs.isEmpty else { return path }
        return path + "?" + pairs.map { "\($0.key)=\(Self.queryEscaped($0.value))" }.joined(separator: "&")
    }

    /// Whether this endpoint prints `path`: the same literal segments, and in each hole a value its
    /// type parses. The router matches requests; this answers for a path already routed elsewhere.
    func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return false }
        var matched: [String: String] = [:]
        var names = parameterNames.makeIterator()
        for (part, segment) in zip(parts, segments) {
            if let segment {
                guard part == segment else { return false }
            } else if let name = names.next() {
                matched[name] = String(part)
            }
        }
        return parameters(matched) != nil
    }

    /// The typed values of a matched request's path parameters (percent-decoded already, as the server
    /// decodes the path), or nil if one does not parse (a letter where an id goes): the inverse of `path`.
    func parameters(_ matched: [String: String]) -> (repeat each Parameter)? {
        var names = parameterNames.makeIterator()
        func next<Value: PathParameter>(_: Value.Type) throws -> Value {
            guard let name = names.next(), let text = matched[name],
                  let value = Value(pathSegment: text) else { throw Unparsable() }
            return value
        }
        do { return (repeat try next((each Parameter).self)) } catch { return nil }
    }

    private struct Unparsable: Error {}

    /// This route's path printed with `PathParameter.example` values (a different one in each hole).
    var examplePath: String {
        var index = 0
        func next<Value: PathParameter>(_: Value.Type) -> Value {
            defer { index += 1 }
            return Value.example(index)
        }
        return path(repeat next((each Parameter).self))
    }

    /// `matched` parsed and printed again: equal to the path that was matched when the two directions agree.
    func reprinted(_ matched: [String: String]) -> String? {
        guard let values = parameters(matched) else { return nil }
        return path(repeat each values)
    }

    private static func queryEscaped(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
