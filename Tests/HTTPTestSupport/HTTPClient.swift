import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response as it came off the wire.
public struct WireResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

public enum HTTPClientError: Error { case connect, send, malformed(String) }

/// A deliberately small HTTP/1.1 client over a plain socket, so tests can send exactly the
/// bytes they mean to: malformed bodies, huge headers, HEAD requests. One request per connection.
public struct HTTPClient: Sendable {
    public let port: Int
    /// The Host header sent; nil: `127.0.0.1:<port>`. A node serving several tenants chooses by it.
    public let host: String?

    public init(port: Int, host: String? = nil) {
        self.port = port
        self.host = host
    }

    public func get(_ target: String, headers: [(String, String)] = []) throws -> WireResponse {
        try send(method: "GET", target: target, headers: headers)
    }

    public func head(_ target: String, headers: [(String, String)] = []) throws -> WireResponse {
        try send(method: "HEAD", target: target, headers: headers, expectBody: false)
    }

    public func postForm(_ target: String, _ fields: [(String, String)], headers: [(String, String)] = []) throws -> WireResponse {
        let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try send(method: "POST", target: target,
                        headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
                        body: Array(body.utf8))
    }

    public func postMultipart(_ target: String, boundary: String = "tagarela-test-boundary",
                              fields: [(String, String)] = [],
                              files: [(field: String, filename: String, contentType: String, content: [UInt8])] = [],
                              headers: [(String, String)] = []) throws -> WireResponse {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.contentType)\r\n\r\n".utf8)
            body += file.content + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try send(method: "POST", target: target,
                        headers: headers + [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
    }

    public func send(method: String, target: String, headers: [(String, String)] = [],
                     body: [UInt8]? = nil, expectBody: Bool = true) throws -> WireResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try sendRaw(Array(head.utf8) + (body ?? []))
    }

    /// Sends `bytes` as they are and reads the answer until the server closes the connection.
    public func sendRaw(_ bytes: [UInt8]) throws -> WireResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPClientError.connect }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw HTTPClientError.connect }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer (413) and close before it has read everything: read that answer.
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return try Self.parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> WireResponse {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else {
            throw HTTPClientError.malformed(String(decoding: bytes.prefix(200), as: UTF8.self))
        }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw HTTPClientError.malformed(head)
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[end.upperBound...])
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased() == "chunked" }) {
            body = dechunk(body)
        }
        return WireResponse(status: status, headers: headers, body: body)
    }

    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16), size > 0 else { break }
            out += bytes[lineEnd.upperBound..<min(lineEnd.upperBound + size, bytes.count)]
            index = lineEnd.upperBound + size + 2
        }
        return out
    }

    public static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
