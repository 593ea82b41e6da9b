import Foundation

/// What the child's side of a game or lesson needs beyond its content: the patient's access method
/// (switch scanning, hold, dwell, as on the boards; access.js reads the attributes), the clips that
/// close a game (spoken end texts and the celebration), so a game never ends on the last miss's
/// "try again".
struct EduCATPlayView: PageModel {
    /// `data-access-*` attributes for access.js: enum names and numbers only, safe unescaped.
    let accessAttributes: String
    /// Says the end-of-game text aloud ("GAME OVER!! Fi de partida!!", seed 002).
    let gameOverClip: String
    /// Says the new-record text aloud, after the celebration.
    let newRecordClip: String
    /// Says that the child went up a level, after the fanfare.
    let levelUpClip: String
    /// A short rising fanfare (sox), played when a record is beaten.
    let celebrationURL = EduCATContent.celebrationURL

    init(pack: EduCATPack, access: AccessView) {
        accessAttributes = access.attributes
        gameOverClip = pack.clipURL(pack.gameOverSpeech)
        newRecordClip = pack.clipURL(pack.newRecordSpeech)
        levelUpClip = pack.clipURL(pack.levelUpSpeech)
    }
}
