import Foundation
import GRDB
import HTTPServer

/// The visual timer (seed 001, "Tiempo"): an activity, a duration, a countdown with an animal crossing
/// the screen at an even speed, and an alarm at zero. Nothing is stored on the server: the browser
/// keeps the end time, so a reload carries on where it was.
enum TimerRoutes: Feature {
    static let templates = ["aac/timer", "aac/timer-run"]
    /// The turtle crosses the screen: slow and steady, easy to follow.
    static let animal = "1F422"

    static func add(to router: inout Router<Route>) {
        // The run's alarm clip may have to be made (in the patient's voice, then ffmpeg): not on a request thread.
        router.add(TimerEndpoints.timer) { $0.read(activities).finish(alarm) }
    }

    @Sendable static func activities(_ context: RequestContext, _ db: Database) throws -> TimerQueries.Activities {
        try TimerQueries.activities(patientId: context.requireActor().userId, locale: context.locale, db)
    }

    /// The alarm's clip in the patient's chosen voice (`PatientVoice`, as the boards): made for a run, on the
    /// media pool when it is not made yet (espeak-ng's if the voice cannot make it); only looked for on the
    /// form, which carries it for a run drawn offline (espeak-ng's while the voice's is not made).
    @Sendable static func alarm(_ context: RequestContext, _ data: TimerQueries.Activities) throws -> Finish {
        let text = context.t["timer_alarm_spoken"], plain = SpeechAudio.voice(for: context.locale), speech = context.speech
        let voice = PatientVoice(chosen: data.access.settings.voice, installed: speech.voices).engine(for: context.locale)
        guard TimerRequest.isRun(context.request.query) else {
            return .reply(try timer(context, data, alarm: speech.existing(text: text, voice: voice) ?? speech.existing(text: text, voice: plain)))
        }
        if let made = speech.existing(text: text, voice: voice) { return .reply(try timer(context, data, alarm: made)) }
        return .later(.media) {
            try timer(context, data, alarm: (try? speech.clip(text: text, voice: voice)) ?? (try? speech.clip(text: text, voice: plain)))
        }
    }

    static func timer(_ context: RequestContext, _ data: TimerQueries.Activities, alarm: String?) throws -> Reply {
        let actor = try context.requireActor()
        let query = context.request.query
        let alarmURL = alarm.map { PlanEndpoints.audio.path($0) }
        // The form page also carries what a run needs, so that offline, answering a new timer's address
        // with it, timer.js can draw the run itself (the alarm only if its clip was made already).
        func formPage(_ form: FormState, status: Status = .ok) -> Reply {
            .page("aac/timer", title: "timer_title", TimerFormPage(
                symbols: data.symbols, form: form, locale: context.locale, t: context.t, run: TimerRunPage(
                    activity: "", activityLang: nil, imageURL: "", seconds: 0, startLabel: "",
                    alarmURL: alarmURL, key: TimerRunPage.keyPrefix(patientId: actor.userId), access: data.access)),
                status: status)
        }
        guard query["start"] != nil else { return formPage(FormState(values: ["hours": "0", "minutes": "5"])) }
        var form = FormState(query, fields: ["symbol", "hours", "minutes"])
        let chosen = Int64(form["symbol"]).flatMap { id in data.symbols.first { $0.id == id } }
        if chosen == nil { form.fail("symbol", context.t["error_choose_option"]) }
        let duration = TimerRules.seconds(hours: form["hours"], minutes: form["minutes"])
        if case .failure(let problem) = duration { form.fail("minutes", context.t[problem.rawValue]) }
        guard case .success(let total) = duration, let symbol = chosen else { return formPage(form, status: .unprocessableContent) }
        // Each start gets its own moment in the URL, so a reload carries on and a new start begins afresh.
        guard let startedAt = query["at"].flatMap(Int.init) else {
            return .redirect(to: TimerRequest.runPath(symbolId: symbol.id!, seconds: total, at: Int(context.now.timeIntervalSince1970)))
        }
        return .page("aac/timer-run", title: "timer_title", TimerRunPage(
            activity: symbol.name, activityLang: symbol.voice == context.locale.rawValue ? nil : symbol.voice,
            imageURL: symbol.imageURL, seconds: total, startLabel: TimerRules.clock(total), alarmURL: alarmURL,
            key: TimerRunPage.key(patientId: actor.userId, symbolId: symbol.id!, seconds: total, startedAt: startedAt),
            access: data.access))
    }
}

/// What the timer's address asks for. Pure.
enum TimerRequest {
    /// A run, with its moment: the page that needs the alarm's clip made.
    static func isRun(_ query: Parameters) -> Bool { query["start"] != nil && query["at"].flatMap(Int.init) != nil }

    /// The run's own address: a reload carries on, a new start begins afresh.
    static func runPath(symbolId: Int64, seconds: Int, at: Int) -> String {
        TimerEndpoints.timer.path(query: ["start": "1", "symbol": "\(symbolId)", "hours": "\(seconds / 3600)",
                                          "minutes": "\(seconds % 3600 / 60)", "at": "\(at)"])
    }
}

/// What the timer offers a patient, read in the request's one transaction.
enum TimerQueries {
    struct Activities: Sendable {
        let symbols: [Symbol]
        let access: AccessView
    }

    static func activities(patientId: Int64, locale: AppLocale, _ db: Database) throws -> Activities {
        // Activities are the symbols of the patient's plans, sentence words included (seed 001's
        // planner offered the verbs).
        Activities(symbols: TimerActivities.choose(try PlanSymbols.of(patient: patientId, db), locale: locale),
                   access: try AccessView.forPatient(patientId, db))
    }
}

/// Which of the patient's symbols the child chooses an activity from. Pure.
enum TimerActivities {
    /// One activity per picture, named in the page's language where the patient has the word in it
    /// ("escuela" rather than "escola" on a Spanish page), ordered by name.
    static func choose(_ symbols: [Symbol], locale: AppLocale) -> [Symbol] {
        var byPicture: [String: Symbol] = [:]
        var order: [String] = []
        for symbol in symbols {
            let picture = symbol.pictogram ?? "image \(symbol.imagePath ?? "\(symbol.id ?? 0)")"
            if let kept = byPicture[picture] {
                if kept.voice != locale.rawValue, symbol.voice == locale.rawValue { byPicture[picture] = symbol }
            } else {
                byPicture[picture] = symbol
                order.append(picture)
            }
        }
        return order.compactMap { byPicture[$0] }
            .sorted { first, second in
                switch first.name.localizedStandardCompare(second.name) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: (first.id ?? 0) < (second.id ?? 0)
                }
            }
    }

    /// The durations a child taps, in minutes.
    static let presetMinutes = [1, 2, 5, 10, 15, 30]
}

/// The timer's arithmetic. Pure.
enum TimerRules {
    enum Problem: String, Error { case zero = "timer_zero", invalid = "timer_invalid" }

    static let maxHours = 12

    /// A duration from the form's hours and minutes: whole numbers, at most 12 h, and never zero.
    static func seconds(hours: String, minutes: String) -> Result<Int, Problem> {
        let h = hours.trimmingCharacters(in: .whitespaces), m = minutes.trimmingCharacters(in: .whitespaces)
        guard let hoursValue = h.isEmpty ? 0 : Int(h), let minutesValue = m.isEmpty ? 0 : Int(m),
              (0...maxHours).contains(hoursValue), (0...59).contains(minutesValue)
        else { return .failure(.invalid) }
        let total = hoursValue * 3600 + minutesValue * 60
        return total == 0 ? .failure(.zero) : .success(total)
    }

    /// HH:MM:SS, as the countdown shows it.
    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60)
    }
}
