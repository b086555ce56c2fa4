import CCurl
import Dispatch
import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One transfer: its libcurl easy handle and everything libcurl points at while it runs.
///
/// This object is the `userdata` of every callback of its handle, so it must outlive the handle's
/// time in the multi handle: the engine keeps it in its table until `curl_multi_remove_handle`
/// and ``cleanUp()`` are done, and only then tells the delegate and lets it go.
///
/// `@unchecked Sendable`: it is built on the caller's thread and then handed, through the
/// engine's lock-guarded queue, to the engine's thread, which alone uses it from then on.
final class CurlEasyTransfer: @unchecked Sendable {
    let id: UInt64
    let request: CurlRequest
    let delegate: any CurlTransferDelegate
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The headers for a proxy only (`Proxy-Authorization`): libcurl sends them with a tunnel's
    /// `CONNECT` or a plain request to the proxy, and never to an origin.
    private var proxyHeaderList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let upload: CurlUploadSource?

    // The engine thread's state of the transfer.
    private var head = CurlResponseHead()
    private(set) var didDeliverHead = false
    /// Why the transfer was stopped from one of its callbacks, reported instead of libcurl's code.
    private(set) var abortReason: URLError?
    /// When a byte last moved, in `DispatchTime` nanoseconds, for the idle timeout.
    private(set) var lastActivity: UInt64
    /// Whether a byte moved since ``stampActivity(at:)`` last ran: the callbacks set it, and the
    /// engine stamps the time once per turn of its loop, where a clock read per callback (each
    /// header line, each chunk) cost about 2 % of a request's CPU.
    private var hasMoved = false
    let idleTimeout: UInt64?
    /// Whether body delivery is paused (back-pressure); the idle timeout does not run meanwhile.
    var isReceivePaused = false
    /// Whether libcurl has given the transfer a connection (its pre-request callback ran). Until
    /// then it may wait behind `maximumConnectionsPerHost`, and its idle timeout does not run:
    /// queued requests timed out while the one ahead of them was still moving bytes. The set-up
    /// of its own connection is bounded by CURLOPT_CONNECTTIMEOUT_MS, which libcurl counts from
    /// when the transfer leaves its queue. Set from the start where libcurl lacks the callback.
    private(set) var hasConnection = false
    private var reportedSent: Int64 = -1

    /// Takes `easy`, a new or reset easy handle that no multi handle holds, and sets every option.
    ///
    /// - Throws: `URLError` when the body's file cannot be opened or libcurl refuses an option;
    ///   the handle is freed then.
    init(
        id: UInt64, request: CurlRequest, easy: UnsafeMutableRawPointer, settings: CurlEngine.Settings,
        delegate: any CurlTransferDelegate
    ) throws {
        self.id = id
        self.request = request
        self.delegate = delegate
        self.errorBuffer = .allocate(capacity: Int(nlcurl_error_size))
        errorBuffer.initialize(repeating: 0, count: Int(nlcurl_error_size))
        self.lastActivity = DispatchTime.now().uptimeNanoseconds
        self.idleTimeout = request.idleTimeout.map { UInt64(min($0, 1_000_000) * 1_000_000_000) }
        self.easy = easy
        do {
            self.upload = try request.body.map(CurlUploadSource.init)
        } catch {
            self.upload = nil
            throw error
        }
        try configure(easy, settings: settings)
    }

    deinit {
        cleanUp()
        errorBuffer.deallocate()
    }

    /// Frees the easy handle, or hands it to `recycle`, and frees the header list; the engine
    /// calls it right after removing the handle from the multi handle, before telling the
    /// delegate.
    func cleanUp(recycling recycle: ((UnsafeMutableRawPointer) -> Void)? = nil) {
        if let easy {
            if let recycle { recycle(easy) } else { curl_easy_cleanup(easy) }
            self.easy = nil
        }
        if let headerList {
            curl_slist_free_all(headerList)
            self.headerList = nil
        }
        if let proxyHeaderList {
            curl_slist_free_all(proxyHeaderList)
            self.proxyHeaderList = nil
        }
    }

    // MARK: Options

    /// The smallest upload buffer libcurl takes, and its default and largest.
    static let uploadBuffer = (smallest: 16 << 10, default: 64 << 10, largest: 2 << 20)

    /// The longest request head libcurl builds (`DYN_HTTP_REQUEST`): past it, it fails with
    /// `CURLE_OUT_OF_MEMORY`, which reads like the server's fault.
    static let longestHead = 1 << 20

    /// libcurl's upload buffer for `request`: over TLS, libcurl 7.88 sends an HTTP/1.1 request's
    /// head through that buffer, and a head more than twice its size stalls after the first
    /// part until the deadline (curl#6460; a 140 KiB head with the default 64 KiB). So a head
    /// gets a buffer it fits in. A request without a body whose head fits in the smallest gets
    /// that: the buffer is allocated and freed with every transfer over TLS, and the default's
    /// churn made glibc trim and refault its heap (up to 78 `madvise` calls for 12,000 requests
    /// at 16 in flight, none with the smallest; 2026-11-26).
    ///
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a head longer than ``longestHead``,
    ///   which libcurl would not send.
    static func uploadBufferSize(for request: CurlRequest) throws -> Int {
        // The URL and the fields: less than the head libcurl builds, which adds the method, the
        // version, Host and Accept-Encoding, so nothing libcurl would send is refused here.
        let head = request.headers.reduce(request.url.absoluteString.utf8.count) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard head <= longestHead else {
            throw CurlFailure.error(
                .dataLengthExceedsMaximum,
                "The request's head is over \(head) bytes; libcurl sends at most \(longestHead).",
                url: request.redactedURL)
        }
        // Room for what libcurl adds to the head.
        let needed = head + 1024
        if request.body == nil, needed <= uploadBuffer.smallest { return uploadBuffer.smallest }
        return min(max(needed, uploadBuffer.default), uploadBuffer.largest)
    }

    private func configure(_ easy: UnsafeMutableRawPointer, settings: CurlEngine.Settings) throws {
        var failed: CURLcode?
        func check(_ code: CURLcode) {
            if code != CURLE_OK, failed == nil { failed = code }
        }
        func set(_ option: CURLoption, _ value: Int) { check(nlcurl_easy_setopt_long(easy, option, value)) }
        func set(_ option: CURLoption, _ value: String) { check(nlcurl_easy_setopt_string(easy, option, value)) }
        // A literal is handed over as it is (a short Swift string has no C string to point at,
        // and its conversion allocated one per option), under a name of its own: a literal
        // argument would pick `set(_:_: String)`.
        func setLiteral(_ option: CURLoption, _ value: StaticString) {
            Self.withCString(value) { check(nlcurl_easy_setopt_string(easy, option, $0)) }
        }

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        // Signals are no way to time out a thread among others (CURLOPT_NOSIGNAL's man page).
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_URL, request.url.absoluteString)
        setLiteral(CURLOPT_PROTOCOLS_STR, "http,https")
        // The router follows redirects, with one rule for credentials across origins.
        set(CURLOPT_FOLLOWLOCATION, 0)
        // Send the path as built (PathSegment already escaped it); libcurl would squash "/../".
        set(CURLOPT_PATH_AS_IS, 1)
        // libcurl uses a proxy that the environment names (https_proxy), and would hand its
        // answer to CONNECT to the header callback, which takes the first head for the response:
        // every https response through it came back 200 with the proxy's headers.
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // A cancelled or timed-out transfer still looking up its host must not hold the engine's
        // thread, and every other transfer, until the lookup returns (4.65 s for one that took
        // 5 s, measured 2026-11-26). Not checked: an older libcurl lacks it and waits as before.
        _ = nlcurl_easy_set_quick_exit(easy)
        let mayMultiplex = !request.mayPauseForLong && request.url.scheme?.lowercased() == "https"
        set(CURLOPT_HTTP_VERSION, request.mayPauseForLong ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS)
        // While the first connection to an https origin is still negotiating, libcurl does not
        // know whether it will multiplex, and without this opens a connection per transfer: 16
        // requests in flight opened 7 to 16 HTTP/2 connections where one serves them all. Against
        // an HTTP/1.1 server the transfers wait for that one handshake, then open their own.
        // Only then: over http, or HTTP/1.1 by choice, nothing multiplexes, and libcurl learns it
        // from the first response, not a handshake, so every request to a new origin waited for
        // the first one's answer (8 at once to a server that answers none until all 8 arrive
        // waited until their deadline, CurlConcurrentStartTests).
        set(CURLOPT_PIPEWAIT, mayMultiplex ? 1 : 0)
        // Ask for every encoding this libcurl decodes (gzip, deflate, and br or zstd where it
        // was built with them) and hand the body on decoded, as URLSession does: a 150 KB JSON
        // answer crossed as 11.7 KB against nginx with gzip on. The body limit counts the
        // decoded bytes, which are what the write callback receives. A caller's own
        // Accept-Encoding header replaces the one libcurl would send.
        setLiteral(CURLOPT_ACCEPT_ENCODING, "")
        check(nlcurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))

        check(nlcurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata))
        check(
            nlcurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return 0 }
                let length = size == 1 ? count : size.multipliedReportingOverflow(by: count).partialValue
                return CurlEasyTransfer.from(userdata).receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
            })
        check(nlcurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata))
        check(
            nlcurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return 0 }
                let length = size == 1 ? count : size.multipliedReportingOverflow(by: count).partialValue
                return CurlEasyTransfer.from(userdata).receiveBody(UnsafeRawBufferPointer(start: buffer, count: length))
            })

        let method = request.method
        if let upload {
            // POST mode with a read callback for every body: libcurl sends Content-Length from
            // POSTFIELDSIZE, reads the body as it goes, and rewinds it through the seek callback.
            set(CURLOPT_POST, 1)
            check(nlcurl_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(upload.size)))
            check(nlcurl_easy_setopt_pointer(easy, CURLOPT_READDATA, userdata))
            check(
                nlcurl_easy_setopt_read_function(easy, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
                    guard let buffer, let userdata else { return nlcurl_readfunc_abort }
                    let length = size == 1 ? count : size.multipliedReportingOverflow(by: count).partialValue
                    return CurlEasyTransfer.from(userdata).sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
                })
            check(nlcurl_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, userdata))
            check(
                nlcurl_easy_setopt_seek_function(easy, CURLOPT_SEEKFUNCTION) { userdata, offset, origin in
                    guard let userdata, origin == SEEK_SET else { return nlcurl_seekfunc_cantseek }
                    return CurlEasyTransfer.from(userdata).rewindBody(to: Int64(offset))
                })
            if method != "POST" { set(CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "HEAD" {
            set(CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            set(CURLOPT_CUSTOMREQUEST, method)
        }
        set(CURLOPT_UPLOAD_BUFFERSIZE, try Self.uploadBufferSize(for: request))

        // Exactly the request's headers: an empty "Name:" removes a header libcurl would add
        // on its own (Accept, the form Content-Type of POST mode, Expect: 100-continue). A
        // `Proxy-Authorization` is the proxy's: in CURLOPT_HTTPHEADER it went through the
        // tunnel to the origin, and never to the proxy.
        for header in request.headers {
            try appendHeaderLine(header.name, header.value, forProxy: HeaderName.same(header.name, "Proxy-Authorization"))
        }
        if !request.hasHeader("Accept") { try appendLiteralHeaderLine("Accept:") }
        if !request.hasHeader("Expect") { try appendLiteralHeaderLine("Expect:") }
        if upload != nil, !request.hasHeader("Content-Type") { try appendLiteralHeaderLine("Content-Type:") }
        check(nlcurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList))
        // Separate (libcurl's default since 7.42.1, set so that no build can mix them): the
        // request's headers to the origin, the proxy's to the proxy.
        set(CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE))
        if let proxyHeaderList { check(nlcurl_easy_setopt_pointer(easy, CURLOPT_PROXYHEADER, proxyHeaderList)) }

        if let idle = request.idleTimeout {
            // The idle timeout itself is the engine's; this bounds the connection's set-up by it.
            set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(idle, 1_000_000) * 1000))
        }
        let prereq = nlcurl_easy_set_prereq(easy, userdata) { userdata, _, _, _, _ in
            if let userdata { CurlEasyTransfer.from(userdata).connectionDidOpen() }
            return nlcurl_prereqfunc_ok
        }
        if prereq != CURLE_OK { hasConnection = true }
        if let total = settings.totalTimeoutMilliseconds { set(CURLOPT_TIMEOUT_MS, total) }
        if let file = settings.certificateAuthorityFile { set(CURLOPT_CAINFO, file) }
        if let pem = settings.certificateAuthorityPEM {
            // libcurl copies the blob (CURL_BLOB_COPY), so the bytes need only last this call.
            pem.withUnsafeBytes { bytes in
                var blob = curl_blob(data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count, flags: UInt32(CURL_BLOB_COPY))
                check(nlcurl_easy_setopt_blob(easy, CURLOPT_CAINFO_BLOB, &blob))
            }
        }
        if settings.certificateAuthorityFile != nil || settings.certificateAuthorityPEM != nil || Self.hasDefaultBundle {
            // No directory of authorities: libcurl caches the ones it read in the multi handle only
            // when they come from a file alone, and read them again for every new connection
            // otherwise. Debian's libcurl has both a bundle and a directory (/etc/ssl/certs) by
            // default, and reading the bundle took about 20 ms of CPU per connection (issue 26).
            // The bundle holds the same system authorities as the directory; a configured
            // authority is the only one to trust, which the directory would have widened.
            check(nlcurl_easy_setopt_pointer(easy, CURLOPT_CAPATH, nil))
        }
        if let pins = settings.pinnedPublicKeys { set(CURLOPT_PINNEDPUBLICKEY, pins) }

        if let failed {
            let name = String(cString: curl_easy_strerror(failed))
            throw CurlFailure.error(.unknown, "libcurl refused an option: \(name).", url: request.redactedURL, curlCode: Int(failed.rawValue))
        }
    }

    /// Adds `name: value` to the header list, written straight into a C string on the stack,
    /// which libcurl copies: through a Swift string it was one allocation more per header.
    private func appendHeaderLine(_ name: String, _ value: String, forProxy: Bool = false) throws {
        let length = name.utf8.count + 2 + value.utf8.count
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { line in
            // A slice's initialize returns an index of the whole buffer.
            var end = line.initialize(fromContentsOf: name.utf8)
            end = line[end...].initialize(fromContentsOf: ": ".utf8)
            end = line[end...].initialize(fromContentsOf: value.utf8)
            line[end] = 0
            try line.withMemoryRebound(to: CChar.self) { try appendHeaderLine($0.baseAddress, forProxy: forProxy) }
        }
    }

    /// Named apart from `appendHeaderLine(_:)`: a literal argument would be converted to a
    /// pointer through a new C string.
    private func appendLiteralHeaderLine(_ line: StaticString) throws {
        try Self.withCString(line) { try appendHeaderLine($0) }
    }

    /// A literal as a C string: its own bytes, which are NUL-terminated
    /// (`StaticString.utf8Start`), without a copy. A one-character literal is stored as a
    /// Unicode scalar, with no bytes to point at, and goes through a `String`.
    private static func withCString<Result>(_ literal: StaticString, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard literal.hasPointerRepresentation else { return try literal.description.withCString(body) }
        return try body(UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    private func appendHeaderLine(_ line: UnsafePointer<CChar>?, forProxy: Bool = false) throws {
        guard let list = curl_slist_append(forProxy ? proxyHeaderList : headerList, line) else {
            throw CurlFailure.error(.unknown, "libcurl ran out of memory.", url: request.redactedURL)
        }
        if forProxy { proxyHeaderList = list } else { headerList = list }
    }

    /// Whether this libcurl was built with a default bundle of authorities (CURLOPT_CAINFO) that
    /// can be read: where it cannot, the directory is all there is. Asked once, by the first
    /// transfer, so after the engine's curl_global_init.
    private static let hasDefaultBundle: Bool = {
        guard let easy = curl_easy_init() else { return false }
        defer { curl_easy_cleanup(easy) }
        var path: UnsafeMutablePointer<CChar>?
        guard nlcurl_easy_getinfo_string(easy, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return false }
        return FileManager.default.isReadableFile(atPath: String(cString: path))
    }()

    private static func from(_ userdata: UnsafeMutableRawPointer) -> CurlEasyTransfer {
        Unmanaged<CurlEasyTransfer>.fromOpaque(userdata).takeUnretainedValue()
    }

    // MARK: Callbacks, on the engine's thread

    private func touch() {
        hasMoved = true
    }

    /// Stops the transfer from a callback with `reason`.
    private func abort(_ code: URLError.Code, _ message: String) {
        if abortReason == nil {
            abortReason = CurlFailure.error(code, message, url: request.redactedURL)
        }
    }

    private func connectionDidOpen() {
        hasConnection = true
        touch()
    }

    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        touch()
        guard abortReason == nil else { return 0 }
        switch head.consume(line, url: request.url) {
        case .proceed:
            return line.count
        case .failed(let message):
            abort(.badServerResponse, "The server's response is malformed: \(message).")
            return 0
        case .complete(let response):
            didDeliverHead = true
            if request.cookieStorage != nil {
                request.storeCookies(head.setCookieValues)
            }
            switch delegate.transferDidReceive(head: response) {
            case .proceed:
                return line.count
            case .pause, .takeAndPause:
                // Pausing is for body chunks; a head is always taken.
                return line.count
            case .abort:
                abort(.cancelled, "The transfer was stopped by its receiver.")
                return 0
            }
        }
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        touch()
        guard abortReason == nil else { return 0 }
        guard didDeliverHead else {
            abort(.badServerResponse, "The server sent a body without a response head.")
            return 0
        }
        switch delegate.transferDidReceive(body: chunk) {
        case .proceed:
            return chunk.count
        case .pause:
            isReceivePaused = true
            return nlcurl_writefunc_pause
        case .takeAndPause:
            // libcurl allows pausing from within its callbacks; what it has read past this chunk
            // it keeps for the resumption.
            pauseReceiving()
            return chunk.count
        case .abort:
            abort(.cancelled, "The transfer was stopped by its receiver.")
            return 0
        }
    }

    private func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        touch()
        guard let upload, abortReason == nil else { return nlcurl_readfunc_abort }
        switch upload.read(into: buffer) {
        case .bytes(let count):
            if upload.offset > reportedSent {
                reportedSent = upload.offset
                delegate.transferDidSend(upload.offset, of: upload.size)
            }
            return count
        case .failed(let message):
            abort(.cannotOpenFile, "The request body could not be sent: \(message).")
            return nlcurl_readfunc_abort
        }
    }

    private func rewindBody(to offset: Int64) -> Int32 {
        touch()
        guard let upload, upload.seek(to: offset) else { return nlcurl_seekfunc_cantseek }
        return nlcurl_seekfunc_ok
    }

    // MARK: Completion

    /// The transfer's outcome for libcurl's result `code`: `nil` for a complete response.
    func completionError(for code: CURLcode) -> URLError? {
        if let abortReason { return abortReason }
        if code == CURLE_OK {
            return didDeliverHead
                ? nil : CurlFailure.error(.badServerResponse, "The server's response has no head.", url: request.redactedURL)
        }
        return CurlFailure.error(
            for: code, detail: String(cString: errorBuffer), url: request.redactedURL, secrets: request.secrets,
            headIsComplete: didDeliverHead)
    }

    /// Records `now`, the engine's time after its last `curl_multi_perform`, as the transfer's
    /// last activity if a byte moved since the last call.
    func stampActivity(at now: UInt64) {
        guard hasMoved else { return }
        hasMoved = false
        lastActivity = now
    }

    /// Whether the transfer has been silent for longer than its idle timeout at `now`.
    func isIdle(at now: UInt64) -> Bool {
        guard let idleTimeout, hasConnection, !isReceivePaused else { return false }
        return now > lastActivity && now - lastActivity >= idleTimeout
    }

    /// When the idle timeout would fire, in `DispatchTime` nanoseconds.
    var idleDeadline: UInt64? {
        guard let idleTimeout, hasConnection, !isReceivePaused else { return nil }
        return lastActivity.addingReportingOverflow(idleTimeout).partialValue
    }

    /// Resumes body delivery after a pause.
    func resumeReceiving() {
        guard isReceivePaused, let easy else { return }
        isReceivePaused = false
        touch()
        curl_easy_pause(easy, nlcurl_pause_continue)
    }

    /// Pauses body delivery.
    func pauseReceiving() {
        guard !isReceivePaused, let easy else { return }
        isReceivePaused = true
        curl_easy_pause(easy, Int32(CURLPAUSE_RECV))
    }
}
