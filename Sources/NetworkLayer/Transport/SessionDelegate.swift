import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a session that ``URLSessionTransport`` owns.
///
/// It ends HTTP authentication challenges at once, keeping the response that raised them
/// (FoundationNetworking otherwise hangs on them), returns redirects to the router unfollowed,
/// and drives uploads and downloads: the
/// session delegate, not a per-task one, because on Linux per-task delegates receive no
/// challenges and `download(for:delegate:)` corrupts files.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    // Keyed by task object: task identifiers are unique only within one session, and the
    // transport's two sessions share this delegate.
    private let challenged = Locked<[ObjectIdentifier: HTTPURLResponse]>([:])
    private let transfers = Locked<[ObjectIdentifier: TransferCall]>([:])

    /// Challenges raised by a server's 401; TLS challenges keep Foundation's default handling.
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic,
        NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
        NSURLAuthenticationMethodNegotiate,
    ]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod),
            let response = challenge.failureResponse as? HTTPURLResponse
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        // Credentials travel in headers (set by the endpoint or a plugin), never through
        // Foundation's challenge machinery, whose default handling hangs on Linux.
        challenged.withLock { $0[ObjectIdentifier(task)] = response }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// Hands every redirect back as the response: the router follows redirects itself, with one
    /// rule for credentials on every transport (``RedirectPolicy``). FoundationNetworking would
    /// copy every header, credentials included, into a redirect to another origin.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func takeChallengeResponse(for task: ObjectIdentifier) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: task) }
    }

    // MARK: Uploads and downloads

    func register(_ call: TransferCall, for task: URLSessionTask) {
        transfers.withLock { $0[ObjectIdentifier(task)] = call }
    }

    private func call(for task: URLSessionTask) -> TransferCall? {
        transfers.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        call(for: task)?.didSend(totalBytesSent, of: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    /// The body of a streamed upload, from its start: when the task starts, and whenever libcurl
    /// rewinds to send it again on a new connection. `nil` for every other task: handing a
    /// stream to a task with an in-memory body traps in FoundationNetworking
    /// (NativeProtocol.swift:326).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        completionHandler(call(for: task)?.upload?.open())
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        call(for: dataTask)?.didReceive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(for: dataTask)?.didReceive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let call = transfers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        call?.complete(error: error, challengeResponse: takeChallengeResponse(for: ObjectIdentifier(task)))
    }
}

/// One upload or download driven by ``SessionDelegate``: collects the response, writes a
/// download's 2xx body to its file as it arrives, reports progress, and resumes its
/// continuation exactly once.
final class TransferCall: @unchecked Sendable {
    enum Sink {
        /// Keep the body in memory (an upload's response).
        case memory
        /// Write a 2xx body to this file; keep any other in memory.
        case file(URL)
    }

    // Every mutable property is guarded by `lock`; delegate callbacks of one task arrive in
    // order, but the continuation is set from the calling task.
    private let lock = NSLock()
    private let sink: Sink
    private let progress: TransferProgressHandler
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    private var response: HTTPURLResponse?
    private var body = Data()
    private var file: FileHandle?
    private var fileFailure: (any Error)?
    private var received: Int64 = 0
    /// Where this response's body starts in the file: a resumed download appends.
    private var fileStart: Int64 = 0
    private var expected: Int64?
    private var stopped = false

    /// The request's method: a `HEAD` response has no body to count.
    private let method: String?
    private var didOpenFile = false
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    let upload: StreamedUpload?

    init(sink: Sink, method: String?, progress: @escaping TransferProgressHandler, upload: StreamedUpload? = nil) {
        self.sink = sink
        self.method = method
        self.progress = progress
        self.upload = upload
    }

    func start(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    /// Stops writing at once: Foundation may still deliver chunks it had queued after
    /// `cancel()`, and a download resumed right away must find the file as it was left.
    func stop() {
        lock.lock()
        stopped = true
        try? file?.close()
        file = nil
        lock.unlock()
    }

    func didSend(_ sent: Int64, of total: Int64?) {
        // A streamed body's length is unknown to Foundation, not to us.
        progress(sent, total ?? upload?.size)
    }

    func didReceive(_ response: URLResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard let http = response as? HTTPURLResponse, !stopped else { return }
        self.response = http
        guard case .file(let url) = sink, (200..<300).contains(http.statusCode) else { return }
        do {
            let opened = try DownloadFile.open(url, appending: http.statusCode == 206)
            if http.statusCode == 206 {
                // Append only what continues the file: "Content-Range: bytes START-END/TOTAL".
                let start = (http.value(forHTTPHeaderField: "Content-Range"))
                    .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "-" }).dropFirst().first }
                    .flatMap { Int64($0) }
                guard start == opened.offset else {
                    try? opened.handle.close()
                    fileFailure = DownloadError.unexpectedRange(start: start, expected: opened.offset)
                    return
                }
            }
            file = opened.handle
            didOpenFile = true
            received = opened.offset
            fileStart = opened.offset
            // The server controls Content-Length: an overflowing total is reported as unknown.
            let total = opened.offset.addingReportingOverflow(http.expectedContentLength)
            expected = http.expectedContentLength >= 0 && !total.overflow ? total.partialValue : nil
        } catch {
            fileFailure = error
        }
    }

    func didReceive(_ data: Data) {
        lock.lock()
        if stopped {
            lock.unlock()
        } else if let file {
            file.write(data)
            received += Int64(data.count)
            let (done, total) = (received, expected)
            lock.unlock()
            progress(done, total)
        } else if fileFailure == nil {
            body.append(data)
            lock.unlock()
        } else {
            // The download's file could not be opened: the body is dropped, not buffered, and
            // the transfer fails with that error at its end.
            lock.unlock()
        }
    }

    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        try? file?.close()
        file = nil
        let (response, body, fileFailure) = (self.response, self.body, self.fileFailure)
        let bodyBytes = didOpenFile ? received - fileStart : Int64(body.count)
        lock.unlock()
        guard let continuation else { return }

        if let fileFailure {
            continuation.resume(throwing: fileFailure)
        } else if let error {
            if let challengeResponse, (error as? URLError)?.code == .cancelled {
                continuation.resume(returning: (body, challengeResponse))
            } else {
                continuation.resume(throwing: URLError.normalized(error))
            }
        } else if let response {
            do {
                try BodyFraming.check(response, received: bodyBytes, method: method)
                continuation.resume(returning: (body, response))
            } catch {
                continuation.resume(throwing: error)
            }
        } else {
            continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

/// An upload body that FoundationNetworking reads as a stream (chunked on the wire), opened
/// from its start each time it is asked for.
struct StreamedUpload: Sendable {
    /// The body's length in bytes, for progress.
    let size: Int64
    let open: @Sendable () -> InputStream?

    init(size: Int64, open: @escaping @Sendable () -> InputStream?) {
        self.size = size
        self.open = open
    }
}
