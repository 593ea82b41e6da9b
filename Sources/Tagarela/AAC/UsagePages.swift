import Foundation

struct UsagePage: PageModel {
    /// The page lists the latest taps of the period; the CSV has every one. Each listed tap costs a
    /// rendered row on its first listing (`RenderedRow`), and the period's counts, chart and top symbols
    /// cover the rest.
    static let listedTaps = 50

    struct Row: PageModel {
        let when: String
        let plan: String
        let symbol: String
        /// The board's language when the page's is another.
        let wordsLang: String?
        let assisted: String
        /// "Modeling" when an adult tapped it to show the child: nil prints no badge (an empty one was an empty pill).
        var kind: String?
    }

    /// A listed tap, rendered (`aac/usage-row`). A tap never changes, and the next load of the page lists
    /// the same taps but the few made since, so each row is kept in `usageRows` under everything it shows
    /// (`rowKey`): formatting and rendering fifty rows was about a third of the page's time.
    struct RenderedRow: PageModel {
        let html: Piece
    }

    struct Sentence: PageModel {
        let text: String
        let detail: String
    }

    struct Top: PageModel {
        let name: String
        let count: Int
        let max: Int
    }

    let patientId: Int64
    let patientName: String
    /// The language of the patient's boards and words when the page's is another (`AppLocale.lang(of:)`).
    let wordsLang: String?
    let from: String
    let to: String
    let plans: [SelectOption]
    let people: [SelectOption]
    /// Own words, modeling, or both.
    let kinds: [SelectOption]
    let totalText: String
    let chart: String
    let top: [Top]
    /// The longest sentences spoken from the strip in the period.
    let sentences: [Sentence]
    let rows: [RenderedRow]
    /// Said under the latest taps when the period has more than the list shows.
    let tapsNote: String?
    /// The next taps back in time, when there are any.
    let olderLink: String?
    /// Back to the latest taps, from an older part of the list.
    let latestLink: String?
    /// Whether either link is there.
    let isPaged: Bool
    let isEmpty: Bool
    let csvLink: String
    let oblLink: String
    /// Where the filter form goes.
    let filterURL: String

    init(patientId: Int64, patientName: String, patientLocale: AppLocale?, filter: UsageRoutes.Filter, total: Int, perDay: [(day: String, count: Int)],
         top: [(name: String, count: Int)], longest: [(text: String, words: Int, at: Date, assisted: String?)],
         rows: [UsageRoutes.TapRow], plans: [Plan], people: [User], context: RequestContext) {
        let t = context.t, format = context.format
        self.patientId = patientId
        self.patientName = patientName
        let wordsLang = t.locale.lang(of: patientLocale)
        self.wordsLang = wordsLang
        from = filter.from
        to = filter.to
        self.plans = [SelectOption(value: "", label: t["audit_any"], isSelected: filter.planId == nil)]
            + plans.map { SelectOption(value: "\($0.id!)", label: $0.name, isSelected: filter.planId == $0.id, labelLang: wordsLang) }
        self.people = [SelectOption(value: "", label: t["audit_any"], isSelected: filter.assistedBy == nil)]
            + people.map { SelectOption(value: "\($0.id!)", label: $0.displayName, isSelected: filter.assistedBy == $0.id) }
        kinds = UsageRoutes.Filter.Kind.allCases.map {
            SelectOption(value: $0 == .own ? "" : $0.rawValue, label: t["usage_kind_\($0.rawValue)"], isSelected: filter.kind == $0)
        }
        totalText = t("usage_total", ["count": "\(total)"])
        let counts = Dictionary(uniqueKeysWithValues: perDay.map { ($0.day, $0.count) })
        let first = ISODate.dayNumber(filter.from) ?? 0, last = max(ISODate.dayNumber(filter.to) ?? 0, first)
        let days = (first...min(last, first + 366)).map(ISODate.string(dayNumber:))
        chart = total == 0 ? "" : LineChart(
            title: t["usage_per_day"], unit: t["usage_taps"], labels: days.map { format.shortDate(iso: $0) },
            series: [.init(name: t["usage_taps"], values: days.map { Double(counts[$0] ?? 0) }, colour: LineChart.palette[0])],
            format: { format.decimal($0, fractionDigits: 0) }).svg
        let highest = top.map(\.count).max() ?? 1
        self.top = top.map { Top(name: $0.name, count: $0.count, max: highest) }
        sentences = longest.map {
            Sentence(text: $0.text, detail: t("usage_sentence_detail", ["words": "\($0.words)", "date": format.shortDate($0.at),
                                                                        "who": $0.assisted ?? t["usage_alone"]]))
        }
        let listed = rows.prefix(Self.listedTaps)
        self.rows = listed.map { tap in
            RenderedRow(html: context.piece(kept: Self.rowKey(tap, locale: context.locale), in: context.caches.usageRows, alone: "aac/usage-row") {
                Row(when: "\(format.shortDate(tap.at)) \(format.time(tap.at))", plan: tap.planName ?? "—", symbol: tap.symbolName ?? "—", wordsLang: wordsLang,
                    assisted: tap.assistedName ?? t["usage_alone"], kind: tap.modeling ? t["usage_kind_modeling_row"] : nil)
            })
        }
        tapsNote = filter.before == nil && total > listed.count && !listed.isEmpty
            ? t("usage_taps_note", ["shown": "\(listed.count)", "count": "\(total)"]) : nil
        isEmpty = rows.isEmpty
        olderLink = rows.count > Self.listedTaps
            ? listed.last.map { filter.link(UsageEndpoints.usage, patientId: patientId, before: $0.id) + "#taps-title" } : nil
        latestLink = filter.before == nil ? nil : filter.link(UsageEndpoints.usage, patientId: patientId) + "#taps-title"
        isPaged = olderLink != nil || latestLink != nil
        csvLink = filter.link(UsageEndpoints.usageCSV, patientId: patientId)
        oblLink = filter.link(OBFEndpoints.usageLog, patientId: patientId)
        filterURL = UsageEndpoints.usage.path(patientId)
    }

    /// Everything a listed tap's row shows is decided by these, with the locale (the words, the date's form)
    /// and the clinic's time zone, which a running server keeps: the tap's time, the names of its board,
    /// symbol and assisting adult as read now (a renamed board or symbol makes a new key), and whether it
    /// was modeling. A new column in the row must be added here, or rows would keep their old text.
    static func rowKey(_ tap: UsageRoutes.TapRow, locale: AppLocale) -> String {
        // The time as whole milliseconds: an integer's text is quicker to make than a `Double`'s, 51 times a page.
        "usage row \(locale.rawValue) \(tap.id) \(Int64((tap.at.timeIntervalSince1970 * 1000).rounded())) \(tap.modeling)"
            + "\u{1F}\(tap.planName ?? "\u{0}")\u{1F}\(tap.symbolName ?? "\u{0}")\u{1F}\(tap.assistedName ?? "\u{0}")"
    }
}

struct ObservationsPage: PageModel {
    struct Note: PageModel {
        let date: String
        let author: String
        let role: String
        let body: String
        let isPrivate: Bool
    }

    let patientId: Int64
    let patientName: String
    let notes: [Note]
    let isEmpty: Bool
    let form: FormState
    let isClinician: Bool
    let saveURL: String
    let printURL: String

    init(patientId: Int64, patientName: String, notes: [Observation], form: FormState, isClinician: Bool, context: RequestContext) {
        self.patientId = patientId
        self.patientName = patientName
        self.notes = notes.map {
            Note(date: context.format.longDate(iso: $0.observedOn), author: $0.authorName, role: context.t["role_\($0.authorRole)"],
                 body: $0.body, isPrivate: $0.isPrivate)
        }
        isEmpty = notes.isEmpty
        self.form = form
        self.isClinician = isClinician
        saveURL = UsageEndpoints.addObservation.path(patientId)
        printURL = UsageEndpoints.printObservations.path(patientId)
    }
}
