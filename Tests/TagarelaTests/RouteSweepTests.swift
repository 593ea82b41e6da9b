import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
import Synchronization
@testable import Tagarela
import Testing

/// Every route of the router × every demo persona × every id of every kind in the database, plus
/// missing and malformed ids: GET routes by GET, POST routes with a valid CSRF token and an empty
/// form, then a garbage one. No answer may be a 5xx or come from a nested database access, the
/// process must stay up, and a refusal (4xx) may change nothing in the database. The routes are
/// read from the router, the ids from the database, so a route added later is swept without
/// editing this file. A second sweep, on a clinic of its own, does the same with records in unusual
/// states. The two run side by side: together they were the Swift suite's longest test.
@Suite struct RouteSweepTests {
    @Test func everyRouteEveryPersonaEveryRecordOfTheDemoClinic() async throws {
        try await sweep(phase: "demo clinic", atLeast: 8000) { try $0.demoRows() }
    }

    @Test func everyRouteEveryPersonaEveryRecordInUnusualStates() async throws {
        try await sweep(phase: "unusual states", atLeast: 6000) { try $0.makeUnusualRecords() }
    }

    private func sweep(phase: String, atLeast minimum: Int, rows: (Sweep) throws -> [[String: String]]) async throws {
        let sweep = try await Sweep()
        let started = Date(), startedCPU = Self.processCPUSeconds()
        try sweep.run(phase: phase, rows: try rows(sweep))
        let seconds = Date().timeIntervalSince(started), cpu = Self.processCPUSeconds() - startedCPU
        print(sweep.report(seconds: seconds, cpu: cpu))
        #expect(sweep.requests > minimum, "the sweep reached too little: \(sweep.requests) requests")
        #expect(sweep.statuses.keys.contains(200) && sweep.statuses.keys.contains(303) && sweep.statuses.keys.contains(422),
                "the sweep never got past the checks: \(sweep.statuses)")
        // Alone each takes under 45 s. The wall time grows with the load of the shared machine, the CPU time
        // of this process (servers and clients both) with the suites running beside it; the smaller one,
        // within about twice that, catches a sweep grown out of proportion without failing on a busy machine.
        #expect(min(seconds, cpu) < 120, "the sweep took \(Int(seconds)) s, \(Int(cpu)) s of CPU")
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// The database rows written by committed transactions, to prove that a refused request wrote
/// nothing. Updates of `session.lastSeenAt` alone (the session touch) are not observed.
final class CommittedChanges: TransactionObserver, @unchecked Sendable {
    struct Change: Sendable, CustomStringConvertible {
        let table: String
        let kind: DatabaseEvent.Kind
        let rowID: Int64
        var description: String { "\(kind) \(table) #\(rowID)" }
    }

    private let changes = Mutex<(pending: [Change], committed: [Change])>(([], []))

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .update(let table, let columns) = eventKind, table == "session", columns == ["lastSeenAt"] { return false }
        return true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let change = Change(table: event.tableName, kind: event.kind, rowID: event.rowID)
        changes.withLock { $0.pending.append(change) }
    }

    func databaseDidCommit(_ db: Database) {
        changes.withLock { $0.committed += $0.pending; $0.pending = [] }
    }

    func databaseDidRollback(_ db: Database) {
        changes.withLock { $0.pending = [] }
    }

    /// What was committed since the last call.
    func take() -> [Change] {
        changes.withLock { state in
            defer { state.committed = [] }
            return state.committed
        }
    }
}

final class Sweep {
    /// Who asks: every role of the demo clinic, bruno's tablet in patient mode for Carla, and no one.
    struct Persona {
        let name: String
        let userId: Int64?
        let patientModeFor: Int64?
        var token: String?
        var csrf: String
        /// Who the app sees: the patient in patient mode; nil when signed out.
        var actor: Actor?
    }

    static let malformed = ["999999", "abc", "-1", "0", String(repeating: "9", count: 400)]
    static let anonymousCSRF = String(repeating: "A", count: 43)

    let test: TestApp
    let changes = CommittedChanges()
    var personas: [Persona] = []
    let garbageForm: [(String, String)]
    /// Care links as the demo has them; put back after a route that removed some, so later routes
    /// still find people linked.
    let links: [(table: String, a: Int64, b: Int64)]

    var requests = 0
    var statuses: [Int: Int] = [:]
    var routesSwept = 0
    var combinations = 0
    /// Requests made to routes whose access refuses the persona outright: one per route and persona.
    var refusedByAccess = 0
    var failures: [String] = []
    var failingRoutes: [String: Int] = [:]
    var accessCounts: [String: Int] = [:]
    var phases: [String] = []

    init() async throws {
        test = try await TestApp(configure: { $0.reportsDatabaseAccesses = true })
        let fields = try HostileInputTests.fieldNames()
        let garbage = ["'; DROP TABLE user; --", "-1", "1e309", "99999999999999999999", "<x>", "\u{0}", "2026-02-30", "25:61",
                       String(repeating: "ç", count: 3000), "NaN", "", " "]
        garbageForm = fields.enumerated().map { ($1, garbage[$0 % garbage.count]) } + [("plan", "abc"), ("symbols", "-1,abc")]
        links = try test.read { db in
            try ["clinicianPatient": ("clinicianId", "patientId"), "tutorPatient": ("tutorId", "patientId"),
                 "trainerClient": ("trainerId", "patientId")].flatMap { table, columns in
                try Row.fetchAll(db, sql: "SELECT \(columns.0) AS a, \(columns.1) AS b FROM \(table)")
                    .map { (table: table, a: $0["a"] as Int64, b: $0["b"] as Int64) }
            }
        }
        // Real logins first; a session lost later (a logout, a deactivation swept by the admin) is
        // put back straight in the database, which no throttle slows down.
        for name in ["admin", "ana", "nadia", "dani", "bruno", "beatriz", "elisa"] {
            let browser = try test.browser(loggedInAs: name)
            personas.append(Persona(name: name, userId: try test.id(of: name), patientModeFor: nil,
                                    token: browser.cookies[SessionStore.cookieName], csrf: browser.csrf))
        }
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        try tablet.get("/patient")
        personas.append(Persona(name: "carla-mode", userId: try test.id(of: "bruno"), patientModeFor: try test.id(of: "Carla Costa"),
                                token: tablet.cookies[SessionStore.cookieName], csrf: tablet.csrf))
        personas.append(Persona(name: "anonymous", userId: nil, patientModeFor: nil, token: nil, csrf: Self.anonymousCSRF))
        for index in personas.indices {
            guard let userId = personas[index].userId else { continue }
            personas[index].actor = try test.read { db in
                let user = try User.find(userId, db)!
                return try personas[index].patientModeFor.map { Actor(user: try User.find($0, db)!, supervisorId: userId) }
                    ?? Actor(user: user)
            }
        }
        test.app.poolForTests.add(transactionObserver: changes, extent: .observerLifetime)
    }

    // MARK: Ids

    /// Consistent sets of path parameters, one per record of the demo database: a meal with its
    /// patient, a word with its plan and patient, and so on.
    func demoRows() throws -> [[String: String]] {
        try test.read { db in
            var rows: [[String: String]] = []
            func add(_ sql: String) throws {
                for row in Self.spread(try Row.fetchAll(db, sql: sql)) {
                    rows.append(Dictionary(uniqueKeysWithValues: row.columnNames.map { column -> (String, String) in
                        switch (row[column] as DatabaseValue).storage {
                        case .int64(let number): (column, "\(number)")
                        case .string(let text): (column, text)
                        default: (column, "")
                        }
                    }))
                }
            }
            try add("SELECT id FROM user")
            try add("SELECT id AS tutor FROM user")
            try add("SELECT patientId AS id, tutorId AS tutor FROM tutorPatient")
            try add("SELECT id AS plan, patientId AS id, 0 AS position FROM plan")
            try add("SELECT id AS plan, patientId AS id, rows * columns - 1 AS position FROM plan")
            try add("SELECT id AS plan, patientId AS id, rows * columns AS position FROM plan")
            try add("SELECT id AS meal, patientId AS id FROM meal")
            try add("SELECT id AS evaluation, patientId AS id FROM evaluation")
            try add("SELECT id AS symbol FROM symbol")
            try add("SELECT w.id AS word, w.planId AS plan, p.patientId AS id FROM sentenceWord w JOIN plan p ON p.id = w.planId")
            try add("SELECT DISTINCT pictogram AS file FROM symbol WHERE pictogram IS NOT NULL LIMIT 3")
            try add("SELECT DISTINCT imagePath AS file FROM symbol WHERE imagePath IS NOT NULL LIMIT 3")
            try add("SELECT DISTINCT audioFile AS file FROM symbol WHERE audioFile IS NOT NULL LIMIT 3")
            rows.append(["token": "not-a-token"])
            for screen in ["letters", "records", "information"] + EduCATArea.allCases.map(\.rawValue) {
                rows.append(["screen": screen])
                for mode in ["lesson", "game", "results"] { rows.append(["screen": screen, "mode": mode]) }
            }
            // A file parameter is one path segment: the name, without the folder stored with it.
            return rows.map { row in
                row.filter { !$0.value.isEmpty }.mapValues { $0 }.reduce(into: [:]) { result, pair in
                    result[pair.key] = pair.key == "file" ? String(pair.value.split(separator: "/").last ?? "") : pair.value
                }
            }
        }
    }

    /// At most `perKind` records of one kind, spread from the first to the last: the demo's 100-odd
    /// meals and symbols differ little past that, and the sweep must stay under a minute.
    static let perKind = 10

    static func spread<T>(_ records: [T]) -> [T] {
        guard records.count > perKind else { return records }
        return (0..<perKind).map { records[$0 * (records.count - 1) / (perKind - 1)] }
    }

    /// Path parameter values for `names`: every row that names one of them (the others taken from
    /// the first row that has them); for a name no row knows (a route added later), every id of
    /// every kind; then each name in turn missing and malformed, and all of them at once.
    func assignments(for names: [String], rows: [[String: String]]) -> [[String: String]] {
        guard !names.isEmpty else { return [[:]] }
        var defaults: [String: String] = [:]
        for row in rows { for (name, value) in row where defaults[name] == nil { defaults[name] = value } }
        let everyId = Array(Set(rows.flatMap { $0.values.filter { Int64($0) != nil } })).sorted()
        var result: [[String: String]] = []
        var seen: Set<[String]> = []
        func add(_ assignment: [String: String]) {
            let key = names.map { assignment[$0] ?? "1" }
            guard seen.insert(key).inserted else { return }
            result.append(Dictionary(uniqueKeysWithValues: zip(names, key)))
        }
        for row in rows where names.contains(where: { row[$0] != nil }) {
            add(names.reduce(into: [:]) { $0[$1] = row[$1] ?? defaults[$1] })
        }
        for name in names where defaults[name] == nil {
            for id in everyId { add(names.reduce(into: [:]) { $0[$1] = $1 == name ? id : defaults[$1] }) }
        }
        for name in names {
            for bad in Self.malformed { add(names.reduce(into: [:]) { $0[$1] = $1 == name ? bad : defaults[$1] }) }
        }
        for bad in Self.malformed { add(names.reduce(into: [:]) { $0[$1] = bad }) }
        return result
    }

    static func parameters(of pattern: String) -> [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    static func path(_ pattern: String, _ values: [String: String]) -> String {
        "/" + pattern.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? values[String(segment.dropFirst())]! : String(segment)
        }.joined(separator: "/")
    }

    // MARK: Sweeping

    func run(phase: String, rows: [[String: String]]) throws {
        phases.append(phase)
        // Pages first, then forms: a form swept may withdraw or unlink what a later page would show.
        let routes = test.app.router.patterns.filter { $0.method == .get } + test.app.router.patterns.filter { $0.method == .post }
        for route in routes {
            routesSwept += 1
            let names = Self.parameters(of: route.pattern)
            guard case .found(let handler, _) = test.app.router.match(route.method, Self.path(route.pattern, Dictionary(uniqueKeysWithValues: names.map { ($0, "1") })))
            else { fail("\(route.method) \(route.pattern) is not found by its own router"); continue }
            let assignments = assignments(for: names, rows: rows)
            combinations += assignments.count
            for index in personas.indices {
                // A persona the route's access refuses never reaches the handler, whatever the ids:
                // one request per route says that refusal holds; the ids are swept for those let in.
                let admitted = personas[index].actor.map(handler.access.admits) ?? { if case .anyone = handler.access { true } else { false } }()
                for values in admitted ? assignments : Array(assignments.prefix(1)) {
                    if !admitted { refusedByAccess += route.method == .get ? 1 : 2 }
                    let path = Self.path(route.pattern, values)
                    if route.method == .get {
                        try send(.get, path, route: route.pattern, as: index)
                    } else {
                        try send(.post, path, route: route.pattern, form: [], as: index)
                        try send(.post, path, route: route.pattern, form: garbageForm, as: index)
                    }
                }
            }
            let health = try test.client.get(SiteEndpoints.health.pattern)
            if health.status != 200 { fail("after \(route.method) \(route.pattern): /healthz answered \(health.status)") }
            try restoreLinks()
        }
    }

    func send(_ method: HTTPServer.Method, _ path: String, route: String, form: [(String, String)] = [], as index: Int) throws {
        let persona = personas[index]
        var cookies = ["tagarela_csrf=\(Self.anonymousCSRF)"]
        if let token = persona.token { cookies.append("\(SessionStore.cookieName)=\(token)") }
        let headers = [("Cookie", cookies.joined(separator: "; "))]
        let what = "\(persona.name) \(method) \(path.prefix(120))\(form.isEmpty ? "" : " (garbage form)")"
        let response: WireResponse
        do {
            response = method == .get ? try test.client.get(path, headers: headers)
                : try test.client.postForm(path, [("_csrf", persona.csrf)] + form, headers: headers)
        } catch {
            fail("\(what): no answer (\(error)); the process stopped?")
            throw error
        }
        requests += 1
        statuses[response.status, default: 0] += 1
        if response.status >= 500 { fail("\(what): \(response.status)", route: "\(method) \(route): \(response.status)") }
        if let nested = response.header("X-Tagarela-DB-Nested"), nested != "0" {
            fail("\(what): nested database access", route: "\(method) \(route): nested access")
        }
        if let accesses = response.header("X-Tagarela-DB-Accesses").flatMap(Int.init) {
            accessCounts["\(method) \(route)"] = max(accessCounts["\(method) \(route)"] ?? 0, accesses)
            // The route declares how it uses the database; the dispatcher opens that and no more.
            if case .found(let declared, _) = test.app.router.match(method, route), accesses > declared.database.accesses {
                fail("\(what): \(accesses) database accesses, declared \(declared.database)",
                     route: "\(method) \(route): \(accesses) accesses")
            }
        }
        let written = changes.take()
        guard !written.isEmpty else { return }
        if (400..<500).contains(response.status) {
            // A refusal may add to the audit log (the refusal itself, a failed login); nothing else.
            let other = written.filter { !($0.table == "auditEntry" && $0.kind == .insert) }
            if !other.isEmpty {
                fail("\(what): refused with \(response.status) but wrote \(other.prefix(5))", route: "\(method) \(route): refusal wrote")
            }
        }
        try restorePersonas()
    }

    func fail(_ message: String, route: String? = nil) {
        failures.append(message)
        failingRoutes[route ?? message, default: 0] += 1
        if failures.count <= 30 { Issue.record(Comment(rawValue: message)) }
    }

    /// Puts back what a swept form took from a persona: the session (a logout, "end every session",
    /// a deactivation), the account's activation, and patient mode opened or left.
    func restorePersonas() throws {
        let hashes = personas.map { $0.token.map(Token.hash) ?? "" }
        let intact = try test.read { db in
            try personas.indices.map { index -> Bool in
                guard let userId = personas[index].userId else { return true }
                return try Bool.fetchOne(db, sql: """
                    SELECT count(*) > 0 FROM session s JOIN user u ON u.id = s.userId
                    WHERE s.tokenHash = ? AND u.id = ? AND u.isActive AND s.patientModeFor IS ?
                    """, arguments: [hashes[index], userId, personas[index].patientModeFor]) ?? false
            }
        }
        guard intact.contains(false) else { return }
        let now = test.clock.now
        let policy = test.app.configuration.sessions
        for index in personas.indices where !intact[index] {
            let persona = personas[index]
            let userId = persona.userId!
            let fresh = try test.write { db -> (token: String, csrf: String)? in
                try db.execute(sql: "UPDATE user SET isActive = 1 WHERE id = ? AND NOT isActive", arguments: [userId])
                if try Session.filter(Session.Columns.tokenHash == hashes[index]).fetchCount(db) > 0 {
                    try db.execute(sql: "UPDATE session SET patientModeFor = ? WHERE tokenHash = ?",
                                   arguments: [persona.patientModeFor, hashes[index]])
                    return nil
                }
                let user = try User.find(userId, db)!
                let token = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
                try db.execute(sql: "UPDATE session SET patientModeFor = ? WHERE tokenHash = ?",
                               arguments: [persona.patientModeFor, Token.hash(token)])
                let csrf = try String.fetchOne(db, sql: "SELECT csrfToken FROM session WHERE tokenHash = ?", arguments: [Token.hash(token)])!
                return (token, csrf)
            }
            if let fresh {
                personas[index].token = fresh.token
                personas[index].csrf = fresh.csrf
            }
        }
        _ = changes.take()
    }

    func restoreLinks() throws {
        let present = try test.read { db in
            try links.map { link in
                let staff = link.table == "clinicianPatient" ? "clinicianId" : link.table == "tutorPatient" ? "tutorId" : "trainerId"
                return try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM \(link.table) WHERE \(staff) = ? AND patientId = ?",
                                         arguments: [link.a, link.b]) ?? false
            }
        }
        guard present.contains(false) else { return }
        try test.write { db in
            for link in links {
                let columns = link.table == "clinicianPatient" ? "clinicianId, patientId"
                    : link.table == "tutorPatient" ? "tutorId, patientId" : "trainerId, patientId"
                try db.execute(sql: "INSERT OR IGNORE INTO \(link.table) (\(columns), createdAt) VALUES (?, ?, ?)",
                               arguments: [link.a, link.b, test.clock.now])
            }
        }
        _ = changes.take()
    }

    // MARK: Unusual states

    /// Records in the states the demo does not have: meals answered, withdrawn, not yet due, in the
    /// future, edited after they were prescribed, out of queue order; a new evaluation; a board with
    /// no cells and a sentence plan with no words. Returns their rows for the second pass.
    func makeUnusualRecords() throws -> [[String: String]] {
        let elisa = try test.id(of: "Elisa Martins"), carla = try test.id(of: "Carla Costa")
        let nadia = try test.id(of: "nadia"), ana = try test.id(of: "ana")
        let fernanda = try test.id(of: "Fernanda Dias"), dani = try test.id(of: "dani")
        let now = test.clock.now
        let zone = test.app.configuration.timeZone
        let today = ISODate.string(now, timeZone: zone)
        let rows = try test.write { db -> [[String: String]] in
            var rows: [[String: String]] = []
            let food = try Int64.fetchOne(db, sql: "SELECT id FROM food ORDER BY id LIMIT 1")!
            func meal(_ patient: Int64, _ date: String, _ time: String, status: String = "pending") throws -> Int64 {
                var meal = Meal(patientId: patient, clinicianId: nadia, type: "lunch", date: date, time: time, status: status,
                                answeredAt: status == "pending" ? nil : now, createdAt: now)
                try meal.insert(db)
                var line = MealLine(mealId: meal.id!, foodId: food, quantity: 2, unit: "household", position: 0)
                try line.insert(db)
                rows.append(["meal": "\(meal.id!)", "id": "\(patient)"])
                return meal.id!
            }
            for patient in [elisa, carla] {
                _ = try meal(patient, ISODate.adding(-400, to: today), "07:00")              // long overdue: heads the queue
                _ = try meal(patient, today, "23:59")                                         // not yet due
                _ = try meal(patient, ISODate.adding(1, to: today), "12:00")                  // tomorrow
                _ = try meal(patient, ISODate.adding(3650, to: today), "12:00")               // far future
                _ = try meal(patient, today, "08:00", status: "fulfilled")                    // answered
                let edited = try meal(patient, today, "09:00")                                // edited after prescribed
                try db.execute(sql: "UPDATE mealLine SET quantity = 5 WHERE mealId = ?", arguments: [edited])
                try db.execute(sql: "UPDATE meal SET time = '09:30' WHERE id = ?", arguments: [edited])
                let withdrawn = try meal(patient, today, "10:00")                             // withdrawn: its id is gone
                _ = try Meal.deleteOne(db, key: withdrawn)
            }
            for (type, name) in [("board", "Vazio"), ("sentence", "Frases")] {
                try db.execute(sql: """
                    INSERT INTO plan (patientId, clinicianId, name, startsOn, type, rows, columns, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, 2, 3, ?, ?)
                    """, arguments: [carla, ana, name, today, type, now, now])
                let plan = db.lastInsertedRowID
                for position in ["0", "5", "6"] { rows.append(["plan": "\(plan)", "id": "\(carla)", "position": position]) }
            }
            let input = EvaluationInput(skinfoldProtocol: .jp3, takenOn: today, weightKg: 70, heightM: 1.7,
                                        skinfolds: [.triceps: [20], .suprailiac: [15], .thigh: [25]], perimeters: [:])
            let audit = AuditContext(actorId: dani, actorName: "Daniel Rocha", clientAddress: "test", now: now)
            let evaluation = try Evaluations.save(input, patientId: fernanda, sex: .female, age: 38, audit: audit, trainerId: dani, db)
            rows.append(["evaluation": "\(evaluation)", "id": "\(fernanda)"])
            return rows
        }
        _ = changes.take()
        return rows
    }

    func report(seconds: Double, cpu: Double) -> String {
        let busy = accessCounts.filter { $0.value > 1 }.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        let failing = failingRoutes.sorted { $0.key < $1.key }.map { "  \($0.key) ×\($0.value)" }
        return """
            route sweep (\(phases.joined(separator: ", "))): \(routesSwept) routes × \(personas.count) personas; \
            \(combinations) route × id combinations, each for every persona the route lets in, once for the others; \
            \(requests) requests (\(refusedByAccess) refused by the route's access) in \(Int(seconds)) s (\(Int(cpu)) s of CPU); \
            statuses \(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); \
            5xx: \(statuses.filter { $0.key >= 500 }.values.reduce(0, +)); failures: \(failures.count)
            \(failing.isEmpty ? "" : "failing:\n" + failing.joined(separator: "\n") + "\n")\
            routes whose handler opened more than one database access: \(busy.isEmpty ? "none" : busy.joined(separator: ", "))
            """
    }
}
