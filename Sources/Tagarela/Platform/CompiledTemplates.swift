import Foundation
import Mustache
import Synchronization

/// The templates as steps that read page models directly, rendered into one buffer.
///
/// swift-mustache parses them: its parser keeps the Mustache spec's whitespace rules (standalone tags,
/// indented partials, inheritance), and `CompiledTemplate.init` reads the steps out of its parse once, at start. Its
/// renderer is not used on pages: for every name it meets it splits the name at its dots and tries some
/// six dynamic casts on each object of the context stack, and it builds every section's text as its own
/// string; that was 20 % of the server's CPU in `bench/mixed` and half of a page that reads no database
/// (docs/decisions/0059-templates-rendered-by-compiled-steps-swift-mustache-kept-as.md, "Templates rendered by compiled steps"). Here a name is split once, a page model's
/// node (`MustacheNode`) and text (`MustacheText`) are recognised first, and everything is appended to
/// one string.
///
/// What this renders is what swift-mustache renders, for the features the templates use: variables,
/// sections, inverted sections, comments, partials, inheritance (`{{<layout}}`, `{{$main}}`) and the
/// content-type pragma that makes every `{{x}}` go through `HTML.escape`. Transforms, lambdas, dynamic
/// partials and other content types fail at start. `Templates.load(compare:)` renders every page both
/// ways and records any difference; the tests run that way.
struct CompiledTemplates: Sendable {
    private let templates: [String: CompiledTemplate]

    enum CompileError: Error, CustomStringConvertible {
        case unsupported(template: String, what: String)
        var description: String {
            switch self {
            case .unsupported(let template, let what): "template \(template): \(what) is not supported by CompiledTemplates"
            }
        }
    }

    init(_ parsed: [String: MustacheTemplate]) throws {
        var templates: [String: CompiledTemplate] = [:]
        for (name, template) in parsed { templates[name] = try CompiledTemplate(template, named: name) }
        self.templates = templates
    }

    private init(templates: [String: CompiledTemplate]) { self.templates = templates }

    /// The same templates with every `{{name}}` (escaped, not `{{{name}}}`) for which `text` has a text written
    /// in as that text, escaped: a language's copy made from the one parse (see `Templates.localize`).
    func writingIn(_ text: (String) -> String?) -> CompiledTemplates {
        CompiledTemplates(templates: templates.mapValues { $0.writingIn(text) })
    }

    /// `name` rendered with `object` as the whole context, or nil when there is no such template.
    func render(_ name: String, _ object: Any) -> String? {
        guard let template = templates[name] else { return nil }
        var out = ""
        // Room for what the template printed last time: a page grown by doubling copied itself a dozen times.
        out.reserveCapacity(template.lastLength.load(ordering: .relaxed))
        var stack = [Scope(object)]
        render(template, into: &out, stack: &stack, indentation: "", inherited: nil)
        template.lastLength.store(out.utf8.count, ordering: .relaxed)
        return out
    }

    private func render(_ template: CompiledTemplate, into out: inout String, stack: inout [Scope], indentation: String,
                        inherited: [String: CompiledTemplate]?) {
        // An indented partial indents each line it prints but its first: as swift-mustache does, a step's
        // output that follows a newline printed by this template gets the indentation first.
        guard !indentation.isEmpty else {
            for step in template.steps { render(step, into: &out, stack: &stack, indentation: indentation, inherited: inherited) }
            return
        }
        let start = out.utf8.count
        for step in template.steps {
            let before = out.utf8.count
            render(step, into: &out, stack: &stack, indentation: indentation, inherited: inherited)
            if out.utf8.count > before, before > start,
               out.utf8[out.utf8.index(out.utf8.startIndex, offsetBy: before - 1)] == UInt8(ascii: "\n") {
                out.insert(contentsOf: indentation, at: out.utf8.index(out.utf8.startIndex, offsetBy: before))
            }
        }
    }

    private func render(_ step: CompiledTemplate.Step, into out: inout String, stack: inout [Scope], indentation: String,
                        inherited: [String: CompiledTemplate]?) {
        switch step {
        case .text(let text):
            out += text
        case .variable(let name, let escaped):
            guard let value = Self.value(of: name, in: stack) else { return }
            let text = Self.text(of: value)
            out += escaped ? HTML.escape(text) : text
        case .section(let name, let body):
            guard let value = Self.value(of: name, in: stack) else { return }
            func renderWith(_ object: Any) {
                stack.append(Scope(object))
                render(body, into: &out, stack: &stack, indentation: indentation, inherited: inherited)
                stack.removeLast()
            }
            switch Kind(of: value) {
            case .node, .text:
                renderWith(value)
            case .bool:
                if value as! Bool { render(body, into: &out, stack: &stack, indentation: indentation, inherited: inherited) }
            case .list:
                for item in value as! [Any] { renderWith(item) }
            case .other:
                if let sequence = value as? any MustacheSequence { forEach(of: sequence, renderWith) }
                else if !Self.isNull(value) { renderWith(value) }
            }
        case .invertedSection(let name, let body):
            let value = Self.value(of: name, in: stack)
            let shows: Bool, pushed: Any?
            switch value.map(Kind.init) {
            case nil: (shows, pushed) = (true, nil)
            case .node?, .text?: (shows, pushed) = (false, nil)
            case .bool?: (shows, pushed) = (!(value as! Bool), nil)
            case .list?: (shows, pushed) = ((value as! [Any]).isEmpty, value)
            case .other?:
                if let sequence = value as? any MustacheSequence { (shows, pushed) = (isEmpty(sequence), sequence) }
                else { (shows, pushed) = (Self.isNull(value!), nil) }
            }
            guard shows else { return }
            // An empty list is the innermost object of its inverted section, as in swift-mustache.
            if let pushed { stack.append(Scope(pushed)) }
            render(body, into: &out, stack: &stack, indentation: indentation, inherited: inherited)
            if pushed != nil { stack.removeLast() }
        case .partial(let name, let indented, let overrides):
            guard let partial = templates[name] else { return }
            // The outer page's blocks win over the ones an inner partial names (the spec's rule).
            let blocks = overrides.map { inherited?.merging($0) { outer, _ in outer } ?? $0 } ?? inherited
            render(partial, into: &out, stack: &stack, indentation: indentation + indented, inherited: blocks)
        case .block(let name, let fallback, let indented):
            render(inherited?[name] ?? fallback, into: &out, stack: &stack, indentation: indentation + indented, inherited: inherited)
        }
    }

    private func forEach(of sequence: some Sequence, _ body: (Any) -> Void) {
        for item in sequence { body(item) }
    }

    private func isEmpty(_ sequence: some Sequence) -> Bool {
        var iterator = sequence.makeIterator()
        return iterator.next() == nil
    }

    // MARK: Reading the context

    /// The kinds of value an encoded page model is made of, told by the value's exact type. A cast from
    /// `Any` to a type it does not hold is the costly part of a cast: a text cast to the node class
    /// first asked whether a `String`-like value bridges to a class, at every tag.
    private enum Kind {
        case node, text, bool, list, other

        init(of value: Any) {
            let type = ObjectIdentifier(Swift.type(of: value))
            self = if type == Self.nodeType { .node }
                else if type == Self.textType { .text }
                else if type == Self.boolType { .bool }
                else if type == Self.listType { .list }
                else { .other }
        }

        private static let nodeType = ObjectIdentifier(MustacheNode.self)
        private static let textType = ObjectIdentifier(MustacheText.self)
        private static let boolType = ObjectIdentifier(Bool.self)
        private static let listType = ObjectIdentifier([Any].self)
    }

    /// An object of the context stack, told apart once when it is pushed rather than cast again at every
    /// name looked up on it: a page model's root (`PageContext`) cast to `MustacheParent` each time was
    /// copied each time, model and all.
    private struct Scope {
        enum Names {
            case node(MustacheNode)
            case parent(any MustacheParent)
            case reflected(Any)
            case none
        }

        let object: Any
        let names: Names

        init(_ object: Any) {
            self.object = object
            names = Self.names(of: object)
        }

        static func names(of object: Any) -> Names {
            switch Kind(of: object) {
            case .node: return .node(object as! MustacheNode)
            case .text, .bool, .list: return .none
            case .other:
                let represented: Any? = (object as? MustacheCustomRepresentation).map(\.representation) ?? object
                guard let represented else { return .none }
                if let parent = represented as? MustacheParent { return .parent(parent) }
                return .reflected(represented)
            }
        }

        func child(named name: String) -> Any? {
            switch names {
            case .node(let node): node.child(named: name)
            case .parent(let parent): parent.child(named: name)
            case .reflected(let object):
                Mirror(reflecting: object).children.first { $0.label == name }.flatMap { Scope.unwrappingOptional($0.value) }
            case .none: nil
            }
        }

        private static func unwrappingOptional(_ value: Any) -> Any? {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return value }
            return mirror.children.first?.value
        }
    }

    /// The value a tag names: `.` is the innermost object; `a.b` finds `a` on the innermost object that
    /// has it, then `b` on that; `.a` looks on the innermost object only.
    private static func value(of name: CompiledTemplate.Name, in stack: [Scope]) -> Any? {
        var found: Any?
        switch name.start {
        case .current:
            found = stack.last?.object
        case .innermost:
            found = stack.last.flatMap { descend(name.parts.dropFirst(), from: $0.child(named: name.parts[0])) }
        case .climbing:
            for scope in stack.reversed() {
                if let child = scope.child(named: name.parts[0]) {
                    found = descend(name.parts.dropFirst(), from: child)
                    break
                }
            }
        }
        return found.flatMap(representing)
    }

    /// What a value stands for: itself, or for a `MustacheCustomRepresentation` (the encoder's nested
    /// containers; Foundation's `NSNull`, as nil) its representation. Asked for every value a tag names,
    /// so the kinds a page model is made of answer before the cast to the protocol.
    private static func representing(_ value: Any) -> Any? {
        switch Kind(of: value) {
        case .node, .text, .bool, .list: value
        case .other: (value as? MustacheCustomRepresentation).map(\.representation) ?? value
        }
    }

    private static func descend(_ names: ArraySlice<String>, from object: Any?) -> Any? {
        var object = object
        for name in names {
            guard let parent = object else { return nil }
            object = Scope(parent).child(named: name)
        }
        return object
    }

    private static func text(of value: Any) -> String {
        if Kind(of: value) == .text { return (value as! MustacheText).renderText }
        if let renderable = value as? MustacheCustomRenderable { return renderable.renderText }
        if let optional = value as? OptionalValue, let wrapped = optional.wrapped { return String(describing: wrapped) }
        return String(describing: value)
    }

    private static func isNull(_ value: Any) -> Bool {
        if Kind(of: value) != .other { return false }
        return (value as? MustacheCustomRenderable)?.isNull == true
    }
}

/// An optional seen as `Any`: `{{x}}` prints what it holds, not `Optional(…)`.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { self }
}

/// One template as steps. A class so that partials and blocks share it instead of copying the steps.
final class CompiledTemplate: Sendable {
    struct Name: Sendable {
        enum Start: Sendable { case current, innermost, climbing }
        let start: Start
        let parts: [String]

        init(_ name: String) {
            if name == "." {
                start = .current
                parts = []
            } else {
                start = name.hasPrefix(".") ? .innermost : .climbing
                parts = name.split(separator: ".").map(String.init)
            }
        }
    }

    enum Step: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, CompiledTemplate)
        case invertedSection(Name, CompiledTemplate)
        case partial(String, indentation: String, overrides: [String: CompiledTemplate]?)
        case block(String, default: CompiledTemplate, indentation: String)
    }

    let steps: [Step]
    /// The length of its last rendering, as a whole page (`CompiledTemplates.render`).
    let lastLength = Atomic<Int>(0)

    private init(steps: [Step]) { self.steps = steps }

    /// See `CompiledTemplates.writingIn`.
    func writingIn(_ text: (String) -> String?) -> CompiledTemplate {
        CompiledTemplate(steps: steps.map { step in
            switch step {
            case .variable(let name, escaped: true) where name.start == .climbing:
                text(name.parts.joined(separator: ".")).map { .text(HTML.escape($0)) } ?? step
            case .section(let name, let body): .section(name, body.writingIn(text))
            case .invertedSection(let name, let body): .invertedSection(name, body.writingIn(text))
            case .partial(let name, let indentation, let overrides):
                .partial(name, indentation: indentation, overrides: overrides?.mapValues { $0.writingIn(text) })
            case .block(let name, let fallback, let indentation): .block(name, default: fallback.writingIn(text), indentation: indentation)
            case .text, .variable: step
            }
        })
    }

    /// Reads the steps out of swift-mustache's parse of the template (its `tokens`, reached through
    /// `Mirror`: the parse is not public API). A token this does not know fails at start, naming `name`.
    init(_ template: MustacheTemplate, named name: String) throws {
        func unsupported(_ what: String) -> CompiledTemplates.CompileError { .unsupported(template: name, what: what) }
        guard let tokens = Mirror(reflecting: template).children.first(where: { $0.label == "tokens" })?.value as? [Any]
        else { throw unsupported("a swift-mustache template without tokens") }
        var steps: [Step] = []
        for token in tokens {
            guard let (kind, payload) = Mirror(reflecting: token).children.first.map({ ($0.label ?? "", $0.value) })
            else { throw unsupported("a token without a case") }
            let fields = Mirror(reflecting: payload).children.map { ($0.label ?? "", $0.value) }
            func field<T>(_ label: String, as type: T.Type) throws -> T {
                guard let value = fields.first(where: { $0.0 == label })?.1 as? T else { throw unsupported("\(kind) without \(label)") }
                return value
            }
            func optionalField<T>(_ label: String, as type: T.Type) throws -> T? {
                guard let value = fields.first(where: { $0.0 == label })?.1 else { throw unsupported("\(kind) without \(label)") }
                return value as? T
            }
            func noTransforms() throws {
                guard try field("transforms", as: [String].self).isEmpty else { throw unsupported("a transform") }
            }
            func nested(_ label: String) throws -> CompiledTemplate {
                try CompiledTemplate(try field(label, as: MustacheTemplate.self), named: name)
            }
            switch kind {
            case "text":
                guard let text = payload as? String else { throw unsupported("text without its string") }
                steps.append(.text(text))
            case "variable", "unescapedVariable":
                try noTransforms()
                steps.append(.variable(Name(try field("name", as: String.self)), escaped: kind == "variable"))
            case "section", "invertedSection":
                try noTransforms()
                let section = Name(try field("name", as: String.self))
                let body = try nested("template")
                steps.append(kind == "section" ? .section(section, body) : .invertedSection(section, body))
            case "partial":
                let overrides = try optionalField("inherits", as: [String: MustacheTemplate].self)
                steps.append(.partial(try field(".0", as: String.self), indentation: try optionalField("indentation", as: String.self) ?? "",
                                      overrides: try overrides?.mapValues { try CompiledTemplate($0, named: name) }))
            case "blockExpansion":
                steps.append(.block(try field("name", as: String.self), default: try nested("default"),
                                    indentation: try optionalField("indentation", as: String.self) ?? ""))
            case "contentType":
                guard payload is EscapedHTML else { throw unsupported("a content type other than \(EscapedHTML.name)") }
            default:
                throw unsupported("the token \(kind)")
            }
        }
        self.steps = steps
    }
}
