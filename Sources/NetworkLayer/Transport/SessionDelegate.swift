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
    private let transfers = Locked<[ObjectIdentifier: any SessionTaskHandler]>([:])
    /// Where the cookies of responses are stored, within ``CookieLimits``; `nil` to ignore them.
    private let cookieStorage: HTTPCookieStorage?
    /// Where the sessions' tasks are made, resumed and cancelled, in the order asked, off the
    /// callers' threads (``launch(_:making:)``).
    let starts = DispatchQueue(label: "NetworkLayer.URLSessionTransport.starts")

    init(cookieStorage: HTTPCookieStorage? = nil) {
        self.cookieStorage = cookieStorage
    }

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
    /// copy every header, credentials included, into a redirect to another origin. Not answered
    /// once the task's call has stopped (``SessionTaskHandler/answerRedirect(_:)``).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let call = call(for: task) else {
            completionHandler(nil)
            return
        }
        call.answerRedirect { completionHandler(nil) }
    }

    func takeChallengeResponse(for task: ObjectIdentifier) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: task) }
    }

    // MARK: Delegate-driven tasks

    /// Makes the task that `makeTask` makes, which must be a delegate-driven one, hands its events
    /// to `handler` and resumes it, on a serial queue of its own, unless `handler` is stopped by
    /// then; returns what stops the request without waiting: `handler` at once (a waiting
    /// completion hears `URLError(.cancelled)`), and the task on that queue, where a cancel never
    /// comes before the resume. Give `handler` its completion first.
    ///
    /// Not on the caller's thread: FoundationNetworking's `dataTask(with:)` and `cancel()` wait
    /// for the one work queue of the process, which a response of thousands of `Set-Cookie`
    /// fields to another session, or an endless body at loopback speed, keeps busy for seconds
    /// (5.7-10 s measured), and the caller is an app's main thread, or a Swift task that must
    /// hear its deadline on time.
    func launch(_ handler: any SessionTaskHandler, making makeTask: @escaping @Sendable () -> URLSessionTask)
        -> @Sendable () -> Void
    {
        let made = Locked<URLSessionTask?>(nil)
        starts.async { [self] in
            guard !handler.isStopped else { return }
            let task = makeTask()
            transfers.withLock { $0[ObjectIdentifier(task)] = handler }
            handler.attach(task)
            made.withLock { $0 = task }
            task.resume()
        }
        return { [starts] in
            handler.stop()
            starts.async { made.withLock { $0 }?.cancel() }
        }
    }

    private func call(for task: URLSessionTask) -> (any SessionTaskHandler)? {
        transfers.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        call(for: task)?.didSend(totalBytesSent, of: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    /// The body of a streamed upload, from its start: when the task starts, and whenever libcurl
    /// rewinds to send it again on a new connection (a kept-alive connection that the server
    /// closed before answering).
    ///
    /// A task with an in-memory body gets `nil`: handing it a stream traps in FoundationNetworking
    /// (NativeProtocol.swift:326), and without one the copy goes without its body and waits for
    /// ever. So that task is stopped here and its call told why; the transport sends the
    /// request again on a new task (``SendingAgainOnce``).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        let call = call(for: task)
        if let upload = call?.upload {
            completionHandler(upload.open())
            return
        }
        completionHandler(nil)
        guard let call else { return }
        // Not here: this runs on FoundationNetworking's work queue, and starting the request
        // anew creates a task, which waits for that queue (a trap, "dispatch_sync called on
        // queue already owned by current thread").
        DispatchQueue.global().async {
            call.bodyCannotBeSentAgain()
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let cookieStorage, let response = response as? HTTPURLResponse, let url = dataTask.currentRequest?.url ?? response.url,
            let values = response.value(forHTTPHeaderField: "Set-Cookie")
        {
            cookieStorage.store(setCookieValues: [values], from: url)
        }
        call(for: dataTask)?.didReceive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(for: dataTask)?.didReceive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let call = transfers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        // FoundationNetworking does not tell a delegate-driven task the head of a 301-308, which
        // it means to follow, and keeps its body; one it cannot follow (no usable `Location`)
        // ends without an error and with its head only here. Without it the caller heard
        // `URLError(.badServerResponse)`, status and headers lost (helper-36).
        if error == nil, let call, !call.hasFinalHead, let head = task.response as? HTTPURLResponse,
            (300..<400).contains(head.statusCode)
        {
            call.didReceive(head)
        }
        call?.complete(error: error, challengeResponse: takeChallengeResponse(for: ObjectIdentifier(task)))
    }
}

/// What ``SessionDelegate`` hands a delegate-driven task's events to: an upload or download
/// (``SessionTaskCall``) or a streamed response (``StreamTaskCall``).
protocol SessionTaskHandler: AnyObject, Sendable {
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    var upload: StreamedUpload? { get }
    /// libcurl asked for the in-memory body again, which FoundationNetworking cannot give; the
    /// task is being cancelled, and the call ends with ``URLError/bodyNotSentAgain``.
    func bodyCannotBeSentAgain()
    func didSend(_ sent: Int64, of total: Int64?)
    func didReceive(_ response: URLResponse)
    /// Whether a head other than an interim (1xx) one was received.
    var hasFinalHead: Bool { get }
    func didReceive(_ data: Data)
    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?)
    /// Ends the request at once: a completion still waiting hears `URLError(.cancelled)`, and
    /// nothing more is written.
    func stop()
    /// Runs `answer` (which hands FoundationNetworking the answer to the task's redirect) unless
    /// the handler has stopped, under the lock its stop takes.
    ///
    /// FoundationNetworking traps when the answer comes after the task was cancelled ("Received
    /// callback for HTTP redirection, but we're not waiting for it", HTTPURLProtocol.swift:705),
    /// and it waits for that answer as long as the redirect sits in the session's delegate queue
    /// behind other tasks' callbacks: a cancellation or a deadline landing then ended the process
    /// (CancelDuringRedirectTests). Every cancellation of ours stops the handler first, so under
    /// that lock the answer is either handed over before the cancellation reaches Foundation's
    /// work queue, or not at all: the cancelled task then ends without it.
    func answerRedirect(_ answer: () -> Void)
    /// Whether the handler has ended before its task was made: nothing is made then.
    var isStopped: Bool { get }
    /// The task made for the handler, before it is resumed.
    func attach(_ task: URLSessionTask)
}
