import Foundation
import Synchronization

/// Numbers and dates written the way the user's locale writes them, and read back from forms.
public struct LocalizedFormat: Sendable {
    public let locale: AppLocale
    public let timeZone: TimeZone

    public init(locale: AppLocale, timeZone: TimeZone) {
        self.locale = locale
        self.timeZone = timeZone
    }

    /// `1234,5` in pt-BR, es and ca; `1,234.5` in en.
    public func decimal(_ value: Double, fractionDigits: Int = 1) -> String {
        // A meal plan writes hundreds of quantities, mostly the same few: each is formatted once.
        let value = value == 0 ? 0 : value  // -0 and 0 are one key: both are written "0"
        return Self.remembered(Self.decimals, DecimalKey(locale: locale, value: value, fractionDigits: fractionDigits)) {
            value.formatted(.number.precision(.fractionLength(0...fractionDigits)).locale(locale.foundationLocale))
        }
    }

    /// `21/11/2026` in pt-BR, es and ca; `11/21/2026` in en (what `Date.FormatStyle` writes with two-digit
    /// day and month, assembled directly: usage pages write hundreds of dates).
    public func shortDate(_ date: Date) -> String {
        shortDate(dayNumber: ISODate.dayNumber(of: date, timeZone: timeZone))
    }

    func shortDate(dayNumber: Int) -> String {
        let (year, month, day) = ISODate.components(dayNumber: dayNumber)
        let (first, second) = locale == .en ? (month, day) : (day, month)
        return "\(ISODate.padded(first, 2))/\(ISODate.padded(second, 2))/\(year)"
    }

    /// `21 de novembro de 2026`, `21 de noviembre de 2026`, `21 de novembre de 2026`, `November 21, 2026`.
    public func longDate(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale.foundationLocale, timeZone: timeZone))
    }

    /// A stored ISO date (`2026-11-21`) written the locale's way; the text itself if it is not a date.
    func shortDate(iso: String) -> String {
        ISODate.dayNumber(iso).map { shortDate(dayNumber: $0) } ?? iso
    }

    /// Depends only on the locale and the day (read and written in the same time zone): each is written once.
    func longDate(iso: String) -> String {
        Self.remembered(Self.longDates, LongDateKey(locale: locale, iso: iso)) { parseDate(iso).map(longDate) ?? iso }
    }

    /// `14:05` (pt-BR, es, ca), `2:05 PM` (en): the locale's short time of day.
    public func time(_ date: Date) -> String {
        let local = Int((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))).rounded(.down))
        let minute = (local % 86_400 + 86_400) % 86_400 / 60
        let key = TimeOfDayKey(locale: locale, minute: minute)
        return Self.remembered(Self.timesOfDay, key) {
            date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale.foundationLocale, timeZone: timeZone))
        }
    }

    /// The short time of day depends only on the locale and the minute: each is formatted once
    /// (`Date.FormatStyle` costs microseconds a call; at most 1 440 entries per locale).
    private struct TimeOfDayKey: Hashable, Sendable {
        let locale: AppLocale
        let minute: Int
    }

    private static let timesOfDay = Mutex<[TimeOfDayKey: String]>([:])

    private struct DecimalKey: Hashable, Sendable {
        let locale: AppLocale
        let value: Double
        let fractionDigits: Int
    }

    private struct LongDateKey: Hashable, Sendable {
        let locale: AppLocale
        let iso: String
    }

    private static let decimals = Mutex<[DecimalKey: String]>([:])
    private static let longDates = Mutex<[LongDateKey: String]>([:])

    /// What `make` wrote for `key` before (`Date.FormatStyle` and `FloatingPointFormatStyle` cost microseconds
    /// a call), in a table emptied when it reaches `limit` entries, which bounds the memory it holds
    /// (times of day: 1 440 a locale, so 4 locales fit under the default).
    private static func remembered<Key: Hashable & Sendable>(_ table: borrowing Mutex<[Key: String]>, _ key: Key, limit: Int = 8_192,
                                                  make: () -> String) -> String {
        if let text = table.withLock({ $0[key] }) { return text }
        let text = make()
        table.withLock { known in
            if known.count >= limit { known.removeAll(keepingCapacity: true) }
            known[key] = text
        }
        return text
    }

    /// Reads a decimal typed by a person, the one number reader of every form. `1,5`, `1.5`, `1.234,5` and
    /// `1,234.5` all work. When both separators appear, the last one is the decimal mark. A lone locale
    /// grouping mark followed by groups of exactly three digits (`1.000` in pt-BR, es and ca; `1,000` in en)
    /// groups thousands, so `1.000` and `1.000,5` agree in a locale; any other lone separator is the decimal
    /// mark (`72.5` kg typed on a phone's keypad in pt-BR, `0.250`).
    public static func parseDecimal(_ text: String, locale: AppLocale = .fallback) -> Double? {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\u{00A0}", with: "")
            .replacingOccurrences(of: "\u{202F}", with: "")
            .replacingOccurrences(of: " ", with: "")
        guard !value.isEmpty else { return nil }
        let grouping: Character = locale == .en ? "," : "."
        let lastComma = value.lastIndex(of: ",")
        let lastPoint = value.lastIndex(of: ".")
        switch (lastComma, lastPoint) {
        case let (comma?, point?):
            let decimalMark: Character = comma > point ? "," : "."
            let grouping: Character = decimalMark == "," ? "." : ","
            guard value.filter({ $0 == decimalMark }).count == 1 else { return nil }
            value.removeAll { $0 == grouping }
            value = value.replacingOccurrences(of: String(decimalMark), with: ".")
        case _ where isGroupedThousands(value, grouping: grouping):
            value.removeAll { $0 == grouping }
        case (.some, nil):
            guard value.filter({ $0 == "," }).count == 1 else { return nil }
            value = value.replacingOccurrences(of: ",", with: ".")
        default:
            guard value.filter({ $0 == "." }).count <= 1 else { return nil }
        }
        guard value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
              let number = Double(value), number.isFinite
        else { return nil }
        return number
    }

    /// The locale's way of reading a typed number (`parseDecimal(_:locale:)`).
    public func parseDecimal(_ text: String) -> Double? { Self.parseDecimal(text, locale: locale) }

    /// `1.000`, `12.500.000` (pt-BR): a first group of one to three digits not starting with 0, then
    /// groups of exactly three after the grouping mark.
    private static func isGroupedThousands(_ text: String, grouping: Character) -> Bool {
        var groups = text.split(separator: grouping, omittingEmptySubsequences: false)
        guard groups.count > 1 else { return false }
        var first = groups.removeFirst()
        if first.hasPrefix("-") || first.hasPrefix("+") { first = first.dropFirst() }
        return (1...3).contains(first.count) && first.allSatisfy(\.isASCII) && first.allSatisfy(\.isNumber) && first.first != "0"
            && groups.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Reads a date from a form: `2026-11-21` (what `<input type=date>` sends) or the locale's
    /// own order, `21/11/2026` (pt-BR, es, ca) or `11/21/2026` (en).
    public func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let numbers: [Int]
        let (year, month, day): (Int, Int, Int)
        if trimmed.contains("-") {
            numbers = trimmed.split(separator: "-").compactMap { Int($0) }
            guard numbers.count == 3 else { return nil }
            (year, month, day) = (numbers[0], numbers[1], numbers[2])
        } else {
            numbers = trimmed.split(separator: "/").compactMap { Int($0) }
            guard numbers.count == 3 else { return nil }
            (year, month, day) = locale == .en ? (numbers[2], numbers[0], numbers[1]) : (numbers[2], numbers[1], numbers[0])
        }
        guard (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day),
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }
}
