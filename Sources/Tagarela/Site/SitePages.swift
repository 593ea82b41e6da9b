import HTTPServer

struct HomePage: PageModel {
    let today: String
    let loginURL = AccountsEndpoints.showLogin.path()
}

struct AboutPage: PageModel {}

struct OfflinePage: PageModel {
    let homeURL = DashboardEndpoints.patient.path()
}
