import Mustache

// The clinician's dashboard is the page staff open most: its view models answer Mustache directly
// instead of through `Mirror`, which cost most of the page's time (see bench/mixed). Every stored
// property must be listed; `MustacheLookupTests` checks each against `Mirror`. Text and numbers are
// answered as `MustacheText`, as `MustacheEncoder` answers them: Mustache prints a `String` only after
// four failed casts.

extension ClinicianDashboard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "greeting": MustacheText(greeting)
        case "specialties": specialties.map(MustacheText.init)
        case "search": MustacheText(search)
        case "attention": attention
        case "others": others
        case "moreText": moreText.map(MustacheText.init)
        case "hasAttention": hasAttention
        case "hasOthers": hasOthers
        case "isEmpty": isEmpty
        case "countText": MustacheText(countText)
        case "showsNutrition": showsNutrition
        case "showsSpeech": showsSpeech
        case "nutrition": nutrition
        case "symbolsURL": MustacheText(symbolsURL)
        case "newPatientURL": MustacheText(newPatientURL)
        case "searchURL": MustacheText(searchURL)
        default: nil
        }
    }
}

extension ClinicianDashboard.WorklistRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "patient": patient
        case "reasons": reasons.map(MustacheText.init)
        default: nil
        }
    }
}

extension ClinicianDashboard.WorklistCard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "html": MustacheText(html.html)
        default: nil
        }
    }
}

extension ClinicianDashboard.RenderedRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "html": MustacheText(html.html)
        default: nil
        }
    }
}

extension ClinicianDashboard.NutritionRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": MustacheText(String(id))
        case "url": MustacheText(url)
        case "name": MustacheText(self.name)
        case "text": MustacheText(text)
        case "needsAttention": needsAttention
        default: nil
        }
    }
}

extension PatientRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": MustacheText(String(id))
        case "url": MustacheText(url)
        case "patientModeURL": MustacheText(patientModeURL)
        case "name": MustacheText(self.name)
        case "initials": MustacheText(initials)
        case "photoURL": photoURL.map(MustacheText.init)
        case "age": age.map(MustacheText.init)
        case "diagnosis": MustacheText(diagnosis)
        case "tutors": tutors.map(MustacheText.init)
        default: nil
        }
    }
}
