import HTTPServer

/// The public pages: home, about, and the health check used by load balancers and benchmarks.
enum SiteRoutes: Feature {
    static let templates = ["site/home", "site/about", "site/offline"]

    static func add(to router: inout Router<Route>) {
        router.add(SiteEndpoints.home) { $0.reply(showHome) }
        router.add(SiteEndpoints.about) { $0.reply(showAbout) }
        router.add(SiteEndpoints.health) { $0.reply(health) }
        router.add(SiteEndpoints.offline) { $0.reply(showOffline) }
    }

    /// Kept by the service worker with the boards, in the patient's language, and shown for any page that
    /// needs the network while there is none: never the browser's error page.
    @Sendable static func showOffline(_ context: RequestContext) -> Reply {
        .page("site/offline", title: "offline_title", OfflinePage())
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
