import Foundation
import GRDB
import Synchronization
import Testing
@testable import Tagarela

/// Nothing is rendered while a database access is open (issue 50, item 5): every render goes through
/// `Templates.render`, whose precondition asks `Templates.mayRenderOnThisThread`. A failed precondition
/// stops the process, so the stop itself is shown in a child process (an exit test).
@Suite struct RenderOutsideAccessTests {
    /// A folder with one template and an empty database, made inside the child process too.
    static func scratch() throws -> (templates: String, database: DatabaseScope) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-outside-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "Hello {{name}}".write(to: folder.appendingPathComponent("hello.mustache"), atomically: true, encoding: .utf8)
        let pool = try DatabasePool(path: folder.appendingPathComponent("render.sqlite").path)
        return (folder.path, DatabaseScope(pool))
    }

    @Test func renderingIsAllowedOnlyWhileNoAccessIsOpenOnTheThread() throws {
        let (_, scope) = try Self.scratch()
        #expect(Templates.mayRenderOnThisThread)
        try scope.read { _ in #expect(!Templates.mayRenderOnThisThread) }
        try scope.write { _ in #expect(!Templates.mayRenderOnThisThread) }
        #expect(Templates.mayRenderOnThisThread)
    }

    @Test func aRenderInsideAnOpenAccessStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let (folder, scope) = try RenderOutsideAccessTests.scratch()
            let templates = try await Templates.load(from: folder, required: ["hello"])
            let html = try scope.read { _ in templates.render("hello", ["name": "Ana"]) }
            print(html)
        }
    }

    /// The same render after the access ended: the child process that stops above stops for the render alone.
    @Test func theSameRenderAfterTheAccessEndedGoesOn() async {
        await #expect(processExitsWith: .success) {
            let (folder, scope) = try RenderOutsideAccessTests.scratch()
            let templates = try await Templates.load(from: folder, required: ["hello"])
            let name = try scope.read { _ in "Ana" }
            guard templates.render("hello", ["name": name]) == "Hello Ana" else { exit(3) }
        }
    }

    /// A page's pieces are made inside the access and rendered with the page, after it: making one
    /// renders nothing, and the piece renders once, however often the page prints it.
    @Test func aPieceMadeInsideAnAccessRendersOnlyWhenPrinted() throws {
        let (_, scope) = try Self.scratch()
        final class Renders: Sendable { let count = Mutex(0) }
        let renders = Renders()
        let piece = try scope.read { _ in
            Piece {
                renders.count.withLock { $0 += 1 }
                return "<tr></tr>"
            }
        }
        #expect(renders.count.withLock { $0 } == 0)
        #expect(piece.html == "<tr></tr>" && piece.html == "<tr></tr>")
        #expect(renders.count.withLock { $0 } == 1)
    }
}
