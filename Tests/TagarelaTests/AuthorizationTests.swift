import Foundation
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
            _ = try Accounts.addStaff(test.app.database, role: "trainer", username: "teo", name: "Teo Ramos",
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
    ]

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
}
