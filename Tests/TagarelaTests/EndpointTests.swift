import Foundation
import HTTPServer
import Testing
@testable import Tagarela

/// Routes are values: each prints its own URLs, and what it prints matches it again.
@Suite struct EndpointTests {
    @Test func aPathFillsItsHolesInOrderAndEscapesText() {
        let meal = Endpoint<Int64, Int64>(.get, "/patients/:id/meals/:meal/edit", .anyone)
        #expect(meal.path(7, 12) == "/patients/7/meals/12/edit")
        let file = Endpoint<String>(.get, "/pictograms/:file", .anyone)
        #expect(file.path("a b/c.svg") == "/pictograms/a%20b%2Fc.svg")
        #expect(Endpoint< >(.get, "/", .anyone).path() == "/")
    }

    @Test func theQuickCheckForPlainSegmentsAgreesWithFoundationOnEveryASCIICharacter() {
        for byte in UInt8(0)...UInt8(127) {
            let allowed = CharacterSet.urlPathSegmentAllowed.contains(Unicode.Scalar(byte))
            #expect(String.isPlainInPathSegment(byte) == allowed, "\(byte)")
        }
        #expect("4ab5ffc5992f21b9ac6091a6cfb21f15.mp3".pathSegment == "4ab5ffc5992f21b9ac6091a6cfb21f15.mp3")
        #expect("maçã 50%.svg".pathSegment == "ma%C3%A7%C3%A3%2050%25.svg")
    }

    @Test func aQueryKeepsItsOrderLeavesOutEmptyValuesAndEscapes() {
        let review = Endpoint<Int64>(.get, "/patients/:id/nutrition", .anyone)
        #expect(review.path(3, query: ["date": "2026-11-24", "empty": "", "q": "a&b=c"])
                == "/patients/3/nutrition?date=2026-11-24&q=a%26b%3Dc")
        #expect(review.path(3, query: ["empty": ""]) == "/patients/3/nutrition")
    }

    @Test func matchedParametersParseBackOrRefuseWhatIsNotAnId() {
        let meal = Endpoint<Int64, Int64>(.get, "/patients/:id/meals/:meal/edit", .anyone)
        #expect(meal.reprinted(["id": "7", "meal": "12"]) == "/patients/7/meals/12/edit")
        #expect(meal.reprinted(["id": "7", "meal": "twelve"]) == nil)
        #expect(meal.reprinted(["id": "7"]) == nil)
    }

    @Test func anEndpointKnowsTheOnlyPathsItPrints() {
        let play = Endpoint<Int64>(.get, "/play/:plan", .anyone)
        #expect(play.matches(play.path(12)))
        #expect(!play.matches("/play/twelve"))
        #expect(!play.matches("/play/12/cells"))
        #expect(!play.matches("/play"))
        #expect(!play.matches("/plays/12"))
        #expect(OfflineBoards.isBoardPage(PlayerEndpoints.play.path(4)))
        #expect(OfflineBoards.isBoardPage(DashboardEndpoints.patient.path()))
        #expect(!OfflineBoards.isBoardPage(DashboardEndpoints.clinician.path()))
    }

    /// Print then match gives the same route and the same values, for every route the app registers:
    /// a route whose pattern and printer disagree, or two routes that shadow each other, fail here.
    @Test func everyRouteRoundTrips() throws {
        let router = App.makeRouter()
        #expect(router.patterns.count > 100)
        for (method, pattern) in router.patterns {
            guard case .found(let route, _) = router.match(method, pattern) else {
                Issue.record("\(method) \(pattern) does not match its own pattern"); continue
            }
            let printed = route.examplePath
            // The server matches the path percent-decoded, as libmicrohttpd hands it over.
            guard case .found(let matched, let parameters) = router.match(method, printed.removingPercentEncoding ?? "") else {
                Issue.record("\(method) \(pattern) printed \(printed), which matches no route"); continue
            }
            #expect(matched.examplePath == printed, "\(method) \(printed) matched another route")
            #expect(matched.reprint(parameters) == printed, "\(method) \(pattern): \(parameters) printed differently")
        }
    }

    /// A route's database use follows from its chain of steps: what the dispatcher opens and what the
    /// route sweep allows are the steps' accesses, in order.
    @Test func aChainsDatabaseUseFollowsFromItsSteps() throws {
        #expect(DatabaseUse.none.then(.read) == .read)
        #expect(DatabaseUse.read.then(.none) == .read)
        #expect(DatabaseUse.read.then(.write) == .readThenWrite)
        #expect(DatabaseUse.write.then(.write) == .readThenWrite)
        #expect(DatabaseUse.read.then(.readThenMark) == .readThenMark)
        let router = App.makeRouter()
        func use(_ method: HTTPServer.Method, _ path: String) -> DatabaseUse? {
            guard case .found(let route, _) = router.match(method, path) else { return nil }
            return route.database
        }
        #expect(use(.get, AccountsEndpoints.showLogin.path()) == DatabaseUse.none)
        #expect(use(.get, GoalEndpoints.list.path(7)) == .read)
        #expect(use(.post, AccountsEndpoints.logIn.path()) == .readThenWrite, "a read, argon2 holding none, a write")
        #expect(use(.post, AccountsEndpoints.changePassword.path()) == .write, "argon2 first, then one write")
        #expect(use(.get, PeopleEndpoints.showPatient.path(7)) == .readThenMark)
        #expect(use(.post, PlayerEndpoints.recordTap.path()) == .readThenWrite, "the tap, the clip, the clip kept")
        #expect(use(.get, OBFEndpoints.exportBoard.path(3)) == .write, "the export audited, then the file built")
    }
}
