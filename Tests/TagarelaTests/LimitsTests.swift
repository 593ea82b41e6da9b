import Foundation
import GRDB
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Time limits on external tools and length limits on typed text; see docs/decisions/0017-limits-before-work.md, "Limits before work".
@Suite struct ProcessRunnerTests {
    let directory = NSTemporaryDirectory() + "process-runner-tests-" + UUID().uuidString

    init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    /// Gone, or a zombie waiting for whoever adopted it: either way no longer running.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test func aToolPastItsTimeLimitIsKilledWithItsChildrenAndLeavesNoFile() throws {
        defer { cleanUp() }
        let partial = directory + "/partial.mp3", childFile = directory + "/child.pid"
        let started = ContinuousClock.now
        // A shell that writes half a file, starts a child of its own, and waits for it: a stuck converter.
        #expect(throws: ProcessRunner.Failure.timedOut(tool: "sh", after: .milliseconds(500))) {
            try ProcessRunner.run("/bin/sh", ["-c", "echo partial > \(partial); sleep 30 & echo $! > \(childFile); wait"],
                                  timeLimit: .milliseconds(500), outputs: [partial])
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(!FileManager.default.fileExists(atPath: partial))
        let child = try #require(Int32(try String(contentsOfFile: childFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var running = Self.isRunning(child)
        for _ in 0..<20 where running {
            Thread.sleep(forTimeInterval: 0.05)
            running = Self.isRunning(child)
        }
        #expect(!running, "the sleeping child went with its parent's group")
    }

    @Test func aSleepingToolIsStoppedAtItsLimit() {
        let started = ContinuousClock.now
        #expect(throws: ProcessRunner.Failure.timedOut(tool: "sleep", after: .milliseconds(300))) {
            try ProcessRunner.run("/bin/sleep", ["30"], timeLimit: .milliseconds(300))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(2))
        #expect(ProcessRunner.Failure.timedOut(tool: "ffmpeg", after: .seconds(20)).description
                == "ffmpeg took longer than 20.0 seconds and was stopped")
    }

    @Test func aFailedToolLeavesNoFileAndSaysHowItEnded() {
        defer { cleanUp() }
        let output = directory + "/out.wav"
        #expect(throws: ProcessRunner.Failure.exited(tool: "sh", status: 3)) {
            try ProcessRunner.run("/bin/sh", ["-c", "echo half > \(output); exit 3"], timeLimit: .seconds(5), outputs: [output])
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(throws: ProcessRunner.Failure.couldNotStart(tool: "espeak-ng-missing")) {
            try ProcessRunner.run("/nonexistent/espeak-ng-missing", [], timeLimit: .seconds(5))
        }
    }

    @Test func whatAToolWritesIsReturnedEvenWhenItIsLarge() throws {
        let small = try ProcessRunner.run("/bin/echo", ["olá"], timeLimit: .seconds(5))
        #expect(String(decoding: small, as: UTF8.self) == "olá\n")
        // More than a pipe holds (64 KiB): read while the tool runs, or it would block forever.
        let large = try ProcessRunner.run("/bin/sh", ["-c", "head -c 1000000 /dev/zero"], timeLimit: .seconds(5))
        #expect(large.count == 1_000_000)
    }

    @Test func speechStillWorksThroughTheRunner() throws {
        defer { cleanUp() }
        let speech = SpeechAudio(directory: directory)
        let clip = try speech.clip(text: "limite", voice: "pt-br")
        #expect(SpeechAudio.duration(ofFileAt: directory + "/" + clip).map { $0 > 0 } == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") }.isEmpty,
                "no temporary file left")
    }
}

@Suite struct TextLimitTests {
    static let megabyte = String(repeating: "a", count: 1_000_000)

    func translator(_ test: TestApp, _ locale: AppLocale = .ptBR) -> FormLanguage {
        FormLanguage(t: test.app.catalogues.translator(for: locale),
                     format: LocalizedFormat(locale: locale, timeZone: test.app.configuration.timeZone))
    }

    @Test func aFieldIsCutToItsLimitWithAMessageNamingItInTheUsersLanguage() async throws {
        let test = try await TestApp(seedDemo: false)
        let form = HTTPServer.Parameters([("name", Self.megabyte), ("body", "curto"), ("colour", "red")])
        for (locale, message) in [(AppLocale.ptBR, "Nome aceita no máximo 120 caracteres e você digitou 1.000.000"),
                                  (.en, "Name takes at most 120 characters and you typed 1,000,000"),
                                  (.es, "Nombre admite como máximo 120 caracteres y ha escrito 1.000.000"),
                                  (.ca, "Nom admet com a màxim 120 caràcters i n'heu escrit 1.000.000")] {
            let state = FormLanguage.$current.withValue(translator(test, locale)) {
                FormState(form, fields: ["name", "body", "colour"])
            }
            #expect(state["name"] == String(repeating: "a", count: 120))
            #expect(state.errors["name"]?.hasPrefix(message) == true, "\(locale): \(state.errors["name"] ?? "")")
            #expect(state["body"] == "curto" && state.errors.count == 1)
        }
    }

    @Test func limitsCountCharactersNotBytesAndTakeOverrides() async throws {
        let test = try await TestApp(seedDemo: false)
        let language = translator(test)
        let accented = String(repeating: "ção", count: 40)  // 120 characters, 200 bytes
        let emoji = String(repeating: "👩‍👧", count: 121)  // 121 characters of 18 bytes each
        let state = FormLanguage.$current.withValue(language) {
            FormState(HTTPServer.Parameters([("name", accented), ("displayName", emoji), ("kg", "70,5"), ("other", "x")]),
                      fields: ["name", "displayName", "kg", "other"], limits: ["other": TextLimit(characters: 0, label: "field_weight")])
        }
        #expect(state.errors["name"] == nil && state["name"] == accented)
        #expect(state["displayName"].count == 120 && state.errors["displayName"] != nil)
        #expect(state.errors["kg"] == nil)
        #expect(state.errors["other"]?.hasPrefix("Peso aceita no máximo 0 caracteres") == true)
        #expect(TextLimit.of("body").characters == 5_000 && TextLimit.of("name").characters == 120)
        #expect(TextLimit.of("somethingNew") == TextLimit(characters: 200, label: "limits_field_this"))
    }

    @Test func everyLimitNamesAFieldInEveryLanguage() async throws {
        let test = try await TestApp(seedDemo: false)
        for locale in AppLocale.allCases {
            let t = test.app.catalogues.translator(for: locale)
            for limit in TextLimit.byField.values + [TextLimit.of("unknown")] {
                #expect(!t[limit.label].hasPrefix("⟦"), "\(locale): \(limit.label)")
            }
        }
    }

    // MARK: - A megabyte typed into real forms

    @Test func aMegabyteObservationIsRefusedNamedAndKeptCut() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        let carla = try test.id(of: "Carla Costa")
        try ana.get("/patients/\(carla)/observations")
        let count = try test.read { try Observation.fetchCount($0) }
        let refused = try ana.post("/patients/\(carla)/observations", [("observedOn", "2026-11-01"), ("body", Self.megabyte)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Observação aceita no máximo 5.000 caracteres e você digitou 1.000.000"))
        #expect(refused.text.contains(">" + String(repeating: "a", count: 5_000) + "</textarea>"))
        #expect(refused.body.count < 100_000, "the megabyte is not sent back")
        #expect(try test.read { try Observation.fetchCount($0) } == count)
    }

    @Test func aMegabyteNameOnThePatientFoodAndPlanFormsIsRefusedNamed() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        try ana.get("/patients/new")
        let before = try test.snapshot()
        let patient = try ana.post("/patients", [("displayName", Self.megabyte), ("sex", "female"), ("notes", "Gosta de música")])
        #expect(patient.status == 422)
        #expect(patient.text.contains("Nome aceita no máximo 120 caracteres"))
        #expect(patient.text.contains("Gosta de música"))
        #expect(try test.snapshot() == before)

        let carla = try test.id(of: "Carla Costa")
        try ana.get("/patients/\(carla)/plans/new")
        let plans = try test.read { try Plan.fetchCount($0) }
        let plan = try ana.post("/patients/\(carla)/plans", [("name", "Rotina"), ("description", Self.megabyte), ("type", "board"),
                                                             ("rows", "3"), ("columns", "3"), ("startsOn", "2026-11-01")])
        #expect(plan.status == 422)
        #expect(plan.text.contains("Descrição aceita no máximo 5.000 caracteres"), "shown next to the description")
        #expect(plan.text.contains(#"value="Rotina""#))
        #expect(try test.read { try Plan.fetchCount($0) } == plans)

        let nadia = try test.browser(loggedInAs: "nadia")
        try nadia.get("/foods")
        let foods = try test.read { try Food.fetchCount($0) }
        let food = try nadia.post("/foods", [("name", Self.megabyte), ("unit", "portion"), ("gramsPerUnit", "100"), ("kcal", "120")])
        #expect(food.status == 422)
        #expect(food.text.contains("Nome aceita no máximo 120 caracteres"))
        #expect(try test.read { try Food.fetchCount($0) } == foods)
    }

    @Test func aMegabyteInAMultipartSymbolFormOrACategoryIsRefused() async throws {
        let test = try await TestApp()
        let ana = try test.browser(loggedInAs: "ana")
        try ana.get("/symbols/new")
        let symbols = try test.read { try Symbol.fetchCount($0) }
        let symbol = try ana.postMultipart("/symbols", fields: [("name", "Bolo"), ("spokenText", Self.megabyte), ("pictogram", "1F382")],
                                           files: [])
        #expect(symbol.status == 422)
        #expect(symbol.text.contains("aceita no máximo 120 caracteres"))
        #expect(symbol.text.contains(#"value="Bolo""#))
        #expect(try test.read { try Symbol.fetchCount($0) } == symbols)

        let categories = try test.read { try Category.fetchCount($0) }
        let category = try ana.post("/categories", [("name", Self.megabyte), ("colour", "red")])
        #expect(category.status == 303)
        #expect(try ana.get("/symbols").text.contains("O nome de uma categoria aceita no máximo 120 caracteres"))
        #expect(try test.read { try Category.fetchCount($0) } == categories)
    }

    @Test func aMegabyteUsernameOrPasswordAtLoginIsAnsweredNotA500() async throws {
        let test = try await TestApp()
        let browser = try test.browser()
        try browser.get("/login")
        let refused = try browser.post("/login", [("username", Self.megabyte), ("password", "x")])
        #expect(refused.status == 422)
        let wrong = try browser.post("/login", [("username", "ana"), ("password", Self.megabyte)])
        #expect(wrong.status == 422)
        #expect(try browser.logIn("ana", DemoClinic.password).status == 303)
    }
}
