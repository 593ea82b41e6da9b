import Foundation
import Mustache
import Synchronization

/// Turns an `Encodable` page model into what the templates read without `Mirror`: a struct becomes a
/// `MustacheNode` (its fields by name), an array an `[Any]`, and a leaf stays the Swift value itself, so
/// `{{x}}` prints what it printed through `Mirror` (`String(describing:)`). Reading a struct through
/// `Mirror` demangles its field types on every lookup, and a lookup that misses (`t.…` inside a list)
/// walks every field of every object on the stack; a node answers both with one dictionary lookup.
///
/// Leaves, kept as they are: strings, booleans, numbers, `Decimal`, `Date`, `URL`, `UUID`, `Data`, every
/// `RawRepresentable` (an enum prints its case, as before, not its raw value), and every value that
/// already answers Mustache itself (`MustacheParent`: hand-written conformances, `FormState`, string-keyed
/// dictionaries). A nil optional is left out, so sections and inverted sections behave as before.
enum MustacheEncoder {
    static func tree<Value: Encodable>(of value: Value) throws -> Any? {
        if isLeaf(Value.self) { return leaf(value) }
        let encoder = TreeEncoder(original: value)
        try value.encode(to: encoder)
        return encoder.result
    }

    /// Whether values of a type are kept as they are, decided once per type: the casts it takes cost
    /// more than encoding a small struct, and a page encodes the same few types hundreds of times.
    private static func isLeaf<Value>(_ type: Value.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = leafTypes.withLock({ $0[key] }) { return known }
        let answer: Bool = switch type {
        case is String.Type, is Bool.Type, is Int.Type, is Int64.Type, is Double.Type, is Int32.Type, is Int16.Type,
             is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type, is Float.Type,
             is Decimal.Type, is Date.Type, is URL.Type, is UUID.Type, is Data.Type:
            true
        case is MustacheParent.Type, is any RawRepresentable.Type, is MustacheCustomRenderable.Type,
             is MustacheCustomRepresentation.Type:
            true
        default:
            false
        }
        leafTypes.withLock { $0[key] = answer }
        return answer
    }

    private static let leafTypes = Mutex<[ObjectIdentifier: Bool]>([:])

    /// A leaf as Mustache reads it: text and numbers as `MustacheText`, which Mustache prints without the
    /// casts it tries on any other value; everything else as itself.
    private static func leaf(_ value: Any) -> Any {
        switch value {
        case let text as String: MustacheText(text)
        case is Bool, is Decimal, is Date, is URL, is UUID, is Data, is MustacheParent, is any RawRepresentable,
             is MustacheCustomRenderable, is MustacheCustomRepresentation:
            value
        default: MustacheText(String(describing: value))
        }
    }
}

/// Text of a page model as Mustache prints it: `{{x}}` escapes `renderText`. A plain `String` prints the
/// same, but only after Mustache has tried it as a template, a lambda and an optional and then called
/// `String(describing:)`; this answers the first time it is asked.
///
/// Inside a section over a text (`{{#diagnosis}} · {{.}}{{/diagnosis}}`) every other name is looked up
/// on the text first: as a parent without children it answers nothing at once, where Mustache read
/// a `String` or a plain struct through `Mirror` (no names either way).
struct MustacheText: MustacheCustomRenderable, MustacheParent, CustomStringConvertible, Equatable, Sendable {
    let renderText: String
    var isNull: Bool { false }
    init(_ text: String) { renderText = text }
    var description: String { renderText }
    func child(named name: String) -> Any? { nil }
}

/// A struct (or any keyed value) of a page model, as Mustache reads it: its fields by name.
final class MustacheNode: MustacheParent, CustomStringConvertible {
    fileprivate(set) var fields: [String: Any] = [:]
    /// The encoded value, for `{{x}}` on a whole struct: it prints as it did through `Mirror`.
    private let original: Any

    fileprivate init(original: Any) { self.original = original }

    func child(named name: String) -> Any? { fields[name] }

    var description: String { String(describing: original) }
}

/// The encoder of one value: it ends as a node, an array or a single value, whichever container the
/// value's `encode(to:)` asked for.
private final class TreeEncoder: Encoder {
    enum Storage {
        case empty
        case node(MustacheNode)
        case array(ArrayBox)
        case value(Any?)
    }

    let original: Any
    var storage = Storage.empty
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(original: Any) { self.original = original }

    var result: Any? {
        switch storage {
        case .empty: MustacheNode(original: original)  // a struct without fields still opens a section
        case .node(let node): node
        case .array(let box): box.items
        case .value(let value): value
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .node(let node) = storage { return KeyedEncodingContainer(KeyedContainer(node: node, encoder: self)) }
        let node = MustacheNode(original: original)
        storage = .node(node)
        return KeyedEncodingContainer(KeyedContainer(node: node, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let box) = storage { return UnkeyedContainer(box: box, encoder: self) }
        let box = ArrayBox()
        storage = .array(box)
        return UnkeyedContainer(box: box, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
}

private final class ArrayBox {
    var items: [Any] = []
}

/// What an element of an array holds when its value is nil (`[String?]`): the element is kept, as nil.
private var nilElement: Any { Optional<Any>.none as Any }

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: MustacheNode
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: Bool, forKey key: Key) { node.fields[key.stringValue] = value }
    mutating func encode(_ value: String, forKey key: Key) { node.fields[key.stringValue] = MustacheText(value) }
    mutating func encode(_ value: Double, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Float, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Int, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Int8, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Int16, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Int32, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: Int64, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: UInt, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) { node.fields[key.stringValue] = MustacheText(String(describing: value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.fields[key.stringValue] = try MustacheEncoder.tree(of: value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder(original: "")
        let container = nested.container(keyedBy: keyType)
        node.fields[key.stringValue] = nested.result
        return container
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder(original: "")
        let container = nested.unkeyedContainer()
        node.fields[key.stringValue] = LazyNested(encoder: nested)
        return container
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let nested = TreeEncoder(original: "")
        node.fields[key.stringValue] = LazyNested(encoder: nested)
        return nested
    }
}

/// A nested container or super encoder filled after it was handed out: read when Mustache asks.
/// Synthesized conformances never make one; hand-written `encode(to:)` may.
private struct LazyNested: MustacheCustomRepresentation {
    let encoder: TreeEncoder
    var representation: Any? { encoder.result }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { box.items.count }

    mutating func encodeNil() { box.items.append(nilElement) }
    mutating func encode(_ value: Bool) { box.items.append(value) }
    mutating func encode(_ value: String) { box.items.append(MustacheText(value)) }
    mutating func encode(_ value: Double) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Float) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int8) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int16) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int32) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int64) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt8) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt16) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt32) { box.items.append(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt64) { box.items.append(MustacheText(String(describing: value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try MustacheEncoder.tree(of: value) ?? nilElement)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder(original: "")
        let container = nested.container(keyedBy: keyType)
        box.items.append(nested.result as Any)
        return container
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder(original: "")
        let container = nested.unkeyedContainer()
        box.items.append(LazyNested(encoder: nested))
        return container
    }

    mutating func superEncoder() -> any Encoder {
        let nested = TreeEncoder(original: "")
        box.items.append(LazyNested(encoder: nested))
        return nested
    }
}

/// One value: a leaf when it is one, else whatever its own `encode(to:)` makes of it (a `RawRepresentable`
/// is caught before, by `MustacheEncoder.tree`, so an enum stays itself rather than its raw value).
private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.storage = .value(nil) }
    mutating func encode(_ value: Bool) { encoder.storage = .value(value) }
    mutating func encode(_ value: String) { encoder.storage = .value(MustacheText(value)) }
    mutating func encode(_ value: Double) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Float) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int8) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int16) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int32) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: Int64) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt8) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt16) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt32) { encoder.storage = .value(MustacheText(String(describing: value))) }
    mutating func encode(_ value: UInt64) { encoder.storage = .value(MustacheText(String(describing: value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.storage = .value(try MustacheEncoder.tree(of: value))
    }
}
