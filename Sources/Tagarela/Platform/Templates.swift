import Foundation
import HTTPServer
import Mustache
import Synchronization

public enum StartupError: Error, CustomStringConvertible {
    case missingTemplates([String])
    case missingResources(String)
    case templateSyntax(file: String, line: Int, column: Int, problem: String)

    public var description: String {
        switch self {
        case .missingTemplates(let names): "templates not found: \(names.joined(separator: ", "))"
        case .missingResources(let path): "resources not found at \(path) (run from the repository or set TAGARELA_RESOURCES)"
        case .templateSyntax(let file, let line, let column, let problem): "\(file):\(line):\(column): \(problem)"
        }
    }
}

/// The Mustache templates, loaded once at start. A page that names a missing template
/// fails at start, not in front of a user.
///
/// Each language has its own copy of the templates with its `{{t.key}}` texts and the names that are the
/// same on every page (`constants`: the assets' fingerprinted URLs, the layout's links) already written
/// in: a sixth of all tags are texts, many of them inside lists. swift-mustache parses the templates once;
/// `CompiledTemplates` compiles that parse, writes each language's texts into a copy of it (`writingIn`) and
/// renders them. `localize` writes them into the text instead, for swift-mustache's own parse of each
/// language, which the tests compare every render with.
public struct Templates: Sendable {
    private let templates: CompiledTemplates
    private let localized: [AppLocale: CompiledTemplates]
    /// swift-mustache's own rendering of the same templates, when every render is to be compared with it.
    private let reference: Reference?

    /// `constants` maps a tag's name (`assets.stylesheet`) to the text every page prints for it. With
    /// `compare`, every render is done again by swift-mustache and any difference is kept (`differences`).
    public static func load(from directory: String, required: [String], catalogues: Catalogues? = nil,
                            constants: [String: String] = [:], compare: Bool = false) async throws -> Templates {
        let texts = try readTemplates(from: directory)
        let parsed = try parse(texts)
        let missing = required.filter { parsed[$0] == nil }
        guard missing.isEmpty else { throw StartupError.missingTemplates(missing) }
        let compiled = try CompiledTemplates(parsed)
        var localized: [AppLocale: CompiledTemplates] = [:]
        var localizedParses: [AppLocale: [String: MustacheTemplate]] = [:]
        if let catalogues {
            for locale in AppLocale.allCases {
                let translator = catalogues.translator(for: locale)
                // Written into the compiled steps of the one parse: parsing each language's text again was
                // four fifths of a start's template work.
                localized[locale] = compiled.writingIn { name in writtenIn(name, translator, constants: constants) }
                if compare {  // swift-mustache's own parse of each language's text, to compare every render with
                    localizedParses[locale] = try parse(texts.mapValues { localize($0.text, translator, constants: constants) }, files: texts)
                }
            }
        }
        return Templates(templates: compiled, localized: localized,
                         reference: compare ? Reference(parsed: parsed, localized: localizedParses) : nil)
    }

    /// Every `.mustache` file under `directory`, named by its path without the extension (`aac/usage`),
    /// as `MustacheLibrary(directory:)` names them.
    private static func readTemplates(from directory: String) throws -> [String: (path: String, text: String)] {
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        var texts: [String: (path: String, text: String)] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root) ?? .init() where path.hasSuffix(".mustache") {
            texts[String(path.dropLast(".mustache".count))] = (root + path, try String(contentsOfFile: root + path, encoding: .utf8))
        }
        return texts
    }

    private static func parse(_ texts: [String: (path: String, text: String)]) throws -> [String: MustacheTemplate] {
        try parse(texts.mapValues(\.text), files: texts)
    }

    /// Parses each template, escaping with `EscapedHTML`.
    private static func parse(_ texts: [String: String], files: [String: (path: String, text: String)]) throws -> [String: MustacheTemplate] {
        MustacheContentTypes.register(EscapedHTML(), named: EscapedHTML.name)
        var templates: [String: MustacheTemplate] = [:]
        for (name, text) in texts {
            do {
                templates[name] = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(EscapedHTML.name)}}" + text)
            } catch let error as MustacheTemplate.ParserError {
                // The pragma put in front shares the first line: columns there are off by its length.
                throw StartupError.templateSyntax(file: files[name]?.path ?? name, line: error.context.lineNumber,
                                                  column: error.context.columnNumber, problem: "\(error.error)")
            }
        }
        return templates
    }

    // `{{name}}`, not `{{{name}}}` nor a section.
    private static let variableTag = try! NSRegularExpression(
        pattern: #"(?<!\{)\{\{\s*([A-Za-z0-9_.]+)\s*\}\}(?!\})"#)

    /// `template` with every `{{t.key}}` replaced by its text in `translator`'s language and every tag
    /// named in `constants` by its value, escaped as the renderer escapes them, so it prints what the
    /// lookup printed. A text that holds `{{` or `}}` is left to the lookup: written in, it would become a
    /// tag. Any other tag is left as it is.
    static func localize(_ template: String, _ translator: Translator, constants: [String: String] = [:]) -> String {
        let source = template as NSString
        var result = ""
        result.reserveCapacity(template.utf8.count)
        var last = 0
        for match in variableTag.matches(in: template, range: NSRange(location: 0, length: source.length)) {
            guard let value = writtenIn(source.substring(with: match.range(at: 1)), translator, constants: constants) else { continue }
            result += source.substring(with: NSRange(location: last, length: match.range.location - last))
            result += HTML.escape(value)
            last = match.range.location + match.range.length
        }
        result += source.substring(from: last)
        return result
    }

    /// The text a `{{name}}` tag prints in `translator`'s language when it is the same on every page: a
    /// `t.key` or a constant. Nil for any other name, and for a text holding `{{` or `}}`.
    private static func writtenIn(_ name: String, _ translator: Translator, constants: [String: String]) -> String? {
        let value: String
        if let key = name.textKey { value = translator[key] }
        else if let constant = constants[name] { value = constant }
        else { return nil }
        return value.contains("{{") || value.contains("}}") ? nil : value
    }

    /// Renders `name` with its texts in `locale` when the templates were loaded with the catalogues.
    /// Every render of the app comes here, and none may happen while a database access is open on
    /// the thread (a page rendered holding SQLite's one writer makes every other write wait): a handler
    /// returns a `Reply` and `Piece`s, rendered after its access ended. A render inside one is a bug
    /// that stops the process, in the tests first (`RenderOutsideAccessTests`).
    public func render(_ name: String, _ context: Any, in locale: AppLocale? = nil) -> String {
        precondition(Self.mayRenderOnThisThread,
                     "template \(name) rendered while a database access is open: return a Reply or a Piece, rendered after it")
        let templates = locale.flatMap { localized[$0] } ?? templates
        guard let html = templates.render(name, context) else {
            preconditionFailure("template \(name) is checked at start")
        }
        reference?.compare(html, name, context, in: locale)
        return html
    }

    /// Whether a template may be rendered on this thread now: not while a `DatabaseScope` access is open on it.
    static var mayRenderOnThisThread: Bool { !DatabaseScope.isOpenOnThisThread }

    /// The same parses with a comparison of its own: apps of one process may share the parsing (the
    /// tests start hundreds), each keeping its own `differences`.
    func withOwnComparison() -> Templates {
        Templates(templates: templates, localized: localized,
                  reference: reference.map { Reference(library: $0.library, localized: $0.localized) })
    }

    /// What swift-mustache rendered differently, since start, when loaded with `compare`: the template's
    /// name and both texts around the first byte where they part. Empty otherwise.
    public var differences: [String] { reference?.differences.withLock { $0 } ?? [] }

    /// swift-mustache's libraries of the same parses, to render every page again and compare.
    private final class Reference: Sendable {
        let library: MustacheLibrary
        let localized: [AppLocale: MustacheLibrary]
        let differences = Mutex<[String]>([])

        init(parsed: [String: MustacheTemplate], localized: [AppLocale: [String: MustacheTemplate]]) {
            library = MustacheLibrary(templates: parsed)
            self.localized = localized.mapValues { MustacheLibrary(templates: $0) }
        }

        init(library: MustacheLibrary, localized: [AppLocale: MustacheLibrary]) {
            self.library = library
            self.localized = localized
        }

        func compare(_ html: String, _ name: String, _ context: Any, in locale: AppLocale?) {
            let library = locale.flatMap { localized[$0] } ?? library
            guard let expected = library.render(context, withTemplate: name) else { return }
            // `{{once}}` is a new key at every lookup: the two renders differ there by design.
            let mine = Self.withoutOnceKeys(html), theirs = Self.withoutOnceKeys(expected)
            guard mine != theirs else { return }
            let common = zip(mine.utf8, theirs.utf8).prefix { $0 == $1 }.count
            let around = { (text: String) in String(decoding: text.utf8.dropFirst(max(0, common - 80)).prefix(200), as: UTF8.self) }
            differences.withLock { $0.append("\(name): compiled …\(around(mine))… swift-mustache …\(around(theirs))…") }
        }

        private static func withoutOnceKeys(_ html: String) -> String {
            html.replacing(#/name="_once" value="[A-Za-z0-9_-]{43}"/#, with: #"name="_once" value="""#)
        }
    }
}

private extension String {
    /// `key` of a `t.key` tag: the catalogue's keys have no dots.
    var textKey: String? {
        guard hasPrefix("t.") else { return nil }
        let key = dropFirst(2)
        return key.isEmpty || key.contains(".") ? nil : String(key)
    }
}

/// What every page's layout needs, beside the page's own model: reached in templates as
/// `{{t.key}}`, `{{lang}}`, `{{assets.stylesheet}}`; any other name goes to the page model.
///
/// A page model is `Encodable`: it is encoded once (`MustacheEncoder`) into nodes that Mustache reads by
/// name. A model that is neither `Encodable` nor a `MustacheParent` is read through `Mirror`, many times
/// slower (docs/decisions/0023-pages-rendered-without-mirror-page-models-are-encodable.md, "Pages rendered without Mirror").
struct PageContext<Model>: MustacheParent {
    /// How the model's names are read: `.mirror` only to compare with what the encoder prints (tests).
    enum ModelLookup { case automatic, mirror }

    let model: Model
    let translator: Translator
    let assets: Assets
    let pageTitle: String
    let chrome: PageChrome
    /// `model` as a `MustacheParent`, made once: every name a template looks up and its own view
    /// model lacks (`t.…` inside a list) ends here, and a cast per lookup cost a tenth of a page.
    private let modelParent: MustacheParent?

    init(model: Model, translator: Translator, assets: Assets, pageTitle: String, chrome: PageChrome,
         lookup: ModelLookup = .automatic) {
        self.model = model
        self.translator = translator
        self.assets = assets
        self.pageTitle = pageTitle
        self.chrome = chrome
        modelParent = lookup == .mirror ? nil : Self.parent(of: model)
    }

    private static func parent(of model: Model) -> MustacheParent? {
        if let parent = model as? MustacheParent { return parent }
        guard let encodable = model as? any Encodable else { return nil }
        // Our encoder throws nothing; a hand-written `encode(to:)` that throws leaves the model to `Mirror`.
        return (try? MustacheEncoder.tree(of: encodable)) as? MustacheParent
    }

    func child(named name: String) -> Any? {
        switch name {
        case "t": translator
        case "lang": MustacheText(translator.locale.rawValue)
        case "assets": assets
        case "pageTitle": MustacheText(pageTitle)
        case "chrome": chrome
        case "csrf": MustacheText(chrome.csrf)
        // A new key at every use: each create form rendered gets its own (see `SubmittedForms`).
        case "once": Token.make()
        default:
            if let modelParent { modelParent.child(named: name) }
            else { Mirror(reflecting: model).descendant(name).flatMap(unwrapOptional) }
        }
    }
}

/// `Mirror.descendant` hands back an `Optional` boxed in `Any`; Mustache must see nil as nil.
private func unwrapOptional(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.map { unwrapOptional($0.value) } ?? nil
}

/// A page the child looks at in patient mode whose content is in a language of its own (an eduCAT
/// pack's Catalan under a Portuguese interface): patient mode's header speaks it too. Other pages
/// (the home, the boards) are in the page's language, header included.
protocol ChildScreen {
    var childLanguage: String { get }
}

/// Patient mode's header words in the child's language, with that language for the header's `lang`.
struct PatientModeWords: Sendable, MustacheParent {
    let lang: String
    let modeling: String
    let modelingOn: String
    let alone: String
    let exit: String

    init(_ t: Translator) {
        lang = t.locale.rawValue
        modeling = t["modeling_switch"]
        modelingOn = t["modeling_switch_on"]
        alone = t["alone_switch"]
        exit = t["patient_mode_exit"]
    }

    /// The language of the screen showing `model`: its own (`ChildScreen`), else the page's.
    static func locale(of model: Any, page: AppLocale) -> AppLocale {
        (model as? ChildScreen).flatMap { AppLocale(rawValue: $0.childLanguage) } ?? page
    }

    func child(named name: String) -> Any? {
        switch name {
        case "lang": MustacheText(lang)
        case "modeling": MustacheText(modeling)
        case "modelingOn": MustacheText(modelingOn)
        case "alone": MustacheText(alone)
        case "exit": MustacheText(exit)
        default: nil
        }
    }
}

/// The parts of the layout that depend on who is looking: navigation, flash, the CSRF token.
struct PageChrome: Sendable, MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "csrf": MustacheText(csrf)
        case "userName": userName.map(MustacheText.init)
        case "homePath": homePath.map(MustacheText.init)
        case "isPatientMode": isPatientMode
        case "isModeling": isModeling
        case "modelingSwitch": modelingSwitch
        case "aloneSwitch": aloneSwitch
        case "patientWords": patientWords
        case "flash": flash.map(MustacheText.init)
        case "keepsBoardsOffline": keepsBoardsOffline
        case "forgetsOfflineBoards": forgetsOfflineBoards
        case "displayClasses": displayClasses.map(MustacheText.init)
        case "links": Self.links
        default: nil
        }
    }

    /// The layout's own links, printed once from their routes.
    struct Links: Sendable, MustacheParent {
        static let paths = [
            "site": SiteEndpoints.home.path(),
            "about": SiteEndpoints.about.path(),
            "login": AccountsEndpoints.showLogin.path(),
            "logout": AccountsEndpoints.logOut.path(),
            "account": AccountsEndpoints.showAccount.path(),
            "patientModeExit": AccountsEndpoints.showPatientModeExit.path(),
            "manifest": OfflineEndpoints.manifest.path(),
        ]

        func child(named name: String) -> Any? { Self.paths[name].map(MustacheText.init) }

        /// `chrome.links.name` → path, for `Templates.load` to write into the templates.
        static var templateConstants: [String: String] {
            Dictionary(uniqueKeysWithValues: paths.map { ("chrome.links." + $0.key, $0.value) })
        }
    }

    static let links = Links()

    var csrf = ""
    var userName: String?
    var homePath: String?
    var isPatientMode = false
    /// In patient mode: whether an adult is modeling, and where the switch posts (with this page to come back to).
    var isModeling = false
    var modelingSwitch: PatientModeSwitch?
    /// In patient mode: whether the child taps alone (no helper on the taps).
    var aloneSwitch: PatientModeSwitch?
    /// In patient mode: the header's words in the language of the screen (`ChildScreen`), not always the adult's.
    var patientWords: PatientModeWords?
    var flash: String?
    /// A patient's page (or patient mode): the service worker keeps this patient's boards for offline use.
    var keepsBoardsOffline = false
    /// A page seen signed out: boards kept for offline use on this device are deleted.
    var forgetsOfflineBoards = false
    /// On a patient's pages: their theme and text size, as classes of `<html>`.
    var displayClasses: String?

    init() {}

    init(_ context: RequestContext, flash: String?) {
        csrf = context.csrfToken
        userName = context.signedIn?.user.displayName
        homePath = context.actor.map { $0.role.homePath }
        isPatientMode = context.actor?.isPatientMode ?? false
        isModeling = isPatientMode && context.signedIn?.session.modeling == true
        modelingSwitch = isPatientMode ? PatientModeSwitch.modeling(isOn: isModeling, back: context.request.path) : nil
        aloneSwitch = isPatientMode ? PatientModeSwitch.alone(isOn: context.signedIn?.session.alone == true, back: context.request.path) : nil
        self.flash = flash
        // Only the pages that play from the boards ask the worker to keep them: the sync is heavy,
        // and the games or the meal check-in have nothing to keep.
        keepsBoardsOffline = context.actor?.role == .patient && OfflineBoards.isBoardPage(context.request.path)
        forgetsOfflineBoards = context.signedIn == nil
        displayClasses = context.actor.flatMap { $0.role == .patient ? $0.display.classes : nil }
    }
}

/// Fingerprinted URLs of the assets every page loads.
struct Assets: Sendable, MustacheParent {
    /// Imported by the player scripts: ES modules import by plain URL, so these are not fingerprinted.
    static let importedModules = ["/js/access.js", "/js/event-queue.js", "/js/board-fit.js", "/js/clip.js"]

    func child(named name: String) -> Any? { Self.byName[name].map { MustacheText(self[keyPath: $0]) } }

    /// Each asset by the name templates give it (`{{assets.stylesheet}}`).
    static let byName: [String: KeyPath<Assets, String> & Sendable] = [
        "stylesheet": \.stylesheet, "boardStylesheet": \.boardStylesheet, "symbolScript": \.symbolScript, "icon": \.icon,
        "evaluationScript": \.evaluationScript, "playerScript": \.playerScript, "recorderScript": \.recorderScript,
        "timerScript": \.timerScript, "sentenceScript": \.sentenceScript, "pwaScript": \.pwaScript,
        "educatScript": \.educatScript, "educatStylesheet": \.educatStylesheet, "obfImportScript": \.obfImportScript,
    ]

    /// `assets.name` → URL, for `Templates.load` to write into the templates.
    var templateConstants: [String: String] {
        Dictionary(uniqueKeysWithValues: Self.byName.map { ("assets." + $0.key, self[keyPath: $0.value]) })
    }

    let stylesheet: String
    /// The boards' layout and print sheets (player, editor, print), loaded after the stylesheet.
    let boardStylesheet: String
    let symbolScript: String
    let icon: String
    let evaluationScript: String
    let playerScript: String
    let recorderScript: String
    let timerScript: String
    let sentenceScript: String
    let pwaScript: String
    let educatScript: String
    let educatStylesheet: String
    let obfImportScript: String
}

extension Assets {
    /// The assets' URLs as `files` serves them.
    init(_ files: StaticFiles) {
        self.init(stylesheet: files.url(for: "/css/app.css"),
                  boardStylesheet: files.url(for: "/css/board.css"),
                  symbolScript: files.url(for: "/js/symbol-play.js"),
                  icon: files.url(for: "/img/icon.svg"),
                  evaluationScript: files.url(for: "/js/evaluation-form.js"),
                  playerScript: files.url(for: "/js/board-player.js"),
                  recorderScript: files.url(for: "/js/recorder.js"),
                  timerScript: files.url(for: "/js/timer.js"),
                  sentenceScript: files.url(for: "/js/sentence-player.js"),
                  pwaScript: files.url(for: "/js/pwa.js"),
                  educatScript: files.url(for: "/js/educat/educat.js"),
                  educatStylesheet: files.url(for: "/css/educat.css"),
                  obfImportScript: files.url(for: "/js/obf-import.js"))
    }
}

/// HTML escaping for every `{{value}}` of the templates: the same five characters as the library's own
/// (`< > & " '`), in one pass over the UTF-8 bytes (`HTML.escape`) instead of a dictionary lookup per
/// character, which was a sixth of the usage history's CPU. Set by a content-type pragma that
/// `Templates.load` puts at the start of every template.
struct EscapedHTML: MustacheContentType {
    static let name = "TAGARELA_HTML"

    func escapeText(_ text: String) -> String { HTML.escape(text) }
}
