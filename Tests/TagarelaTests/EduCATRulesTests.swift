import Foundation
@testable import Tagarela
import Testing

/// eduCAT's pure rules: the challenge, the record, result validation, the content packs.
@Suite struct EduCATRulesTests {
    let standard = EduCATSettings.standard

    @Test func aChallengeCountsHitsLosesALifePerMissOrTimeoutAndEndsAtNoLives() {
        var game = EduCATChallenge(settings: standard, record: 0)
        #expect(game.phase == .waiting && game.lives == 3 && game.secondsLeft == 9 && game.record == 0)
        game.answer(.hit)
        #expect(game.hits == 0, "nothing counts before Pregunta")
        game.start()
        game.answer(.hit)
        game.answer(.hit)
        #expect(game.hits == 2 && game.lives == 3 && game.phase == .asking)
        game.answer(.miss)
        #expect(game.lives == 2 && game.errors == 1)
        for _ in 1...8 { game.tick() }
        #expect(game.secondsLeft == 1 && game.lives == 2)
        game.tick()
        #expect(game.lives == 1 && game.errors == 2, "a timeout costs a life")
        #expect(game.secondsLeft == 9, "the countdown starts again for the next question")
        #expect(game.phase == .asking)
        game.answer(.miss)
        #expect(game.phase == .over && game.lives == 0 && game.hits == 2 && game.errors == 3)
        game.answer(.hit)
        game.tick()
        #expect(game.hits == 2 && game.lives == 0, "an ended game does not change")
    }

    @Test func theRecordIsBeatenOnlyByStrictlyMoreHitsAndShowsAtOnce() {
        #expect(!EduCATRecords.beats(2, 2))
        #expect(EduCATRecords.beats(3, 2))
        #expect(EduCATRecords.beats(1, 0))
        #expect(!EduCATRecords.beats(0, 0))
        var game = EduCATChallenge(settings: standard, record: 2)
        game.start()
        game.answer(.hit)
        game.answer(.hit)
        #expect(game.record == 2 && !game.isNewRecord, "a tie is not a record")
        game.answer(.hit)
        #expect(game.record == 3 && game.isNewRecord, "the record updates as soon as it is beaten")
        for _ in 1...3 { game.answer(.miss) }
        game.start()
        #expect(game.hits == 0 && game.lives == 3 && game.record == 3, "a new game starts from zero against the new record")
    }

    @Test func settingsChangeSecondsAndLives() {
        var game = EduCATChallenge(settings: EduCATSettings(secondsPerQuestion: 3, lives: 1, language: nil), record: 0)
        game.start()
        #expect(game.secondsLeft == 3)
        game.tick(); game.tick(); game.tick()
        #expect(game.phase == .over && game.errors == 1)
    }

    func fields(_ pairs: [String: String]) -> [String: String] {
        ["area": "numbers", "mode": "challenge", "hits": "2", "errors": "3", "duration": "40", "lives": "3",
         "livesLeft": "0", "seconds": "9"].merging(pairs) { $1 }
    }

    @Test func possibleResultsAreAccepted() throws {
        let finished = try EduCATResult.parse(fields([:])).get()
        #expect(finished == EduCATResult(area: .numbers, mode: .challenge, hits: 2, errors: 3, durationSeconds: 40,
                                         livesAtStart: 3, livesLeft: 0, secondsPerQuestion: 9))
        let abandoned = try EduCATResult.parse(fields(["errors": "1", "livesLeft": "2", "area": "conta-cops"])).get()
        #expect(abandoned.livesLeft == 2 && abandoned.area == .contaCops)
        let normal = try EduCATResult.parse(["area": "alphabet", "mode": "normal", "hits": "7", "errors": "0", "duration": "95"]).get()
        #expect(normal.livesAtStart == nil && normal.hits == 7)
    }

    @Test(arguments: [
        ["area": "colours"], ["mode": "hard"], ["hits": "-1"], ["hits": "two"], ["hits": ""], ["hits": "1e3"],
        ["hits": "２"], ["duration": "-5"], ["duration": "90000"], ["hits": "10001"],
        ["hits": "0", "errors": "0", "livesLeft": "3"],  // nothing answered
        ["lives": "0", "livesLeft": "0", "errors": "0"], ["lives": "10", "livesLeft": "7"], ["livesLeft": "4"],
        ["errors": "2"],  // 3 lives, 0 left, but only 2 errors
        ["seconds": "2"], ["seconds": "61"], ["seconds": ""],
    ])
    func impossibleResultsAreRefused(_ change: [String: String]) {
        #expect((try? EduCATResult.parse(fields(change)).get()) == nil)
    }

    @Test func randomChoiceCoversEveryItem() {
        var generator = SystemRandomNumberGenerator()
        for count in [5, 10, 26] {
            var seen = Set<Int>()
            for _ in 0..<(count * 40) { seen.insert(EduCATRandom.index(below: count, using: &generator)) }
            #expect(seen == Set(0..<count))
        }
    }

    static let content = try! EduCATContent.load(from: TestApp.repositoryRoot + "/Data/educat")
    static let pictograms = Set(try! PictogramLibrary.load(from: TestApp.repositoryRoot + "/Data/pictograms.json").entries.map(\.hexcode))

    @Test(arguments: EduCATContent.languages)
    func everyPackIsCompleteWithSoundSyllables(_ language: String) throws {
        let pack = Self.content.pack(language)
        #expect(pack.language == language)
        #expect(pack.problems(pictograms: Self.pictograms) == [])
        #expect(pack.words.count >= (language == "ca" ? 30 : 20))
        #expect(Set(pack.words.map(\.syllableCount)) == Set(1...5), "words of every length from 1 to 5 syllables")
        #expect(pack.vowelItems.map(\.symbol) == ["a", "e", "i", "o", "u"])
    }

    @Test func theCatalanWordsAreSplitAsTheSeedSays() throws {
        let words = Dictionary(uniqueKeysWithValues: Self.content.pack("ca").words.map { ($0.word, $0) })
        #expect(words["casa"]?.syllableCount == 2 && words["casa"]?.syllablesText == "CA - SA")
        #expect(words["cadira"]?.syllableCount == 3 && words["cadira"]?.syllablesText == "CA - DI - RA")
        #expect(words["ordinador"]?.syllableCount == 4 && words["ordinador"]?.syllablesText == "OR - DI - NA - DOR")
        // The whole list, syllable by syllable: a change here is a change of the content.
        let expected: [String: Int] = [
            "sol": 1, "pa": 1, "peu": 1, "gos": 1, "gat": 1, "tren": 1, "flor": 1, "mà": 1, "poma": 2, "pera": 2, "vaca": 2,
            "lluna": 2, "llibre": 2, "cotxe": 2, "porta": 2, "cargol": 2, "llapis": 2, "casa": 2, "cadira": 3, "pilota": 3,
            "finestra": 3, "tortuga": 3, "girafa": 3, "maduixa": 3, "tomàquet": 3, "granota": 3, "elefant": 3,
            "ordinador": 4, "papallona": 4, "bicicleta": 4, "pastanaga": 4, "dinosaure": 4, "xocolata": 4,
            "helicòpter": 4, "ambulància": 5, "albergínia": 5,
        ]
        #expect(words.mapValues(\.syllableCount) == expected)
    }

    @Test func aBadPackIsReported() throws {
        let json = """
            {"language":"xx","voice":"ca","labels":{},"numbers":[],"alphabet":[],"vowels":[],"congratulations":["a"],
             "scoldings":[],"help":{},"information":"i","words":[{"word":"casa","syllables":["ca","se"],"pictogram":"1F3E0"},
             {"word":"x","syllables":[],"pictogram":"ZZZ"}]}
            """
        let pack = try JSONDecoder().decode(EduCATPack.self, from: Data(json.utf8))
        let problems = pack.problems(pictograms: Self.pictograms)
        #expect(problems.contains("xx: [\"ca\", \"se\"] do not spell casa"))
        #expect(problems.contains("xx: x has 0 syllables"))
        #expect(problems.contains("xx: x's pictogram ZZZ is not installed"))
        #expect(problems.contains("xx: fewer than 8 congratulations"))
    }

    @Test func thePatientsPackFollowsTheirLanguageAndIsCatalanOtherwise() {
        #expect(Self.content.pack("es").language == "es")
        #expect(Self.content.pack("pt-BR").language == "pt-BR")
        #expect(Self.content.pack("en").language == "ca")
        #expect(Self.content.pack(nil).language == "ca")
    }
}
