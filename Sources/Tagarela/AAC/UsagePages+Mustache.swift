import Mustache

// The usage history lists up to 50 taps: its view models answer Mustache directly instead of
// through `Mirror` (see bench/mixed). Every stored property must be listed; `MustacheLookupTests`
// checks each against `Mirror`. Text and numbers are answered as `MustacheText`, as `MustacheEncoder`
// answers them: Mustache prints a `String` only after four failed casts.

extension UsagePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "patientId": MustacheText(String(patientId))
        case "patientName": MustacheText(patientName)
        case "wordsLang": wordsLang.map(MustacheText.init)
        case "from": MustacheText(from)
        case "to": MustacheText(to)
        case "plans": plans
        case "people": people
        case "kinds": kinds
        case "totalText": MustacheText(totalText)
        case "chart": MustacheText(chart)
        case "top": top
        case "sentences": sentences
        case "rows": rows
        case "tapsNote": tapsNote.map(MustacheText.init)
        case "olderLink": olderLink.map(MustacheText.init)
        case "latestLink": latestLink.map(MustacheText.init)
        case "isPaged": isPaged
        case "isEmpty": isEmpty
        case "csvLink": MustacheText(csvLink)
        case "oblLink": MustacheText(oblLink)
        case "filterURL": MustacheText(filterURL)
        default: nil
        }
    }
}

extension UsagePage.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "when": MustacheText(when)
        case "plan": MustacheText(plan)
        case "symbol": MustacheText(symbol)
        case "wordsLang": wordsLang.map(MustacheText.init)
        case "assisted": MustacheText(assisted)
        case "kind": kind.map(MustacheText.init)
        default: nil
        }
    }
}

extension UsagePage.RenderedRow: MustacheParent {
    func child(named name: String) -> Any? { name == "html" ? MustacheText(html.html) : nil }
}

extension UsagePage.Sentence: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": MustacheText(text)
        case "detail": MustacheText(detail)
        default: nil
        }
    }
}

extension UsagePage.Top: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": MustacheText(self.name)
        case "count": MustacheText(String(count))
        case "max": MustacheText(String(max))
        default: nil
        }
    }
}

extension SelectOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": MustacheText(value)
        case "label": MustacheText(label)
        case "isSelected": isSelected
        case "labelLang": labelLang.map(MustacheText.init)
        default: nil
        }
    }
}
