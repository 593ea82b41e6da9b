import HTTPServer
import Testing

@Suite struct RouterTests {
    func router() -> Router<String> {
        var router = Router<String>()
        router.get("/", "home")
        router.get("/patients", "list")
        router.get("/patients/new", "new")
        router.get("/patients/:id", "show")
        router.post("/patients/:id", "update")
        router.get("/patients/:id/boards/:board", "board")
        return router
    }

    @Test func literalSegmentWinsOverParameter() {
        guard case .found(let handler, let parameters) = router().match(.get, "/patients/new") else {
            Issue.record("no match"); return
        }
        #expect(handler == "new")
        #expect(parameters.isEmpty)
    }

    @Test func parametersAreCaptured() {
        guard case .found(let handler, let parameters) = router().match(.get, "/patients/12/boards/4") else {
            Issue.record("no match"); return
        }
        #expect(handler == "board")
        #expect(parameters == ["id": "12", "board": "4"])
    }

    @Test func headFallsBackToGet() {
        guard case .found(let handler, _) = router().match(.head, "/patients") else {
            Issue.record("no match"); return
        }
        #expect(handler == "list")
    }

    @Test func rootAndTrailingSlashMatch() {
        guard case .found("home", _) = router().match(.get, "/") else { Issue.record("root"); return }
        guard case .found("list", _) = router().match(.get, "/patients/") else { Issue.record("slash"); return }
    }

    @Test func wrongMethodListsTheAllowedOnes() {
        guard case .methodNotAllowed(let allowed) = router().match(.delete, "/patients/3") else {
            Issue.record("expected 405"); return
        }
        #expect(allowed == [.get, .post, .head])
    }

    @Test func unknownPathIsNotFound() {
        guard case .notFound = router().match(.get, "/patients/3/meals") else { Issue.record("expected 404"); return }
        guard case .notFound = router().match(.get, "/elsewhere") else { Issue.record("expected 404"); return }
    }
}
