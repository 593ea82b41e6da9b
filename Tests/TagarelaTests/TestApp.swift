import Foundation
import HTTPServer
import HTTPTestSupport
import Logging
import Tagarela

/// The real application on a free port, with its own data directory in a temporary folder.
final class TestApp {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    let app: App
    let server: Server
    let client: HTTPClient
    let dataDirectory: String

    init(now: Date = Date(timeIntervalSince1970: 1_795_000_000), limits: Limits = Limits()) async throws {
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tagarela-test-\(UUID().uuidString)").path
        var configuration = AppConfiguration(dataDirectory: dataDirectory, resourcesDirectory: Self.repositoryRoot)
        configuration.port = 0
        configuration.threads = 2
        configuration.limits = limits
        configuration.timeZone = TimeZone(identifier: "America/Sao_Paulo")!
        app = try await App.make(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                 clock: { now })
        server = app.makeServer()
        try server.start()
        client = HTTPClient(port: server.port)
    }

    deinit {
        server.shutdown(gracePeriod: .seconds(1))
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }
}
