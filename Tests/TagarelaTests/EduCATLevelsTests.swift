import Foundation
@testable import Tagarela
import Testing

/// The pure rules of eduCAT's levels, automatic promotion, plausibility, mix-ups and the pack's language.
@Suite struct EduCATLevelsTests {
    static let content = try! EduCATContent.load(from: TestApp.repositoryRoot + "/Data/educat")
    var ca: EduCATPack { Self.content.pack("ca") }
    var es: EduCATPack { Self.content.pack("es") }

    // MARK: Levels

    @Test func levelsChangeTheSetAsked() {
        let numbers = EduCATLevel.levels(.numbers)
        #expect(numbers.map(\.key) == ["digits-0-5", "digits-0-9", "quantities"])
        #expect(numbers[0].items(ca).map(\.symbol) == ["0", "1", "2", "3", "4", "5"])
        #expect(numbers[1].items(ca).count == 10 && numbers[2].items(ca).count == 10)
        let alphabet = EduCATLevel.levels(.alphabet)
        #expect(alphabet[0].items(ca).map(\.symbol) == ["a", "e", "i", "o", "u"], "vowels first")
        #expect(alphabet[1].items(ca).count == 26, "capitals: a–z only")
        let lower = alphabet[2].items(ca).map(\.symbol)
        for letter in ["ç", "l·l", "ny", "à", "é", "í", "ò", "ó", "ú", "ï", "ü"] { #expect(lower.contains(letter), "Catalan lower case teaches \(letter)") }
        #expect(alphabet[2].items(es).count == 26, "Spanish has no extra letters in its pack")
        #expect(EduCATLevel.levels(.vowels).allSatisfy { $0.items(ca).count == 5 })
    }

    @Test func contaCopsLevelsAskWordsBySyllables() {
        let levels = EduCATLevel.levels(.contaCops)
        #expect(levels[0].words(ca.words).allSatisfy { $0.syllableCount <= 2 } && !levels[0].words(ca.words).isEmpty)
        #expect(levels[1].words(ca.words).allSatisfy { $0.syllableCount == 3 })
        #expect(levels[2].words(ca.words).allSatisfy { $0.syllableCount >= 4 })
        #expect(levels[3].words(ca.words).count == ca.words.count)
        let short = ca.words.filter { $0.syllableCount <= 2 }
        #expect(levels[2].words(short).count == short.count, "a set without long words asks every word, never nothing")
    }

    @Test func aStoredLevelIsClampedAndTheLastHasNoNext() {
        #expect(EduCATLevel.of(.numbers, number: 9).key == "quantities")
        #expect(EduCATLevel.of(.numbers, number: 0).number == 1)
        #expect(EduCATLevel.of(.numbers, number: 1).next?.key == "digits-0-9")
        #expect(EduCATLevel.of(.numbers, number: 3).next == nil)
    }

    // MARK: Automatic promotion

    @Test func aStreakPassesOnlyWithTheLastNRight() {
        let rule = EduCATPromotion.streak(3)
        #expect(!rule.passes([true, true]))
        #expect(rule.passes([false, true, true, true]))
        #expect(!rule.passes([true, true, true, false]), "the last answer broke the streak")
        #expect(!EduCATPromotion.never.passes(Array(repeating: true, count: 50)))
    }

    @Test func accuracyIsTakenOverTheLastTenAnswers() {
        let rule = EduCATPromotion.accuracy(80)
        #expect(!rule.passes(Array(repeating: true, count: 9)), "two lucky taps do not pass a level")
        #expect(rule.passes([true, true, true, true, false, true, true, false, true, true]))
        #expect(!rule.passes([true, true, true, false, false, true, true, false, true, true]), "70 %")
        #expect(rule.passes(Array(repeating: false, count: 20) + Array(repeating: true, count: 10)), "old misses are forgotten")
    }

    @Test func promotionRulesAreReadWithinTheirRanges() {
        #expect(EduCATPromotion(kind: "streak", value: 5) == .streak(5))
        #expect(EduCATPromotion(kind: "streak", value: 1) == nil)
        #expect(EduCATPromotion(kind: "accuracy", value: 101) == nil)
        #expect(EduCATPromotion(kind: "accuracy", value: nil) == nil)
        #expect(EduCATPromotion(kind: "never", value: nil) == .never)
        #expect(EduCATPromotion(kind: "sometimes", value: 3) == nil)
    }

    // MARK: Plausibility

    func result(_ mode: EduCATMode = .challenge, hits: Int, errors: Int = 3, duration: Int, livesLeft: Int = 0,
                area: EduCATArea = .numbers) -> EduCATResult {
        var fields = ["area": area.rawValue, "mode": mode.rawValue, "hits": "\(hits)", "errors": "\(errors)", "duration": "\(duration)"]
        if mode == .challenge { fields.merge(["lives": "\(errors + livesLeft)", "livesLeft": "\(livesLeft)", "seconds": "9"]) { $1 } }
        guard case .success(let result) = EduCATResult.parse(fields) else { fatalError("test result is malformed: \(fields)") }
        return result
    }

    @Test func hitsMustFitTheGamesDuration() {
        #expect(EduCATPlausibility.check(result(hits: 10, duration: 30), level: 1) == nil)
        #expect(EduCATPlausibility.check(result(hits: 200, duration: 30), level: 1) == .tooFast, "200 hits in 30 s")
        #expect(EduCATPlausibility.check(result(hits: 20, duration: 5), level: 1) == .tooFast, "a challenge pauses after each answer")
        #expect(EduCATPlausibility.check(result(.normal, hits: 40, errors: 10, duration: 30), level: 2) == nil)
        #expect(EduCATPlausibility.check(result(.normal, hits: 0, errors: 900, duration: 30), level: nil) == .tooFast)
        #expect(EduCATPlausibility.check(result(hits: 1, duration: 2), level: 1) == nil, "a quick loss in the first seconds is possible")
        #expect(EduCATPlausibility.check(result(hits: 1, duration: 0), level: 1) == .tooFast, "four answers with a pause after each")
    }

    @Test func theLevelMustBeOneTheAreaHas() {
        #expect(EduCATPlausibility.check(result(hits: 2, duration: 30), level: 4) == .level, "numbers have 3 levels")
        #expect(EduCATPlausibility.check(result(hits: 2, duration: 30, area: .alphabet), level: 4) == nil)
        #expect(EduCATPlausibility.check(result(hits: 2, duration: 30), level: 0) == .level)
    }

    @Test func onlyAChallengePlayedToItsEndSetsARecord() {
        #expect(EduCATPlausibility.maySetRecord(result(hits: 5, duration: 60)))
        #expect(!EduCATPlausibility.maySetRecord(result(hits: 5, errors: 1, duration: 60, livesLeft: 2)), "left half-way")
        #expect(!EduCATPlausibility.maySetRecord(result(.normal, hits: 50, errors: 0, duration: 60)))
    }

    // MARK: Answers

    @Test func aBatchIsReadOnlyWhenEveryAnswerIsWellFormed() {
        let good = #"[{"seq":1,"item":"b","tapped":"d","outcome":"miss","ms":1500},{"seq":2,"item":"b","tapped":null,"outcome":"timeout","ms":9000}]"#
        let fields = ["key": "0f4c2a9e-1d2b-4c3d-9e8f-123456789abc", "area": "alphabet", "mode": "challenge", "level": "2", "answers": good]
        let batch = EduCATAnswer.parseBatch(fields)
        #expect(batch?.answers == [EduCATAnswer(sequence: 1, asked: "b", tapped: "d", milliseconds: 1500),
                                   EduCATAnswer(sequence: 2, asked: "b", tapped: nil, milliseconds: 9000)])
        for (field, value) in [("key", "short"), ("key", "<script>alert(1)</script>"), ("level", "5"), ("area", "music"),
                               ("answers", "[]"), ("answers", "not json"),
                               ("answers", #"[{"seq":1,"item":"b","tapped":"d","outcome":"hit","ms":-5}]"#),
                               ("answers", #"[{"seq":1,"item":"b","tapped":null,"outcome":"miss","ms":5}]"#),
                               ("answers", #"[{"seq":1,"item":"b","tapped":"d","outcome":"maybe","ms":5}]"#)] {
            var bad = fields
            bad[field] = value
            #expect(EduCATAnswer.parseBatch(bad) == nil, "\(field) = \(value)")
        }
    }

    // MARK: What the answers say

    func answer(_ asked: String, _ tapped: String?, area: EduCATArea = .alphabet, expected: String? = nil) -> EduCATInsights.Answer {
        let expected = expected ?? asked
        return EduCATInsights.Answer(area: area, asked: asked, expected: expected, tapped: tapped, correct: tapped == expected)
    }

    @Test func aRepeatedMixUpEitherWayIsAConfusion() {
        let answers = [answer("b", "d"), answer("d", "b"), answer("d", "b"), answer("p", "q"), answer("b", "b"), answer("m", nil)]
        #expect(EduCATInsights.confusions(answers) == [EduCATInsights.Confusion(first: "b", second: "d", times: 3)],
                "p/q once is chance; a timeout names no second letter")
        #expect(EduCATInsights.confusions([answer("6", "9"), answer("9", "6")]).first?.first == "6")
    }

    @Test func missedWordLengthsNeedEnoughWords() {
        let four = (0..<4).map { answer("mariposa", $0 == 0 ? "4" : "3", area: .contaCops, expected: "4") }
        let two = (0..<5).map { _ in answer("casa", "2", area: .contaCops, expected: "2") }
        #expect(EduCATInsights.missedSyllableCounts(four + two) == [4])
        #expect(EduCATInsights.missedSyllableCounts(Array(four.prefix(2))) == [], "two words are too few to say")
    }

    @Test func daysGiveShareRightAndMedianTime() {
        let days = EduCATInsights.days([("2026-11-20", true, 1000), ("2026-11-20", false, 3000), ("2026-11-20", true, 2000),
                                        ("2026-11-21", true, 1500), ("2026-11-21", true, 2500)])
        #expect(days == [EduCATInsights.Day(day: "2026-11-20", percentCorrect: 67, medianSeconds: 2),
                         EduCATInsights.Day(day: "2026-11-21", percentCorrect: 100, medianSeconds: 2)])
    }

    // MARK: Language and content

    @Test func thePackFollowsThePatientThenATutorThenTheInterface() {
        #expect(EduCATLanguage.pack(chosen: "ca", patient: "es", tutors: [], interface: "pt-BR") == "ca")
        #expect(EduCATLanguage.pack(chosen: nil, patient: "es", tutors: ["ca"], interface: "pt-BR") == "es")
        #expect(EduCATLanguage.pack(chosen: nil, patient: nil, tutors: [nil, "es"], interface: "ca") == "es")
        #expect(EduCATLanguage.pack(chosen: nil, patient: "en", tutors: [], interface: "pt-BR") == "pt-BR", "English has no pack")
        #expect(EduCATLanguage.pack(chosen: nil, patient: nil, tutors: [], interface: "en") == "pt-BR", "Catalan is never a guess")
        #expect(EduCATLanguage.pack(chosen: nil, patient: nil, tutors: [], interface: "ca") == "ca")
    }

    @Test func addedWordsAndLettersJoinThePack() {
        let added = [
            EduCATStore.AddedItem(id: 1, area: "conta-cops", text: "gronxador", spoken: "gronxador", syllables: "gron-xa-dor",
                                  pictogram: "1F3E0", clip: "x.mp3", language: "ca"),
            EduCATStore.AddedItem(id: 2, area: "conta-cops", text: "casa", spoken: "casa", syllables: "c-asa", pictogram: "1F3E0",
                                  clip: "y.mp3", language: "ca"),
            EduCATStore.AddedItem(id: 3, area: "alphabet", text: "ll", spoken: "ela doble", syllables: nil, pictogram: nil,
                                  clip: "z.mp3", language: "ca"),
        ]
        let pack = ca.adding(added, patientId: 7)
        #expect(pack.words.count == ca.words.count + 1, "a word the pack has is replaced by the teacher's, once")
        #expect(pack.words.filter { $0.word == "casa" }.map(\.clip) == ["y.mp3"], "the teacher confirmed her own casa")
        let gronxador = pack.words.first { $0.word == "gronxador" }
        #expect(gronxador?.syllableCount == 3 && gronxador?.picture == nil)
        #expect(EduCATLevel.of(.alphabet, number: 3).items(pack).last == EduCATPack.Item(symbol: "ll", spoken: "ela doble", clip: "z.mp3"),
                "an added letter says its own clip (perhaps recorded)")
        #expect(gronxador?.clip == "x.mp3")
        var own = added[0]
        own.picture = "educat/9f1c0d0e-7a51-4a57-9d39-1c2b0c3c2a10.png"
        #expect(ca.adding([own], patientId: 7).words.last?.picture == "/patients/7/educat/items/1/picture",
                "her own picture is served through the patient's route, never by its file name")
        #expect(MediaStore.isEduCATPicture(own.picture!) && !MediaStore.isEduCATPicture("images/x.png")
                && !MediaStore.isEduCATPicture("educat/../../etc/passwd.png"))
        #expect(!EduCATLevel.of(.alphabet, number: 2).items(pack).contains { $0.symbol == "ll" }, "capitals are a–z")
        #expect(EduCATItemForm.syllables("ca-sa", spell: "casa") == ["ca", "sa"])
        #expect(EduCATItemForm.syllables("ca-s", spell: "casa") == nil)
        #expect(EduCATItemForm.syllables("a-b-c-d-e-f", spell: "abcdef") == nil, "at most 5 syllables")
    }
}
