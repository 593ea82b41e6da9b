import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Every role × every kind of page so far × linked or not. Records outside a person's scope
/// answer 404 (as if missing), pages their role may not use answer 403, anonymous visitors are
/// sent to the login, and no refused POST changes anything.
@Suite struct AuthorizationTests {
    /// ana: Carla, Davi · nadia: Carla, Elisa · bruno: Carla · beatriz: Davi · dani: Fernanda, Gustavo ·
    /// teo: a second trainer with no clients · "carla-mode": bruno's tablet in patient mode for Carla.
    static let personas = ["admin", "ana", "nadia", "dani", "teo", "bruno", "beatriz", "elisa", "carla-mode", "anonymous"]

    final class World {
        let test: TestApp
        var browsers: [String: Browser] = [:]
        var ids: [String: Int64] = [:]

        init() async throws {
            test = try await TestApp()
            let hasher = test.app.passwords
            _ = try Accounts.addStaff(test.app.poolForTests, role: "trainer", username: "teo", name: "Teo Ramos",
                                      specialties: [], password: DemoClinic.password, hasher: hasher)
            for persona in AuthorizationTests.personas {
                switch persona {
                case "anonymous": browsers[persona] = try test.browser()
                case "carla-mode":
                    let tablet = try test.browser(loggedInAs: "bruno")
                    let opened = try tablet.post("/patients/\(try test.id(of: "Carla Costa"))/patient-mode")
                    precondition(opened.status == 303)
                    try tablet.get("/patient")
                    browsers[persona] = tablet
                default: browsers[persona] = try test.browser(loggedInAs: persona)
                }
            }
            for name in ["Carla Costa", "Davi Alves", "Elisa Martins", "Fernanda Dias", "ana", "bruno", "beatriz"] {
                ids[name] = try test.id(of: name)
            }
        }

        func path(_ template: String) -> String {
            ids.reduce(template) { $0.replacingOccurrences(of: "{\($1.key)}", with: "\($1.value)") }
        }
    }

    /// (persona, path, expected status) for GET; `*` stands for every persona not listed.
    static let pages: [(path: String, allowed: [String: Int], others: Int)] = [
        ("/admin", ["admin": 200], 403),
        ("/admin/audit", ["admin": 200], 403),
        ("/admin/accounts", ["admin": 200], 403),
        ("/admin/staff/new", ["admin": 200], 403),
        ("/clinician", ["ana": 200, "nadia": 200], 403),
        ("/patients/new", ["ana": 200, "nadia": 200], 403),
        ("/tutor", ["bruno": 200, "beatriz": 200], 403),
        ("/patient", ["elisa": 200, "carla-mode": 200], 403),
        ("/trainer", ["dani": 200, "teo": 200], 403),
        ("/clients/new", ["dani": 200, "teo": 200], 403),
        ("/patients/{Carla Costa}", ["ana": 200, "nadia": 200, "bruno": 200, "beatriz": 404], 403),
        ("/patients/{Davi Alves}", ["ana": 200, "nadia": 404, "bruno": 404, "beatriz": 200], 403),
        ("/patients/{Elisa Martins}", ["ana": 404, "nadia": 200, "bruno": 404, "beatriz": 404], 403),
        ("/patients/{Fernanda Dias}", ["ana": 404, "nadia": 404, "bruno": 404, "beatriz": 404], 403),
        ("/patients/999999", ["ana": 404, "nadia": 404, "bruno": 404, "beatriz": 404], 403),
        ("/patients/{Carla Costa}/edit", ["ana": 200, "nadia": 200], 403),
        ("/patients/{Davi Alves}/edit", ["ana": 200, "nadia": 404], 403),
        ("/clients/{Fernanda Dias}", ["dani": 200, "teo": 404], 403),
        ("/clients/{Fernanda Dias}/edit", ["dani": 200, "teo": 404], 403),
        ("/clients/{Carla Costa}", ["dani": 404, "teo": 404], 403),
        ("/account", ["admin": 200, "ana": 200, "nadia": 200, "dani": 200, "teo": 200, "bruno": 200, "beatriz": 200, "elisa": 200], 403),
        ("/patient-mode/exit", ["carla-mode": 200], 403),
        ("/patients/{Carla Costa}/nutrition", ["nadia": 200, "ana": 403], 403),
        ("/foods", ["nadia": 200], 403),
        // Trainers set body goals for their own clients (issue 51): anyone else's patient is not found.
        ("/patients/{Carla Costa}/goals", ["ana": 200, "nadia": 200, "bruno": 200, "beatriz": 404, "dani": 404, "teo": 404], 403),
        ("/patients/{Davi Alves}/goals", ["ana": 200, "nadia": 404, "bruno": 404, "beatriz": 200, "dani": 404, "teo": 404], 403),
        ("/patients/{Elisa Martins}/goals", ["ana": 404, "nadia": 200, "bruno": 404, "beatriz": 404, "dani": 404, "teo": 404], 403),
        ("/patients/{Fernanda Dias}/goals", ["ana": 404, "nadia": 404, "bruno": 404, "beatriz": 404, "dani": 200, "teo": 404], 403),
        ("/patients/{Carla Costa}/goals/new", ["ana": 200, "nadia": 200, "dani": 404, "teo": 404], 403),
        ("/patients/{Carla Costa}/goals/new?kind=adherence", ["ana": 403, "nadia": 200, "dani": 404, "teo": 404], 403),
        ("/patients/{Davi Alves}/goals/new", ["ana": 200, "nadia": 404, "dani": 404, "teo": 404], 403),
        ("/patients/{Fernanda Dias}/goals/new?kind=bodyMeasure", ["ana": 404, "nadia": 404, "dani": 200, "teo": 404], 403),
        ("/patients/{Fernanda Dias}/goals/new?kind=sentences", ["ana": 404, "nadia": 404, "dani": 403, "teo": 404], 403),
        ("/my-goals", ["elisa": 200, "carla-mode": 200], 403),
        ("/patients/{Carla Costa}/report", ["ana": 200, "nadia": 200, "bruno": 200, "beatriz": 404, "dani": 404, "teo": 404], 403),
        ("/patients/{Fernanda Dias}/report", ["ana": 404, "nadia": 404, "bruno": 404, "beatriz": 404, "dani": 200, "teo": 404], 403),
        // An adult's own report; a child in patient mode has none (the tutor prints it).
        ("/my-report", ["elisa": 200], 403),
    ]

    @Test func everyRoleSeesOnlyItsPagesAndItsPeople() async throws {
        let world = try await World()
        for page in Self.pages {
            for persona in Self.personas {
                let expected = persona == "anonymous" ? 303 : page.allowed[persona] ?? page.others
                let response = try world.browsers[persona]!.get(world.path(page.path))
                #expect(response.status == expected, "\(persona) GET \(page.path)")
                if persona == "anonymous" {
                    #expect(response.header("Location")?.hasPrefix("/login?next=") == true, "\(page.path)")
                }
            }
        }
    }

    /// Refused POSTs: (persona, path, fields, expected status).
    static let refusedPosts: [(String, String, [(String, String)], Int)] = [
        ("nadia", "/patients/{Davi Alves}", [("displayName", "Renamed")], 404),
        ("bruno", "/patients/{Carla Costa}", [("displayName", "Renamed")], 403),
        ("elisa", "/patients/{Elisa Martins}", [("displayName", "Renamed")], 403),
        ("carla-mode", "/patients/{Carla Costa}", [("displayName", "Renamed")], 403),
        ("anonymous", "/patients/{Carla Costa}", [("displayName", "Renamed")], 403),
        ("beatriz", "/patients/{Carla Costa}/tutors", [("tutorUsername", "beatriz")], 403),
        ("dani", "/patients/{Carla Costa}/tutors", [("tutorUsername", "dani2"), ("tutorName", "Dani")], 403),
        ("nadia", "/patients/{Davi Alves}/tutors", [("tutorUsername", "bruno")], 404),
        ("nadia", "/patients/{Davi Alves}/tutors/{beatriz}/unlink", [], 404),
        ("ana", "/patients/{Carla Costa}/tutors/{beatriz}/unlink", [], 404),
        ("bruno", "/patients/{Davi Alves}/patient-mode", [], 404),
        ("beatriz", "/patients/{Carla Costa}/patient-mode", [], 404),
        ("dani", "/patients/{Fernanda Dias}/patient-mode", [], 403),
        ("elisa", "/patients/{Elisa Martins}/patient-mode", [], 403),
        ("nadia", "/people/{beatriz}/invitation", [], 404),
        ("nadia", "/admin/accounts/{beatriz}/password-reset", [], 403),
        ("bruno", "/link-requests", [("askUsername", "elisa")], 403),
        ("admin", "/people/{bruno}/invitation", [], 404),
        ("nadia", "/people/{ana}/invitation", [], 404),
        ("bruno", "/people/{bruno}/invitation", [], 403),
        ("ana", "/people/{Davi Alves}/invitation", [], 404),
        ("nadia", "/admin/staff/{ana}/activation", [("active", "0")], 403),
        ("carla-mode", "/admin/staff/{ana}/activation", [("active", "0")], 403),
        ("teo", "/clients/{Fernanda Dias}", [("displayName", "Renamed")], 404),
        ("ana", "/clients/{Fernanda Dias}", [("displayName", "Renamed")], 403),
        ("ana", "/clients", [("displayName", "New client")], 403),
        ("dani", "/patients", [("displayName", "New patient")], 403),
        ("bruno", "/patients", [("displayName", "New patient")], 403),
        ("carla-mode", "/patients", [("displayName", "New patient")], 403),
        ("nadia", "/admin/staff", [("displayName", "X"), ("username", "xyz"), ("role", "admin")], 403),
        ("ana", "/patients/{Carla Costa}/goals", Self.goal("adherence"), 403),
        ("nadia", "/patients/{Carla Costa}/goals", Self.goal("sentences"), 403),
        ("nadia", "/patients/{Davi Alves}/goals", Self.goal("adherence"), 404),
        ("ana", "/patients/{Elisa Martins}/goals", Self.goal("sentences"), 404),
        ("bruno", "/patients/{Carla Costa}/goals", Self.goal("sentences"), 403),
        ("beatriz", "/patients/{Carla Costa}/goals", Self.goal("sentences"), 403),
        ("elisa", "/patients/{Elisa Martins}/goals", Self.goal("adherence"), 403),
        ("carla-mode", "/patients/{Carla Costa}/goals", Self.goal("sentences"), 403),
        ("dani", "/patients/{Carla Costa}/goals", Self.goal("adherence"), 404),
        ("dani", "/patients/{Fernanda Dias}/goals", Self.goal("sentences"), 403),
        ("teo", "/patients/{Fernanda Dias}/goals", Self.goal("adherence"), 404),
    ]

    /// A goal form that would be stored if the request were allowed.
    static func goal(_ kind: String) -> [(String, String)] {
        [("kind", kind), ("title", "Refused goal"), ("minWords", "2"), ("target", "3"), ("startsOn", "2026-11-01"),
         ("endsOn", "2026-11-30")]
    }

    @Test func refusedPostsChangeNothing() async throws {
        let world = try await World()
        for (persona, template, fields, expected) in Self.refusedPosts {
            let before = try world.test.snapshot()
            let response = try world.browsers[persona]!.post(world.path(template), fields)
            #expect(response.status == expected, "\(persona) POST \(template)")
            #expect(try world.test.snapshot() == before, "\(persona) POST \(template) changed data")
        }
    }

    @Test func linkedStaffMayDoWhatTheirRoleAllows() async throws {
        let world = try await World()
        let ana = world.browsers["ana"]!, bruno = world.browsers["bruno"]!
        // Linking an existing tutor asks him; his acceptance opens the record (ConsentTests has the rest).
        #expect(try ana.post(world.path("/patients/{Davi Alves}/tutors"), [("tutorUsername", "bruno")]).status == 303)
        #expect(try bruno.get(world.path("/patients/{Davi Alves}")).status == 404, "asking opens nothing")
        let request = try #require(try bruno.get("/tutor").text.firstMatch(of: /\/link-requests\/(\d+)\/accept/)?.1)
        #expect(try bruno.post("/link-requests/\(request)/accept").status == 303)
        #expect(try world.browsers["bruno"]!.get(world.path("/patients/{Davi Alves}")).status == 200, "the link opens the record")
        #expect(try ana.post(world.path("/patients/{Davi Alves}/tutors/{bruno}/unlink")).status == 303)
        #expect(try world.browsers["bruno"]!.get(world.path("/patients/{Davi Alves}")).status == 404, "and unlinking closes it")
        // Invitations only for accounts that never had a password; a set one is an admin's reset.
        #expect(try world.browsers["nadia"]!.post(world.path("/people/{Elisa Martins}/invitation")).status == 404)
        #expect(try world.browsers["admin"]!.post(world.path("/admin/accounts/{ana}/password-reset")).status == 200)
    }

    // MARK: Specialties

    /// Pure: a clinician needs the route's specialty; other roles are not concerned by it.
    @Test func aRouteSpecialtyBindsClinicianOnly() {
        let now = Date()
        func actor(_ role: Role, _ specialties: Set<Specialty>) -> Actor {
            Actor(user: User(id: 1, username: "x", displayName: "X", role: role, specialties: User.specialtiesText(specialties),
                             createdAt: now, updatedAt: now))
        }
        let speech = Access.signedIn([.clinician, .tutor], clinicianSpecialty: .speech)
        #expect(speech.admits(actor(.clinician, [.speech])))
        #expect(speech.admits(actor(.clinician, [.speech, .nutrition])))
        #expect(!speech.admits(actor(.clinician, [.nutrition])))
        #expect(!speech.admits(actor(.clinician, [])))
        #expect(speech.admits(actor(.tutor, [])))
        #expect(!speech.admits(actor(.trainer, [])))
        #expect(Access.signedIn([.clinician]).admits(actor(.clinician, [.nutrition])), "no specialty named: any clinician")
    }

    /// Which specialty each clinical area needs, read from the router: a route added later in one of
    /// these areas without its specialty fails here.
    static func expectedSpecialty(of pattern: String) -> Specialty? {
        let speech = ["/plans", "/symbols", "/categories", "/usage", "/observations", "/access", "/educat", "/boards", "/book", "/obf"]
        // FHIR imports add measurements: body composition is nutrition's (and the trainer's) area.
        let nutrition = ["/nutrition", "/meals", "/weights", "/foods", "/fhir/import"]
        if nutrition.contains(where: pattern.contains) { return .nutrition }
        if speech.contains(where: pattern.contains) { return .speech }
        return nil
    }

    /// Every AAC route × ana (speech) and nadia (nutrition), on Carla, whom both follow: the other
    /// specialty gets 403 on every page and every form, before any record is looked at.
    @Test func everyAACAndNutritionRouteNeedsItsSpecialty() async throws {
        let world = try await World()
        let test = world.test
        let carla = world.ids["Carla Costa"]!
        let ids: [String: String] = try test.read { db in
            func first(_ sql: String) throws -> String { try Int64.fetchOne(db, sql: sql, arguments: [carla]).map(String.init) ?? "999999" }
            return ["id": "\(carla)", "position": "0", "file": "none.svg",
                    "plan": try first("SELECT id FROM plan WHERE patientId = ? ORDER BY id"),
                    "meal": try first("SELECT id FROM meal WHERE patientId = ? ORDER BY id"),
                    "symbol": try first("SELECT id FROM symbol WHERE patientId = ? OR patientId IS NULL ORDER BY id"),
                    "word": try first("SELECT w.id FROM sentenceWord w JOIN plan p ON p.id = w.planId WHERE p.patientId = ?")]
        }
        var checked: [Specialty: Int] = [:]
        // Pages first: a form may withdraw the meal a page would show.
        let routes = test.app.router.patterns.sorted { ($0.method == .get ? 0 : 1) < ($1.method == .get ? 0 : 1) }
        for route in routes {
            guard case .found(let handler, _) = test.app.router.match(route.method, HostileInputTests.path(route.pattern, [:])),
                  case .signedIn(let roles, let specialty) = handler.access, roles.contains(.clinician) else { continue }
            #expect(specialty == Self.expectedSpecialty(of: route.pattern), "\(route.method) \(route.pattern) needs \(String(describing: Self.expectedSpecialty(of: route.pattern)))")
            guard let specialty else { continue }
            let path = HostileInputTests.path(route.pattern, ids)
            for (persona, has) in [("ana", specialty == .speech), ("nadia", specialty == .nutrition)] {
                let before = try test.snapshot()
                let response = route.method == .get ? try world.browsers[persona]!.get(path) : try world.browsers[persona]!.post(path)
                if has {
                    #expect(response.status != 403 && response.status < 500, "\(persona) \(route.method) \(path): \(response.status)")
                } else {
                    #expect(response.status == 403, "\(persona) \(route.method) \(path): \(response.status)")
                    #expect(try test.snapshot() == before, "\(persona) \(route.method) \(path) changed data")
                }
                checked[specialty, default: 0] += 1
            }
        }
        #expect(checked[.speech, default: 0] >= 50 && checked[.nutrition, default: 0] >= 20, "\(checked)")

        // The reproduced failure, by name: Nádia may not open Carla's board; Ana, Bruno (her tutor) may.
        let board = world.path("/plans/\(ids["plan"]!)/edit")
        #expect(try world.browsers["nadia"]!.get(board).status == 403)
        #expect(try world.browsers["ana"]!.get(board).status == 200)
        #expect(try world.browsers["bruno"]!.get("/plans/\(ids["plan"]!)/print").status == 200, "tutors keep the boards")
        #expect(try world.browsers["bruno"]!.get("/patients/\(carla)/usage").status == 200)
        #expect(try world.browsers["carla-mode"]!.get("/play").status == 200, "patients keep their boards")
        // And pages only link what the reader may open.
        let patientPage = try world.browsers["nadia"]!.get("/patients/\(carla)").text
        #expect(!patientPage.contains("/patients/\(carla)/plans") && patientPage.contains("/patients/\(carla)/nutrition"))
        #expect(!(try world.browsers["nadia"]!.get("/clinician").text.contains("href=\"/symbols\"")))
        #expect(try world.browsers["ana"]!.get("/clinician").text.contains("href=\"/symbols\""))
    }

    // MARK: Refusals in the audit trail

    /// A 403, and a 404 on a record for someone signed in, leave a `refused` entry with the method and
    /// the path; at most `perKey` a minute per user, so a loop over ids cannot flood the log.
    @Test func refusedRequestsAreAuditedWithinALimit() async throws {
        let test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        let nadia = try test.browser(loggedInAs: "nadia"), ana = try test.browser(loggedInAs: "ana")
        let anonymous = try test.browser()
        let nadiaId = try test.id(of: "nadia"), elisa = try test.id(of: "Elisa Martins"), carla = try test.id(of: "Carla Costa")
        func refused() throws -> [Row] {
            try test.read { try Row.fetchAll($0, sql: "SELECT * FROM auditEntry WHERE action = 'refused' ORDER BY id") }
        }

        let forbidden = try nadia.get("/plans/1/edit")
        #expect(forbidden.status == 403)
        #expect(forbidden.header("X-Tagarela-DB-Nested") == nil || forbidden.header("X-Tagarela-DB-Nested") == "0")
        var entries = try refused()
        #expect(entries.count == 1)
        #expect((entries.last?["actorId"] as Int64?) == nadiaId)
        #expect((entries.last?["summary"] as String?)?.contains("GET /plans/1/edit") == true)

        let notHers = try ana.get("/patients/\(elisa)")  // Elisa is Nádia's, not Ana's
        #expect(notHers.status == 404)
        #expect(notHers.header("X-Tagarela-DB-Nested") == "0")
        entries = try refused()
        #expect(entries.count == 2)
        #expect((entries.last?["summary"] as String?)?.contains("GET /patients/\(elisa) → 404") == true)

        #expect(try anonymous.post("/patients/\(carla)", [("displayName", "X")], csrf: "wrong").status == 403)
        entries = try refused()
        #expect(entries.count == 3)
        #expect((entries.last?["actorId"] as Int64?) == nil)
        #expect((entries.last?["summary"] as String?)?.hasPrefix("POST /patients/") == true)

        // Not refusals of a record: an unknown page, a missing pictogram file.
        #expect(try ana.get("/no-such-page").status == 404)
        #expect(try ana.get("/pictograms/none.svg").status == 404)
        #expect(try refused().count == 3)

        // A flood: 50 more refusals from Nádia in the same minute keep `perKey` entries in all.
        for plan in 1...50 { _ = try nadia.get("/plans/\(plan)/edit") }
        let limit = test.app.refusalLimit.perKey
        #expect(try refused().filter { ($0["actorId"] as Int64?) == nadiaId }.count == limit)
        #expect(try ana.get("/plans/1/edit").status == 200, "others are not slowed by it")
        test.clock.advance(by: 61)
        #expect(try nadia.get("/plans/1/edit").status == 403)
        #expect(try refused().filter { ($0["actorId"] as Int64?) == nadiaId }.count == limit + 1, "a new minute counts anew")
    }

    @Test func theRefusalLimitCountsPerKeyAndInAllWithinAMinute() {
        let limit = RefusalAuditLimit(perKey: 2, total: 3)
        let start = Date(timeIntervalSince1970: 1_795_000_020)
        #expect(limit.admit("a", at: start) && limit.admit("a", at: start))
        #expect(!limit.admit("a", at: start))
        #expect(limit.admit("b", at: start))
        #expect(!limit.admit("c", at: start), "the total is reached")
        #expect(limit.admit("a", at: start.addingTimeInterval(60)), "a new minute starts from zero")
    }
}
