import Mustache

// The clinician's dashboard is the page staff open most: its view models answer Mustache directly
// instead of through `Mirror`, which cost most of the page's time (see bench/mixed). Every stored
// property must be listed; `MustacheLookupTests` checks each against `Mirror`.

extension ClinicianDashboard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "greeting": greeting
        case "specialties": specialties
        case "search": search
        case "attention": attention
        case "others": others
        case "moreText": moreText
        case "hasAttention": hasAttention
        case "hasOthers": hasOthers
        case "isEmpty": isEmpty
        case "countText": countText
        case "showsNutrition": showsNutrition
        case "showsSpeech": showsSpeech
        case "nutrition": nutrition
        case "symbolsURL": symbolsURL
        case "newPatientURL": newPatientURL
        case "searchURL": searchURL
        default: nil
        }
    }
}

extension ClinicianDashboard.WorklistRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "patient": patient
        case "reasons": reasons
        default: nil
        }
    }
}

extension ClinicianDashboard.NutritionRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "url": url
        case "name": self.name
        case "text": text
        case "needsAttention": needsAttention
        default: nil
        }
    }
}

extension PatientRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "url": url
        case "patientModeURL": patientModeURL
        case "name": self.name
        case "initials": initials
        case "photoURL": photoURL
        case "age": age
        case "diagnosis": diagnosis
        case "tutors": tutors
        default: nil
        }
    }
}
