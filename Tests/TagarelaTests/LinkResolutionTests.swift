import Foundation
import HTTPServer
import HTTPTestSupport
@testable import Tagarela
import Testing

/// Every page every demo persona reaches from their home, by following links, and every internal
/// URL those pages print: `href` of `<a>` and `<link>`, `action` of `<form>` (with the form's
/// method), `formaction` of `<button>` and `<input>` (with `formmethod`, else their form's method).
/// Each must name a route of the router with that method: a printed link nobody registered is a
/// 404 a user finds. Static assets, fragments, other origins and `mailto:`/`data:`/`blob:`/`tel:`/
/// `javascript:` URLs are not routes; the query is not part of the match. A page reached by a link
/// must answer (2xx or a redirect), not 4xx or 5xx.
@Suite struct LinkResolutionTests {
    @Test func everyPrintedURLOfEveryPageOfEveryPersonaHasARoute() async throws {
        let test = try await TestApp()
        var browsers: [(String, Browser)] = []
        for name in ["admin", "ana", "nadia", "dani", "bruno", "beatriz", "elisa"] {
            browsers.append((name, try test.browser(loggedInAs: name)))
        }
        browsers.append(("carla (bruno's patient mode)", try test.patientMode(of: "Carla Costa", openedBy: "bruno")))
        browsers.append(("davi (beatriz's patient mode)", try test.patientMode(of: "Davi Alves", openedBy: "beatriz")))

        var failures: [String] = []
        var lines: [String] = []
        var reached: Set<String> = []
        var checked = 0
        for (name, browser) in browsers {
            let crawl = try LinkCrawl(app: test.app, browser: browser).run(from: "/home")
            failures += crawl.failures.map { "\(name): \($0)" }
            reached.formUnion(crawl.patterns)
            checked += crawl.urlsChecked
            lines.append("  \(name): \(crawl.pages.count) pages, \(crawl.urlsChecked) URLs checked")
            #expect(crawl.pages.count >= 3, "\(name) reached only \(crawl.pages): did the sign-in or the home page fail?")
        }
        let getPatterns = test.app.router.patterns.filter { $0.method == .get }.map(\.pattern)
        let unreached = getPatterns.filter { !reached.contains($0) }.sorted()
        print("""
            link resolution: \(browsers.count) personas, \(checked) URLs checked, \(failures.count) failures
            \(lines.joined(separator: "\n"))
            GET routes no link reached (informational): \(unreached.joined(separator: ", "))
            \(failures.isEmpty ? "" : "failures:\n" + failures.joined(separator: "\n"))
            """)
        // One issue per failure, up to 30 (a broken link in the layout breaks every page); all are printed above.
        for failure in failures.prefix(30) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) printed URLs without a route or pages that failed; the list is printed above")
        #expect(checked > 1000, "too few URLs checked (\(checked)): the crawl or the extraction broke")
        #expect(reached.count >= 40, "only \(reached.count) GET routes reached: \(reached.sorted())")
    }

    @Test func theExtractionFindsLinksFormsAndButtonsWithTheirMethods() {
        let html = """
            <link rel="stylesheet" href="/css/app.css?v=1"><a href="/patients/7?x=1#top">x</a>
            <script>const s = '<a href="/not/in/script">';</script><!-- <a href="/not/in/comment"> -->
            <form method="post" action="/plans/3/words" id="words"><button formaction="/plans/3/words/9/remove">-</button>
            <input type=submit formaction='/x' formmethod=GET></form>
            <form action="/symbols/new"><button>search</button></form>
            <button form="words" formaction="/outside">o</button><form method="dialog"><button>close</button></form>
            <a href="mailto:a@b.c">m</a><a>no href</a><form method="POST"></form>
            """
        let found = PageURLs.extract(from: html).map { "\($0.method) \($0.url) (\($0.attribute))" }
        #expect(found == [
            "GET /css/app.css?v=1 (link href)", "GET /patients/7?x=1#top (a href)",
            "POST /plans/3/words (form action)", "POST /plans/3/words/9/remove (button formaction)",
            "GET /x (input formaction)", "GET /symbols/new (form action)", "POST /outside (button formaction)",
            "GET mailto:a@b.c (a href)", "POST  (form action)",
        ])
        #expect(PageURLs.internalPath("/patients/7?x=1#top", on: "/a") == "/patients/7")
        #expect(PageURLs.internalPath("?week=2", on: "/patients/7/nutrition") == "/patients/7/nutrition")
        #expect(PageURLs.internalPath("", on: "/meals/3") == "/meals/3")
        #expect(PageURLs.internalPath("usage", on: "/patients/7/") == "/patients/7/usage")
        #expect(PageURLs.internalPath("/media/a%20b.png", on: "/") == "/media/a b.png")
        #expect(PageURLs.resolve("?week=2#x", on: "/patients/7/nutrition?week=1")?.target == "/patients/7/nutrition?week=2")
        #expect(PageURLs.unescape("/a?x=1&amp;y=&#39;&#x2F;&bogus") == "/a?x=1&y='/&bogus")
        for external in ["#top", "mailto:a@b.c", "data:image/png;base64,AA", "blob:x", "https://example.com/a",
                         "//example.com/a", "tel:123", "javascript:void(0)"] {
            #expect(PageURLs.internalPath(external, on: "/") == nil, "\(external) is not an internal path")
        }
    }
}

/// One URL a page prints, with the method a browser would use to follow it.
struct PrintedURL: Equatable {
    let method: HTTPServer.Method
    let url: String
    /// "a href", "form action", "button formaction", …
    let attribute: String
}

/// Finds the URLs in an HTML page with a regular expression over its tags: enough for the pages
/// this app renders (quoted or bare attribute values, no `>` inside a tag but in quotes).
enum PageURLs {
    private static let ignoredBlocks = try! NSRegularExpression(
        pattern: #"<script\b.*?</script\s*>|<!--.*?-->"#, options: [.caseInsensitive, .dotMatchesLineSeparators])
    private static let tags = try! NSRegularExpression(
        pattern: #"<(/?)(a|link|form|button|input)\b((?:[^>"']|"[^"]*"|'[^']*')*)>"#, options: [.caseInsensitive])
    private static let attributes = try! NSRegularExpression(
        pattern: #"([a-zA-Z_:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)

    static func extract(from html: String) -> [PrintedURL] {
        let text = ignoredBlocks.stringByReplacingMatches(
            in: html, range: NSRange(html.startIndex..., in: html), withTemplate: "")
        let matches = tags.matches(in: text, range: NSRange(text.startIndex..., in: text))
        func group(_ match: NSTextCheckingResult, _ index: Int) -> String {
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
        // Forms by id, for buttons outside their form (`form="id"`).
        var formMethods: [String: String] = [:]
        for match in matches where group(match, 1).isEmpty && group(match, 2).lowercased() == "form" {
            let attributes = attributes(of: group(match, 3))
            if let id = attributes["id"] { formMethods[id] = attributes["method"] ?? "get" }
        }
        var found: [PrintedURL] = []
        var openForms: [String] = []   // methods of the forms the current tag is inside
        for match in matches {
            let closing = !group(match, 1).isEmpty
            let tag = group(match, 2).lowercased()
            let attributes = attributes(of: group(match, 3))
            switch (tag, closing) {
            case ("form", true):
                _ = openForms.popLast()
            case ("form", false):
                let method = (attributes["method"] ?? "get").lowercased()
                openForms.append(method)
                if let url = method == "dialog" ? nil : attributes["action"] ?? "" {
                    found.append(PrintedURL(method: Method(method.uppercased()), url: url, attribute: "form action"))
                }
            case ("a", false), ("link", false):
                if let href = attributes["href"] { found.append(PrintedURL(method: .get, url: href, attribute: "\(tag) href")) }
            case ("button", false), ("input", false):
                guard let url = attributes["formaction"] else { break }
                let formMethod = attributes["form"].flatMap { formMethods[$0] } ?? openForms.last ?? "get"
                let method = (attributes["formmethod"] ?? formMethod).lowercased()
                if method != "dialog" {
                    found.append(PrintedURL(method: Method(method.uppercased()), url: url, attribute: "\(tag) formaction"))
                }
            default:
                break
            }
        }
        return found
    }

    static func attributes(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        for match in attributes.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text).map({ text[$0].lowercased() }), result[name] == nil else { continue }
            let value = (2...4).lazy.compactMap { Range(match.range(at: $0), in: text) }.first.map { String(text[$0]) } ?? ""
            result[name] = unescape(value)
        }
        return result
    }

    /// The character references `HTML.escape` writes, and numeric ones.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let tail = rest[amp...]
            guard let semicolon = tail.prefix(10).firstIndex(of: ";") else { result += "&"; rest = tail.dropFirst(); continue }
            let name = tail[tail.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            let scalar = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            if let text = named[String(name)] ?? scalar.flatMap(Unicode.Scalar.init).map({ String(Character($0)) }) {
                result += text
                rest = tail[tail.index(after: semicolon)...]
            } else {
                result += "&"
                rest = tail.dropFirst()
            }
        }
        return result + rest
    }

    /// The path (percent-decoded, as the server routes it) an URL printed on the page at `page`
    /// names on this server, or nil for a fragment, another origin or another scheme.
    static func internalPath(_ url: String, on page: String) -> String? {
        resolve(url, on: page)?.path
    }

    /// The path, and the request target (percent-encoded path and query, no fragment) to fetch it.
    static func resolve(_ url: String, on page: String) -> (path: String, target: String)? {
        let url = url.trimmingCharacters(in: .whitespaces)
        if url.hasPrefix("#") || url.hasPrefix("//") { return nil }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/"), !url[..<colon].contains("?") { return nil }
        guard let base = URL(string: "http://tagarela.invalid" + page),
              let resolved = url.isEmpty ? base : URL(string: url, relativeTo: base)?.absoluteURL,
              resolved.host == "tagarela.invalid",
              let components = URLComponents(url: resolved, resolvingAgainstBaseURL: true)
        else { return nil }
        let encoded = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = encoded + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        return (encoded.removingPercentEncoding ?? encoded, target)
    }
}

/// Walks the pages one browser reaches from a start page by following `<a href>` links (redirects
/// followed), and checks every URL each page prints against the router.
struct LinkCrawl {
    let app: App
    let browser: Browser
    /// A bound on the walk: pages whose paths differ only by numeric ids share a shape.
    var pagesPerShape = 3
    var maxPages = 150

    struct Result {
        var pages: [String] = []
        var failures: [String] = []
        var patterns: Set<String> = []
        var urlsChecked = 0
    }

    func run(from start: String) throws -> Result {
        var result = Result()
        var queue = [start]
        var seen: Set<String> = [start]
        var perShape: [String: Int] = [:]
        while !queue.isEmpty, result.pages.count < maxPages {
            let page = queue.removeFirst()
            let path = PageURLs.internalPath(page, on: "/") ?? page
            let shape = path.split(separator: "/").map { $0.allSatisfy(\.isNumber) ? "N" : String($0) }.joined(separator: "/")
            guard perShape[shape, default: 0] < pagesPerShape else { continue }
            perShape[shape, default: 0] += 1
            let response = try browser.get(page)
            if response.status < 400, case .found(_, let parameters) = app.router.match(.get, path) {
                result.patterns.insert(Self.pattern(of: path, parameters: parameters))
            }
            if (300..<400).contains(response.status) {
                if let location = response.header("Location"), let target = PageURLs.resolve(location, on: page),
                   !isStaticAsset(target.path), seen.insert(target.target).inserted {
                    queue.insert(target.target, at: 0)
                }
                continue
            }
            guard response.status < 400 else {
                result.failures.append("GET \(page) answered \(response.status) (reached by a link)")
                continue
            }
            guard response.header("Content-Type")?.hasPrefix("text/html") == true else { continue }
            result.pages.append(page)
            for printed in PageURLs.extract(from: response.text) {
                guard let (path, target) = PageURLs.resolve(printed.url, on: page), !isStaticAsset(path) else { continue }
                result.urlsChecked += 1
                switch app.router.match(printed.method, path) {
                case .found:
                    break
                case .notFound:
                    result.failures.append("\(page): \(printed.attribute) \(printed.method) \(printed.url) has no route")
                case .methodNotAllowed(let allowed):
                    result.failures.append("\(page): \(printed.attribute) \(printed.method) \(printed.url) has no \(printed.method) route"
                        + " (only \(allowed.map(\.description).joined(separator: ", ")))")
                }
                if printed.method == .get, printed.attribute == "a href", seen.insert(target).inserted {
                    queue.append(target)
                }
            }
        }
        return result
    }

    /// A path `StaticFiles` answers (it prints a fingerprint only for files it holds).
    func isStaticAsset(_ path: String) -> Bool {
        app.staticFiles.url(for: path) != path
    }

    /// The route pattern a matched path came from, rebuilt from the parameters the router found.
    static func pattern(of path: String, parameters: [String: String]) -> String {
        let byValue = Dictionary(parameters.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        return "/" + path.split(separator: "/").map { segment in
            byValue[String(segment)].map { ":\($0)" } ?? String(segment)
        }.joined(separator: "/")
    }
}
