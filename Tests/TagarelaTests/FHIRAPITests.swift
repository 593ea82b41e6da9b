import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The read-only FHIR API (issue 47, step 3): tokens an administrator issues for one clinician, each
/// search parameter, a revoked token, another clinician's token, every read audited, and a sweep of
/// every API route × every clinician's token × every patient with no leak.
@Suite struct FHIRAPITests {
    static func issue(_ test: TestApp, for username: String) throws -> String {
        let clinician = try test.id(of: username)
        let audit = AuditContext(actorId: nil, actorName: "test", clientAddress: "127.0.0.1", now: Date())
        return try #require(try test.write { db in try FHIRTokens.issue(for: clinician, label: "EHR \(username)", audit: audit, db) })
    }

    static func get(_ test: TestApp, _ path: String, token: String?) throws -> (status: Int, json: [String: Any]) {
        let response = try test.browser().get(path, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, json)
    }

    static func patients(linkedTo username: String, _ test: TestApp) throws -> [Int64] {
        let id = try test.id(of: username)
        return try test.read { db in try Int64.fetchAll(db, sql: "SELECT patientId FROM clinicianPatient WHERE clinicianId = ?", arguments: [id]) }
    }

    static func entries(_ json: [String: Any]) -> [[String: Any]] {
        (json["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
    }

    @Test func metadataDescribesTheAPIWithoutAToken() async throws {
        let test = try await TestApp()
        let (status, json) = try Self.get(test, "/fhir/r4/metadata", token: nil)
        #expect(status == 200)
        #expect(json["resourceType"] as? String == "CapabilityStatement")
        #expect(json["fhirVersion"] as? String == "4.0.1")
    }

    @Test func noTokenAWrongOneOrARevokedOneReadsNothing() async throws {
        let test = try await TestApp()
        let token = try Self.issue(test, for: "nadia")
        let patient = try #require(try Self.patients(linkedTo: "nadia", test).first)
        #expect(try Self.get(test, "/fhir/r4/Patient/\(patient)", token: token).status == 200)
        #expect(try Self.get(test, "/fhir/r4/Patient/\(patient)", token: nil).status == 401)
        #expect(try Self.get(test, "/fhir/r4/Patient/\(patient)", token: token + "x").status == 401)
        let response = try test.browser().get("/fhir/r4/Patient/\(patient)", headers: [("Authorization", "Bearer nope")])
        #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(response.header("Content-Type")?.hasPrefix("application/fhir+json") == true)

        // Revoked by the administrator through the page: the token reads nothing from then on.
        let admin = try test.browser(loggedInAs: "admin")
        let page = try admin.get("/admin/fhir-tokens")
        #expect(page.status == 200 && page.text.contains("EHR nadia"))
        let tokenId = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM fhirToken") })
        #expect(try admin.post("/admin/fhir-tokens/\(tokenId)/revoke").status == 303)
        #expect(try Self.get(test, "/fhir/r4/Patient/\(patient)", token: token).status == 401)
        #expect(try Self.get(test, "/fhir/r4/Goal?patient=\(patient)", token: token).status == 401)
        let refused = try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM auditEntry WHERE action = 'refused' AND entity = 'fhirToken'") ?? 0
        }
        #expect(refused == 5)
    }

    @Test func anAdministratorIssuesATokenShownOnceAndStoredAsAHash() async throws {
        let test = try await TestApp()
        let admin = try test.browser(loggedInAs: "admin")
        _ = try admin.get("/admin/fhir-tokens")
        let ana = try test.id(of: "ana")
        #expect(try admin.post("/admin/fhir-tokens", [("label", ""), ("clinician", String(ana))]).status == 422)
        #expect(try admin.post("/admin/fhir-tokens", [("label", "EHR"), ("clinician", String(try test.id(of: "bruno")))]).status == 422)
        let page = try admin.post("/admin/fhir-tokens", [("label", "Hospital EHR"), ("clinician", String(ana))])
        #expect(page.status == 200)
        let token = try #require(page.text.firstMatch(of: /<code class="token">([A-Za-z0-9_-]{43})<\/code>/)?.1).description
        let stored = try test.read { db in try Row.fetchAll(db, sql: "SELECT tokenHash FROM fhirToken") }
        #expect(stored.count == 1)
        #expect(stored[0]["tokenHash"] as String == Token.hash(token))
        #expect(!stored[0].description.contains(token))
        let patient = try #require(try Self.patients(linkedTo: "ana", test).first)
        #expect(try Self.get(test, "/fhir/r4/Patient/\(patient)", token: token).status == 200)
        #expect(try !admin.get("/admin/fhir-tokens").text.contains(token), "shown once")
        #expect(try test.browser(loggedInAs: "ana").get("/admin/fhir-tokens").status == 403)
    }

    @Test func eachSearchParameterNarrowsTheAnswerAndEveryReadIsAudited() async throws {
        let test = try await TestApp()
        let token = try Self.issue(test, for: "nadia")
        let patient = try #require(try test.read { db in
            try Int64.fetchOne(db, sql: """
                SELECT meal.patientId FROM meal JOIN clinicianPatient AS link ON link.patientId = meal.patientId
                WHERE link.clinicianId = (SELECT id FROM user WHERE username = 'nadia') GROUP BY meal.patientId ORDER BY count(*) DESC
                """)
        })
        let audited = { try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM auditEntry WHERE action = 'export' AND summary LIKE 'FHIR API%'") ?? 0
        } }
        let all = try Self.get(test, "/fhir/r4/Observation?patient=\(patient)", token: token)
        #expect(all.status == 200 && all.json["type"] as? String == "searchset")
        let every = Self.entries(all.json)
        #expect(every.count > 10 && all.json["total"] as? Int == every.count)
        #expect(try audited() == 1)

        let checkIns = Self.entries(try Self.get(test, "/fhir/r4/Observation?patient=Patient/\(patient)&code=\(FHIRCodes.tagarela)|meal-check-in",
                                                  token: token).json)
        #expect(!checkIns.isEmpty && checkIns.count < every.count)
        #expect(checkIns.allSatisfy { ($0["id"] as? String)?.hasPrefix("checkin-") == true })
        let bare = Self.entries(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&code=meal-check-in,nothing", token: token).json)
        #expect(bare.count == checkIns.count)
        #expect(Self.entries(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&code=http://loinc.org|meal-check-in",
                                          token: token).json).isEmpty)

        let days = checkIns.compactMap { ($0["effectiveDateTime"] as? String)?.prefix(10) }.map(String.init).sorted()
        let first = try #require(days.first), last = try #require(days.last)
        #expect(first < last)
        let onFirst = Self.entries(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&code=meal-check-in&date=\(first)", token: token).json)
        #expect(onFirst.count == days.filter { $0 == first }.count)
        let after = Self.entries(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&code=meal-check-in&date=gt\(first)&date=le\(last)",
                                               token: token).json)
        #expect(after.count == days.filter { $0 > first }.count)

        #expect(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&date=yesterday", token: token).status == 400)
        #expect(try Self.get(test, "/fhir/r4/Observation?patient=\(patient)&category=exam", token: token).status == 400)
        #expect(try Self.get(test, "/fhir/r4/Observation", token: token).status == 400)

        let goals = try Self.get(test, "/fhir/r4/Goal?patient=\(patient)", token: token)
        let expected = try test.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM goal WHERE patientId = ?", arguments: [patient]) ?? 0 }
        #expect(goals.status == 200 && Self.entries(goals.json).count == expected && expected > 0)
        #expect(try audited() == 7, "every read that answered is audited")
    }

    /// The search reads only what it asks for (issue 47): for every demo patient as each of their clinicians
    /// and trainers sees them, every code and every day of every Observation, the narrowed read (the parts the
    /// codes name, the period the dates bound) answers exactly what filtering the whole record answers; a
    /// search of one code reads none of the other parts' tables.
    @Test func theSearchReadsOnlyWhatItAsksAndAnswersAsTheWholeRecordWould() async throws {
        let test = try await TestApp()
        let mapper = FHIRMapper(base: "https://clinic.example", timeZone: test.app.configuration.timeZone)
        let links = try test.read { db in
            try Row.fetchAll(db, sql: "SELECT clinicianId, patientId FROM clinicianPatient UNION ALL SELECT trainerId, patientId FROM trainerClient")
                .map { (staff: $0[0] as Int64, patient: $0[1] as Int64) }
        }
        func codes(_ resource: FHIRJSON) -> [(String, String)] {
            guard case .members(let pairs) = resource, case .members(let code)? = pairs.first(where: { $0.0 == "code" })?.1,
                  case .array(let codings)? = code.first(where: { $0.0 == "coding" })?.1 else { return [] }
            return codings.compactMap { coding in
                guard case .members(let fields) = coding, case .string(let system)? = fields.first(where: { $0.0 == "system" })?.1,
                      case .string(let value)? = fields.first(where: { $0.0 == "code" })?.1 else { return nil }
                return (system, value)
            }
        }
        func day(_ resource: FHIRJSON) -> String? {
            guard case .members(let pairs) = resource, case .string(let effective)? = pairs.first(where: { $0.0 == "effectiveDateTime" })?.1
            else { return nil }
            return String(effective.prefix(10))
        }
        var searched = 0
        try test.read { db in
            for (staff, patient) in links {
                let actor = Actor(user: try #require(try User.fetchOne(db, key: staff)))
                func observations(_ search: FHIRSearch, narrowed: Bool) throws -> [String] {
                    let record = try FHIRQueries.record(patient, visibleTo: actor, period: narrowed ? search.period : FHIRQueries.Period(),
                                                        parts: narrowed ? search.parts : .all, locale: .en,
                                                        timeZone: test.app.configuration.timeZone, now: test.clock.now, db)
                    return mapper.observations(record).filter { search.matches($0) }.map { $0.serialized() }
                }
                let whole = mapper.observations(try FHIRQueries.record(patient, visibleTo: actor, period: FHIRQueries.Period(), locale: .en,
                                                                       timeZone: test.app.configuration.timeZone, now: test.clock.now, db))
                // The whole record holds each kind of Observation its reader may see (a sentinel bound once emptied the meals).
                let answered = try Int.fetchOne(db, sql: "SELECT count(*) FROM meal WHERE patientId = ? AND status <> 'pending'", arguments: [patient]) ?? 0
                let checkIns = whole.filter { FHIRSearch(patientId: patient, codes: [(nil, "meal-check-in")]).matches($0) }.count
                #expect(checkIns == (OverviewQueries.Sections(actor).nutrition ? answered : 0), "check-ins of \(patient) as \(staff)")
                var answers: [String: Set<String>] = [:]
                for resource in whole {
                    let (system, code) = try #require(codes(resource).first)
                    var searches = [FHIRSearch(patientId: patient, codes: [(system, code)]), FHIRSearch(patientId: patient, codes: [(nil, code)])]
                    if let day = day(resource) {
                        searches.append(FHIRSearch(patientId: patient, codes: [(system, code)], dates: [(.eq, day)]))
                        searches.append(FHIRSearch(patientId: patient, dates: [(.ge, day), (.lt, ISODate.adding(3, to: day))]))
                        searches.append(FHIRSearch(patientId: patient, dates: [(.gt, day)]))
                    }
                    // Each search run once (many resources share a code or a day), each resource looked for in its answer.
                    for search in searches {
                        if answers[search.summary] == nil {
                            let narrowed = try observations(search, narrowed: true)
                            let filtered = whole.filter { search.matches($0) }.map { $0.serialized() }
                            #expect(narrowed == filtered, "\(search.summary) as \(staff): only narrowed \(Set(narrowed).subtracting(filtered).map { $0.prefix(160) }), only filtered \(Set(filtered).subtracting(narrowed).map { $0.prefix(160) })")
                            answers[search.summary] = Set(narrowed)
                            searched += 1
                        }
                        #expect(answers[search.summary]!.contains(resource.serialized()) || search.dates.contains { $0.0 == .gt },
                                "\(search.summary) finds the resource it was made from")
                    }
                }
            }
        }
        #expect(searched > 200, "\(searched) searches")

        // One code of one part: the statements read none of the others' tables.
        // Ana (speech) and Davi, her patient.
        let speech: [Int64] = [try test.id(of: "ana"), try test.id(of: "Davi Alves")]
        let tables = try TableReads.record(test.app.poolForTests) { db in
            let actor = Actor(user: try #require(try User.fetchOne(db, key: speech[0])))
            let search = FHIRSearch(patientId: speech[1], codes: [(FHIRCodes.tagarela, "educat-game")])
            _ = try FHIRQueries.record(speech[1], visibleTo: actor, period: search.period, parts: search.parts, locale: .en,
                                       timeZone: test.app.configuration.timeZone, now: test.clock.now, db)
        }
        #expect(tables.contains("educatResult"))
        #expect(tables.isDisjoint(with: ["meal", "mealLine", "tapDayTotal", "tapDay", "sentence", "evaluation", "weightEntry", "fhirMeasurement", "goal"]),
                "\(tables.sorted())")
    }

    /// Every API route × every clinician's token × every patient (and missing and malformed ids): a
    /// patient answers only to a token of a clinician linked to them; a speech therapist's token reads no
    /// meals, a nutritionist's no taps.
    @Test func noTokenReachesAPatientItsClinicianMayNotSee() async throws {
        let test = try await TestApp()
        let clinicians = try test.read { db in try String.fetchAll(db, sql: "SELECT username FROM user WHERE role = 'clinician' AND isActive") }
        let patients = try test.read { db in try Int64.fetchAll(db, sql: "SELECT userId FROM patient") } + [999_999]
        var leaks: [String] = [], reads = 0
        for username in clinicians {
            let token = try Self.issue(test, for: username)
            let linked = Set(try Self.patients(linkedTo: username, test))
            for patient in patients {
                for path in ["/fhir/r4/Patient/\(patient)", "/fhir/r4/Observation?patient=\(patient)", "/fhir/r4/Goal?patient=\(patient)"] {
                    let (status, json) = try Self.get(test, path, token: token)
                    reads += 1
                    let expected = linked.contains(patient) ? 200 : 404
                    if status != expected { leaks.append("\(username) \(path): \(status)") }
                    if status == 404 && json["resourceType"] as? String != "OperationOutcome" { leaks.append("\(username) \(path): not an outcome") }
                    if status == 200, path.contains("Observation") {
                        let ids = Self.entries(json).compactMap { $0["id"] as? String }
                        let specialties = try test.read { db in try String.fetchOne(db, sql: "SELECT specialties FROM user WHERE username = ?",
                                                                                    arguments: [username]) ?? "" }
                        if !specialties.contains("nutrition"), ids.contains(where: { $0.hasPrefix("checkin-") || $0.hasPrefix("weight-") }) {
                            leaks.append("\(username) \(path): meals without nutrition")
                        }
                        if !specialties.contains("speech"), ids.contains(where: { $0.hasPrefix("taps-") || $0.hasPrefix("educat-") }) {
                            leaks.append("\(username) \(path): boards without speech")
                        }
                    }
                }
            }
        }
        #expect(reads > 30)
        #expect(leaks == [])
        // Malformed ids never reach a handler.
        let token = try Self.issue(test, for: "ana")
        #expect(try Self.get(test, "/fhir/r4/Patient/abc", token: token).status == 404)
        #expect(try Self.get(test, "/fhir/r4/Observation?patient=abc", token: token).status == 400)
    }
}
