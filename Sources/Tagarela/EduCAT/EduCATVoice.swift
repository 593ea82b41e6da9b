import Foundation

/// The games in the patient's chosen voice (`PatientVoice`, as the boards and the sentence builder):
/// a voice speaks only its language, and a pack changes voice whole, once every clip it may say is made
/// in it, so a game never mixes two voices. A pack holds a few hundred clips and the slow voices take
/// seconds each (Festival 1–7 s), so no page waits for them: they are made in the background, once,
/// and meanwhile the games speak espeak-ng's clips, made ahead by `tagarela educat-audio`.
enum EduCATVoice {
    /// `pack` saying the patient's voice when all its clips are made in it; else as it is, the missing
    /// clips asked of `BackgroundClips`. File checks only.
    static func apply(_ pack: EduCATPack, voice: PatientVoice, _ speech: SpeechAudio, making clips: BackgroundClips) -> EduCATPack {
        guard let locale = AppLocale(rawValue: pack.language) else { return pack }
        let engine = voice.engine(for: locale)
        guard engine != SpeechAudio.voice(for: locale) else { return pack }
        let missing = pack.textsSaid.filter { speech.existing(text: $0, voice: engine) == nil }
        guard missing.isEmpty else {
            clips.make(missing.map { BoardWords.Clip(text: $0, voice: engine) }, speech)
            return pack
        }
        var voiced = pack
        voiced.voicedBy = engine
        return voiced
    }
}
