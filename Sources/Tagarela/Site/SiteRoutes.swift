import HTTPServer

/// The public pages: home, about, and the health check used by load balancers and benchmarks.
enum SiteRoutes {
    static let templates = ["site/home", "site/about"]

    static func add(to router: inout Router<Route>) {
        router.add(SiteEndpoints.home, showHome)
        router.add(SiteEndpoints.about, showAbout)
        router.add(SiteEndpoints.health, health)
    }

    /// Answers without touching the database: it says the process serves, nothing more.
    @Sendable static func health(_ context: RequestContext) -> Reply {
        var reply = Reply.text("ok")
        reply.headers["Cache-Control"] = "no-store"
        return reply
    }

    @Sendable static func showHome(_ context: RequestContext) -> Reply {
        .page("site/home", title: "home_title", HomePage(today: context.t("home_today", ["date": context.format.longDate(context.now)])))
    }

    @Sendable static func showAbout(_ context: RequestContext) -> Reply {
        .page("site/about", title: "about_title", AboutPage())
    }
}

struct HomePage: PageModel {
    let today: String
}

struct AboutPage: PageModel {}
