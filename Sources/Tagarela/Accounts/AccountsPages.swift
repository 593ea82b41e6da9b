import Foundation
import GRDB
import HTTPServer

struct LoginPage: PageModel {
    struct Language: PageModel {
        let code: String
        let name: String
        let url: String
    }

    let form: FormState
    let logInURL = AccountsEndpoints.logIn.path()
    /// Each language in its own name, before anyone signs in (`App.languageCookie`).
    let languages: [Language] = AppLocale.allCases.map {
        Language(code: $0.rawValue, name: $0.nativeName, url: AccountsEndpoints.showLogin.path() + "?lang=" + $0.rawValue)
    }
}

struct InvitationPage: PageModel {
    let name: String
    let username: String
    let form: FormState
    /// Why the link no longer works; nil while it does.
    let problem: String?
    /// Where the password form posts; nil when the link no longer works.
    let acceptURL: String?
    let loginURL = AccountsEndpoints.showLogin.path()
}

struct AccountPage: PageModel {
    struct Language: PageModel {
        let code: String
        let name: String
        let isSelected: Bool
    }
    let name: String
    let username: String
    let role: String
    let languages: [Language]
    let usesBrowserLanguage: Bool
    let form: FormState
    let languageURL = AccountsEndpoints.changeLanguage.path()
    let passwordURL = AccountsEndpoints.changePassword.path()
    let logOutEverywhereURL = AccountsEndpoints.logOutEverywhere.path()
    /// Staff's second factor; nil for families, who are never asked for one.
    var twoFactorURL: String? = nil
}

struct PatientModeExitPage: PageModel {
    let adultName: String
    let form: FormState
    let exitURL = AccountsEndpoints.exitPatientMode.path()
    /// Back to the child's side without the password.
    let patientHomeURL = DashboardEndpoints.patient.path()
}
