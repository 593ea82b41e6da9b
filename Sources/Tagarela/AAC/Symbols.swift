import Foundation
import GRDB

/// What a symbol's form brought besides its fields, made before the transaction opened: the picture
/// and the recording converted, the clip of its text generated (`SymbolRoutes.prepareSave`).
struct SymbolMedia: Sendable {
    /// The stored picture ("images/<file>"), if one was uploaded and could be read.
    var image: String?
    /// The normalised recording, if one was uploaded and could be read.
    var recording: String?
    /// The generated clip of the form's text in its voice (nil if it could not be made).
    var generatedClip: String?
    /// The upload's problems, by field, in the user's language.
    var errors: [String: String] = [:]
}

/// Writes to symbols and categories, each with its audit row.
enum Symbols {
    /// Saves a symbol as its form describes it (already checked by `SymbolInput`) with what was made of
    /// its uploads, creating the default categories first when one of them was chosen. Returns it.
    /// A recording speaks for the symbol; otherwise a new symbol, one that spoke with the generated
    /// voice, or one whose clinician gave up its recording (`useGeneratedVoice`) gets the generated clip.
    static func save(_ input: SymbolInput, existing: Symbol?, media: SymbolMedia, useGeneratedVoice: Bool,
                     audit: AuditContext, _ t: Translator, _ db: Database) throws -> Symbol {
        var symbol = input.symbol(existing: existing, at: audit.now)
        if let image = media.image {
            symbol.imagePath = image
            symbol.pictogram = nil
        }
        if let recording = media.recording {
            symbol.audioFile = recording
            symbol.audioKind = "uploaded"
        } else if existing == nil || existing?.audioKind == "generated" || useGeneratedVoice {
            symbol.audioFile = media.generatedClip
            symbol.audioKind = "generated"
        }
        symbol.categoryId = try input.category.resolve(clinicianId: input.clinicianId, t, db)
        try symbol.save(db)
        try audit.record(existing == nil ? .create : .update, "symbol", symbol.id, symbol.name, db)
        return symbol
    }

    /// The files a saved symbol no longer uses: a replaced picture, and a replaced recording (nobody
    /// else's; generated clips are shared by text and voice, so they stay). Pure.
    static func unused(before existing: Symbol?, after saved: Symbol) -> (image: String?, recording: String?) {
        let image = existing?.imagePath.flatMap { $0 != saved.imagePath ? $0 : nil }
        let recording = existing?.audioFile.flatMap { existing?.audioKind == "uploaded" && $0 != saved.audioFile ? $0 : nil }
        return (image, recording)
    }
}

enum Categories {
    /// A clinician's new category, placed after their others.
    static func create(clinicianId: Int64, name: String, colour: CategoryColour, audit: AuditContext, _ db: Database) throws -> Category {
        let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM category WHERE clinicianId = ?", arguments: [clinicianId]) ?? 0) + 1
        var category = Category(clinicianId: clinicianId, name: name, colour: colour.rawValue, position: position)
        try category.insert(db)
        try audit.record(.create, "category", category.id, name, db)
        return category
    }
}
