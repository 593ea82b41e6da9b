import Foundation

/// The clips a sentence plan's builder plays besides its symbols' own: each word form that agrees
/// with a subject ("quer" after "você"), the NO word, and the whole sentences already made, all in the
/// patient's chosen voice (`PatientVoice`), as are the generated words themselves (a recording stays
/// first). Found by content address (`SpeechAudio`): asking never opens the database, and making blocks
/// (call it on the media pool).
struct SentenceClips: Sendable {
    /// Symbol id → URL of its word's clip in the chosen voice, for generated symbols whose voice is not espeak-ng.
    let words: [Int64: String]
    /// Word id → (subject word id, "" when the sentence opens with its verb) → (what it says, clip URL).
    let forms: [Int64: [String: (label: String, audioURL: String?)]]
    let negationURL: String?
    /// "wordIds|negated|question" → URL of the whole sentence's clip, for the sentences whose clip exists.
    let known: [String: String]

    /// The builder's clips, or nil when one it needs does not exist yet and `make` is false. Whole
    /// sentences are never made here (a plan allows a hundred of them): the builder asks for the
    /// sentence being built (`sentence`), one word at a time.
    static func find(_ grammar: SentenceGrammar, locale: AppLocale, voice: PatientVoice, _ speech: SpeechAudio,
                     make: Bool) -> SentenceClips? {
        func clip(_ text: String, _ voice: String) -> String?? {
            if let found = speech.existing(text: text, voice: voice) { return .some(PlanEndpoints.audio.path(found)) }
            guard make else { return nil }
            return .some((try? speech.clip(text: text, voice: voice)).map { PlanEndpoints.audio.path($0) })
        }
        var forms: [Int64: [String: (label: String, audioURL: String?)]] = [:]
        for (wordId, bySubject) in SentenceRules.agreeingForms(grammar) {
            guard let word = grammar.word(wordId) else { continue }
            let engine = voice.engine(for: word.symbol.voice.flatMap(AppLocale.init(rawValue:)) ?? locale)
            for (subject, text) in bySubject {
                guard let url = clip(text, engine) else { return nil }
                forms[wordId, default: [:]][subject.map { "\($0)" } ?? ""] = (text, url)
            }
        }
        var words: [Int64: String] = [:]
        for (symbolId, spoken) in voice.clips(for: grammar.words.map(\.symbol), fallback: locale) {
            guard let url = clip(spoken.text, spoken.voice) else { return nil }
            words[symbolId] = url  // nil when the engine could not make it: the symbol's own clip plays
        }
        guard let negation = clip(SentenceRules.negation(locale), voice.engine(for: locale)) else { return nil }
        return SentenceClips(words: words, forms: forms, negationURL: negation, known: known(grammar, locale: locale, voice: voice, speech))
    }

    /// Every sentence of the plan whose whole clip exists: a few hundred file checks at most.
    static func known(_ grammar: SentenceGrammar, locale: AppLocale, voice: PatientVoice, _ speech: SpeechAudio) -> [String: String] {
        var known: [String: String] = [:]
        for sentence in Sentence.all(grammar, locale: locale, voice: voice) {
            if let found = speech.existing(text: sentence.text, voice: sentence.voice) {
                known[sentence.key] = PlanEndpoints.audio.path(found)
            }
        }
        return known
    }

    /// One way of saying one sentence of a plan, as its whole clip says it.
    struct Sentence: Sendable, Equatable {
        let key: String
        let text: String
        let voice: String

        /// The ways `ids` may be said (plain, question, with NO when it has a verb), in the patient's voice
        /// for the plan's language.
        static func variants(_ ids: [Int64], _ grammar: SentenceGrammar, locale: AppLocale, voice: PatientVoice = .espeak) -> [Sentence] {
            let wordIds = ids.map(String.init).joined(separator: ",")
            return SentenceRules.variants(ids, in: grammar).map { variant in
                Sentence(key: SentenceKey.make(wordIds: wordIds, negated: variant.negated, question: variant.question),
                         text: SpeechAudio.spoken(SentenceRules.text(ids, in: grammar, negated: variant.negated,
                                                                      question: variant.question, locale: locale),
                                                  question: variant.question),
                         voice: voice.engine(for: locale))
            }
        }

        /// Every way of saying every sentence the plan allows.
        static func all(_ grammar: SentenceGrammar, locale: AppLocale, voice: PatientVoice = .espeak) -> [Sentence] {
            SentenceRules.paths(grammar).flatMap { variants($0, grammar, locale: locale, voice: voice) }
        }
    }

    /// Makes the clips of one sentence's ways of being said (those missing) and returns their URLs by
    /// key. Blocks: about a tenth of a second of work per clip made.
    static func make(_ sentences: [Sentence], _ speech: SpeechAudio) -> [String: String] {
        var made: [String: String] = [:]
        for sentence in sentences {
            if let name = try? speech.clip(text: sentence.text, voice: sentence.voice) {
                made[sentence.key] = PlanEndpoints.audio.path(name)
            }
        }
        return made
    }
}
