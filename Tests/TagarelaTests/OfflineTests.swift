import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

@Suite struct OfflineTests {
    func carlaInPatientMode(_ test: TestApp) throws -> Browser {
        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode")
        return bruno
    }

    struct Listing: Decodable {
        let pages: [String]
        let files: [String]
    }

    @Test func aPatientsListingNamesEveryBoardPageAndTheFilesTheyShow() async throws {
        let test = try await TestApp()
        let carla = try carlaInPatientMode(test)
        let answer = try carla.get("/play/offline")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Cache-Control") == "no-store")
        let listing = try JSONDecoder().decode(Listing.self, from: Data(answer.text.utf8))
        let carlaId = try test.id(of: "Carla Costa")
        let plans = try test.read { try Int64.fetchAll($0, sql: "SELECT id FROM plan WHERE patientId = ? ORDER BY id", arguments: [carlaId]) }
        #expect(!plans.isEmpty)
        // Carla is a child: her home, boards, timer and games.
        #expect(listing.pages == ["/patient", "/play", "/timer", "/offline"] + plans.map { "/play/\($0)" } + OfflineBoards.gamePaths)

        // Every picture and clip a board page shows is listed, as are the page's own stylesheet and scripts.
        for path in listing.pages where path != "/timer" {
            let page = try carla.get(path).text
            for match in page.matches(of: /(?:src|data-audio|href)="(\/(?:pictograms|media|css|js)\/[^"]+)"/) {
                #expect(listing.files.contains(String(match.1)), "\(path) uses \(match.1)")
            }
        }
        #expect(listing.files.contains { $0.hasPrefix("/js/pwa.js?v=") })
        #expect(listing.files.contains("/pictograms/\(TimerRoutes.animal).svg"))
    }

    @Test func onlyPatientsGetAListingAndTheManifestIsInTheUsersLanguage() async throws {
        let test = try await TestApp()
        #expect(try test.browser(loggedInAs: "bruno").get("/play/offline").status == 403)
        #expect(try test.browser(loggedInAs: "ana").get("/play/offline").status == 403)
        #expect(try test.browser().get("/play/offline").status == 303)
        let manifest = try test.browser().get("/manifest.webmanifest", headers: [("Accept-Language", "es")])
        #expect(manifest.status == 200)
        #expect(manifest.header("Content-Type") == "application/manifest+json")
        #expect(manifest.text.contains(#""start_url":"/patient""#))
        #expect(manifest.text.contains(#""purpose":"maskable""#) && manifest.text.contains(#""sizes":"192x192""#))
        #expect(manifest.text.contains(#""lang":"es""#))
    }

    @Test func theWorkerIsServedAtTheRootAndOnlyPatientPagesRegisterIt() async throws {
        let test = try await TestApp()
        let worker = try test.browser().get("/sw.js")
        #expect(worker.status == 200)
        #expect(worker.header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(worker.header("Cache-Control") == "no-cache", "a new worker reaches the tablet at its next load")
        // The policy that lets pages run their own scripts lets the worker run too (worker-src falls back to script-src).
        #expect(worker.header("Content-Security-Policy")?.contains("script-src 'self'") == true)

        let carla = try carlaInPatientMode(test)
        let board = try carla.get("/play").text
        #expect(board.contains(#"<meta name="tagarela-offline" content="keep">"#))
        #expect(board.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
        for (person, home) in [("ana", "/clinician"), ("bruno", "/tutor")] {
            let page = try test.browser(loggedInAs: person).get(home)
            #expect(page.status == 200)
            #expect(!page.text.contains("tagarela-offline"), "\(person)'s pages are never kept")
        }
        #expect(try test.browser().get("/login").text.contains(#"<meta name="tagarela-offline" content="forget">"#))
    }

    @Test func aTapSentLateShowsInTheUsageHistoryAtTheTimeItWasMade() async throws {
        let test = try await TestApp()
        let carla = try carlaInPatientMode(test)
        let carlaId = try test.id(of: "Carla Costa")
        let (planId, symbolId) = try test.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT planCell.planId, planCell.symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
                WHERE plan.patientId = ? AND planCell.symbolId IS NOT NULL ORDER BY planCell.planId, planCell.position LIMIT 1
                """, arguments: [carlaId])!
            return (row["planId"] as Int64, row["symbolId"] as Int64)
        }
        // Made offline at 08:00 UTC (05:00 at the clinic), sent at 11:06 when the network came back.
        let fields = [("key", "offline-0001-late"), ("plan", "\(planId)"), ("symbol", "\(symbolId)"), ("at", "2026-11-18T08:00:00.000Z")]
        let sent = try carla.client.postForm("/taps", fields, headers: carla.cookieHeader + [("X-CSRF-Token", carla.csrf)])
        #expect(sent.status == 204)
        let tap = try test.read { try Tap.filter(Column("key") == "offline-0001-late").fetchOne($0)! }
        #expect(tap.at == ISO8601DateFormatter().date(from: "2026-11-18T08:00:00Z"))
        #expect(tap.receivedAt == Date(timeIntervalSince1970: 1_795_000_000))
        let csv = try test.browser(loggedInAs: "ana").get("/patients/\(carlaId)/usage.csv?from=2026-11-18&to=2026-11-18").text
        #expect(csv.contains("2026-11-18T05:00:00-03:00,"), "the tap's own time, not the upload's")
        #expect(!csv.contains("2026-11-18T08:06:40-03:00"))
    }

    @Test func aFullDiskIsRecognisedWhereverItComesFrom() {
        #expect(StorageFull.matches(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(!StorageFull.matches(DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
        #expect(StorageFull.matches(POSIXError(.ENOSPC)))
        #expect(StorageFull.matches(CocoaError(.fileWriteOutOfSpace)))
        #expect(StorageFull.matches(NSError(domain: NSCocoaErrorDomain, code: 0,
                                            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])))
        #expect(!StorageFull.matches(AppError.notFound))
    }

    @Test func aRetryKeepsTheFieldsButNeverAPasswordOrAnOldToken() {
        let form = Parameters([("_csrf", "t"), ("note", "Comeu bem"), ("password", "x"), ("newPassword", "y"), ("meal", "12")])
        let kept = StorageFull.resendableFields(form)
        #expect(kept.map(\.name) == ["note", "meal"])
        #expect(StorageFull.typedText(kept) == "Comeu bem")
    }
}
