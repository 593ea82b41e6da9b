import Foundation
@testable import Tagarela
import Testing

@Suite struct LocalizationTests {
    static let templates = TestApp.repositoryRoot + "/Templates"

    @Test func everyCatalogueHasTheSameKeys() throws {
        let catalogues = try Catalogues(directory: Self.templates + "/i18n")
        let reference = catalogues.keys(of: .ptBR)
        for locale in AppLocale.allCases {
            let keys = catalogues.keys(of: locale)
            #expect(keys == reference, "\(locale.rawValue): missing \(reference.subtracting(keys).sorted()), extra \(keys.subtracting(reference).sorted())")
        }
    }

    @Test func aFeatureFolderAddsItsTextsAndMayNotRedefineAKey() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("games"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for locale in AppLocale.allCases {
            try Data(#"{"hello": "olá"}"#.utf8).write(to: root.appendingPathComponent("\(locale.rawValue).json"))
        }
        try Data(#"{"game_title": "Jogos"}"#.utf8).write(to: root.appendingPathComponent("games/pt-BR.json"))
        let catalogues = try Catalogues(directory: root.path)
        #expect(catalogues.translator(for: .ptBR)["game_title"] == "Jogos")
        #expect(catalogues.translator(for: .ptBR)["hello"] == "olá")

        try Data(#"{"hello": "oi"}"#.utf8).write(to: root.appendingPathComponent("games/es.json"))
        #expect(throws: Catalogues.DuplicateKey.self) { try Catalogues(directory: root.path) }
    }

    @Test func everyTextATemplateNamesIsInTheCatalogues() throws {
        let catalogues = try Catalogues(directory: Self.templates + "/i18n")
        let keys = catalogues.keys(of: .ptBR)
        let files = FileManager.default.enumerator(atPath: Self.templates)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".mustache") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: Self.templates + "/" + file, encoding: .utf8)
            for match in text.matches(of: /\{\{[#^\/]?t\.([a-z0-9_]+)\}\}/) {
                #expect(keys.contains(String(match.1)), "\(file) names t.\(match.1)")
            }
        }
    }

    @Test func placeholdersAreFilledOnceAndTheRestKeptAsWritten() {
        let t = Translator(locale: .ptBR, texts: [
            "greeting": "Olá, {name}! Você tem {count} refeições — ótimo 👍🏽",
            "odd": "{ {name} {missing} {unclosed",
            "combining": "e\u{301}{name}e\u{301}",
        ])
        #expect(t("greeting", ["name": "Zoë", "count": "3"]) == "Olá, Zoë! Você tem 3 refeições — ótimo 👍🏽")
        // A value that itself looks like a placeholder is written as it is.
        #expect(t("greeting", ["name": "{count}", "count": "2"]) == "Olá, {count}! Você tem 2 refeições — ótimo 👍🏽")
        #expect(t("odd", ["name": "Ana"]) == "{ Ana {missing} {unclosed")
        #expect(t("combining", ["name": "ß"]) == "e\u{301}ße\u{301}")
        #expect(t("greeting") == "Olá, {name}! Você tem {count} refeições — ótimo 👍🏽")
    }

    @Test(arguments: [
        ("pt-BR,pt;q=0.9,en;q=0.8", AppLocale.ptBR), ("pt-PT", .ptBR), ("es-AR", .es), ("ca-ES,es;q=0.5", .ca),
        ("en-US", .en), ("de, en;q=0.3", .en), ("fr", nil), ("es;q=0.2, ca;q=0.9", .ca), ("", nil),
    ])
    func acceptLanguageChoosesTheBestLocale(_ header: String, _ expected: AppLocale?) {
        #expect(AppLocale.preferred(byAcceptLanguage: header) == expected)
    }

    @Test func theUsersOwnSettingWinsOverTheBrowser() {
        #expect(AppLocale.negotiate(userSetting: .ca, acceptLanguage: "en") == .ca)
        #expect(AppLocale.negotiate(userSetting: nil, acceptLanguage: "en") == .en)
        #expect(AppLocale.negotiate(userSetting: nil, acceptLanguage: nil) == .ptBR)
    }

    @Test func decimalsUseTheLocalesMark() {
        let zone = TimeZone(identifier: "UTC")!
        #expect(LocalizedFormat(locale: .ptBR, timeZone: zone).decimal(72.5) == "72,5")
        #expect(LocalizedFormat(locale: .es, timeZone: zone).decimal(72.5) == "72,5")
        #expect(LocalizedFormat(locale: .ca, timeZone: zone).decimal(72.5) == "72,5")
        #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(72.5) == "72.5")
        #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(3) == "3")
    }

    /// Quantities and dates are remembered once written: a second call, another locale or other digits
    /// must still get their own text.
    @Test func rememberedNumbersAndDatesKeepTheirLocaleAndDigits() {
        let zone = TimeZone(identifier: "America/Sao_Paulo")!
        for _ in 0..<2 {
            #expect(LocalizedFormat(locale: .ptBR, timeZone: zone).decimal(1234.56, fractionDigits: 2) == "1.234,56")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(1234.56, fractionDigits: 2) == "1,234.56")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(1234.56) == "1,234.6")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(-0.0) == "0")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).decimal(0) == "0")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).longDate(iso: "2026-11-24") == "November 24, 2026")
            #expect(LocalizedFormat(locale: .en, timeZone: .gmt).longDate(iso: "2026-11-24") == "November 24, 2026")
            #expect(LocalizedFormat(locale: .ptBR, timeZone: zone).longDate(iso: "2026-11-24") == "24 de novembro de 2026")
            #expect(LocalizedFormat(locale: .en, timeZone: zone).longDate(iso: "not a date") == "not a date")
        }
    }

    @Test(arguments: [("72,5", 72.5), ("72.5", 72.5), (" 1.234,5 ", 1234.5), ("1,234.5", 1234.5), ("0,25", 0.25),
                      ("-3", -3.0), ("1.80", 1.8)])
    func decimalsAreReadWithCommaOrPoint(_ text: String, _ expected: Double) {
        #expect(LocalizedFormat.parseDecimal(text) == expected)
    }

    @Test(arguments: ["", "abc", "1,2,3", "1.2.3", "12kg", "nan", "inf", "1e5"])
    func nonsenseIsNotADecimal(_ text: String) {
        #expect(LocalizedFormat.parseDecimal(text) == nil)
    }

    @Test func datesAreWrittenAndReadPerLocale() throws {
        let zone = TimeZone(identifier: "America/Sao_Paulo")!
        let pt = LocalizedFormat(locale: .ptBR, timeZone: zone)
        let en = LocalizedFormat(locale: .en, timeZone: zone)
        let date = try #require(pt.parseDate("2026-03-07"))
        #expect(pt.shortDate(date) == "07/03/2026")
        #expect(en.shortDate(date) == "03/07/2026")
        #expect(pt.parseDate("07/03/2026") == date)
        #expect(en.parseDate("03/07/2026") == date)
        #expect(pt.parseDate("31/02/2026") == nil)
        #expect(pt.parseDate("tomorrow") == nil)
    }
}
