import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Pictures are measured from their header before ffmpeg decodes anything; see docs/decisions/0017-limits-before-work.md,
/// "Limits before work".
@Suite struct ImageLimitTests {
    /// A folder of real pictures ffmpeg makes for the test, removed afterwards.
    final class Pictures {
        let directory = NSTemporaryDirectory() + "image-limit-tests-" + UUID().uuidString
        init() { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// A picture of `size` ("WxH") in the format of `name`'s extension, from the lavfi `source` (SIZE
        /// stands for the size), with `options` for the encoder.
        func make(_ name: String, _ size: String, source: String = "testsrc2=size=SIZE", options: [String] = []) throws -> [UInt8] {
            let path = directory + "/" + name
            try ProcessRunner.run(SpeechAudio.ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source.replacingOccurrences(of: "SIZE", with: size),
                                                       "-frames:v", "1"] + options + [path], timeLimit: .seconds(30))
            return [UInt8](FileManager.default.contents(atPath: path)!)
        }

        /// Width and height as ffprobe reads them.
        func probe(_ bytes: [UInt8]) throws -> ImageHeader.Size {
            let path = directory + "/probe-" + UUID().uuidString
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let output = try ProcessRunner.run(SpeechAudio.ffprobe, ["-v", "error", "-show_entries", "stream=width,height",
                                                                    "-of", "csv=p=0", path], timeLimit: .seconds(10))
            let numbers = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                .split(separator: ",").compactMap { Int($0) }
            return ImageHeader.Size(width: numbers[0], height: numbers[1])
        }
    }

    /// PNG, baseline JPEG, WebP lossy ("VP8 "), lossless ("VP8L") and with alpha ("VP8X"), as ffmpeg writes them.
    static let formats: [(name: String, size: String, source: String, options: [String], format: ImageHeader.Format)] = [
        ("a.png", "37x21", "testsrc2=size=SIZE", [], .png),
        ("a.jpg", "64x48", "testsrc2=size=SIZE", [], .jpeg),
        ("a.webp", "40x22", "testsrc2=size=SIZE", ["-c:v", "libwebp"], .webp),
        ("l.webp", "33x17", "testsrc2=size=SIZE", ["-c:v", "libwebp", "-lossless", "1"], .webp),
        ("x.webp", "31x19", "color=c=red@0.5:size=SIZE,format=rgba", ["-c:v", "libwebp"], .webp),
    ]

    @Test func theHeaderGivesTheSameSizeAsFFprobeForEveryFormat() throws {
        let pictures = Pictures()
        for picture in Self.formats {
            let bytes = try pictures.make(picture.name, picture.size, source: picture.source, options: picture.options)
            let read = try #require(ImageHeader.read(bytes), "\(picture.name)")
            #expect(read.format == picture.format, "\(picture.name)")
            #expect(read.size == (try pictures.probe(bytes)), "\(picture.name)")
        }
        // The three WebP chunk kinds really were made.
        let chunks = try ["a.webp", "l.webp", "x.webp"].map { name in
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: pictures.directory + "/" + name))[12..<16], as: UTF8.self)
        }
        #expect(chunks == ["VP8 ", "VP8L", "VP8X"])
    }

    @Test func everyTruncatedHeaderIsRefusedAndNeverCrashes() throws {
        let pictures = Pictures()
        for picture in Self.formats {
            let bytes = try pictures.make(picture.name, picture.size, source: picture.source, options: picture.options)
            let needed = (1...bytes.count).first { ImageHeader.read(Array(bytes.prefix($0))) != nil }!
            for length in 0..<needed { #expect(ImageHeader.read(Array(bytes.prefix(length))) == nil) }
            #expect(needed < 1_024, "\(picture.name): the size is near the start (\(needed) bytes)")
        }
    }

    /// A JPEG's frame header can come after large EXIF or ICC segments, which hold thumbnails with
    /// frame headers of their own.
    @Test func aJPEGFrameBehindLargeSegmentsIsFoundAndAThumbnailInsideThemIgnored() throws {
        let jpeg = try Pictures().make("a.jpg", "64x48")
        var exif: [UInt8] = [0xFF, 0xE1, 0xFF, 0xFE] + Array("Exif\0\0".utf8)
        exif += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03]  // a 3×2 "thumbnail" frame, inside EXIF
        exif += [UInt8](repeating: 0, count: 0xFFFE + 2 - exif.count)
        let icc: [UInt8] = [0xFF, 0xE2, 0x80, 0x00] + [UInt8](repeating: 7, count: 0x8000 - 2)
        let padded = Array(jpeg.prefix(2)) + exif + icc + [0xFF, 0xFF] + Array(jpeg.dropFirst(2))  // fill bytes too
        #expect(ImageHeader.read(padded)?.size == ImageHeader.Size(width: 64, height: 48))
        // A progressive (SOF2) frame header reads the same.
        var progressive = jpeg
        let sof = (2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        progressive[sof + 1] = 0xC2
        #expect(ImageHeader.read(progressive)?.size == ImageHeader.Size(width: 64, height: 48))
    }

    @Test func headersThatLieOrBreakTheRulesAreRefused() throws {
        let pictures = Pictures()
        let png = try pictures.make("a.png", "37x21")
        var zeroWidth = png
        zeroWidth[16..<20] = [0, 0, 0, 0]
        #expect(ImageHeader.read(zeroWidth) == nil)
        var notIHDR = png
        notIHDR[12..<16] = ArraySlice("tEXt".utf8)
        #expect(ImageHeader.read(notIHDR) == nil)

        let jpeg = try pictures.make("a.jpg", "64x48")
        let sof = (2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        var heightLater = jpeg  // height 0: "given by a DNL segment later"
        heightLater[sof + 5...sof + 6] = [0, 0]
        #expect(ImageHeader.read(heightLater) == nil)
        var scanFirst = jpeg  // a scan before any frame header
        scanFirst[sof + 1] = 0xDA
        #expect(ImageHeader.read(scanFirst) == nil)
        #expect(ImageHeader.read([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]) == nil, "a segment length below 2")
        #expect(ImageHeader.read([0xFF, 0xD8, 0x12, 0x34]) == nil, "no marker where one must be")

        var notKeyFrame = try pictures.make("a.webp", "40x22", options: ["-c:v", "libwebp"])
        notKeyFrame[20] |= 1
        #expect(ImageHeader.read(notKeyFrame) == nil)
        #expect(ImageHeader.read(Array("RIFF\0\0\0\0WEBPVP8Q".utf8) + [UInt8](repeating: 0, count: 20)) == nil)
        #expect(ImageHeader.read(Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8)) == nil)
    }

    /// A real PNG whose header says `width` × `height`: refused before any pixel is read.
    static func png(claiming width: UInt32, _ height: UInt32) -> [UInt8] {
        var bytes = PhotoTests.png
        for (offset, value) in [(16, width), (20, height)] {
            for i in 0..<4 { bytes[offset + i] = UInt8((value >> (8 * UInt32(3 - i))) & 0xFF) }
        }
        return bytes
    }

    @Test func thePixelLimitIsCheckedBeforeDecoding() throws {
        #expect(throws: MediaStore.Failure.tooLarge(ImageHeader.Size(width: 16_000, height: 16_000))) {
            try MediaStore.check(Self.png(claiming: 16_000, 16_000))
        }
        #expect(try MediaStore.check(Self.png(claiming: 8_160, 6_120)) == .png, "a phone's 50-megapixel mode")
        #expect(throws: MediaStore.Failure.tooLarge(ImageHeader.Size(width: 8_161, height: 6_127))) {
            try MediaStore.check(Self.png(claiming: 8_161, 6_127))
        }
        #expect(throws: MediaStore.Failure.notAnImage) { try MediaStore.check(Array("%PDF-1.7".utf8)) }
    }

    /// A header that says 4 × 2 in front of a real 64 × 48 frame passes the header check, and ffmpeg,
    /// told the same limit, refuses the frame.
    @Test func aHeaderThatUnderstatesTheSizeIsCaughtByTheDecoder() throws {
        let pictures = Pictures()
        let jpeg = try pictures.make("a.jpg", "64x48")
        let sof = (2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        let length = Int(jpeg[sof + 2]) << 8 | Int(jpeg[sof + 3])
        var small = Array(jpeg[sof..<sof + 2 + length])
        small[5...8] = [0x00, 0x02, 0x00, 0x04]  // height 2, width 4
        let lying = Array(jpeg[..<sof]) + small + Array(jpeg[sof...])
        #expect(ImageHeader.read(lying)?.size == ImageHeader.Size(width: 4, height: 2))

        let path = pictures.directory + "/lying.jpg"
        try Data(lying).write(to: URL(fileURLWithPath: path))
        let media = MediaStore(directory: pictures.directory + "/media", pixelLimit: 100)
        #expect(throws: MediaStore.Failure.unreadable) { try media.storeSymbolImage(atPath: path) }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: pictures.directory + "/media/images")) ?? []).isEmpty)
        // The same file with a limit it fits in is converted.
        let roomy = MediaStore(directory: pictures.directory + "/media")
        let stored = try roomy.storeSymbolImage(atPath: path)
        #expect(ImageHeader.read([UInt8](FileManager.default.contents(atPath: roomy.directory + "/" + stored)!))?.format == .png)
    }

    /// The largest phone pictures (8160 × 6120) pass both checks, ffmpeg's padded count included.
    @Test func aFiftyMegapixelPhonePictureIsConverted() throws {
        let pictures = Pictures()
        _ = try pictures.make("phone.jpg", "8160x6120", source: "color=c=orange:size=SIZE")
        let media = MediaStore(directory: pictures.directory + "/media")
        let stored = try media.storeSymbolImage(atPath: pictures.directory + "/phone.jpg")
        #expect(ImageHeader.read([UInt8](FileManager.default.contents(atPath: media.directory + "/" + stored)!))?.size
                == ImageHeader.Size(width: 400, height: 300))
    }

    // MARK: - Every upload path

    static let huge = png(claiming: 20_000, 20_000)

    func files(_ test: TestApp, _ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: test.app.configuration.mediaDirectory + "/" + folder)) ?? []
    }

    @Test func aPatientPhotoTooLargeIsRefusedAtOnceWithItsSizeAndTheFormKept() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let before = try test.snapshot()
        let started = ContinuousClock.now
        let refused = try ana.postMultipart("/patients", fields: [("displayName", "Lia Prado"), ("diagnosis", "Disartria")],
                                            files: [(field: "photo", filename: "lia.png", contentType: "image/png", content: Self.huge)])
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(refused.status == 422)
        #expect(refused.text.contains("20.000 × 20.000 pixels"), "the size, written the pt-BR way")
        #expect(refused.text.contains("50 megapixels"))
        #expect(refused.text.contains(#"value="Lia Prado""#) && refused.text.contains(#"value="Disartria""#))
        #expect(try test.snapshot() == before)
        #expect(files(test, "photos").isEmpty)
    }

    @Test func aMealPhotoTooLargeKeepsTheAnswerTyped() async throws {
        let test = try await TestApp()
        let elisa = try test.browser(loggedInAs: "elisa")
        let elisaId = try test.id(of: "elisa")
        let meal = try #require(try test.read { try Meal.headOfQueue(of: elisaId, $0) })
        let version = try #require(try test.read { try Int.fetchOne($0, sql: "SELECT version FROM meal WHERE id = ?", arguments: [meal]) })
        let refused = try elisa.postMultipart("/meals/\(meal)/answer",
                                              fields: [("followed", "0"), ("version", "\(version)"), ("reason", "Sem fome"),
                                                       ("instead", "Uma fruta")],
                                              files: [(field: "photo", filename: "prato.png", contentType: "image/png", content: Self.huge)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("20.000 × 20.000"))
        #expect(refused.text.contains("Sem fome") && refused.text.contains("Uma fruta"))
        #expect(try test.read { try String.fetchOne($0, sql: "SELECT status FROM meal WHERE id = ?", arguments: [meal]) } == "pending")
        #expect(files(test, "photos").isEmpty)
    }

    /// The symbol form's picture field is also the tablet camera's (`capture`): one path for both.
    @Test func aSymbolPictureOrCameraShotTooLargeKeepsTheSymbolTyped() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let form = try ana.get("/symbols/new")
        #expect(form.text.contains(#"name="image""#) && form.text.contains(#"capture="environment""#))
        let categories = String(try #require(form.text.split(separator: #"id="categoryId""#, maxSplits: 1).last))
        let category = try #require(categories.firstMatch(of: /<option value="([^"]+)"/)?.1)
        let count = try test.read { try Symbol.fetchCount($0) }
        let refused = try ana.postMultipart("/symbols", fields: [("name", "Bolo de fubá"), ("spokenText", "quero bolo"),
                                                                 ("categoryId", String(category))],
                                            files: [(field: "image", filename: "camera.jpg", contentType: "image/jpeg", content: Self.huge)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("20.000 × 20.000"))
        #expect(refused.text.contains(#"value="Bolo de fubá""#) && refused.text.contains(#"value="quero bolo""#))
        #expect(try test.read { try Symbol.fetchCount($0) } == count)
        #expect(files(test, "images").isEmpty)
    }

    @Test func anImportedBoardWithAPictureTooLargeGetsAPictogramInstead() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let board = OBFTests.comida { board in
            var images = board["images"] as! [[String: Any]]
            images[0]["data"] = "data:image/png;base64," + Data(Self.huge).base64EncodedString()
            board["images"] = images
        }
        let imported = try ana.postMultipart("/patients/\(carla)/boards/import", fields: [],
                                             files: [(field: "file", filename: "comida.obf", contentType: "application/json",
                                                      content: [UInt8](board))])
        #expect(imported.status == 303)
        #expect(try ana.get(imported.header("Location")!).text.contains("trocadas por pictogramas"))
        let galleta = try test.read { db in
            try Row.fetchOne(db, sql: "SELECT pictogram, imagePath FROM symbol WHERE name = 'galleta' AND patientId = ?", arguments: [carla])
        }
        #expect(galleta?["imagePath"] as String? == nil && galleta?["pictogram"] as String? != nil)
        #expect(files(test, "images").isEmpty)
    }
}
