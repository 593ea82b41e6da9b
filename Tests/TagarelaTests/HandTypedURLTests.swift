import Foundation
import Testing

/// No internal URL is typed by hand: every link is printed from its route (`Endpoint.path`). The
/// count is `scripts/hand-typed-urls`', which names each occurrence with `--list`.
@Suite struct HandTypedURLTests {
    @Test func noTemplateOrSwiftFileTypesAnInternalURL() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestApp.repositoryRoot + "/scripts/hand-typed-urls", "--list",
                             "--root", TestApp.repositoryRoot]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("total hand-typed internal URLs: 0 (templates 0, swift 0)"), "\(text)")
    }
}
