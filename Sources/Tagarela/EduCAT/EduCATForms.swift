import Foundation

extension EduCATPack {
    /// The pack with a patient's added words (conta-cops) and letters (alphabet, from the lower-case
    /// level on). A word the pack already has is the teacher's (she confirmed it: her picture and voice).
    func adding(_ items: [EduCATStore.AddedItem], patientId: Int64) -> EduCATPack {
        var pack = self
        let added: [Word] = items.filter { $0.area == EduCATArea.contaCops.rawValue }.compactMap { item in
            guard let syllables = item.syllables, item.pictogram != nil || item.picture != nil else { return nil }
            return Word(word: item.text, syllables: syllables.split(separator: "-").map(String.init), pictogram: item.pictogram ?? "",
                        clip: item.clip, picture: item.picture.map { _ in EduCATEndpoints.itemPicture.path(patientId, item.id) })
        }
        let replaced = Set(added.map(\.word))
        pack.words = pack.words.filter { !replaced.contains($0.word) } + added
        let letters = Set(alphabet.map(\.symbol) + extraLetterItems.map(\.symbol))
        pack.addedLetterItems = items.filter { $0.area == EduCATArea.alphabet.rawValue && !letters.contains($0.text) }
            .map { Item(symbol: $0.text, spoken: $0.spoken, clip: $0.clip) }
        return pack
    }
}

/// The clinician's settings form: the challenge, the pack, play (untimed, items, speed), the rule
/// of automatic promotion and the level of each area.
enum EduCATSettingsForm {
    static let fields = ["seconds", "lives", "language", "untimed", "items", "speed", "promotion", "streak", "percent"]
        + EduCATArea.allCases.map { "level-\($0.rawValue)" }

    static func values(_ settings: EduCATSettings, levels: [EduCATArea: Int]) -> [String: String] {
        var values = ["seconds": "\(settings.secondsPerQuestion)", "lives": "\(settings.lives)", "language": settings.language ?? "",
                      "untimed": settings.untimed ? "1" : "", "items": settings.itemsOnScreen.map(String.init) ?? "",
                      "speed": settings.speed.rawValue, "promotion": settings.promotion.kind, "streak": "5", "percent": "80"]
        if case .streak(let count) = settings.promotion { values["streak"] = "\(count)" }
        if case .accuracy(let percent) = settings.promotion { values["percent"] = "\(percent)" }
        for area in EduCATArea.allCases { values["level-\(area.rawValue)"] = "\(levels[area] ?? 1)" }
        return values
    }

    /// The settings and levels typed, or nil with the form's fields in error. A level left out of the
    /// form keeps its value (an old form without levels changes none).
    static func read(_ form: inout FormState, current: EduCATSettings, t: Translator)
        -> (EduCATSettings, [EduCATArea: Int])? {
        func whole(_ field: String) -> Int? { Int(form[field].trimmingCharacters(in: .whitespaces)) }
        let seconds = whole("seconds"), lives = whole("lives")
        if seconds.map(EduCATSettings.secondsRange.contains) != true { form.fail("seconds", t["educat_error_seconds"]) }
        if lives.map(EduCATSettings.livesRange.contains) != true { form.fail("lives", t["educat_error_lives"]) }
        let language = form["language"].isEmpty ? nil : form["language"]
        if let language, !EduCATContent.languages.contains(language) { form.fail("language", t["error_choose_option"]) }
        let items = form["items"].trimmingCharacters(in: .whitespaces).isEmpty ? nil : whole("items")
        if !form["items"].trimmingCharacters(in: .whitespaces).isEmpty, items.map(EduCATSettings.itemsRange.contains) != true {
            form.fail("items", t["educat_error_items"])
        }
        let speed = form["speed"].isEmpty ? current.speed : EduCATSpeed(rawValue: form["speed"])
        if speed == nil { form.fail("speed", t["error_choose_option"]) }
        let kind = form["promotion"].isEmpty ? current.promotion.kind : form["promotion"]
        let promotion = EduCATPromotion(kind: kind, value: kind == "streak" ? whole("streak") : kind == "accuracy" ? whole("percent") : nil)
        if promotion == nil {
            switch kind {
            case "streak": form.fail("streak", t["educat_error_streak"])
            case "accuracy": form.fail("percent", t["educat_error_percent"])
            default: form.fail("promotion", t["error_choose_option"])
            }
        }
        var levels: [EduCATArea: Int] = [:]
        for area in EduCATArea.allCases where !form["level-\(area.rawValue)"].isEmpty {
            guard let level = whole("level-\(area.rawValue)"), (1...EduCATLevel.levels(area).count).contains(level) else {
                form.fail("level-\(area.rawValue)", t["error_choose_option"])
                continue
            }
            levels[area] = level
        }
        guard !form.hasErrors, let seconds, let lives, let speed, let promotion else { return nil }
        return (EduCATSettings(secondsPerQuestion: seconds, lives: lives, language: language, untimed: !form["untimed"].isEmpty,
                               itemsOnScreen: items, speed: speed, promotion: promotion), levels)
    }
}

/// The form that adds a word (with its picture) to a patient's conta-cops set, or a letter to the
/// alphabet; its clip is generated with the chosen pack's voice.
enum EduCATItemForm {
    static let fields = ["area", "text", "spoken", "syllables", "picture", "language", "confirm", "keptPicture"]
    static let limits = ["text": TextLimit(characters: 40, label: "educat_field_item_text"),
                         "spoken": TextLimit.name("educat_field_item_spoken"),
                         "syllables": TextLimit(characters: 60, label: "educat_field_item_syllables"),
                         "picture": TextLimit.name("educat_field_item_picture")]

    struct Item: Sendable {
        let area: EduCATArea
        let text: String
        let spoken: String
        let language: String
        /// Conta-cops only.
        let word: EduCATPack.Word?
    }

    enum Prepared: Sendable {
        case refused(FormState)
        /// `picture`: the teacher's own picture, stored (`MediaStore.storeEduCATPicture`), for a word.
        case ready(Item, clip: String, picture: String?)
    }

    /// A conta-cops word splits into syllables with "-" ("ca-sa"); they must spell the word.
    static func syllables(_ typed: String, spell word: String) -> [String]? {
        let parts = typed.lowercased().split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...5).contains(parts.count), !parts.contains(where: \.isEmpty),
              parts.joined() == word.lowercased().filter({ $0 != " " && $0 != "-" }) else { return nil }
        return parts
    }

    /// `ownPicture`: the teacher gave her own picture, so no pictogram is looked for.
    static func read(_ form: inout FormState, pictograms: PictogramLibrary, ownPicture: Bool = false, t: Translator) -> Item? {
        let area = EduCATArea(rawValue: form["area"]).flatMap { $0 == .contaCops || $0 == .alphabet ? $0 : nil }
        if area == nil { form.fail("area", t["error_choose_option"]) }
        let language = EduCATContent.languages.contains(form["language"]) ? form["language"] : nil
        if language == nil { form.fail("language", t["error_choose_option"]) }
        let text = form.required("text", t["educat_error_item_text"])?.lowercased()
        if area == .alphabet, let text, text.count > 4 { form.fail("text", t["educat_error_letter"]) }
        let spokenTyped = form["spoken"].trimmingCharacters(in: .whitespacesAndNewlines)
        var word: EduCATPack.Word?
        if area == .contaCops, let text {
            let parts = syllables(form["syllables"].isEmpty ? text : form["syllables"], spell: text)
            if parts == nil { form.fail("syllables", t["educat_error_syllables"]) }
            let picture = form["picture"].trimmingCharacters(in: .whitespaces)
            let locale = language.flatMap(AppLocale.init(rawValue:)) ?? .fallback
            let entry = ownPicture ? nil
                : pictograms.entry(picture.uppercased()) ?? pictograms.search(picture.isEmpty ? text : picture, locale: locale, limit: 1).first
            if entry == nil, !ownPicture { form.fail("picture", t["educat_error_picture"]) }
            if let parts, entry != nil || ownPicture {
                word = EduCATPack.Word(word: text, syllables: parts, pictogram: entry?.hexcode ?? "")
            }
        }
        guard !form.hasErrors, let area, let language, let text else { return nil }
        return Item(area: area, text: text, spoken: area == .contaCops || spokenTyped.isEmpty ? text : spokenTyped, language: language, word: word)
    }
}
