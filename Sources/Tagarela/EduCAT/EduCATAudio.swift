import Foundation
import Synchronization

/// Pre-generates every eduCAT clip (each pack's spoken texts through espeak-ng, see SpeechAudio) and
/// the background tune (sox). Clips are content-addressed, so a second run finds them all and
/// returns at once. `tagarela educat-audio` calls this; `make run` and `make test` call that.
public enum EduCATAudio {
    public struct Summary: Sendable {
        public let total: Int
        public let generated: Int
    }

    public enum Failure: Error, CustomStringConvertible {
        case badContent([String])
        case clip(String)
        case tune

        public var description: String {
            switch self {
            case .badContent(let problems): "eduCAT content has problems:\n" + problems.joined(separator: "\n")
            case .clip(let text): "could not generate the clip for \"\(text)\" (espeak-ng and ffmpeg installed?)"
            case .tune: "could not generate the background tune (sox and ffmpeg installed?)"
            }
        }
    }

    /// `progress` is told "<language> <done>/<total>" as clips are made (or found).
    public static func generate(resourcesDirectory: String, audioDirectory: String, workers: Int = 2,
                                progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> Summary {
        let content = try EduCATContent.shared(resourcesDirectory: resourcesDirectory)
        let pictograms = try PictogramLibrary.load(from: resourcesDirectory + "/Data/pictograms.json")
        let problems = content.packs.values.flatMap { $0.problems(pictograms: Set(pictograms.entries.map(\.hexcode))) }
        guard problems.isEmpty else { throw Failure.badContent(problems) }

        let generatedCount = Mutex(0)
        let speech = SpeechAudio(directory: audioDirectory, generated: { _ in generatedCount.withLock { $0 += 1 } })
        var total = 0
        for language in EduCATContent.languages {
            let pack = content.pack(language)
            let texts = pack.spokenTexts
            total += texts.count
            let done = Mutex(0)
            let failed = Mutex<String?>(nil)
            DispatchQueue.concurrentPerform(iterations: max(1, workers)) { worker in
                for index in stride(from: worker, to: texts.count, by: max(1, workers)) {
                    do { _ = try speech.clip(text: texts[index], voice: pack.voice) } catch {
                        failed.withLock { $0 = $0 ?? texts[index] }
                    }
                    let count = done.withLock { $0 += 1; return $0 }
                    progress("\(language) \(count)/\(texts.count)")
                }
            }
            if let text = failed.withLock({ $0 }) { throw Failure.clip(text) }
        }
        total += 2
        if try makeTune(in: audioDirectory) { generatedCount.withLock { $0 += 1 } }
        if try makeCelebration(in: audioDirectory) { generatedCount.withLock { $0 += 1 } }
        return Summary(total: total, generated: generatedCount.withLock { $0 })
    }

    /// A short, quiet plucked melody that loops cleanly; true when it had to be made.
    static func makeTune(in directory: String) throws -> Bool {
        try makePlucked(EduCATContent.tuneFile, notes: ["C4", "E4", "G4", "E4", "F4", "A4", "G4", "E4", "D4", "F4", "E4", "C4", "D4", "G3", "C4", "C4"],
                        in: directory)
    }

    /// A new record's celebration: a quick rising arpeggio that ends on a held high note (about 1.6 s),
    /// so a child who cannot read the pop-up hears that something good happened.
    static func makeCelebration(in directory: String) throws -> Bool {
        try makePlucked(EduCATContent.celebrationFile, notes: ["C5", "E5", "G5", "C6", "G5", "C6"], seconds: [0.15, 0.15, 0.15, 0.3, 0.15, 0.7],
                        gain: -6, in: directory)
    }

    /// Plucked notes one after the other through sox, then MP3; false when the file was already there.
    private static func makePlucked(_ file: String, notes: [String], seconds: [Double]? = nil, gain: Int = -9,
                                    in directory: String) throws -> Bool {
        let target = directory + "/" + file
        if FileManager.default.fileExists(atPath: target) { return false }
        let temporary = directory + "/." + UUID().uuidString.lowercased()
        let wav = temporary + ".wav", mp3 = temporary + ".mp3"
        defer {
            try? FileManager.default.removeItem(atPath: wav)
            try? FileManager.default.removeItem(atPath: mp3)
        }
        var arguments = ["-n", "-r", "22050", "-c", "1", wav]
        for (index, note) in notes.enumerated() {
            if index > 0 { arguments.append(":") }
            arguments += ["synth", String(seconds?[index] ?? 0.4), "pluck", note, "gain", String(gain)]
        }
        guard ProcessRunner.succeeds("/usr/bin/sox", arguments, timeLimit: ProcessRunner.TimeLimit.speech, outputs: [wav]),
              ProcessRunner.succeeds(SpeechAudio.ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", wav, "-codec:a", "libmp3lame", "-q:a", "7", mp3],
                                     timeLimit: ProcessRunner.TimeLimit.speech, outputs: [mp3]),
              rename(mp3, target) == 0
        else { throw Failure.tune }
        return true
    }
}
