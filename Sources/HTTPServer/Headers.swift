/// HTTP header fields in arrival order, looked up case-insensitively.
public struct Headers: Sendable, Sequence {
    private var fields: [(name: String, value: String)] = []

    public init() {}
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field, if any.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Adds a field, keeping any others of the same name (as `Set-Cookie` needs).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public var count: Int { fields.count }

    /// Adds `other`'s fields that `self` lacks; `Set-Cookie` fields are always added.
    public mutating func merge(_ other: Headers) {
        for field in other where field.name.caseInsensitiveEquals("Set-Cookie") || self[field.name] == nil {
            add(field.name, field.value)
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
