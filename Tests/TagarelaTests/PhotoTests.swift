import Foundation
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct PhotoTests {
    /// A real 4×2 red PNG, as ffmpeg wrote it.
    static let png: [UInt8] = Array(Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAEElEQVR4nGP4y8AARwzIHABuygfpbgaHdgAAAABJRU5ErkJggg==")!)

    func storedPhotos(_ test: TestApp) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/photos")) ?? []
    }

    @Test func imageKindComesFromTheContentNotTheName() {
        #expect(MediaStore.kind(of: Self.png) == .png)
        #expect(MediaStore.kind(of: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(MediaStore.kind(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(MediaStore.kind(of: Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8)) == nil)
        #expect(MediaStore.kind(of: Array("%PDF-1.7".utf8)) == nil)
    }

    @Test func aPatientPhotoIsStoredAsAJPEGAndShownOnlyToThoseWhoSeeThePatient() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let created = try ana.postMultipart("/patients", fields: [("displayName", "Lia Prado"), ("sex", "female")],
                                            files: [(field: "photo", filename: "lia.png", contentType: "image/png", content: Self.png)])
        #expect(created.status == 303)
        let location = created.header("Location")
        let patientPath = try #require(location)
        let page = try ana.get(patientPath)
        #expect(page.text.contains(#"<img class="avatar" src="\#(patientPath)/photo""#))
        let photo = try ana.get(patientPath + "/photo")
        #expect(photo.status == 200)
        #expect(photo.header("Content-Type") == "image/jpeg")
        #expect(Array(photo.body.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(try ana.get(patientPath + "/photo", headers: [("If-None-Match", photo.header("ETag")!)]).status == 304)

        #expect(try test.browser(loggedInAs: "nadia").get(patientPath + "/photo").status == 404)
        #expect(try test.browser(loggedInAs: "dani").get(patientPath + "/photo").status == 404)
        #expect(try test.browser().get(patientPath + "/photo").status == 303)
    }

    @Test func anSVGNamedLikeAPNGIsRefusedAndTheFormKeepsWhatWasTyped() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let before = try test.snapshot()
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let refused = try ana.postMultipart("/patients", fields: [("displayName", "Lia Prado"), ("diagnosis", "Disartria")],
                                            files: [(field: "photo", filename: "lia.png", contentType: "image/png", content: svg)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Esta imagem não pôde ser lida"))
        #expect(refused.text.contains(#"value="Lia Prado""#))
        #expect(refused.text.contains(#"value="Disartria""#))
        #expect(try test.snapshot() == before)
        #expect(storedPhotos(test).isEmpty)
    }

    @Test func replacingAPhotoRemovesTheOldFile() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        for _ in 0..<2 {
            let saved = try ana.postMultipart("/patients/\(carla)", fields: [("displayName", "Carla Costa")],
                                              files: [(field: "photo", filename: "c.png", contentType: "image/png", content: Self.png)])
            #expect(saved.status == 303)
        }
        #expect(storedPhotos(test).count == 1)
        // Saving without a new photo keeps the current one.
        #expect(try ana.post("/patients/\(carla)", [("displayName", "Carla Costa")]).status == 303)
        #expect(try ana.get("/patients/\(carla)/photo").status == 200)
    }
}
