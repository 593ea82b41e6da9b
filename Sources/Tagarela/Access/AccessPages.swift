import Foundation
import GRDB
import HTTPServer

/// The settings form: each choice as a group of radio buttons, checked from what was typed or saved.
struct AccessSettingsPage: PageModel {
    let patientName: String
    /// The patient's page, where the form leads back to.
    let patientURL: String
    /// Where the form posts.
    let saveURL: String
    let form: FormState
    let cellSizes: [SelectOption]
    let labelPositions: [SelectOption]
    let selectOns: [SelectOption]
    let scannings: [SelectOption]
    let switchCounts: [SelectOption]
    let themes: [SelectOption]
    let textSizes: [SelectOption]
    /// The installed voices, for a clinician (empty for a tutor, who does not choose it).
    let voices: [SelectOption]
    let choosesVoice: Bool
    /// Set when the patient's chosen voice is not installed here: they hear espeak-ng until it is back.
    let voiceGone: String?

    init(_ patient: AccessQueries.Patient, form: FormState, saved voice: SpeechVoice, voices installed: [SpeechVoice], _ t: Translator) {
        patientName = patient.name
        patientURL = PeopleEndpoints.showPatient.path(patient.id)
        saveURL = AccessEndpoints.update.path(patient.id)
        self.form = form
        func options<T: CaseIterable & RawRepresentable<String>>(_ field: String, _ type: T.Type) -> [SelectOption] {
            T.allCases.map { value in
                SelectOption(value: value.rawValue, label: t["access_\(field)_\(value.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                             isSelected: form[field] == value.rawValue)
            }
        }
        cellSizes = options("cellSize", AccessSettings.CellSize.self)
        labelPositions = options("labelPosition", AccessSettings.LabelPosition.self)
        selectOns = options("selectOn", AccessSettings.SelectOn.self)
        scannings = options("scanning", AccessSettings.Scanning.self)
        switchCounts = options("switches", AccessSettings.Switches.self)
        themes = options("theme", AccessSettings.Theme.self)
        textSizes = options("textSize", AccessSettings.TextSize.self)
        voices = installed.map { voice in
            SelectOption(value: voice.rawValue, label: t["voices_\(voice.rawValue.replacingOccurrences(of: "-", with: "_"))"],
                         isSelected: form["voice"] == voice.rawValue)
        }
        choosesVoice = !installed.isEmpty
        voiceGone = installed.isEmpty || installed.contains(voice) ? nil
            : t("voices_gone", ["voice": t["voices_\(voice.rawValue.replacingOccurrences(of: "-", with: "_"))"]])
    }
}
