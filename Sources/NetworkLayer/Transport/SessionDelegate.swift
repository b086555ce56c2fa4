import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a session that ``URLSessionTransport`` owns.
///
/// It ends HTTP authentication challenges at once, keeping the response that raised them
/// (FoundationNetworking otherwise hangs on them), and drives uploads and downloads: the
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

    /// Follows redirects, without the credentials when the redirect leaves the origin (scheme,
    /// host or port changes, an https→http downgrade included): FoundationNetworking copies every
    /// header of the original request into the redirected one.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(Self.redirect(request, from: task.currentRequest?.url ?? response.url))
    }

    /// `request` as it may follow a redirect from `origin`.
    static func redirect(_ request: URLRequest, from origin: URL?) -> URLRequest {
        guard let origin, let target = request.url, !isSameOrigin(origin, target) else { return request }
        var request = request
        let secret = Redaction.default.headers
        for name in (request.allHTTPHeaderFields ?? [:]).keys where secret.contains(name.lowercased()) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }

    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? {
            url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
        }
        return a.scheme?.lowercased() == b.scheme?.lowercased()
            && a.host?.lowercased() == b.host?.lowercased()
            && port(a) == port(b)
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
    private var expected: Int64?
    private var stopped = false

    init(sink: Sink, progress: @escaping TransferProgressHandler) {
        self.sink = sink
        self.progress = progress
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
        progress(sent, total)
    }

    func didReceive(_ response: URLResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard let http = response as? HTTPURLResponse, !stopped else { return }
        self.response = http
        guard case .file(let url) = sink, (200..<300).contains(http.statusCode) else { return }
        do {
            let opened = try DownloadFile.open(url, for: http)
            file = opened.handle
            received = opened.offset
            expected = opened.total
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
            continuation.resume(returning: (body, response))
        } else {
            continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
