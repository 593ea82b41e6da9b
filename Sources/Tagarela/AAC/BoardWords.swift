import Foundation

/// What a board's cell tells the strip so a tapped word is shown and said in the form that agrees with
/// the words before it ("eu" then "querer" says "quero"; "ele" then "querer" says "quer"). The board's
/// strip is free (any word after any other, across folders), so the forms cannot be worked out per
/// subject as the sentence builder does: each cell carries its grammar and the forms it may take, and
/// the player's script picks one with `Agreement`'s rules (mirrored in board-player.js). Pure.
struct BoardWord: Sendable, Equatable, Encodable {
    /// The word's class ("pronoun", "noun", "verb", "adjective").
    let c: String
    /// What a pronoun or noun brings to agreement: person, number ("s"/"p"), gender ("m"/"f").
    let p: Int?
    let n: String?
    let g: String?
    /// Form key → [what it shows, its clip's URL]; only the forms that differ from the symbol's own.
    let f: [String: [String]]

    /// The cell's `data-word`.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

enum BoardWords {
    /// A clip a form needs: what it says and in which voice (espeak-ng's, or `SpeechVoice.engineName`).
    struct Clip: Hashable, Sendable {
        let text: String
        let voice: String
        var url: String { PlanEndpoints.audio.path(SpeechAudio.fileName(text: text, voice: voice)) }
    }

    /// Each symbol's word for the strip, with the clips of its forms. Symbols without grammar, or of a
    /// class agreement leaves alone, are left out (the strip says them as their symbol does).
    /// `speaking`: the engine voice for a language (the patient's, `PatientVoice.engine`).
    static func words(for symbols: [Symbol], forms: [Int64: WordForms], fallback: AppLocale,
                      speaking voiceFor: (AppLocale) -> String = SpeechAudio.voice(for:)) -> [Int64: (word: BoardWord, clips: [Clip])] {
        var result: [Int64: (word: BoardWord, clips: [Clip])] = [:]
        for symbol in symbols {
            guard let id = symbol.id, let grammar = forms[id], grammar.wordClass != .other else { continue }
            let voice = voiceFor(symbol.voice.flatMap(AppLocale.init(rawValue:)) ?? fallback)
            var shown: [String: [String]] = [:]
            var clips: [Clip] = []
            let own = SpeechAudio.trimmed(symbol.spokenText)
            // Only verbs and adjectives change with the words before them (`Agreement.key`).
            for key in [.verb, .adjective].contains(grammar.wordClass) ? grammar.keys : [] {
                let said = SpeechAudio.trimmed(Agreement.form(of: symbol.spokenText, grammar, key: key))
                guard !said.isEmpty, said.lowercased() != own.lowercased() else { continue }
                let clip = Clip(text: said, voice: voice)
                shown[key] = [Agreement.form(of: symbol.name, grammar, key: key), clip.url]
                clips.append(clip)
            }
            let subject = Agreement.subject(grammar)
            result[id] = (BoardWord(c: grammar.wordClass.rawValue, p: subject?.person, n: subject?.number.rawValue,
                                    g: subject?.gender?.rawValue, f: shown), clips)
        }
        return result
    }

    /// The clips of `clips` not made yet: file checks only.
    static func missing(_ clips: some Sequence<Clip>, _ speech: SpeechAudio) -> [Clip] {
        Set(clips).filter { speech.existing(text: $0.text, voice: $0.voice) == nil }.sorted { $0.text < $1.text }
    }

    /// Makes `clips` on up to as many threads as the machine has cores (call it on the media pool).
    /// A clip espeak-ng cannot make is left out: the strip then says the symbol's own clip.
    static func make(_ clips: [Clip], _ speech: SpeechAudio) {
        DispatchQueue.concurrentPerform(iterations: clips.count) { index in
            _ = try? speech.clip(text: clips[index].text, voice: clips[index].voice)
        }
    }

    /// A strip's text as it is logged: each word in the form that agrees with the words before it.
    static func spokenText(_ symbols: [Symbol], forms: [Int64: WordForms]) -> String {
        Agreement.sentence(symbols.map { ($0.name, $0.id.flatMap { forms[$0] }) }).joined(separator: " ")
    }
}
