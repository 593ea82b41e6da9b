import Foundation
import GRDB
import Mustache

/// How one patient selects things: bigger targets, where the words go, when a touch counts, scanning
/// with switches, and dwell. Pure value; `standard` is a plain touch board, what a patient gets
/// until a clinician or tutor saves settings.
struct AccessSettings: Sendable, Equatable {
    /// The smallest side of a target on the patient's pages; never below the 64 px floor.
    enum CellSize: String, CaseIterable, Sendable {
        case small, medium, large, xlarge

        var minimumPixels: Int {
            switch self {
            case .small: 64
            case .medium: 96
            case .large: 128
            case .xlarge: 176
            }
        }
    }

    enum LabelPosition: String, CaseIterable, Sendable { case below, above, hidden }
    enum SelectOn: String, CaseIterable, Sendable { case press, release }
    enum Scanning: String, CaseIterable, Sendable { case off, rowColumn = "row-column", linear }
    /// One switch selects and the scan moves by itself; with two, one moves the highlight and the other selects.
    enum Switches: String, CaseIterable, Sendable { case one, two }
    /// The colours of every page the patient uses. `auto` follows the device (`prefers-color-scheme`).
    enum Theme: String, CaseIterable, Sendable { case auto, light, dark, contrast }
    /// The text size of every page the patient uses, over the app's 18 px.
    enum TextSize: String, CaseIterable, Sendable { case standard, large, xlarge }

    var cellSize = CellSize.small
    var labelPosition = LabelPosition.below
    var selectOn = SelectOn.press
    /// A press shorter than this is a tremor, not a choice. 0 = off.
    var holdMs = 0
    var scanning = Scanning.off
    var scanMs = 1500
    var switches = Switches.one
    /// Resting the pointer on a target this long selects it. 0 = off.
    var dwellMs = 0
    var display = Display.standard
    /// The voice the patient's generated clips speak with, where it speaks the word's language and is
    /// installed (`SpeechVoice.engineVoice`); a symbol's recording still plays first.
    var voice = SpeechVoice.espeak

    /// How the patient's pages look, whatever page it is: colours and text size.
    struct Display: Sendable, Equatable {
        var theme = Theme.auto
        var textSize = TextSize.standard

        static let standard = Display()

        /// Classes for the layout's `<html>` on the patient's pages (the stylesheet's themes).
        var classes: String { "patient-page theme-\(theme.rawValue) text-\(textSize.rawValue)" }
    }

    static let standard = AccessSettings()
}

/// The settings form's rules. Pure: a form's values in, settings or one problem per field out.
enum AccessRules {
    enum Problem: String, Error, Sendable {
        case choose = "error_choose_option"
        case hold = "access_error_hold"
        case scanSpeed = "access_error_scan_speed"
        case dwell = "access_error_dwell"
    }

    /// One problem per field in error.
    struct Problems: Error, Equatable, Sendable, ExpressibleByDictionaryLiteral {
        var byField: [String: Problem]
        init(dictionaryLiteral elements: (String, Problem)...) { byField = Dictionary(uniqueKeysWithValues: elements) }
    }

    static let fields = ["cellSize", "labelPosition", "selectOn", "holdMs", "scanning", "scanSeconds", "switches", "dwellSeconds",
                         "theme", "textSize", "voice"]
    static let holdRange = 0...3000
    static let scanRange = 500...10_000
    static let dwellRange = 500...5000

    /// Times are typed as the form shows them: the hold in milliseconds, scan and dwell in seconds,
    /// with a comma or a point ("1,5"). An empty time means off (hold, dwell) or the standard speed (scan).
    /// `voices` are those a patient may be given here; a form without a voice (a tutor's, who does not
    /// choose it, or an old tab) leaves the standard one, which the caller replaces with the saved one.
    static func read(_ values: [String: String], voices: Set<SpeechVoice>) -> Result<AccessSettings, Problems> {
        var problems: Problems = [:]
        var settings = AccessSettings.standard
        func choice<T: RawRepresentable<String>>(_ field: String, _ keyPath: WritableKeyPath<AccessSettings, T>) {
            guard let value = T(rawValue: values[field] ?? "") else { problems.byField[field] = .choose; return }
            settings[keyPath: keyPath] = value
        }
        choice("cellSize", \.cellSize)
        choice("labelPosition", \.labelPosition)
        choice("selectOn", \.selectOn)
        choice("scanning", \.scanning)
        choice("switches", \.switches)
        // Added after the form's first version: a form without them (an open old tab) keeps the standard look.
        if !text(values["theme"]).isEmpty { choice("theme", \.display.theme) }
        if !text(values["textSize"]).isEmpty { choice("textSize", \.display.textSize) }
        if !text(values["voice"]).isEmpty {
            choice("voice", \.voice)
            if !voices.contains(settings.voice) { problems.byField["voice"] = .choose }
        }

        switch text(values["holdMs"]) {
        case "": settings.holdMs = 0
        case let typed:
            if let ms = Int(typed), holdRange.contains(ms) { settings.holdMs = ms } else { problems.byField["holdMs"] = .hold }
        }
        switch text(values["scanSeconds"]) {
        case "": settings.scanMs = AccessSettings.standard.scanMs
        case let typed:
            if let ms = milliseconds(typed), scanRange.contains(ms) { settings.scanMs = ms } else { problems.byField["scanSeconds"] = .scanSpeed }
        }
        switch text(values["dwellSeconds"]) {
        case "": settings.dwellMs = 0
        case let typed:
            if let ms = milliseconds(typed), ms == 0 || dwellRange.contains(ms) { settings.dwellMs = ms } else { problems.byField["dwellSeconds"] = .dwell }
        }
        return problems.byField.isEmpty ? .success(settings) : .failure(problems)
    }

    /// The form's values for saved settings, in the reader's number format.
    static func formValues(_ settings: AccessSettings, _ format: LocalizedFormat) -> [String: String] {
        [
            "cellSize": settings.cellSize.rawValue, "labelPosition": settings.labelPosition.rawValue,
            "selectOn": settings.selectOn.rawValue, "holdMs": "\(settings.holdMs)",
            "scanning": settings.scanning.rawValue, "switches": settings.switches.rawValue,
            "scanSeconds": format.decimal(Double(settings.scanMs) / 1000, fractionDigits: 2),
            "dwellSeconds": format.decimal(Double(settings.dwellMs) / 1000, fractionDigits: 2),
            "theme": settings.display.theme.rawValue, "textSize": settings.display.textSize.rawValue,
            "voice": settings.voice.rawValue,
        ]
    }

    private static func text(_ value: String?) -> String { (value ?? "").trimmingCharacters(in: .whitespaces) }

    /// "1,5" or "1.5" seconds → 1500; nil for anything that is not a number.
    private static func milliseconds(_ seconds: String) -> Int? {
        guard let value = LocalizedFormat.parseDecimal(seconds), value.isFinite, value >= 0, value < 1000 else { return nil }
        return Int((value * 1000).rounded())
    }
}

// MARK: - Storage

extension AccessSettings {
    /// The patient's settings, or `standard` when none were saved.
    static func load(patientId: Int64, _ db: Database) throws -> AccessSettings {
        // Read with every board and every patient's session: a statement prepared once per connection.
        guard let row = try Row.fetchOne(db, SQLRequest(sql: "SELECT * FROM accessSetting WHERE patientId = ?", arguments: [patientId],
                                                        cached: true))
        else { return .standard }
        // The table's CHECKs keep the texts valid; an unknown one falls back rather than failing a patient's page.
        var settings = AccessSettings.standard
        settings.cellSize = CellSize(rawValue: row["cellSize"]) ?? settings.cellSize
        settings.labelPosition = LabelPosition(rawValue: row["labelPosition"]) ?? settings.labelPosition
        settings.selectOn = SelectOn(rawValue: row["selectOn"]) ?? settings.selectOn
        settings.holdMs = row["holdMs"]
        settings.scanning = Scanning(rawValue: row["scanning"]) ?? settings.scanning
        settings.scanMs = row["scanMs"]
        settings.switches = Switches(rawValue: row["switches"]) ?? settings.switches
        settings.dwellMs = row["dwellMs"]
        settings.display = Display(row)
        settings.voice = SpeechVoice(rawValue: row["voice"] ?? "") ?? .espeak
        return settings
    }

    /// Only the look of the patient's pages, read with the session (see `App.signedInActor`).
    static func display(patientId: Int64, _ db: Database) throws -> Display {
        try Row.fetchOne(db, SQLRequest(sql: "SELECT theme, textSize FROM accessSetting WHERE patientId = ?", arguments: [patientId],
                                        cached: true))
            .map(Display.init) ?? .standard
    }

    /// Saves the settings with the audit row that records them (what they now are, as the page's attributes).
    func save(patientId: Int64, by userId: Int64, audit: AuditContext, _ db: Database) throws {
        try save(patientId: patientId, by: userId, at: audit.now, db)
        try audit.record(.update, "accessSetting", patientId, AccessView(self).attributes + " voice=\"\(voice.rawValue)\"", db)
    }

    func save(patientId: Int64, by userId: Int64, at now: Date, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO accessSetting (patientId, cellSize, labelPosition, selectOn, holdMs, scanning, scanMs, switches, dwellMs,
                                       theme, textSize, voice, updatedAt, updatedBy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (patientId) DO UPDATE SET cellSize = excluded.cellSize, labelPosition = excluded.labelPosition,
              selectOn = excluded.selectOn, holdMs = excluded.holdMs, scanning = excluded.scanning, scanMs = excluded.scanMs,
              switches = excluded.switches, dwellMs = excluded.dwellMs, theme = excluded.theme, textSize = excluded.textSize,
              voice = excluded.voice,
              updatedAt = excluded.updatedAt, updatedBy = excluded.updatedBy
            """, arguments: [patientId, cellSize.rawValue, labelPosition.rawValue, selectOn.rawValue, holdMs,
                             scanning.rawValue, scanMs, switches.rawValue, dwellMs, display.theme.rawValue,
                             display.textSize.rawValue, voice.rawValue, now, userId])
    }
}

extension AccessSettings.Display {
    /// From a row with `theme` and `textSize`; the table's CHECKs keep them valid, an unknown one falls back.
    init(_ row: Row) {
        self.init(theme: AccessSettings.Theme(rawValue: row["theme"] ?? "") ?? .auto,
                  textSize: AccessSettings.TextSize(rawValue: row["textSize"] ?? "") ?? .standard)
    }
}

// MARK: - On a page

/// What a patient page renders so `Public/js/access.js` and the stylesheet apply the settings. A page's
/// view model holds one `access: AccessView` and its template puts both parts on the element that holds
/// the selectable buttons:  `<section class="… {{access.classes}}" {{{access.attributes}}}>`.
struct AccessView: Sendable, MustacheParent, Encodable {
    let settings: AccessSettings

    init(_ settings: AccessSettings) { self.settings = settings }

    /// Read by Mustache as itself (`MustacheParent`), so a page model holding it encodes nothing of it.
    func encode(to encoder: any Encoder) throws {}

    /// The patient's settings for a page they are using.
    static func forPatient(_ patientId: Int64, _ db: Database) throws -> AccessView {
        AccessView(try AccessSettings.load(patientId: patientId, db))
    }

    /// Classes for the stylesheet: the targets' size and where the words sit.
    var classes: String { "access-cells-\(settings.cellSize.rawValue) access-labels-\(settings.labelPosition.rawValue)" }

    /// The `data-access-*` attributes access.js reads. Only enum names and numbers, so safe unescaped.
    var attributes: String {
        [("select", settings.selectOn.rawValue), ("hold", "\(settings.holdMs)"), ("scan", settings.scanning.rawValue),
         ("scan-ms", "\(settings.scanMs)"), ("switches", settings.switches.rawValue), ("dwell", "\(settings.dwellMs)")]
            .map { #"data-access-\#($0.0)="\#($0.1)""# }.joined(separator: " ")
    }

    func child(named name: String) -> Any? {
        switch name {
        case "classes": classes
        case "attributes": attributes
        default: nil
        }
    }
}
