import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Testing
@testable import Tagarela

/// Hostile input against every form: nothing answers 500, no markup typed into a form comes back
/// unescaped, and nobody reaches a patient they are not linked to. Every page sends the security
/// headers of DESIGN.md, cookies carry their flags, and uploads that lie about their type are refused.
@Suite struct HostileInputTests {
    /// Values sent in every field of every form. Markers inside make unescaped output easy to find.
    static let payloads: [String] = [
        "<script>alert('xss-1')</script>",
        "\"><img src=x onerror=alert('xss-2')>",
        "'; DROP TABLE user; --",
        "1 OR 1=1",
        "-1", "0", "99999999999999999999", "1e309", "NaN", "3,5.2,1", "2026-02-30", "25:99",
        "",
        "   ",
        "\u{0}\u{1}\u{7F}",
        "ação ✓ \u{202E}olleh \u{1F600}",
        String(repeating: "a", count: 5_000),
        String(repeating: "<b>x</b>", count: 400),
    ]
    /// Unescaped, these would run or inject markup; escaped, they read `&lt;script`, `&quot;&gt;&lt;img`.
    static let markers = ["<script>alert(", "<img src=x onerror", "<b>x</b>"]

    /// Every field name any form of the app uses (scanned from the templates), plus the numbered ones.
    static func fieldNames() throws -> [String] {
        var names = Set(["food_0", "quantity_0", "unit_0", "food_1", "quantity_1", "sf_chest_1", "sf_triceps_1",
                         "sf_thigh_1", "sf_abdominal_1", "sf_suprailiac_1", "sf_subscapular_1", "sf_midaxillary_1",
                         "p_waist", "q_1", "key", "at", "symbols", "active"])
        let root = TestApp.repositoryRoot + "/Templates"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".mustache") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for match in text.matches(of: /name="([A-Za-z_][A-Za-z_0-9]*)"/) { names.insert(String(match.1)) }
        }
        names.remove("_csrf")
        names.remove("viewport")
        return names.sorted()
    }

    /// Values that pass each field's checks, so a form with only its free-text fields hostile gets stored.
    static let plausible: [String: String] = [
        "sex": "female", "birthDate": "2015-01-01", "startedOn": "2026-01-01", "observedOn": "2026-11-17",
        "date": "2026-11-20", "time": "12:00", "role": "clinician", "specialty": "speech", "type": "board", "rows": "2",
        "columns": "2", "startsOn": "2026-11-01", "unit": "gram", "gramsPerUnit": "100", "kcal": "100", "locale": "pt-BR",
        "colour": "blue", "hunger": "3", "followed": "1", "protocol": "jp7", "weight": "70", "height": "1,70", "kg": "70",
        "measuredOn": "2026-11-17", "reevaluationDays": "90", "pictogram": "1F600", "minutes": "5", "hours": "0",
        "sf_chest_1": "10", "sf_midaxillary_1": "10", "sf_triceps_1": "10", "sf_subscapular_1": "10", "sf_abdominal_1": "10",
        "sf_suprailiac_1": "10", "sf_thigh_1": "10", "food_0": "1", "quantity_0": "1", "unit_0": "household", "active": "1",
        "username": "", "password": "", "confirmation": "", "current": "", "voice": "pt-BR", "scope": "", "share": "1",
    ]
    /// Fields where people type free text: these carry the hostile value in the plausible forms.
    static let textFields: Set<String> = ["displayName", "name", "body", "diagnosis", "notes", "contact", "description",
                                          "spokenText", "customName", "reason", "instead", "tutorName", "q"]

    struct Victim {
        let patient: Int64
        let plan: Int64
        let meal: Int64
        let evaluation: Int64
        let symbol: Int64
        /// Their clinician, whom the admin's forms aim at (never an account the test signs in with).
        let clinician: Int64
    }

    /// A patient with a board, a meal and an evaluation, linked to nobody the tests sign in as.
    static func makeVictim(_ test: TestApp) throws -> Victim {
        try test.write { db in
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            func user(_ name: String, _ role: String) throws -> Int64 {
                try db.execute(sql: """
                    INSERT INTO user (username, displayName, role, specialties, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [name.lowercased(), name, role, role == "clinician" ? "speech nutrition" : "", now, now])
                return db.lastInsertedRowID
            }
            let zoe = try user("Zoe", "clinician"), tito = try user("Tito", "trainer"), vitor = try user("Vitor", "patient")
            try db.execute(sql: "INSERT INTO patient (userId, sex, birthDate) VALUES (?, 'male', '2015-03-01')", arguments: [vitor])
            try db.execute(sql: "INSERT INTO clinicianPatient (clinicianId, patientId, createdAt) VALUES (?, ?, ?)", arguments: [zoe, vitor, now])
            try db.execute(sql: "INSERT INTO trainerClient (trainerId, patientId, createdAt) VALUES (?, ?, ?)", arguments: [tito, vitor, now])
            try db.execute(sql: "INSERT INTO category (clinicianId, name, colour) VALUES (?, 'Z', 'blue')", arguments: [zoe])
            let category = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO symbol (clinicianId, patientId, categoryId, name, spokenText, pictogram, createdAt, updatedAt)
                VALUES (?, ?, ?, 'água', 'água', '1F4A7', ?, ?)
                """, arguments: [zoe, vitor, category, now, now])
            let symbol = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO plan (patientId, clinicianId, name, startsOn, type, rows, columns, createdAt, updatedAt)
                VALUES (?, ?, 'Prancha do Vitor', '2026-11-01', 'board', 2, 2, ?, ?)
                """, arguments: [vitor, zoe, now, now])
            let plan = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO planCell (planId, position, symbolId) VALUES (?, 0, ?)", arguments: [plan, symbol])
            try db.execute(sql: """
                INSERT INTO meal (patientId, clinicianId, type, date, time, createdAt) VALUES (?, ?, 'lunch', '2026-11-18', '12:00', ?)
                """, arguments: [vitor, zoe, now])
            let meal = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO evaluation (patientId, trainerId, takenOn, skinfoldProtocol, sex, ageYears, weightGrams, heightMm, createdAt)
                VALUES (?, ?, '2026-11-01', 'jp3', 'male', 11, 40000, 1450, ?)
                """, arguments: [vitor, tito, now])
            return Victim(patient: vitor, plan: plan, meal: meal, evaluation: db.lastInsertedRowID, symbol: symbol, clinician: zoe)
        }
    }

    /// Everything stored about the victim, to prove that no request changed it.
    static func snapshot(of victim: Victim, _ test: TestApp) throws -> String {
        try test.read { db in
            var parts: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                let columns = try db.columns(in: table).map(\.name)
                for column in ["patientId", "userId"] where columns.contains(column) {
                    parts += try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE \(column) = ?", arguments: [victim.patient])
                        .map { "\(table): \($0)" }
                }
            }
            parts += try Row.fetchAll(db, sql: "SELECT * FROM planCell WHERE planId = ?", arguments: [victim.plan]).map(\.description)
            parts += try Row.fetchAll(db, sql: "SELECT * FROM symbol WHERE id = ?", arguments: [victim.symbol]).map(\.description)
            parts += try Row.fetchAll(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [victim.patient]).map(\.description)
            return parts.joined(separator: "\n")
        }
    }

    /// Who fuzzes a route: a persona of each role the route lets in (anonymous for public routes).
    static func personas(for access: Access) -> [String?] {
        switch access {
        case .anyone: [nil]
        case .inPatientMode: ["bruno"]
        case .ownAccount(let roles):
            personas(for: .signedIn(roles))
        case .signedIn(let roles, let specialty):
            roles.sorted { $0.rawValue < $1.rawValue }.flatMap { role -> [String?] in
                switch role {
                case .admin: ["admin"]
                // ana is a speech therapist, nadia a nutritionist: each fuzzes the routes of her specialty.
                case .clinician: specialty.map { $0 == .speech ? ["ana"] : ["nadia"] } ?? ["ana", "nadia"]
                case .trainer: ["dani"]
                case .tutor: ["bruno"]
                case .patient: ["elisa"]
                }
            }
        }
    }

    /// Ids a persona may use in a path: their own patient's records when they have one.
    static func ownIds(of username: String?, _ test: TestApp) throws -> [String: String] {
        guard let username else { return [:] }
        let me = try test.id(of: username)
        return try test.read { db in
            let patient = try Int64.fetchOne(db, sql: """
                SELECT patientId FROM clinicianPatient WHERE clinicianId = ?1 UNION ALL
                SELECT patientId FROM tutorPatient WHERE tutorId = ?1 UNION ALL
                SELECT patientId FROM trainerClient WHERE trainerId = ?1 UNION ALL
                SELECT userId FROM patient WHERE userId = ?1 LIMIT 1
                """, arguments: [me]) ?? me
            func first(_ sql: String) throws -> String { try Int64.fetchOne(db, sql: sql, arguments: [patient]).map(String.init) ?? "1" }
            return [
                "id": "\(patient)",
                "plan": try first("SELECT id FROM plan WHERE patientId = ? ORDER BY id"),
                "meal": try first("SELECT id FROM meal WHERE patientId = ? ORDER BY status = 'pending' DESC, date, time, id"),
                "evaluation": try first("SELECT id FROM evaluation WHERE patientId = ? ORDER BY id"),
                "symbol": try first("SELECT id FROM symbol WHERE patientId = ? OR patientId IS NULL ORDER BY id"),
                "tutor": try first("SELECT tutorId FROM tutorPatient WHERE patientId = ?"),
            ]
        }
    }

    static func path(_ pattern: String, _ ids: [String: String]) -> String {
        "/" + pattern.split(separator: "/").map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            let name = String(segment.dropFirst())
            return ids[name] ?? (name == "position" ? "0" : name == "token" ? "not-a-token" : ids["id"] ?? "1")
        }.joined(separator: "/")
    }

    /// Signs in; wrong passwords typed into forms (the password change) throttle the account, so when
    /// the login is refused for that, the clock moves past the throttle first.
    static func signIn(_ persona: String?, _ test: TestApp) throws -> Browser {
        let browser = Browser(client: test.client)
        guard let persona else { return browser }
        var response = try browser.logIn(persona, DemoClinic.password)
        if response.status == 429 {
            test.clock.advance(by: 2 * 60 * 60)
            response = try browser.logIn(persona, DemoClinic.password)
        }
        #expect(response.status == 303, "login of \(persona): \(response.status)")
        return browser
    }

    static func expectSecurityHeaders(_ response: WireResponse, _ what: String) {
        let policy = response.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("frame-ancestors 'none'"), "\(what): CSP without frame-ancestors 'none'")
        #expect(policy.contains("script-src 'self'"), "\(what): CSP without script-src 'self'")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(what): CSP allows inline scripts")
        #expect(response.header("X-Content-Type-Options") == "nosniff", "\(what): no X-Content-Type-Options")
        #expect(response.header("Referrer-Policy") == "same-origin", "\(what): no Referrer-Policy")
    }

    static func expectCookieFlags(_ response: WireResponse, secure: Bool, _ what: String) {
        for cookie in response.headers("Set-Cookie") {
            let flags = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(flags.contains("HttpOnly"), "\(what): cookie without HttpOnly: \(cookie)")
            #expect(flags.contains { $0.hasPrefix("SameSite=") && $0 != "SameSite=None" }, "\(what): cookie without SameSite: \(cookie)")
            #expect(flags.contains("Secure") == secure, "\(what): Secure should be \(secure): \(cookie)")
        }
    }

    /// libmicrohttpd decodes "%00" into a NUL that ends the path: "/patients/8%00/plans" was served as
    /// "/patients/8" (issue 49). Refused instead, whatever follows, and the connection serves on.
    @Test func anEncodedNULInTheURLIsRefusedNotCut() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        for path in ["/patients/\(carla)%00/plans", "/patients/\(carla)/plans%00", "/healthz%00", "/clinician?q=a%00b",
                     "/patients/\(carla)%2500"] {
            let answer = try ana.get(path)
            #expect(answer.status == (path.hasSuffix("%2500") ? 404 : 400), "\(path)")
        }
        #expect(try ana.post("/patients/\(carla)%00/privacy/erasure", [("confirm", "1")]).status == 400)
        #expect(try ana.get("/patients/\(carla)").status == 200)
    }

    @Test func everyFormSurvivesHostileInputWithoutLeakingMarkupOrTouchingAnotherPatient() async throws {
        let test = try await TestApp()
        let victim = try Self.makeVictim(test)
        let before = try Self.snapshot(of: victim, test)
        let fields = try Self.fieldNames()
        let victimIds = ["id": "\(victim.patient)", "plan": "\(victim.plan)", "meal": "\(victim.meal)",
                         "evaluation": "\(victim.evaluation)", "symbol": "\(victim.symbol)"]
        // Failed logins from one address are throttled: the login form goes last, then the clock moves on.
        let posts = test.app.router.patterns.filter { $0.method == .post }.sorted { ($0.pattern == "/login" ? 1 : 0) < ($1.pattern == "/login" ? 1 : 0) }
        #expect(posts.count >= 30, "found only \(posts.count) forms")
        var sent = 0
        var seenPersonas: Set<String> = []
        for route in posts {
            guard case .found(let handler, _) = test.app.router.match(.post, Self.path(route.pattern, [:])) else {
                Issue.record("no route for \(route.pattern)"); continue
            }
            for persona in Self.personas(for: handler.access) {
                let browser = try Self.signIn(persona, test)
                if persona == "bruno", case .inPatientMode = handler.access {
                    let carla = try test.id(of: "Carla Costa")
                    try browser.post("/patients/\(carla)/patient-mode", [("plan", try Self.ownIds(of: "bruno", test)["plan"]!)])
                }
                seenPersonas.insert(persona ?? "anonymous")
                // The admin's forms change staff accounts: aimed at the victim's clinician, not at a persona.
                let own = persona == "admin" ? ["id": "\(victim.clinician)"] : try Self.ownIds(of: persona, test)
                for (index, payload) in Self.payloads.enumerated() {
                    // Half the requests aim at the persona's own records (so they get past the scope checks
                    // and reach validation), half at the victim's (which must stay out of reach).
                    // Half the requests have plausible values but for the free-text fields, so that the
                    // hostile text is stored and shown by the pages checked below.
                    // An admin resets any account's password (issue 14), the victim's too: never aimed there.
                    let target = Self.path(route.pattern, index.isMultiple(of: 2) || persona == "admin" ? own : victimIds)
                    let form = index % 4 < 2
                        ? fields.map { ($0, Self.textFields.contains($0) ? payload : Self.plausible[$0] ?? payload) }
                        : fields.map { ($0, payload) }
                    let response = try browser.post(target, form)
                    sent += 1
                    #expect(response.status < 500, "POST \(target) as \(persona ?? "anonymous") with \(payload.prefix(40)): \(response.status)")
                    Self.expectSecurityHeaders(response, "POST \(target)")
                    Self.expectCookieFlags(response, secure: false, "POST \(target)")
                }
                // Invalid UTF-8, raw, in a url-encoded body and in a multipart one.
                let target = Self.path(route.pattern, own)
                let raw = fields.map { "\($0)=%FF%FE%C3%28%ED%A0%80" }.joined(separator: "&") + "&_csrf=\(browser.csrf)"
                let cookie = browser.cookieHeader
                let urlEncoded = try test.client.send(method: "POST", target: target,
                                                      headers: cookie + [("Content-Type", "application/x-www-form-urlencoded")],
                                                      body: Array(raw.utf8))
                #expect(urlEncoded.status < 500, "POST \(target) with invalid UTF-8: \(urlEncoded.status)")
                let multipart = try browser.postMultipart(target, fields: fields.map { ($0, "x\u{FFFD}") },
                                                          files: [("photo", "a.jpg", "image/jpeg", [0xFF, 0xD8, 0xFF, 0xC3, 0x28]),
                                                                  ("image", "b.png", "image/png", [0xC3, 0x28, 0xFF]),
                                                                  ("file", "c.csv", "text/csv", [0xFF, 0xFE, 0x00, 0x0A])])
                #expect(multipart.status < 500, "POST \(target) multipart with broken files: \(multipart.status)")
                sent += 2
            }
        }
        #expect(sent > 500)
        // Markup did get stored (a patient, a food, a note named with it), so the pages below show it.
        let stored = try test.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM user WHERE displayName LIKE '%<script>alert(%')
                     + (SELECT count(*) FROM observation WHERE body LIKE '%<script>alert(%')
                """) ?? 0
        }
        #expect(stored > 0, "no hostile value was stored: the fuzz did not reach the forms")
        test.clock.advance(by: 2 * 60 * 60)
        #expect(seenPersonas.isSuperset(of: ["anonymous", "admin", "ana", "nadia", "dani", "bruno", "elisa"]))
        #expect(try Self.snapshot(of: victim, test) == before, "a request changed the data of a patient nobody here may reach")

        // Whatever was stored comes back escaped on every page the personas can open.
        let gets = test.app.router.patterns.filter { $0.method == .get }
        for persona in ["admin", "ana", "nadia", "dani", "bruno", "elisa"] {
            let browser = try Self.signIn(persona, test)
            let own = try Self.ownIds(of: persona, test)
            for route in gets where !route.pattern.contains("/media/") && !route.pattern.contains("/pictograms/") {
                let page = try browser.get(Self.path(route.pattern, own))
                #expect(page.status < 500, "GET \(route.pattern) as \(persona): \(page.status)")
                for marker in Self.markers {
                    #expect(!page.text.contains(marker), "GET \(route.pattern) as \(persona) shows \(marker) unescaped")
                }
                Self.expectSecurityHeaders(page, "GET \(route.pattern) as \(persona)")
            }
        }
    }

    @Test func everyPageSendsTheSecurityHeadersAndCookiesCarryTheirFlags() async throws {
        for secure in [false, true] {
            let test = try await TestApp(configure: { $0.secureCookies = secure })
            let anonymous = Browser(client: test.client)
            for path in ["/", "/login", "/about", "/healthz", "/no-such-page", "/css/app.css", "/patients/1"] {
                let response = try anonymous.get(path)
                Self.expectSecurityHeaders(response, "GET \(path)")
                Self.expectCookieFlags(response, secure: secure, "GET \(path)")
            }
            let browser = Browser(client: test.client)
            try browser.get("/login")
            let login = try browser.post("/login", [("username", "ana"), ("password", DemoClinic.password)])
            #expect(login.status == 303)
            #expect(login.headers("Set-Cookie").contains { $0.hasPrefix("tagarela_session=") })
            Self.expectCookieFlags(login, secure: secure, "POST /login")
            let flash = try browser.post("/patients/\(try test.id(of: "Carla Costa"))/observations",
                                         [("observedOn", "2026-11-17"), ("body", "ok")])
            Self.expectCookieFlags(flash, secure: secure, "a flash message")
            let logout = try browser.post("/logout")
            Self.expectCookieFlags(logout, secure: secure, "POST /logout")
            Self.expectSecurityHeaders(logout, "POST /logout")
        }
    }

    @Test func uploadsThatLieAboutTheirTypeAreRefusedAndNothingIsKept() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let html = Array("<html><script>alert(1)</script></html>".utf8)
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 64)
        let mediaBefore = Self.files(under: test.app.configuration.mediaDirectory)
        let ana = try test.browser(loggedInAs: "ana")
        let anaId = try test.id(of: "ana")
        let category = try test.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE clinicianId = ? ORDER BY id", arguments: [anaId])
        }!
        let symbols = try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM symbol") }
        for (name, type, content) in [("a.png", "image/png", html), ("b.jpg", "image/jpeg", svg), ("c.gif", "image/gif", elf)] {
            let photo = try ana.postMultipart("/patients/\(carla)", fields: [("displayName", "Carla Costa")],
                                              files: [("photo", name, type, content)])
            #expect(photo.status == 422, "patient photo \(name): \(photo.status)")
            let image = try ana.postMultipart("/symbols", fields: [("name", "bola"), ("spokenText", "bola"), ("categoryId", "\(category)")],
                                              files: [("image", name, type, content)])
            #expect(image.status == 422, "symbol image \(name): \(image.status)")
            let audio = try ana.postMultipart("/symbols", fields: [("name", "bola"), ("spokenText", "bola"), ("categoryId", "\(category)"),
                                                                          ("pictogram", "1F600"), ("audioSource", "upload")],
                                              files: [("audio", "d.mp3", "audio/mpeg", content)])
            #expect(audio.status == 422, "symbol audio: \(audio.status)")
        }
        let elisa = try test.browser(loggedInAs: "elisa")
        let elisaId = try test.id(of: "elisa")
        let meal = try test.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM meal WHERE patientId = ? AND status = 'pending' ORDER BY date, time, id",
                               arguments: [elisaId])
        }
        if let meal {
            let answer = try elisa.postMultipart("/meals/\(meal)/answer", fields: [("followed", "1"), ("version", "1")],
                                                 files: [("photo", "meal.jpg", "image/jpeg", html)])
            #expect(answer.status == 422, "meal photo: \(answer.status)")
        }
        let weights = try elisa.postMultipart("/measurements/import", fields: [],
                                              files: [("file", "weights.csv", "text/csv", elf)])
        #expect(weights.status < 500 && weights.status != 303, "weights import of a binary: \(weights.status)")
        #expect(Self.files(under: test.app.configuration.mediaDirectory) == mediaBefore, "a refused upload left a file")
        #expect(try test.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM symbol") } == symbols, "a refused upload made a symbol")
    }

    /// The files under `directory` (a folder made on the way, such as `images/` before an SVG is refused, is none).
    static func files(under directory: String) -> Set<String> {
        var isFolder: ObjCBool = false
        return Set((FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []).filter {
            FileManager.default.fileExists(atPath: directory + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue
        })
    }
}
