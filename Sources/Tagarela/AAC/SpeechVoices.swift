import Foundation
import GRDB
import HTTPServer
import Synchronization

/// The voices a clinician may choose for a patient (docs/voices.md). espeak-ng speaks every language
/// and is always there (`make run` installs it); the others each speak one language and come from
/// Debian packages that `scripts/install-voices` installs on request, so a server may have any of them.
/// A voice that is chosen but not installed (or not of the word's language) falls back to espeak-ng.
enum SpeechVoice: String, CaseIterable, Sendable {
    case espeak
    /// RHVoice's Letícia (F123), Brazilian Portuguese: Debian non-free, CC BY-SA 4.0.
    case rhvoicePtBR = "rhvoice-pt-br"
    /// SVOX Pico, Spanish (Castilian): Debian non-free, Apache-2.0.
    case picoEs = "pico-es"
    /// Festival's Ona, an HTS voice from UPC, Catalan: Debian main, LGPL.
    case festivalCa = "festival-ca"

    /// The one language the voice speaks; nil for espeak-ng, which speaks them all.
    var language: AppLocale? {
        switch self {
        case .espeak: nil
        case .rhvoicePtBR: .ptBR
        case .picoEs: .es
        case .festivalCa: .ca
        }
    }

    /// The program that makes the voice's WAV, and the file whose presence says its voice is installed.
    private var files: [String] {
        switch self {
        case .espeak: [SpeechAudio.espeak]
        case .rhvoicePtBR: [Engine.rhvoice, "/usr/share/RHVoice/voices/Leticia-F123"]
        case .picoEs: [Engine.pico, "/usr/share/pico/lang/es-ES_zl0_sg.bin"]
        case .festivalCa: [Engine.festival, "/usr/share/festival/voices/catalan/upc_ca_ona_hts"]
        }
    }

    /// Whether this machine has the voice; looked at once per process (`installed`).
    var isOnDisk: Bool { files.allSatisfy { FileManager.default.fileExists(atPath: $0) } }

    /// The voices installed here, espeak-ng always first.
    static let installed: Set<SpeechVoice> = Set(allCases.filter { $0 == .espeak || $0.isOnDisk })

    /// The voice `SpeechAudio.clip` is given for words in `locale` when the patient chose `chosen`:
    /// the chosen voice's name when it speaks that language and is in `installed`, else espeak-ng's.
    /// A clip's name hashes this text, so the cache is kept per voice. Pure.
    static func engineVoice(for locale: AppLocale, chosen: SpeechVoice, installed: Set<SpeechVoice>) -> String {
        guard chosen.language == locale, installed.contains(chosen), let engine = chosen.engineName else {
            return SpeechAudio.voice(for: locale)
        }
        return engine
    }

    /// "<engine>:<voice>" for the engines other than espeak-ng (whose names stay bare, as clips made
    /// before these voices were named).
    var engineName: String? {
        switch self {
        case .espeak: nil
        case .rhvoicePtBR: "rhvoice:Leticia-F123"
        case .picoEs: "pico:es-ES"
        case .festivalCa: "festival:voice_upc_ca_ona_hts"
        }
    }

    /// What runs to make a WAV of `text` (already spoken: trimmed, "?" for a question) with the engine
    /// voice `voice`; `textFile` is where the text is written first for the engines that read a file.
    /// Nil when `voice` is espeak-ng's (the caller runs espeak-ng as it always has).
    static func command(voice: String, text: String, wav: String, textFile: String) -> (executable: String, arguments: [String], readsFile: Bool)? {
        let parts = voice.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "rhvoice": return (Engine.rhvoice, ["-p", parts[1], "-i", textFile, "-o", wav], true)
        // pico2wave takes the text as its last argument; "--" keeps a text starting with "-" a text.
        case "pico": return (Engine.pico, ["-l", parts[1], "-w", wav, "--", text], false)
        // text2wave reads UTF-8 text from the file; the voice is chosen by calling its Scheme function.
        case "festival": return (Engine.festival, ["-eval", "(\(parts[1]))", textFile, "-o", wav], true)
        default: return nil
        }
    }

    enum Engine {
        static let rhvoice = "/usr/bin/RHVoice-test"
        static let pico = "/usr/bin/pico2wave"
        static let festival = "/usr/bin/text2wave"
    }

    /// A patient's chosen voice, kept with their access settings. Shipped 2026-11. Never edit.
    static func v1(_ db: Database) throws {
        try db.alter(table: "accessSetting") { t in
            t.add(column: "voice", .text).notNull().defaults(to: "espeak")
                .check(sql: "voice IN ('espeak', 'rhvoice-pt-br', 'pico-es', 'festival-ca')")
        }
    }
}

/// The voice a patient's boards speak with: their clinician's choice, as far as this server has it.
/// Symbols keep the clip made when they were saved (espeak-ng); the player swaps a generated one for
/// the same words in the chosen voice, made once on the media pool and cached by voice like any clip.
/// A recording or an upload is never swapped. Pure but for the file checks of `screen`.
struct PatientVoice: Sendable {
    let chosen: SpeechVoice
    let installed: Set<SpeechVoice>

    /// espeak-ng for every language: no voice chosen.
    static let espeak = PatientVoice(chosen: .espeak, installed: [.espeak])

    /// The engine voice for words in `locale` (`SpeechVoice.engineVoice`).
    func engine(for locale: AppLocale) -> String {
        SpeechVoice.engineVoice(for: locale, chosen: chosen, installed: installed)
    }

    /// What the player's rendered grid depends on: the voice actually heard.
    var key: String { installed.contains(chosen) ? chosen.rawValue : SpeechVoice.espeak.rawValue }

    /// By symbol id, the clip each generated symbol's words need in this voice; none where the voice
    /// is espeak-ng's (the symbol's own clip is that one). `fallback`: the language of a symbol without one.
    func clips(for symbols: [Symbol], fallback: AppLocale) -> [Int64: BoardWords.Clip] {
        var clips: [Int64: BoardWords.Clip] = [:]
        for symbol in symbols where symbol.audioKind == "generated" {
            let language = symbol.voice.flatMap(AppLocale.init(rawValue:)) ?? fallback
            let voice = engine(for: language)
            let text = SpeechAudio.trimmed(symbol.spokenText)
            guard let id = symbol.id, voice != SpeechAudio.voice(for: language), !text.isEmpty else { continue }
            clips[id] = BoardWords.Clip(text: text, voice: voice)
        }
        return clips
    }

    /// `screen` with each symbol of `clips` saying its clip in this voice, where that clip was made
    /// (one the engine could not make leaves the symbol's own).
    static func screen(_ screen: BoardScreen, clips: [Int64: BoardWords.Clip], _ speech: SpeechAudio) -> BoardScreen {
        guard !clips.isEmpty else { return screen }
        return BoardScreen(plan: screen.plan, cells: screen.cells.map { cell in
            guard var symbol = cell.symbol, let clip = symbol.id.flatMap({ clips[$0] }),
                  let file = speech.existing(text: clip.text, voice: clip.voice) else { return cell }
            symbol.audioFile = file
            return BoardScreen.Cell(position: cell.position, symbol: symbol, colour: cell.colour, link: cell.link,
                                    background: cell.background, border: cell.border)
        })
    }
}

/// Clips made in the background, one at a time on a pool of their own (so no upload or board waits
/// behind them), each asked once while it waits: a voice's clips for a whole eduCAT pack, which no page
/// waits for (`EduCATVoice`). Made clips are files of the one cache, found by the next page. One per
/// app (`RequestContext.backgroundClips`), like its other pools.
final class BackgroundClips: Sendable {
    private let pool = WorkPool(name: "voices", maxConcurrent: 1)
    private let waiting = Mutex<Set<String>>([])

    func make(_ clips: [BoardWords.Clip], _ speech: SpeechAudio) {
        for clip in clips {
            let path = speech.directory + "/" + SpeechAudio.fileName(text: SpeechAudio.trimmed(clip.text), voice: clip.voice)
            guard waiting.withLock({ $0.insert(path).inserted }) else { continue }
            pool.submit {
                _ = try? speech.clip(text: clip.text, voice: clip.voice)
                self.waiting.withLock { _ = $0.remove(path) }
            }
        }
    }
}
