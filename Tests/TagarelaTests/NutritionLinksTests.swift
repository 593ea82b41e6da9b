import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Nutrition's pages print their links from the routes' values, and its uploads are read before the
/// answer's one transaction: the links resolve, a photo is kept only with a saved answer.
@Suite struct NutritionLinksTests {
    static let png: [UInt8] = Array(Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAEElEQVR4nGP4y8AARwzIHABuygfpbgaHdgAAAABJRU5ErkJggg==")!)

    /// Every `href`, `src` and form `action` on the page that names a path of the app (static assets aside),
    /// with the method it is followed with.
    static func links(in html: String) -> [(method: HTTPServer.Method, path: String)] {
        var found: [(HTTPServer.Method, String)] = []
        let forms = try! NSRegularExpression(pattern: #"<form\b([^>]*)>"#)
        let attribute = { (name: String, tag: String) -> String? in
            let regex = try! NSRegularExpression(pattern: "\\b\(name)=\"([^\"]*)\"")
            guard let match = regex.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)),
                  let range = Range(match.range(at: 1), in: tag) else { return nil }
            return String(tag[range])
        }
        for match in forms.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let tag = String(html[Range(match.range(at: 1), in: html)!])
            guard let action = attribute("action", tag) else { continue }
            found.append((attribute("method", tag)?.lowercased() == "post" ? .post : .get, action))
        }
        let gets = try! NSRegularExpression(pattern: #"\b(?:href|src)="(/[^"]*)""#)
        for match in gets.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            found.append((.get, String(html[Range(match.range(at: 1), in: html)!])))
        }
        return found.compactMap { method, url in
            let path = String(url.replacingOccurrences(of: "&amp;", with: "&").split(separator: "?", maxSplits: 1).first ?? "")
            guard path.hasPrefix("/"), !["/css/", "/js/", "/img/", "/assets/"].contains(where: path.hasPrefix) else { return nil }
            return (method, path)
        }
    }

    func expectEveryLinkResolves(_ page: WireResponse, _ name: String, _ test: TestApp) {
        #expect(page.status == 200, "\(name)")
        let links = Self.links(in: page.text)
        #expect(!links.isEmpty, "\(name) has links")
        for link in links {
            guard case .found = test.app.router.match(link.method, link.path) else {
                Issue.record("\(name): \(link.method) \(link.path) is no registered route")
                continue
            }
        }
    }

    @Test func everyLinkOnTheNutritionPagesNamesARegisteredRouteWithItsMethod() async throws {
        let test = try await TestApp()
        let (nadia, elisa) = (try test.browser(loggedInAs: "nadia"), try test.browser(loggedInAs: "elisa"))
        let patient = try test.id(of: "elisa")
        let pending = try #require(try test.read { try Meal.queue(of: patient).fetchOne($0) })
        let review = try nadia.get("/patients/\(patient)/nutrition?from=2000-01-01&to=2100-01-01")
        expectEveryLinkResolves(review, "review", test)
        #expect(review.text.contains(#"href="/patients/\#(patient)/meals/\#(pending.id!)/edit""#))
        #expect(review.text.contains(#"action="/patients/\#(patient)/meals/\#(pending.id!)/withdraw""#))
        expectEveryLinkResolves(try nadia.get("/patients/\(patient)/meals/new"), "new meal", test)
        let edit = try nadia.get("/patients/\(patient)/meals/\(pending.id!)/edit")
        expectEveryLinkResolves(edit, "edit meal", test)
        #expect(edit.text.contains(#"action="/patients/\#(patient)/meals/\#(pending.id!)""#))
        expectEveryLinkResolves(try nadia.get("/foods"), "foods", test)

        let checkIn = try elisa.get("/meals")
        expectEveryLinkResolves(checkIn, "check-in", test)
        #expect(checkIn.text.contains(#"href="/meals/\#(pending.id!)/answer?followed=0""#))
        let form = try elisa.get("/meals/\(pending.id!)/answer?followed=1")
        expectEveryLinkResolves(form, "answer", test)
        #expect(form.text.contains(#"action="/meals/\#(pending.id!)/answer""#))
        #expect(try elisa.post("/meals/\(pending.id!)/answer", [("followed", "1"), ("version", "\(pending.version)")]).status == 303)
        let history = try elisa.get("/meals/history")
        expectEveryLinkResolves(history, "history", test)
        #expect(history.text.contains(#"href="/meals/\#(pending.id!)""#))
        expectEveryLinkResolves(try elisa.get("/meals/\(pending.id!)"), "meal", test)
        expectEveryLinkResolves(try elisa.get("/measurements"), "measurements", test)
    }

    func storedPhotos(_ test: TestApp) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/photos")) ?? []
    }

    /// A double tap on "send" with a photo: the first answer keeps its photo, the second is refused
    /// and leaves no file behind; the nutritionist sees the plate.
    @Test func aPhotoIsKeptWithTheSavedAnswerAndASecondTapLeavesNoFile() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let patient = try test.id(of: "elisa")
        let meal = try #require(try test.read { try Meal.queue(of: patient).fetchOne($0) })
        let fields = [("followed", "0"), ("version", "\(meal.version)"), ("reason", "Sem fome"), ("instead", "Uma fruta")]
        let photo = [(field: "photo", filename: "prato.png", contentType: "image/png", content: Self.png)]
        let saved = try elisa.postMultipart("/meals/\(meal.id!)/answer", fields: fields, files: photo)
        #expect(saved.status == 303 && saved.header("Location") == "/meals")
        #expect(storedPhotos(test).count == 1)
        let stored = try #require(try test.read { try Meal.fetchOne($0, key: meal.id) })
        #expect(stored.status == "not_fulfilled" && stored.photoPath != nil)

        let again = try elisa.postMultipart("/meals/\(meal.id!)/answer", fields: fields, files: photo)
        #expect(again.status == 303)
        #expect(try elisa.get("/meals").text.contains("já tinha sido respondida"))
        #expect(storedPhotos(test).count == 1, "the second tap's photo is removed")
        #expect(try test.read { try Meal.fetchOne($0, key: meal.id) }?.photoPath == stored.photoPath)

        let plate = try test.browser(loggedInAs: "nadia").get("/meals/\(meal.id!)/photo")
        #expect(plate.status == 200 && plate.header("Content-Type") == "image/jpeg")
        #expect(try elisa.get("/meals/\(meal.id!)").text.contains(#"src="/meals/\#(meal.id!)/photo""#))
    }

    /// A weights file is read before the write; sending the same file twice adds its lines once.
    @Test func aWeightsFileSentTwiceAddsItsLinesOnce() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let id = try test.id(of: "elisa")
        let count = { try test.read { try WeightEntry.filter(Column("patientId") == id).fetchCount($0) } }
        let before = try count()
        let file = [(field: "file", filename: "peso.csv", contentType: "text/csv", content: Array("data;peso\n2026-09-03;80,4\n".utf8))]
        let first = try elisa.postMultipart("/measurements/import", fields: [("csv", "")], files: file)
        #expect(first.status == 303 && first.header("Location") == "/measurements?added=1")
        let second = try elisa.postMultipart("/measurements/import", fields: [("csv", "")], files: file)
        #expect(second.header("Location") == "/measurements?added=0")
        #expect(try count() == before + 1)
    }
}
