import Foundation
import GRDB

/// The voice of a word or letter a clinician added: the generated clip (content-addressed, shared,
/// never deleted) or a recording ("rec-<uuid>.mp3", this item's alone, deleted when it is replaced or
/// the item removed).
enum EduCATClips {
    static func isRecording(_ clip: String) -> Bool { SpeechAudio.isRecording(clip) }

    /// Deletes `clip` if it is a recording; a generated clip may be another word's too, so it stays.
    static func discard(_ clip: String, _ speech: SpeechAudio) {
        if isRecording(clip) { speech.remove(clip) }
    }
}

extension EduCATStore {
    /// The clip of one of the patient's added items, or nil when the patient has no such item.
    static func clip(ofItem id: Int64, patientId: Int64, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT clip FROM educatItem WHERE id = ? AND patientId = ?", arguments: [id, patientId])
    }

    /// The item's voice from now on, with its audit row. Returns the clip it had (nil: no such item of
    /// this patient, nothing changed).
    static func setClip(_ clip: String, ofItem id: Int64, patientId: Int64, audit: AuditContext, _ db: Database) throws -> String? {
        guard let old = try self.clip(ofItem: id, patientId: patientId, db) else { return nil }
        try db.execute(sql: "UPDATE educatItem SET clip = ? WHERE id = ? AND patientId = ?", arguments: [clip, id, patientId])
        try audit.record(.update, "educatItem", id, EduCATClips.isRecording(clip) ? "recorded voice" : "generated voice", db)
        return old
    }

    /// What the item says and in which pack, to find its generated clip again.
    static func spokenText(ofItem id: Int64, patientId: Int64, _ db: Database) throws -> (spoken: String, language: String)? {
        try Row.fetchOne(db, sql: "SELECT spoken, language FROM educatItem WHERE id = ? AND patientId = ?", arguments: [id, patientId])
            .map { ($0["spoken"], $0["language"]) }
    }
}
