import HTTPServer

/// The public pages: home, about, and the health check used by load balancers and benchmarks.
enum SiteRoutes {
    static let templates = ["site/home", "site/about"]
    static let healthPath = "/healthz"

    static func add(to router: inout Router<Route>) {
        router.get("/", .anyone, showHome)
        router.get("/about", .anyone, showAbout)
        router.get(healthPath, .anyone, health)
    }

    /// Answers without touching the database: it says the process serves, nothing more.
    @Sendable static func health(_ context: RequestContext) -> Response {
        var response = Response.text("ok")
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    @Sendable static func showHome(_ context: RequestContext) -> Response {
        context.render("site/home", title: "home_title", HomePage(today: context.t("home_today", ["date": context.format.longDate(context.now)])))
    }

    @Sendable static func showAbout(_ context: RequestContext) -> Response {
        context.render("site/about", title: "about_title", AboutPage())
    }
}

struct HomePage: Sendable {
    let today: String
}

struct AboutPage: Sendable {}
