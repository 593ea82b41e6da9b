import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The clinician's dashboard as a worklist: who needs attention first, each with the reason in
/// words, then the rest; what the demo's data says for Carla, Davi and Elisa.
@Suite struct WorklistTests {
    static let en = [("Accept-Language", "en")]

    /// The names in the worklist, in order, and those listed after it.
    static func lists(_ page: String) -> (attention: [String], others: [String]) {
        func names(_ part: Substring) -> [String] {
            part.matches(of: /<h4><a href="[^"]+">([^<]+)<\/a><\/h4>/).map { String($0.1) }
        }
        let start = page.range(of: #"<ol class="worklist""#)!.lowerBound
        let end = page.range(of: "</ol>", range: start..<page.endIndex)!.upperBound
        let rest = page[end...]
        return (names(page[start..<end]), names(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)]))
    }

    /// The reasons on a card of the worklist: its list closes the card (`dashboards/worklist-card`).
    static func reasons(of name: String, in page: String) -> String {
        guard let at = page.range(of: ">\(name)</a>") else { return "" }
        let rest = page[at.upperBound...]
        return String(rest[..<rest.range(of: "</ul>")!.upperBound])
    }

    /// The rendered cards are kept under a key (`ClinicianDashboard.cardKey`): whatever a card shows
    /// must change the key, or an old card would be shown.
    @Test func aWorklistCardIsKeptUnderEverythingItShows() {
        let summary = People.PatientSummary(id: 7, displayName: "Carla Costa", username: "carla", birthDate: "2018-03-01", sex: .female,
                                            diagnosis: "TEA", photoPath: nil, tutorNames: "Bruno Costa")
        let signals = WorklistRules.Signals(hasBoards: true, lastBoardUse: "2026-11-01", goalsBehind: 1, overdueMeals: 2, adherence: 0.5,
                                            lastEvaluation: "2026-08-01", newTutorNotes: 1)
        func key(_ patient: People.PatientSummary = summary, _ signals: WorklistRules.Signals = signals, today: String = "2026-11-21",
                 scope: WorklistRules.Scope = .init(speech: true, nutrition: true), locale: AppLocale = .ptBR) -> String {
            ClinicianDashboard.cardKey(.init(patient: patient, signals: signals,
                                             adherence: .init(fulfilled: 0, notFulfilled: 0, pending: 0, overdue: 0)),
                                       today: today, scope: scope, locale: locale)
        }
        func patient(id: Int64 = 7, name: String = "Carla Costa", birthDate: String? = "2018-03-01", diagnosis: String = "TEA",
                     photoPath: String? = nil) -> People.PatientSummary {
            People.PatientSummary(id: id, displayName: name, username: "carla", birthDate: birthDate, sex: .female, diagnosis: diagnosis,
                                  photoPath: photoPath, tutorNames: "Bruno Costa")
        }
        func with(_ change: (inout WorklistRules.Signals) -> Void) -> WorklistRules.Signals {
            var changed = signals
            change(&changed)
            return changed
        }
        #expect(key(patient()) == key(), "the same card, the same key")
        let others = [
            key(today: "2026-11-22"), key(scope: .init(speech: false, nutrition: true)), key(scope: .init(speech: true, nutrition: false)),
            key(locale: .en),
            key(patient(id: 8)), key(patient(name: "Carla C. Costa")), key(patient(birthDate: "2018-03-02")), key(patient(birthDate: nil)),
            key(patient(diagnosis: "TEA nível 1")), key(patient(photoPath: "a.jpg")),
            key(summary, with { $0.hasBoards = false }), key(summary, with { $0.lastBoardUse = "2026-11-02" }),
            key(summary, with { $0.lastBoardUse = nil }), key(summary, with { $0.goalsBehind = 2 }),
            key(summary, with { $0.overdueMeals = 3 }), key(summary, with { $0.adherence = 0.6 }), key(summary, with { $0.adherence = nil }),
            key(summary, with { $0.lastEvaluation = "2026-08-02" }), key(summary, with { $0.lastEvaluation = nil }),
            key(summary, with { $0.newTutorNotes = 2 }),
        ]
        #expect(Set(others + [key()]).count == others.count + 1, "every change gives a key of its own")
    }

    @Test func theNutritionistSeesCarlaBeforeElisaForHerMeals() async throws {
        let test = try await TestApp()
        let page = try test.browser(loggedInAs: "nadia").get("/clinician", headers: Self.en).text
        let lists = Self.lists(page)
        #expect(Set(lists.attention) == ["Carla Costa", "Elisa Martins"], "Carla: overdue meals and low adherence; Elisa: overdue meals")
        #expect(lists.others.isEmpty)
        let carla = Self.reasons(of: "Carla Costa", in: page)
        #expect(carla.contains("Overdue meals:") && carla.contains("Low adherence:"))
        // Carla's goals behind are Ana's speech goals, which Nádia can neither set nor act on (issue 51).
        #expect(!carla.contains("Goals behind"), "\(carla)")
        let elisa = Self.reasons(of: "Elisa Martins", in: page)
        #expect(elisa.contains("Overdue meals:") && !elisa.contains("Low adherence"))
        #expect(!page.contains("New tutor notes"), "a nutritionist does not read the speech notes")
    }

    @Test func theSpeechTherapistIsToldOfNewTutorNotesUntilSheOpensThePatient() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let before = try ana.get("/clinician", headers: Self.en).text
        #expect(Self.lists(before).attention == ["Carla Costa", "Davi Alves"], "a note from each tutor, never opened: by name")
        // Beatriz's observation and her note on one of Davi's goals: a note on a goal is news too (issue 51).
        #expect(Self.reasons(of: "Davi Alves", in: before).contains("New tutor notes: 2"))
        #expect(!before.contains("Overdue meals"), "a speech therapist is not told about meals")
        let carla = try test.id(of: "Carla Costa")
        test.clock.advance(by: 60)
        #expect(try ana.get("/patients/\(carla)").status == 200)
        let after = try ana.get("/clinician", headers: Self.en).text
        // Opened: her notes are no longer news (a demo goal of hers may still be behind).
        #expect(after.contains(">Carla Costa</a>"))
        #expect(!Self.reasons(of: "Carla Costa", in: after).contains("New tutor notes"))
        #expect(Self.reasons(of: "Davi Alves", in: after).contains("New tutor notes: 2"))
        // Bruno writes a new note: Carla needs attention again.
        test.clock.advance(by: 60)
        let bruno = try test.browser(loggedInAs: "bruno")
        let day = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        #expect(try bruno.post("/patients/\(carla)/observations", [("observedOn", day), ("body", "Pediu água sozinha.")]).status == 303)
        let again = try ana.get("/clinician", headers: Self.en).text
        #expect(Self.lists(again).attention == ["Carla Costa", "Davi Alves"])
        #expect(Self.reasons(of: "Carla Costa", in: again).contains("New tutor notes: 1"))
        // Ana opens Carla again; then Bruno writes on a goal, not in the observations: Carla is news again,
        // and the overview's latest notes show it with its goal.
        test.clock.advance(by: 60)
        #expect(try ana.get("/patients/\(carla)").status == 200)
        #expect(!Self.reasons(of: "Carla Costa", in: try ana.get("/clinician", headers: Self.en).text).contains("New tutor notes"))
        test.clock.advance(by: 60)
        let goal = try #require(try test.read { try Goal.filter(Column("patientId") == carla && Column("closedAt") == nil).fetchOne($0) })
        #expect(try bruno.post("/patients/\(carla)/goals/\(goal.id!)/notes", [("body", "Pediu o parque três vezes hoje.")]).status == 303)
        let onGoal = try ana.get("/clinician", headers: Self.en).text
        #expect(Self.reasons(of: "Carla Costa", in: onGoal).contains("New tutor notes: 1"), "\(Self.reasons(of: "Carla Costa", in: onGoal))")
        let overview = try ana.get("/patients/\(carla)", headers: Self.en).text
        #expect(overview.contains("Pediu o parque três vezes hoje.") && overview.contains("on the goal “\(goal.title)”"))
    }

    /// The cards are kept rendered between loads: an edited patient, a new photo or another language shows
    /// at the next load, for every clinician.
    @Test func anEditedPatientShowsOnTheNextWorklist() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        let before = try ana.get("/clinician", headers: Self.en).text
        #expect(Self.lists(before).attention.contains("Carla Costa"))
        #expect(Self.reasons(of: "Carla Costa", in: before).contains("New tutor notes: 2"))
        let portuguese = try ana.get("/clinician").text
        #expect(Self.reasons(of: "Carla Costa", in: portuguese).contains("Anotações novas de tutores: 2"), "a card for each language")

        // The rest of the form as it was, so that only the name, the diagnosis and the photo change.
        let kept = try #require(try test.read { db in
            try Row.fetchOne(db, sql: "SELECT birthDate, sex, startedOn FROM patient WHERE userId = ?", arguments: [carla])
        })
        let photo = (field: "photo", filename: "c.png", contentType: "image/png", content: PhotoTests.png)
        #expect(try ana.postMultipart("/patients/\(carla)", fields: [
            ("displayName", "Carla C. Costa"), ("diagnosis", "Apraxia da fala"), ("birthDate", kept["birthDate"] ?? ""),
            ("sex", kept["sex"] ?? ""), ("startedOn", kept["startedOn"] ?? ""),
        ], files: [photo]).status == 303)
        let after = try ana.get("/clinician", headers: Self.en).text
        #expect(Self.lists(after).attention.contains("Carla C. Costa"))
        #expect(!after.contains(">Carla Costa</a>"))
        #expect(after.contains("7 years old · Apraxia da fala"), "the age as it was")
        #expect(after.contains(#"<img class="avatar" src="/patients/\#(carla)/photo""#))
        let nadia = try test.browser(loggedInAs: "nadia").get("/clinician", headers: Self.en).text
        #expect(Self.lists(nadia).attention.contains("Carla C. Costa"), "another clinician's worklist too")
    }

    @Test func boardsUnusedForAWeekComeFirst() async throws {
        let test = try await TestApp()
        test.clock.advance(by: 9 * 86_400)
        let page = try test.browser(loggedInAs: "ana").get("/clinician", headers: Self.en).text
        #expect(Self.lists(page).attention == ["Carla Costa", "Davi Alves"])
        #expect(Self.reasons(of: "Carla Costa", in: page).contains("No board use for"))
        #expect(Self.reasons(of: "Davi Alves", in: page).contains("No board use for"))
        // Davi taps again: only Carla is idle, and she comes first.
        let davi = try test.id(of: "Davi Alves")
        try test.write { db in
            try db.execute(sql: "INSERT INTO tap (key, patientId, at, receivedAt) VALUES ('fresh', ?, ?, ?)",
                           arguments: [davi, test.clock.now, test.clock.now])
        }
        let later = try test.browser(loggedInAs: "ana").get("/clinician", headers: Self.en).text
        #expect(Self.lists(later).attention.first == "Carla Costa")
        #expect(!Self.reasons(of: "Davi Alves", in: later).contains("No board use"))
    }

    @Test func theSearchFiltersTheWorklistToo() async throws {
        let test = try await TestApp()
        let page = try test.browser(loggedInAs: "ana").get("/clinician?q=Davi", headers: Self.en).text
        #expect(Self.lists(page).attention == ["Davi Alves"])
        #expect(!page.contains("Carla Costa"))
        #expect(page.contains(#"value="Davi""#))
    }

    @Test func theWorklistReadsIndexesNotTheTaps() async throws {
        let test = try await TestApp()
        let ana = try test.id(of: "ana")
        let actor = try test.read { db in try Actor(user: User.fetchOne(db, key: ana)!) }
        let scope = WorklistRules.Scope(speech: true, nutrition: true)
        // The statement the dashboard runs, with every signal of both specialties.
        let signals = DashboardQueries.worklistSignals(actor, matching: "", now: (date: "2026-11-21", time: "12:00"), notesSince: Date(),
                                                       scope: scope)
        let plan = try test.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN WITH s AS (SELECT *, fulfilled + notFulfilled AS answered FROM (\(signals.sql)))
                SELECT * FROM s ORDER BY \(WorklistRules.weightSQL(scope: scope)) DESC, displayName LIMIT 100
                """, arguments: signals.arguments).map { $0["detail"] as String }
        }
        #expect(!plan.contains { $0.hasPrefix("SCAN tapDay") || $0.hasPrefix("SCAN tap ") || $0.hasPrefix("SCAN evaluation")
                                 || $0.hasPrefix("SCAN m") || $0.hasPrefix("SCAN o") || $0.hasPrefix("SCAN p") }, "\(plan)")
        #expect(plan.contains { $0.contains("tapDay") && $0.hasPrefix("SEARCH") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH o USING COVERING INDEX observation_patient_author") }, "\(plan)")
        let rows = try test.read { db in try Row.fetchAll(db, sql: "WITH s AS (\(signals.sql)) SELECT * FROM s", arguments: signals.arguments) }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { ($0["hasBoards"] as Bool) && ($0["lastBoardUse"] as String?) != nil })
    }
}

extension WorklistTests {
    @Test func aClinicianOfManyPatientsSeesTheFirstHundredOfEachListAndIsToldHowToFindTheRest() async throws {
        let test = try await TestApp()
        let ana = try test.id(of: "Ana Souza")
        try test.write { db in
            for n in 0..<150 {
                try db.execute(sql: """
                    INSERT INTO user (username, displayName, role, specialties, locale, isActive, createdAt, updatedAt)
                    VALUES (NULL, ?, 'patient', '', 'pt-BR', 1, datetime('now'), datetime('now'))
                    """, arguments: ["Paciente \(1000 + n)"])
                let id = db.lastInsertedRowID
                try db.execute(sql: "INSERT INTO patient (userId, birthDate, sex, startedOn) VALUES (?, '2018-01-01', 'female', '2026-01-01')",
                               arguments: [id])
                try db.execute(sql: "INSERT INTO clinicianPatient (clinicianId, patientId, createdAt) VALUES (?, ?, datetime('now'))",
                               arguments: [ana, id])
            }
        }
        let page = try test.browser(loggedInAs: "ana").get("/clinician", headers: Self.en).text
        let lists = Self.lists(page)
        // The 150 new patients have no boards: nothing to flag, so they are "everyone else", by name.
        #expect(lists.attention == ["Carla Costa", "Davi Alves"])
        #expect(lists.others.count == 100 && lists.others.first == "Paciente 1000" && lists.others.last == "Paciente 1099")
        #expect(page.contains("Showing 102 of 152 patients: search by name to find the others."))
        // The search still reaches everyone.
        let found = try test.browser(loggedInAs: "ana").get("/clinician?q=Paciente%201149", headers: Self.en).text
        #expect(found.contains(">Paciente 1149</a>") && !found.contains("Showing"))
    }
}

extension WorklistTests {
    /// Overdue meals are the pending ones of the last two weeks whose time has come: earlier days whole,
    /// today's only before now. Counted as two ranges of `meal_queue`, each edge is held here.
    @Test func overdueMealsCountTheWindowsEdges() async throws {
        let test = try await TestApp()
        let nadia = try test.id(of: "nadia"), elisa = try test.id(of: "elisa")
        let today = "2026-11-21", now = test.clock.now
        let actor = try test.write { db in
            try db.execute(sql: "DELETE FROM meal WHERE patientId = ?", arguments: [elisa])
            for (date, time, status) in [
                (ISODate.adding(-14, to: today), "12:00", "pending"),   // before the window
                (ISODate.adding(-13, to: today), "07:00", "pending"),   // its first day: overdue
                (ISODate.adding(-1, to: today), "23:59", "pending"),    // yesterday, late: overdue
                (ISODate.adding(-1, to: today), "08:00", "fulfilled"),  // answered
                (today, "11:59", "pending"),                            // today, before now: overdue
                (today, "12:00", "pending"),                            // now: not yet
                (today, "18:00", "pending"),                            // later today
                (ISODate.adding(1, to: today), "07:00", "pending"),     // tomorrow
            ] {
                var meal = Meal(patientId: elisa, clinicianId: nadia, type: "lunch", date: date, time: time, status: status,
                                answeredAt: status == "pending" ? nil : now, createdAt: now)
                try meal.insert(db)
            }
            return try Actor(user: User.fetchOne(db, key: nadia)!)
        }
        let data = try test.read { db in
            try DashboardQueries.clinician(actor, matching: "", now: (date: today, time: "12:00"), nowInstant: now,
                                           timeZone: test.app.configuration.timeZone, shown: 100, db)
        }
        let entry = try #require(data.nutrition.first { $0.patient.id == elisa })
        #expect(entry.adherence.overdue == 3)
        #expect(entry.adherence.pending == 5, "pending in the window: all but the one before it and tomorrow's")
        #expect(entry.adherence.fulfilled == 1 && entry.signals.overdueMeals == 3)
    }
}

extension WorklistTests {
    /// The cards of "everyone else" name the patient's tutors (read for those cards only).
    @Test func everyoneElsesCardsNameTheirTutors() async throws {
        let test = try await TestApp()
        let ana = try test.id(of: "Ana Souza"), bruno = try test.id(of: "bruno")
        try test.write { db in
            try db.execute(sql: """
                INSERT INTO user (username, displayName, role, specialties, locale, isActive, createdAt, updatedAt)
                VALUES (NULL, 'Paciente Sem Pranchas', 'patient', '', 'pt-BR', 1, datetime('now'), datetime('now'))
                """)
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO patient (userId, birthDate, sex, startedOn) VALUES (?, '2018-01-01', 'female', '2026-01-01')",
                           arguments: [id])
            try db.execute(sql: "INSERT INTO clinicianPatient (clinicianId, patientId, createdAt) VALUES (?, ?, datetime('now'))",
                           arguments: [ana, id])
            try db.execute(sql: "INSERT INTO tutorPatient (tutorId, patientId, createdAt) VALUES (?, ?, datetime('now'))",
                           arguments: [bruno, id])
        }
        let page = try test.browser(loggedInAs: "ana").get("/clinician", headers: Self.en).text
        #expect(Self.lists(page).others == ["Paciente Sem Pranchas"])
        let card = try #require(page.range(of: ">Paciente Sem Pranchas</a>")).upperBound
        let tutors = page[card...].prefix(400)
        #expect(tutors.contains("Bruno Costa"), "\(tutors)")
    }
}

extension WorklistTests {
    /// The rows of "everyone else" and of the nutrition list are kept rendered too (`ClinicianDashboard.personKey`,
    /// `nutritionKey`): whatever a row shows must change its key, or an old row would be shown.
    @Test func aWorklistRowIsKeptUnderEverythingItShows() {
        func patient(id: Int64 = 7, name: String = "Carla Costa", birthDate: String? = "2018-03-01", diagnosis: String = "TEA",
                     photoPath: String? = nil, tutors: String? = "Bruno Costa") -> People.PatientSummary {
            People.PatientSummary(id: id, displayName: name, username: "carla", birthDate: birthDate, sex: .female, diagnosis: diagnosis,
                                  photoPath: photoPath, tutorNames: tutors)
        }
        func person(_ patient: People.PatientSummary = patient(), today: String = "2026-11-21", locale: AppLocale = .ptBR) -> String {
            ClinicianDashboard.personKey(patient, today: today, locale: locale)
        }
        #expect(person(patient()) == person(), "the same row, the same key")
        let people = [
            person(today: "2026-11-22"), person(locale: .en),
            person(patient(id: 8)), person(patient(name: "Carla C. Costa")), person(patient(birthDate: "2018-03-02")),
            person(patient(birthDate: nil)), person(patient(diagnosis: "TEA nível 1")), person(patient(photoPath: "a.jpg")),
            person(patient(tutors: "Bruno Costa, Beatriz Alves")), person(patient(tutors: "Bruno C. Costa")), person(patient(tutors: nil)),
            person(patient(tutors: "")),
            // Texts with spaces moved from one field to the next.
            person(patient(name: "Carla", diagnosis: "Costa TEA")), person(patient(diagnosis: "TEA Bruno", tutors: "Costa")),
        ]
        #expect(Set(people + [person()]).count == people.count + 1, "every change gives a key of its own")

        func nutrition(_ patient: People.PatientSummary = patient(), fulfilled: Int = 3, notFulfilled: Int = 1, pending: Int = 2,
                       overdue: Int = 1, locale: AppLocale = .ptBR) -> String {
            ClinicianDashboard.nutritionKey(.init(patient: patient, signals: WorklistRules.Signals(overdueMeals: overdue),
                                                  adherence: .init(fulfilled: fulfilled, notFulfilled: notFulfilled, pending: pending,
                                                                   overdue: overdue)),
                                            locale: locale)
        }
        #expect(nutrition(patient(diagnosis: "other", tutors: nil)) == nutrition(), "what the row does not show leaves the key alone")
        let rows = [
            nutrition(locale: .en), nutrition(patient(id: 8)), nutrition(patient(name: "Carla C. Costa")),
            nutrition(fulfilled: 4), nutrition(notFulfilled: 2), nutrition(fulfilled: 0, notFulfilled: 0),
            nutrition(pending: 3), nutrition(overdue: 0), nutrition(overdue: 2),
            nutrition(fulfilled: 1, notFulfilled: 1, overdue: 0),  // adherence 50 %: needs attention without overdue meals
        ]
        #expect(Set(rows + [nutrition()]).count == rows.count + 1, "every change gives a key of its own")
    }

    /// The row of `patient` in "everyone else" (`dashboards/worklist-person`).
    static func personRow(_ patient: Int64, in page: String) -> String {
        page.components(separatedBy: #"<li class="card person">"#).dropFirst()
            .first { $0.contains(#"<h4><a href="/patients/\#(patient)">"#) }
            .map { String($0[..<($0.range(of: "</li>")?.upperBound ?? $0.endIndex)]) } ?? ""
    }

    /// A row of "everyone else" is kept rendered between loads, but a renamed patient, a tutor linked or
    /// renamed, another birth date, diagnosis or photo, a birthday and another language show on the next load.
    @Test func aKeptRowOfEveryoneElseShowsWhatChanged() async throws {
        let test = try await TestApp()
        let ana = try test.id(of: "Ana Souza"), bruno = try test.id(of: "bruno")
        // Today is 2026-11-18 in the clinic: born on the 19th, she turns 8 tomorrow.
        let patient = try test.write { db in
            try db.execute(sql: """
                INSERT INTO user (username, displayName, role, specialties, locale, isActive, createdAt, updatedAt)
                VALUES (NULL, 'Paciente Sem Pranchas', 'patient', '', 'pt-BR', 1, datetime('now'), datetime('now'))
                """)
            let id = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO patient (userId, birthDate, sex, diagnosis, startedOn) VALUES (?, '2018-11-19', 'female', 'TEA', '2026-01-01')
                """, arguments: [id])
            try db.execute(sql: "INSERT INTO clinicianPatient (clinicianId, patientId, createdAt) VALUES (?, ?, datetime('now'))",
                           arguments: [ana, id])
            return id
        }
        var browser = try test.browser(loggedInAs: "ana")
        func row(_ headers: [(String, String)] = Self.en) throws -> String {
            let page = try browser.get("/clinician", headers: headers).text
            #expect(Self.lists(page).others.count == 1)
            return Self.personRow(patient, in: page)
        }
        let first = try row()
        #expect(first.contains(">Paciente Sem Pranchas</a>") && first.contains("7 years old · TEA") && first.contains("Tutors: none"),
                "\(first)")
        let kept = test.app.caches.fragments.count
        #expect(try row() == first)
        #expect(test.app.caches.fragments.count == kept, "the same row again: nothing new rendered")

        try test.write { db in
            try db.execute(sql: "UPDATE user SET displayName = 'Paciente Renomeada' WHERE id = ?", arguments: [patient])
        }
        let renamed = try row()
        #expect(renamed.contains(">Paciente Renomeada</a>") && !renamed.contains("Sem Pranchas") && renamed.contains(">PR</span>"),
                "\(renamed)")

        try test.write { db in
            try db.execute(sql: "INSERT INTO tutorPatient (tutorId, patientId, createdAt) VALUES (?, ?, datetime('now'))",
                           arguments: [bruno, patient])
        }
        #expect(try row().contains("Tutors: Bruno Costa</p>"))
        try test.write { db in try db.execute(sql: "UPDATE user SET displayName = 'Bruno C. Costa' WHERE id = ?", arguments: [bruno]) }
        #expect(try row().contains("Tutors: Bruno C. Costa</p>"), "a tutor's rename, which the patient's own row never saw")

        try test.write { db in
            try db.execute(sql: "UPDATE patient SET birthDate = '2016-11-19', diagnosis = 'Apraxia da fala', photoPath = 'p.jpg' WHERE userId = ?",
                           arguments: [patient])
        }
        let edited = try row()
        #expect(edited.contains("9 years old · Apraxia da fala"), "\(edited)")
        #expect(edited.contains(#"<img class="avatar" src="/patients/\#(patient)/photo""#), "\(edited)")

        test.clock.advance(by: 86_400)
        browser = try test.browser(loggedInAs: "ana")  // a day idle ends a clinician's session
        #expect(try row().contains("10 years old · Apraxia da fala"), "her birthday: the same birth date, another age")

        let portuguese = try row([])
        #expect(portuguese.contains("10 anos · Apraxia da fala") && portuguese.contains("Tutores: Bruno C. Costa"), "\(portuguese)")
        let english = try row()
        #expect(english.contains("10 years old") && english.contains("Tutors: Bruno C. Costa"), "the English row is still there")
    }

    /// The nutrition list's row of `patient` (`dashboards/worklist-nutrition-row`).
    static func nutritionRow(_ patient: Int64, in page: String) -> String {
        guard let link = page.range(of: #"<a href="/patients/\#(patient)/nutrition">"#),
              let start = page.range(of: "<li ", options: .backwards, range: page.startIndex..<link.lowerBound),
              let end = page.range(of: "</li>", range: link.upperBound..<page.endIndex) else { return "" }
        return String(page[start.lowerBound..<end.upperBound])
    }

    /// A row of the nutrition list is kept rendered between loads, but a renamed patient, answered meals and
    /// another language show on the next load.
    @Test func aKeptNutritionRowShowsWhatChanged() async throws {
        let test = try await TestApp()
        let elisa = try test.id(of: "elisa")
        let browser = try test.browser(loggedInAs: "nadia")
        func row(_ headers: [(String, String)] = Self.en) throws -> String {
            Self.nutritionRow(elisa, in: try browser.get("/clinician", headers: headers).text)
        }
        let first = try row()
        #expect(first.hasPrefix(#"<li class="reminder reminder-overdue">"#) && first.contains(">Elisa Martins</a>"), "\(first)")
        #expect(!first.contains("· 0 overdue"), "the demo's Elisa has overdue meals: \(first)")
        let kept = test.app.caches.fragments.count
        #expect(try row() == first)
        #expect(test.app.caches.fragments.count == kept, "the same row again: nothing new rendered")

        try test.write { db in try db.execute(sql: "UPDATE user SET displayName = 'Elisa M. Martins' WHERE id = ?", arguments: [elisa]) }
        let renamed = try row()
        #expect(renamed.contains(">Elisa M. Martins</a>") && renamed.replacingOccurrences(of: "Elisa M. Martins", with: "Elisa Martins") == first,
                "\(renamed)")

        // Every meal up to today answered as followed: nothing overdue or unanswered, a higher rate, no attention.
        let today = ISODate.string(test.clock.now, timeZone: test.app.configuration.timeZone)
        try test.write { db in
            try db.execute(sql: "UPDATE meal SET status = 'fulfilled', answeredAt = ? WHERE patientId = ? AND status = 'pending' AND date <= ?",
                           arguments: [test.clock.now, elisa, today])
        }
        let answered = try row()
        #expect(answered.hasPrefix(#"<li class="">"#) && answered.contains("· 0 overdue · 0 unanswered</span>"), "\(answered)")
        #expect(answered.contains("adherence ") && !answered.contains("adherence —"), "\(answered)")
        let rate = { (row: String) in row.firstMatch(of: /adherence (\d+) %/).map { Int($0.1)! } }
        #expect(try #require(rate(answered)) > (try #require(rate(first))), "\(first) → \(answered)")

        let portuguese = try row([])
        #expect(portuguese.contains(">Elisa M. Martins</a>") && portuguese.contains("· 0 atrasadas · 0 sem resposta</span>"), "\(portuguese)")
        #expect(try row() == answered, "the English row is still right after the Portuguese one")
    }
}
