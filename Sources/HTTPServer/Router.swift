/// Matches a method and a path against route patterns such as `/patients/:id/boards/:board`.
///
/// A literal segment wins over a `:parameter` at the same place, so `/patients/new` and
/// `/patients/:id` can live side by side. HEAD requests match GET routes.
/// The router only matches: what a handler is, and how it is called, is the caller's business.
public struct Router<Handler: Sendable>: Sendable {
    public enum Match {
        case found(Handler, parameters: [String: String])
        /// The path exists, but not for this method; `allowed` feeds the `Allow` header.
        case methodNotAllowed(allowed: [Method])
        case notFound
    }

    private final class Node: @unchecked Sendable {
        var literals: [Substring: Node] = [:]
        var parameter: (name: String, node: Node)?
        var handlers: [Method: Handler] = [:]
        var methodOrder: [Method] = []
    }

    // Built once before serving and only read afterwards.
    private let root = Node()
    /// Every route added, in order: for tests that walk all of them (such as a fuzz test of every form).
    public private(set) var patterns: [(method: Method, pattern: String)] = []

    public init() {}

    public mutating func add(_ method: Method, _ pattern: String, _ handler: Handler) {
        var node = root
        for segment in Self.segments(of: pattern) {
            if segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                if let existing = node.parameter {
                    precondition(existing.name == name, "conflicting parameter names at \(pattern)")
                    node = existing.node
                } else {
                    let child = Node()
                    node.parameter = (name, child)
                    node = child
                }
            } else if let child = node.literals[segment] {
                node = child
            } else {
                let child = Node()
                node.literals[segment] = child
                node = child
            }
        }
        precondition(node.handlers[method] == nil, "route \(method) \(pattern) added twice")
        node.handlers[method] = handler
        node.methodOrder.append(method)
        patterns.append((method, pattern))
    }

    public mutating func get(_ pattern: String, _ handler: Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: Handler) { add(.post, pattern, handler) }

    public func match(_ method: Method, _ path: String) -> Match {
        var parameters: [String: String] = [:]
        guard let node = Self.find(Self.segments(of: path)[...], in: root, &parameters) else {
            return .notFound
        }
        if let handler = node.handlers[method] ?? (method == .head ? node.handlers[.get] : nil) {
            return .found(handler, parameters: parameters)
        }
        var allowed = node.methodOrder
        if allowed.contains(.get) { allowed.append(.head) }
        return .methodNotAllowed(allowed: allowed)
    }

    private static func find(
        _ segments: ArraySlice<Substring>, in node: Node, _ parameters: inout [String: String]
    ) -> Node? {
        guard let segment = segments.first else {
            return node.handlers.isEmpty ? nil : node
        }
        let rest = segments.dropFirst()
        if let child = node.literals[segment], let found = find(rest, in: child, &parameters) {
            return found
        }
        if let (name, child) = node.parameter {
            let saved = parameters
            parameters[name] = String(segment)
            if let found = find(rest, in: child, &parameters) { return found }
            parameters = saved
        }
        return nil
    }

    private static func segments(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
