import Foundation
import Synchronization
@testable import Tagarela
import Testing

@Suite struct SpeechAudioTests {
    /// The file names `SpeechAudio` reports as synthesised.
    final class Generations: Sendable {
        private let names = Mutex<[String]>([])
        var count: Int { names.withLock { $0.count } }
        func record(_ name: String) { names.withLock { $0.append(name) } }
    }

    let directory: String
    let generations = Generations()
    let audio: SpeechAudio

    init() {
        directory = NSTemporaryDirectory() + "speech-audio-tests-" + UUID().uuidString
        let generations = generations
        audio = SpeechAudio(directory: directory, generated: { generations.record($0) })
    }

    func path(_ fileName: String) -> String { directory + "/" + fileName }

    func bytes(_ fileName: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(fileName)) ?? Data())
    }

    func modified(_ fileName: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path(fileName))[.modificationDate] as? Date
    }

    /// ID3 tag, or an MPEG audio frame sync (11 set bits).
    func looksLikeMP3(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("ID3".utf8)) || (bytes.count > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
    }

    func channels(_ fileName: String) -> String {
        let output = Pipe()
        let ffprobe = Process()
        ffprobe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        ffprobe.arguments = ["-v", "error", "-show_entries", "stream=channels", "-of", "csv=p=0", path(fileName)]
        ffprobe.standardOutput = output
        try? ffprobe.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ffprobe.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    @Test func theKeyDependsOnTextAndVoiceOnly() {
        defer { cleanUp() }
        let key = SpeechAudio.key(text: "água", voice: "pt-br")
        #expect(key.count == 32)
        #expect(key.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(SpeechAudio.key(text: "água", voice: "pt-br") == key)
        #expect(SpeechAudio.key(text: "  água\n", voice: "pt-br") == key)
        #expect(SpeechAudio.key(text: "agua", voice: "pt-br") != key)
        #expect(SpeechAudio.key(text: "água", voice: "es") != key)
        #expect(SpeechAudio.fileName(text: "água", voice: "pt-br") == key + ".mp3")
    }

    /// Clips already on disk are named this way (and sessions are stored under the same hex): it must never change.
    @Test func theKeyIsTheFirstHalfOfTheSHA256InLowerCaseHex() {
        #expect(SpeechAudio.key(text: "água", voice: "pt-br") == "4ab5ffc5992f21b9ac6091a6cfb21f15")
        for padded in ["água ", "\tágua", "\u{00A0}água\u{2029}", "\u{3000}água"] {
            #expect(SpeechAudio.key(text: padded, voice: "pt-br") == "4ab5ffc5992f21b9ac6091a6cfb21f15")
        }
        #expect(SpeechAudio.trimmed("") == "")
        #expect(SpeechAudio.trimmed(" \n ") == "")
        #expect([UInt8]([0x00, 0x0f, 0xf0, 0xff]).hexadecimal == "000ff0ff")
    }

    @Test func eachLocaleHasItsVoice() {
        defer { cleanUp() }
        #expect(SpeechAudio.voice(for: .ptBR) == "pt-br")
        #expect(SpeechAudio.voice(for: .es) == "es")
        #expect(SpeechAudio.voice(for: .ca) == "ca")
        #expect(SpeechAudio.voice(for: .en) == "en")
    }

    @Test func aGeneratedClipIsARealMP3ThatLastsAWhile() throws {
        defer { cleanUp() }
        let started = Date()
        let name = try audio.clip(text: " Quero água ", voice: "pt-br")
        let elapsed = Date().timeIntervalSince(started)
        print("SpeechAudio: one clip generated in \(Int(elapsed * 1000)) ms")
        #expect(name == SpeechAudio.fileName(text: "Quero água", voice: "pt-br"))
        let content = bytes(name)
        #expect(content.count > 1000)
        #expect(looksLikeMP3(content))
        #expect((SpeechAudio.duration(ofFileAt: path(name)) ?? 0) > 0.2)
        #expect(generations.count == 1)
        // Only the clip is left: no temporary WAV or MP3.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [name])
    }

    @Test func theSameTextTwiceIsGeneratedOnce() throws {
        defer { cleanUp() }
        let first = try audio.clip(text: "mais", voice: "pt-br")
        let date = try modified(first)
        let second = try audio.clip(text: "mais ", voice: "pt-br")
        #expect(second == first)
        #expect(generations.count == 1)
        #expect(try modified(second) == date)
        // Another value for the same folder finds it too.
        #expect(try SpeechAudio(directory: directory).clip(text: "mais", voice: "pt-br") == first)
        #expect(generations.count == 1)
    }

    @Test func eightConcurrentCallsForANewTextGenerateItOnce() throws {
        defer { cleanUp() }
        let names = Mutex<[String]>([])
        let failures = Mutex<[any Error]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let audio = audio
        for _ in 0..<8 {
            done.enter()
            Thread {
                start.wait()
                do {
                    let name = try audio.clip(text: "biscoito", voice: "pt-br")
                    names.withLock { $0.append(name) }
                } catch {
                    failures.withLock { $0.append(error) }
                }
                done.leave()
            }.start()
        }
        for _ in 0..<8 { start.signal() }
        done.wait()
        #expect(failures.withLock { $0.isEmpty })
        let returned = names.withLock { $0 }
        #expect(returned.count == 8)
        #expect(Set(returned) == [SpeechAudio.fileName(text: "biscoito", voice: "pt-br")])
        #expect(generations.count == 1)
    }

    @Test func theSameWordInPortugueseAndSpanishGivesTwoClips() throws {
        defer { cleanUp() }
        let portuguese = try audio.clip(text: "banana", voice: SpeechAudio.voice(for: .ptBR))
        let spanish = try audio.clip(text: "banana", voice: SpeechAudio.voice(for: .es))
        #expect(portuguese != spanish)
        #expect(looksLikeMP3(bytes(portuguese)))
        #expect(looksLikeMP3(bytes(spanish)))
        #expect(generations.count == 2)
    }

    @Test func aQuestionIsSpokenWithAQuestionMark() throws {
        defer { cleanUp() }
        let question = try audio.clip(text: "Quer brincar", voice: "pt-br", question: true)
        #expect(question == SpeechAudio.fileName(text: "Quer brincar?", voice: "pt-br"))
        #expect(try audio.clip(text: "Quer brincar?", voice: "pt-br", question: true) == question)
        #expect(try audio.clip(text: "Quer brincar", voice: "pt-br") != question)
        #expect(generations.count == 2)
    }

    @Test func emptyTextIsRefused() {
        defer { cleanUp() }
        #expect(throws: SpeechAudio.Failure.emptyText) { try audio.clip(text: "  \n ", voice: "pt-br") }
        #expect(throws: SpeechAudio.Failure.emptyText) { try audio.clip(text: "", voice: "es", question: true) }
        #expect(generations.count == 0)
    }

    @Test func aTextStartingWithADashIsSpokenNotTakenForAnOption() throws {
        defer { cleanUp() }
        let name = try audio.clip(text: "-x", voice: "en")
        #expect(looksLikeMP3(bytes(name)))
    }

    @Test func aLongRecordingIsNormalisedToAShortMonoMP3() throws {
        defer { cleanUp() }
        let tone = directory + "/tone.wav"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=8",
                            "-ac", "2", tone]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)

        let name = try audio.normalise(recordingAt: tone)
        #expect(name.hasPrefix("rec-") && name.hasSuffix(".mp3"))
        #expect(looksLikeMP3(bytes(name)))
        let seconds = try #require(SpeechAudio.duration(ofFileAt: path(name)))
        #expect(seconds > 4.5 && seconds <= 5.2)
        #expect(channels(name) == "1")
        #expect(try audio.normalise(recordingAt: tone) != name)

        audio.remove(name)
        #expect(!FileManager.default.fileExists(atPath: path(name)))
    }

    @Test func aTextFileNamedLikeARecordingIsUnreadable() throws {
        defer { cleanUp() }
        let fake = directory + "/voice.webm"
        try Data("not a recording".utf8).write(to: URL(fileURLWithPath: fake))
        #expect(throws: SpeechAudio.Failure.unreadable) { try audio.normalise(recordingAt: fake) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["voice.webm"])
    }

    @Test func removeIgnoresPathsOutsideTheFolder() throws {
        defer { cleanUp() }
        let outside = directory + "-outside.mp3"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        defer { try? FileManager.default.removeItem(atPath: outside) }
        audio.remove("../" + (outside as NSString).lastPathComponent)
        audio.remove("sub/x.mp3")
        audio.remove("..")
        #expect(FileManager.default.fileExists(atPath: outside))

        let name = try audio.clip(text: "tchau", voice: "pt-br")
        audio.remove(name)
        #expect(!FileManager.default.fileExists(atPath: path(name)))
    }
}
