import Crypto
import Foundation
import Synchronization

/// Pre-generated speech clips: one MP3 per (voice, text), named by a hash of both, generated once.
///
/// espeak-ng synthesises a WAV and ffmpeg encodes it as MP3. A clip's name is the hash of what was
/// said and by which voice, so it never changes and can be cached forever. Everything here blocks
/// while espeak-ng or ffmpeg run (about a tenth of a second per word): call it off the cooperative
/// pool, e.g. on `app.mediaPool`.
struct SpeechAudio: Sendable {
    /// Bumped whenever the synthesis settings change (espeak-ng voice options or speed, the ffmpeg
    /// encoding, question handling…): the key includes it, so old clips stop being used instead of
    /// being served under a name that now means something else.
    static let cacheVersion = "v1"

    static let espeak = "/usr/bin/espeak-ng"
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let ffprobe = "/usr/bin/ffprobe"

    enum Failure: Error, Equatable { case emptyText, synthesisFailed, unreadable }

    /// Folder holding the clips, e.g. <data>/media/audio.
    let directory: String
    /// Told the file name of every clip actually synthesised (not of those found ready). For tests.
    let generated: @Sendable (_ fileName: String) -> Void
    /// The voices a patient may be given here (`SpeechVoice.installed`, less any a test leaves out).
    var voices: Set<SpeechVoice> = SpeechVoice.installed

    /// Folder holding the clips (created if missing), e.g. <data>/media/audio
    init(directory: String) {
        self.init(directory: directory, generated: { _ in })
    }

    init(directory: String, generated: @escaping @Sendable (_ fileName: String) -> Void) {
        self.directory = directory
        self.generated = generated
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// The espeak-ng voice for a locale: pt-BR → "pt-br", es → "es", ca → "ca", en → "en".
    static func voice(for locale: AppLocale) -> String {
        switch locale {
        case .ptBR: "pt-br"
        case .es: "es"
        case .ca: "ca"
        case .en: "en"
        }
    }

    /// Content address: lowercase hex SHA-256 of "v1\n<voice>\n<text trimmed>", first 32 hex characters.
    static func key(text: String, voice: String) -> String {
        let material = "\(cacheVersion)\n\(voice)\n\(trimmed(text))"
        let hex = SHA256.hash(data: Data(material.utf8)).hexadecimal
        return String(hex.prefix(32))
    }

    /// The clip's file name relative to `directory` ("<key>.mp3").
    static func fileName(text: String, voice: String) -> String {
        key(text: text, voice: voice) + ".mp3"
    }

    /// The text as it is spoken: trimmed, and ending in "?" when it is a question, which is what
    /// gives espeak-ng its question intonation. Clips are named after this text, so
    /// `clip(text: "água", question: true)` is `fileName(text: "água?", …)`.
    static func spoken(_ text: String, question: Bool) -> String {
        let text = trimmed(text)
        return question && !text.isEmpty && !text.hasSuffix("?") ? text + "?" : text
    }

    static func trimmed(_ text: String) -> String {
        // Pages name dozens of clips and their texts seldom need trimming, which copies them through Foundation.
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        let blank = CharacterSet.whitespacesAndNewlines
        return blank.contains(first) || blank.contains(last) ? text.trimmingCharacters(in: blank) : text
    }

    /// Makes the clip if it is not there yet and returns its file name. Safe to call concurrently
    /// from several threads (and several `SpeechAudio` values) for the same text: it is generated
    /// once, and written atomically (temporary file in the same folder, then rename) so a reader
    /// never sees half an MP3.
    /// `question: true` makes espeak-ng read it with question intonation (appends "?" if the text lacks it).
    func clip(text: String, voice: String, question: Bool = false) throws -> String {
        let text = Self.spoken(text, question: question)
        guard !text.isEmpty else { throw Failure.emptyText }
        let name = Self.fileName(text: text, voice: voice)
        let target = directory + "/" + name
        if FileManager.default.fileExists(atPath: target) { return name }

        return try Self.inProgress.withLock(target) {
            // Whoever held the lock before us may have just made it.
            if FileManager.default.fileExists(atPath: target) { return name }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = directory + "/." + UUID().uuidString.lowercased()
            let wav = temporary + ".wav", mp3 = temporary + ".mp3"
            defer {
                try? FileManager.default.removeItem(atPath: wav)
                try? FileManager.default.removeItem(atPath: mp3)
            }
            let textFile = temporary + ".txt"
            defer { try? FileManager.default.removeItem(atPath: textFile) }
            // "--" ends the options, so a text starting with "-" is spoken rather than parsed. A voice
            // other than espeak-ng's names its engine (`SpeechVoice.engineName`).
            let command = SpeechVoice.command(voice: voice, text: text, wav: wav, textFile: textFile)
                ?? (Self.espeak, ["-v", voice, "-s", "150", "-w", wav, "--", text], false)
            if command.readsFile { try Data(text.utf8).write(to: URL(fileURLWithPath: textFile)) }
            guard ProcessRunner.succeeds(command.executable, command.arguments,
                                         timeLimit: ProcessRunner.TimeLimit.speech, outputs: [wav]),
                  Self.size(of: wav) > 44  // more than a bare WAV header
            else { throw Failure.synthesisFailed }
            guard ProcessRunner.succeeds(Self.ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", wav,
                                                       "-ac", "1", "-codec:a", "libmp3lame", "-q:a", "6", mp3],
                                         timeLimit: ProcessRunner.TimeLimit.speech, outputs: [mp3]),
                  Self.size(of: mp3) > 0
            else { throw Failure.synthesisFailed }
            guard rename(mp3, target) == 0 else { throw Failure.synthesisFailed }
            generated(name)
            return name
        }
    }

    /// The clip's file name if it has been made already; never synthesises, so any thread may ask.
    func existing(text: String, voice: String, question: Bool = false) -> String? {
        let name = Self.fileName(text: Self.spoken(text, question: question), voice: voice)
        return FileManager.default.fileExists(atPath: directory + "/" + name) ? name : nil
    }

    /// Re-encodes a recorded or uploaded sound (any format ffmpeg reads: webm/opus from MediaRecorder,
    /// mp3, wav, m4a/aac, ogg) to a loudness-normalised mono MP3 of at most `maxSeconds` seconds, stored
    /// under a random name "rec-<uuid>.mp3"; returns the file name. Throws `Failure.unreadable` if ffmpeg
    /// fails or the result holds no sound.
    /// A person's recorded or uploaded sound, as `normalise` names it (not speech made from a text). Pure.
    static func isRecording(_ file: String) -> Bool { file.hasPrefix("rec-") }

    func normalise(recordingAt path: String, maxSeconds: Double = 5) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = "rec-\(UUID().uuidString.lowercased()).mp3"
        let temporary = directory + "/." + name  // ends in .mp3, which is how ffmpeg picks the format
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        // loudnorm works at 192 kHz, hence the explicit output rate; -vn drops a video track or cover
        // art, -map_metadata -1 whatever the recorder wrote about itself.
        guard ProcessRunner.succeeds(Self.ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", path, "-vn", "-map_metadata", "-1",
                                                   "-t", String(maxSeconds), "-ac", "1", "-af", "loudnorm", "-ar", "44100",
                                                   "-codec:a", "libmp3lame", "-q:a", "6", temporary],
                                     timeLimit: ProcessRunner.TimeLimit.audioConversion, outputs: [temporary]),
              let seconds = Self.duration(ofFileAt: temporary), seconds > 0
        else { throw Failure.unreadable }
        guard rename(temporary, directory + "/" + name) == 0 else { throw Failure.unreadable }
        return name
    }

    /// Removes a clip or recording by file name (ignores names containing "/" or "..").
    func remove(_ fileName: String) {
        guard !fileName.isEmpty, !fileName.contains("/"), !fileName.contains("..") else { return }
        try? FileManager.default.removeItem(atPath: directory + "/" + fileName)
    }

    /// A sound file's length in seconds as ffprobe reads it, or `nil` if it cannot.
    static func duration(ofFileAt path: String) -> Double? {
        guard let data = try? ProcessRunner.run(Self.ffprobe, ["-v", "error", "-show_entries", "format=duration",
                                                               "-of", "csv=p=0", path],
                                                timeLimit: ProcessRunner.TimeLimit.probe)
        else { return nil }
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Clips being generated in this process, by target path. Shared by every `SpeechAudio`, so two
    /// values for the same folder still generate a clip once.
    private static let inProgress = KeyedLocks()
}

/// One lock per key, made when first needed and dropped when nobody holds or waits for it.
final class KeyedLocks: Sendable {
    private struct Entry {
        let lock = NSLock()
        var users = 0
    }

    private let entries = Mutex<[String: Entry]>([:])

    func withLock<T>(_ key: String, _ body: () throws -> T) rethrows -> T {
        let lock = entries.withLock { entries -> NSLock in
            var entry = entries[key] ?? Entry()
            entry.users += 1
            entries[key] = entry
            return entry.lock
        }
        lock.lock()
        defer {
            lock.unlock()
            entries.withLock { entries in
                entries[key]?.users -= 1
                if entries[key]?.users == 0 { entries[key] = nil }
            }
        }
        return try body()
    }
}
