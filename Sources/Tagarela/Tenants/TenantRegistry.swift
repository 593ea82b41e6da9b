import Foundation

/// One clinic network a node serves: its own data folder (database, media, Litestream replica) and the
/// host names its people open it at.
public struct Tenant: Sendable, Equatable {
    public let name: String
    public let hosts: [String]
    /// As written in the registry: absolute, or relative to the registry's folder.
    public let dataDirectory: String
    /// Set when this node serves a read-only replica of the tenant (a copy Litestream keeps up to date,
    /// deploy/region/replica-refresh): the address of the primary, where every page that writes is sent.
    public let primary: String?

    public init(name: String, hosts: [String], dataDirectory: String, primary: String? = nil) {
        self.name = name
        self.hosts = hosts.map(Tenant.normalizedHost)
        self.dataDirectory = dataDirectory
        self.primary = primary.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    public var isReplica: Bool { primary != nil }

    /// A Host header as the registry keeps it: lower case, without a port or a final dot.
    public static func normalizedHost(_ host: String) -> String {
        var host = host.trimmingCharacters(in: .whitespaces).lowercased()
        if host.hasPrefix("[") {  // an IPv6 literal keeps its brackets, loses its port
            if let end = host.firstIndex(of: "]") { host = String(host[...end]) }
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}

/// The tenants of one node, kept in a small plain file (`<data>/tenants.conf`), one line per tenant:
///
///     # name      hosts (comma-separated)              data folder
///     clinica-a   clinica-a.example,a.localhost        tenants/clinica-a
///     clinica-b   reports.clinica-b.example            replicas/clinica-b   primary=https://clinica-b.example
///
/// A fourth word `primary=URL` makes the line a read-only replica of a tenant whose primary is at URL.
/// The file's presence makes `tagarela serve` a multi-tenant node; without it the node serves its data
/// folder alone, on every host, as it always did. Pure: reading and writing the file is `TenantFile`'s.
public struct TenantRegistry: Sendable, Equatable {
    public private(set) var tenants: [Tenant]

    public init(_ tenants: [Tenant] = []) { self.tenants = tenants }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public static func parse(_ text: String) throws(Invalid) -> TenantRegistry {
        var registry = TenantRegistry()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.isEmpty { continue }
            guard words.count == 3 || (words.count == 4 && words[3].hasPrefix(Self.primaryPrefix)) else {
                throw Invalid(description: "line \(index + 1): expected `name hosts data-folder [primary=URL]`, found: \(words.joined(separator: " "))")
            }
            do {
                try registry.add(Tenant(name: words[0], hosts: words[1].split(separator: ",").map(String.init),
                                        dataDirectory: words[2], primary: words.count == 4 ? String(words[3].dropFirst(Self.primaryPrefix.count)) : nil))
            } catch {
                throw Invalid(description: "line \(index + 1): \(error.description)")
            }
        }
        return registry
    }

    public var text: String {
        let header = "# Tenants of this node: name, hosts (comma-separated), data folder (relative to this file's folder).\n"
            + "# Managed by `tagarela tenant add|remove`; a running server reads it again within a second.\n"
        return header + tenants.map {
            "\($0.name) \($0.hosts.joined(separator: ",")) \($0.dataDirectory)" + ($0.primary.map { " \(Self.primaryPrefix)\($0)" } ?? "") + "\n"
        }.joined()
    }

    static let primaryPrefix = "primary="

    public func tenant(named name: String) -> Tenant? { tenants.first { $0.name == name } }

    /// The tenant a request's Host header names, if this node serves it.
    public func tenant(forHost host: String) -> Tenant? {
        let host = Tenant.normalizedHost(host)
        return tenants.first { $0.hosts.contains(host) }
    }

    public mutating func add(_ tenant: Tenant) throws(Invalid) {
        guard Self.isName(tenant.name) else {
            throw Invalid(description: "a tenant's name is 1 to 63 lower-case letters, digits and dashes: \(tenant.name)")
        }
        guard !tenant.hosts.isEmpty, tenant.hosts.allSatisfy(Self.isHost) else {
            throw Invalid(description: "a host is a name like clinica.example or a.localhost: \(tenant.hosts.joined(separator: ","))")
        }
        guard !tenant.dataDirectory.isEmpty, !tenant.dataDirectory.contains(where: \.isWhitespace) else {
            throw Invalid(description: "a data folder without spaces is needed: \(tenant.dataDirectory)")
        }
        if let primary = tenant.primary {
            guard let url = URL(string: primary), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                  !primary.contains(where: \.isWhitespace) else {
                throw Invalid(description: "a replica's primary is an address like https://clinica.example: \(primary)")
            }
        }
        guard self.tenant(named: tenant.name) == nil else { throw Invalid(description: "a tenant \(tenant.name) already exists") }
        for host in tenant.hosts {
            if let owner = self.tenant(forHost: host) {
                throw Invalid(description: "the host \(host) is already served by \(owner.name)")
            }
        }
        guard Set(tenant.hosts).count == tenant.hosts.count else { throw Invalid(description: "a host is named twice") }
        tenants.append(tenant)
    }

    @discardableResult
    public mutating func remove(named name: String) throws(Invalid) -> Tenant {
        guard let index = tenants.firstIndex(where: { $0.name == name }) else {
            throw Invalid(description: "no tenant \(name) on this node")
        }
        return tenants.remove(at: index)
    }

    static func isName(_ name: String) -> Bool {
        (1...63).contains(name.count) && name.first != "-"
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func isHost(_ host: String) -> Bool {
        (1...253).contains(host.count) && !host.hasPrefix(".") && !host.contains("..")
            && host.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
    }
}

/// The registry on disk, beside the node's data: written whole to a temporary file and renamed, so a
/// server reading it never sees half a file.
public struct TenantFile: Sendable {
    public let path: String

    public init(nodeDataDirectory: String) {
        path = URL(fileURLWithPath: nodeDataDirectory).appendingPathComponent("tenants.conf").path
    }

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }
    var folder: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }

    public func read() throws -> TenantRegistry {
        guard exists else { return TenantRegistry() }
        return try TenantRegistry.parse(String(contentsOfFile: path, encoding: .utf8))
    }

    public func write(_ registry: TenantRegistry) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try registry.text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A tenant's data folder as a path this process can open.
    public func dataDirectory(of tenant: Tenant) -> String {
        tenant.dataDirectory.hasPrefix("/") ? tenant.dataDirectory
            : URL(fileURLWithPath: folder).appendingPathComponent(tenant.dataDirectory).standardizedFileURL.path
    }

    /// When the file last changed, to read it again only then.
    func modification() -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
