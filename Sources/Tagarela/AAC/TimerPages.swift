import Foundation
import GRDB
import HTTPServer

struct TimerFormPage: PageModel {
    struct Activity: PageModel {
        let value: String
        let label: String
        let imageURL: String
        let isSelected: Bool
        /// The word's language when it is not the page's. (Not `lang`: a nil would find the page's `lang`.)
        let wordLang: String?
    }

    struct Preset: PageModel {
        let value: String
        let label: String
        let isSelected: Bool
    }

    let symbols: [Activity]
    let form: FormState
    let isEmpty: Bool
    /// The child's durations; a duration set with ±1 (or typed in the adult's form) is the custom one.
    let presets: [Preset]
    let customMinutes: String?
    let customLabel: String
    /// "{count} min", for the ±1 buttons' script.
    let minutesLabel: String
    /// The run, blank, for drawing one offline: activity, time and key come from the form.
    let run: TimerRunPage
    let timerURL = TimerEndpoints.timer.path()
    let boardsURL = PlayerEndpoints.list.path()

    init(symbols: [Symbol], form: FormState, locale: AppLocale, t: Translator, run: TimerRunPage) {
        self.symbols = symbols.map {
            Activity(value: "\($0.id!)", label: $0.name, imageURL: $0.imageURL, isSelected: form["symbol"] == "\($0.id!)",
                     wordLang: $0.voice.flatMap { $0 == locale.rawValue ? nil : $0 })
        }
        self.form = form
        isEmpty = symbols.isEmpty
        let minutes = form["minutes"].trimmingCharacters(in: .whitespaces)
        let simple = (form["hours"].trimmingCharacters(in: .whitespaces) == "0" || form["hours"].isEmpty)
        presets = TimerActivities.presetMinutes.map { preset in
            Preset(value: "\(preset)", label: t("homes_timer_minutes", ["count": "\(preset)"]),
                   isSelected: simple && minutes == "\(preset)")
        }
        let isPreset = TimerActivities.presetMinutes.contains { "\($0)" == minutes }
        customMinutes = simple && !isPreset && Int(minutes).map { (1...59).contains($0) } == true ? minutes : nil
        customLabel = customMinutes.map { t("homes_timer_minutes", ["count": $0]) } ?? ""
        minutesLabel = t["homes_timer_minutes"]
        self.run = run
    }
}

struct TimerRunPage: PageModel {
    let activity: String
    /// The activity's word's language when it is not the page's.
    let activityLang: String?
    let imageURL: String
    let seconds: Int
    let startLabel: String
    /// The turtle crosses the screen: slow and steady, easy to follow.
    let animalURL = PlanEndpoints.pictogram.path("\(TimerRoutes.animal).svg")
    let alarmURL: String?
    /// A new timer.
    let timerURL = TimerEndpoints.timer.path()
    /// Where the browser keeps this timer's end time: the same for a run drawn offline and its page
    /// from the server later, so a reload once the network is back carries on.
    let key: String
    let access: AccessView

    static func keyPrefix(patientId: Int64) -> String { "timer-\(patientId)" }

    /// timer.js composes the same from the prefix for a run it draws offline.
    static func key(patientId: Int64, symbolId: Int64, seconds: Int, startedAt: Int) -> String {
        "\(keyPrefix(patientId: patientId))-\(symbolId)-\(seconds)-\(startedAt)"
    }
}
