import Mustache

// The usage history lists up to 50 taps: its view models answer Mustache directly instead of
// through `Mirror` (see bench/mixed). Every stored property must be listed; `MustacheLookupTests`
// checks each against `Mirror`.

extension UsagePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "patientId": patientId
        case "patientName": patientName
        case "from": from
        case "to": to
        case "plans": plans
        case "people": people
        case "kinds": kinds
        case "totalText": totalText
        case "chart": chart
        case "top": top
        case "sentences": sentences
        case "rows": rows
        case "tapsNote": tapsNote
        case "olderLink": olderLink
        case "latestLink": latestLink
        case "isPaged": isPaged
        case "isEmpty": isEmpty
        case "csvLink": csvLink
        case "oblLink": oblLink
        case "filterURL": filterURL
        default: nil
        }
    }
}

extension UsagePage.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "when": when
        case "plan": plan
        case "symbol": symbol
        case "assisted": assisted
        case "kind": kind
        default: nil
        }
    }
}

extension UsagePage.Sentence: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "detail": detail
        default: nil
        }
    }
}

extension UsagePage.Top: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "count": count
        case "max": max
        default: nil
        }
    }
}

extension SelectOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "isSelected": isSelected
        default: nil
        }
    }
}
