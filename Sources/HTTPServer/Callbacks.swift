import CMicroHTTPD
import Foundation

// NB: libmicrohttpd calls these from its own threads. They are free functions, outside
// `main.swift`, so that Swift 6 does not isolate them to the main actor; each connection is
// served by one thread at a time, so a RequestState is never touched concurrently.

/// One request while its body arrives; owned by libmicrohttpd's `con_cls` slot.
/// Unchecked: only one thread uses it at a time, handing over through libmicrohttpd's
/// suspend and resume, which synchronise.
final class RequestState: @unchecked Sendable {
    let started = ContinuousClock.now
    var request: Request
    let kind: BodyKind
    var postProcessor: OpaquePointer?
    var bodyBytes = 0
    /// Set when the request is refused before reaching the responder.
    var failure: Status?
    var formParts: [(name: String, bytes: [UInt8])] = []
    var files: [UploadedFile] = []
    /// The result of deferred work, sent when libmicrohttpd resumes the connection.
    var finishedDeferred: Response?
    /// Set when the daemon stops while the deferred work is still running: the connection is resumed
    /// only to be closed, since libmicrohttpd cannot stop with suspended connections.
    var abandoned = false
    var openFile: (handle: FileHandle, field: String, filename: String, contentType: String, path: String, size: Int)?
    let limits: Limits
    let uploadDirectory: String

    enum BodyKind { case urlEncoded, multipart, raw }

    init(request: Request, limits: Limits, uploadDirectory: String) {
        self.request = request
        self.limits = limits
        self.uploadDirectory = uploadDirectory
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            kind = .urlEncoded
        } else if contentType.hasPrefix("multipart/form-data") {
            kind = .multipart
        } else {
            kind = .raw
        }
    }

    static let discardAllowance = 16 << 20

    var bodyLimit: Int { kind == .multipart ? limits.maxMultipartBytes : limits.maxBodyBytes }

    func receive(_ data: UnsafePointer<CChar>, count: Int) {
        bodyBytes += count
        guard bodyBytes <= bodyLimit else { failure = .contentTooLarge; return }
        switch kind {
        case .raw:
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        case .urlEncoded, .multipart:
            guard let postProcessor else { failure = .badRequest; return }
            if MHD_post_process(postProcessor, data, count) == .NO, failure == nil {
                failure = .badRequest
            }
        }
    }

    /// Called by libmicrohttpd's post processor with each piece of a field or file.
    func receivePart(name: String, filename: String?, contentType: String?, data: UnsafeRawBufferPointer, offset: UInt64) -> Bool {
        if let filename {
            if offset == 0 || openFile?.field != name {
                closeOpenFile()
                let path = uploadDirectory + "/upload-" + UUID().uuidString
                guard FileManager.default.createFile(atPath: path, contents: nil),
                      let handle = FileHandle(forWritingAtPath: path)
                else { failure = .internalServerError; return false }
                openFile = (handle, name, filename, contentType ?? "application/octet-stream", path, 0)
            }
            openFile!.size += data.count
            guard openFile!.size <= limits.maxFilePartBytes else { failure = .contentTooLarge; return false }
            // NB: the old `write(_:)` traps on an error (a full disk would take the whole server down).
            do {
                if !data.isEmpty { try openFile!.handle.write(contentsOf: Data(data)) }
            } catch {
                failure = isOutOfSpace(error) ? .insufficientStorage : .internalServerError
                return false
            }
        } else if offset == 0 || formParts.last?.name != name {
            formParts.append((name, Array(data)))
        } else {
            formParts[formParts.count - 1].bytes.append(contentsOf: data)
        }
        return true
    }

    func closeOpenFile() {
        guard let file = openFile else { return }
        try? file.handle.close()
        files.append(UploadedFile(field: file.field, filename: file.filename, contentType: file.contentType,
                                  temporaryPath: file.path, size: file.size))
        openFile = nil
    }

    /// Ends body parsing; afterwards `failure` says whether the request may be answered.
    func finishBody() {
        if let postProcessor {
            if MHD_destroy_post_processor(postProcessor) == .NO, failure == nil {
                failure = .badRequest
            }
            self.postProcessor = nil
        }
        closeOpenFile()
        request.form = Parameters(formParts.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) })
        request.files = files
    }

    /// Releases the post processor and removes upload files once the response is gone.
    func cleanUp() {
        if let postProcessor { MHD_destroy_post_processor(postProcessor); self.postProcessor = nil }
        closeOpenFile()
        for file in files { try? FileManager.default.removeItem(atPath: file.temporaryPath) }
    }
}

/// libmicrohttpd decodes the URL in place before the handler sees it, and an encoded NUL ("%00") ends the
/// C string there: "/patients/8%00/plans" would be served as "/patients/8". The raw URL is seen here
/// first; what this returns becomes the request's `con_cls` until the handler's first call, which answers
/// 400 for this mark.
func uriArrived(cls: UnsafeMutableRawPointer?, uri: UnsafePointer<CChar>?, connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let uri, strstr(uri, "%00") != nil else { return nil }
    return encodedNULMark
}

/// Not an address: a value `con_cls` can never hold otherwise (a `RequestState` is aligned).
private let encodedNULMarkBits = 0x7A9
private var encodedNULMark: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: encodedNULMarkBits)! }
private func isEncodedNULMark(_ pointer: UnsafeMutableRawPointer?) -> Bool { pointer.map { Int(bitPattern: $0) == encodedNULMarkBits } ?? false }

func accessHandler(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
    uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?,
    conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let holdsEncodedNUL = isEncodedNULMark(conCls.pointee)
    if holdsEncodedNUL { conCls.pointee = nil }

    guard let existing = conCls.pointee else {
        // First call: the headers have arrived, the body (if any) has not.
        let request = readRequestHead(connection, url: url, method: method)
        let state = RequestState(request: request, limits: core.configuration.limits,
                                 uploadDirectory: core.configuration.uploadDirectory)
        if holdsEncodedNUL { state.failure = .badRequest }
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        core.inFlight.add(1, ordering: .relaxed)
        if let length = request.headers["Content-Length"].flatMap(Int.init), length > state.bodyLimit {
            return send(core.responder.errorResponse(.contentTooLarge, for: request), for: state, on: connection, core)
        }
        if state.kind != .raw {
            state.postProcessor = MHD_create_post_processor(connection, 16 * 1024, postIterator,
                                                            Unmanaged.passUnretained(state).toOpaque())
            if state.postProcessor == nil { state.failure = .badRequest }
        }
        return .YES
    }

    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    if let finished = state.finishedDeferred {
        // A response may itself be deferred (a login hashes its password on its own pool): `send` then
        // suspends the connection again.
        state.finishedDeferred = nil
        return send(finished, for: state, on: connection, core)
    }
    if state.abandoned { return .NO }
    if uploadDataSize.pointee > 0 {
        if state.failure == nil, let uploadData {
            state.receive(uploadData, count: uploadDataSize.pointee)
        }
        uploadDataSize.pointee = 0
        // NB: libmicrohttpd accepts a response only before or after the body, never during it.
        // A refused body is read and dropped so the client gets its 413, up to a bound past
        // which the connection is simply closed.
        if state.failure != nil, state.bodyBytes > state.bodyLimit + RequestState.discardAllowance {
            return .NO
        }
        return .YES
    }

    state.finishBody()
    if let failure = state.failure {
        return send(core.responder.errorResponse(failure, for: state.request), for: state, on: connection, core)
    }
    if let immediate = core.responder.immediateResponse(to: state.request) {
        return send(immediate, for: state, on: connection, core)
    }
    // The connection waits, suspended, for its turn with a request worker; its thread goes back to the others.
    let suspended = SuspendedConnection(pointer: connection, state: state)
    guard core.suspend(suspended) else { return .NO }  // stopping
    let request = state.request, responder = core.responder
    core.workers.submit(waitsForWriter: responder.waitsForWriter(request)) { core.resume(suspended, with: responder.respond(to: request)) }
    return .YES
}

private func send(_ response: Response, for state: RequestState, on connection: OpaquePointer, _ core: ServerCore) -> MHD_Result {
    if let deferred = response.deferred {
        let suspended = SuspendedConnection(pointer: connection, state: state)
        guard core.suspend(suspended) else { return .NO }  // stopping: no new deferred work
        let placeholderHeaders = response.headers
        deferred.pool.submit {
            var finished = deferred.work()
            finished.headers.merge(placeholderHeaders)
            core.resume(suspended, with: finished)
        }
        return .YES
    }
    core.log(state.request, response, since: state.started)
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                        .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        MHD_add_response_header(mhdResponse, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
}

func requestCompleted(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, reason: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let existing = conCls.pointee, !isEncodedNULMark(existing) else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeRetainedValue()
    conCls.pointee = nil
    state.cleanUp()
    core.inFlight.subtract(1, ordering: .releasing)
}

private func postIterator(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?,
    filename: UnsafePointer<CChar>?, contentType: UnsafePointer<CChar>?, transferEncoding: UnsafePointer<CChar>?,
    data: UnsafePointer<CChar>?, offset: UInt64, size: Int
) -> MHD_Result {
    guard let cls, let key else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : size)
    let accepted = state.receivePart(
        name: String(cString: key), filename: filename.map { String(cString: $0) },
        contentType: contentType.map { String(cString: $0) }, data: bytes, offset: offset)
    return accepted ? .YES : .NO
}

private func readRequestHead(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> Request {
    let collector = PairCollector()
    let context = Unmanaged.passUnretained(collector).toOpaque()
    MHD_get_connection_values(connection, .HEADER_KIND, collectPair, context)
    let headers = Headers(collector.take())
    MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectPair, context)
    let query = Parameters(collector.take())
    MHD_get_connection_values(connection, .COOKIE_KIND, collectPair, context)
    let cookies = Dictionary(collector.take(), uniquingKeysWith: { first, _ in first })

    var address = [CChar](repeating: 0, count: 64)
    let hasAddress = tg_client_address(connection, &address, socklen_t(address.count)) != 0
    return Request(
        method: Method(method.map { String(cString: $0) } ?? "GET"),
        path: url.map { String(cString: $0) } ?? "/",
        query: query, headers: headers, cookies: cookies,
        clientAddress: hasAddress ? address.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "")
}

struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
    let state: RequestState
}

private final class PairCollector {
    var pairs: [(String, String)] = []
    func take() -> [(String, String)] { defer { pairs = [] }; return pairs }
}

private func collectPair(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// Whether a file operation failed because the disk (or the user's quota) is full: Foundation's own
/// error, a `POSIXError`, or either bridged to `NSError`.
public func isOutOfSpace(_ error: any Error) -> Bool {
    if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
    let error = error as NSError
    return error.domain == NSPOSIXErrorDomain && (error.code == Int(ENOSPC) || error.code == Int(EDQUOT))
}
