import ArgumentParser
import Foundation
import Tagarela

/// `tagarela tenant add|list|remove`: the clinic networks one node serves, in `<data>/tenants.conf`.
struct TenantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant",
        abstract: "Manage the clinic networks (tenants) this node serves, each with its own database and media.",
        discussion: """
            --data names the node's folder; its tenants.conf lists the tenants, and its presence makes \
            `tagarela serve` choose the tenant by the request's host (a host not listed gets a 404 page). \
            A running server reads the file again within a second: no restart is needed.
            """,
        subcommands: [AddTenant.self, ListTenants.self, RemoveTenant.self])
}

struct AddTenant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a tenant: its database is created (or migrated) before the node serves it.")

    @OptionGroup var locations: Locations
    @Argument(help: "The tenant's name: lower-case letters, digits and dashes.") var name: String
    @Option(name: .customLong("host"), help: "A host name it is opened at (repeat for several).") var hosts: [String]
    @Option(help: "Its data folder (e.g. one `tagarela restore` rebuilt). Default: tenants/<name> in the node's folder.")
    var tenantData: String?
    @Option(help: """
        Serve it read-only from a replica kept up to date by deploy/region/replica-refresh in its data folder; \
        pages that write are refused with a link to this address of the primary (e.g. https://clinica.example).
        """)
    var primary: String?

    func run() async throws {
        let file = TenantFile(nodeDataDirectory: locations.data)
        var registry = try file.read()
        let tenant = Tenant(name: name, hosts: hosts, dataDirectory: tenantData.map(absolute) ?? "tenants/\(name)", primary: primary)
        do { try registry.add(tenant) } catch { throw ValidationError(error.description) }
        var configuration = locations.appConfiguration
        configuration.dataDirectory = file.dataDirectory(of: tenant)
        // A replica's database is Litestream's to write: the node opens it read-only and never migrates it.
        let migrated = tenant.isReplica ? [] : try migrateFirst(configuration)
        try file.write(registry)
        print("Tenant \(name) added: \(tenant.hosts.joined(separator: ", ")) → \(configuration.dataDirectory)"
              + (migrated.isEmpty ? "" : " (new database)") + (tenant.primary.map { ", read-only replica of \($0)" } ?? ""))
    }

    private func migrateFirst(_ configuration: AppConfiguration) throws -> [String] {
        try Restoring.refuseIfInProgress(configuration)
        return try AppDatabase.migrate(configuration)
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

struct ListTenants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List this node's tenants.")

    @OptionGroup var locations: Locations

    func run() async throws {
        let file = TenantFile(nodeDataDirectory: locations.data)
        guard file.exists else {
            print("No tenants.conf in \(locations.data): the node serves that folder alone, on every host.")
            return
        }
        for tenant in try file.read().tenants {
            print("\(tenant.name)\t\(tenant.hosts.joined(separator: ","))\t\(file.dataDirectory(of: tenant))"
                  + (tenant.primary.map { "\tprimary=\($0)" } ?? ""))
        }
    }
}

struct RemoveTenant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Stop serving a tenant. Its data folder is kept; delete it yourself when sure.")

    @OptionGroup var locations: Locations
    @Argument(help: "The tenant's name.") var name: String

    func run() async throws {
        let file = TenantFile(nodeDataDirectory: locations.data)
        var registry = try file.read()
        let removed: Tenant
        do { removed = try registry.remove(named: name) } catch { throw ValidationError(error.description) }
        try file.write(registry)
        print("Tenant \(name) no longer served; its data stays in \(file.dataDirectory(of: removed))")
    }
}
