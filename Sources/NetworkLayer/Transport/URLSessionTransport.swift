import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: a `URLSession` data task per request.
///
/// Created with a configuration (the default), it owns its sessions (one for data tasks, with
/// completion handlers, and one for uploads and downloads, driven by its delegate so that
/// progress is reported and downloads stream to disk) and answers authentication challenges
/// itself, because on Linux FoundationNetworking **hangs forever** on a 401 with
/// `WWW-Authenticate: Basic` when no credential is found (neither `timeoutInterval` nor the
/// resource timeout ends it). The transport cancels the challenge and returns the 401 response
/// it carried, with its body, so the caller sees it at once.
///
/// Created with a session of your own, it uses that session as it is: challenges go to your
/// session's delegate. The router's deadline still ends such a hang. Redirects are the
/// router's on any session: each task gets a task delegate that hands them back unfollowed.
///
/// A response body it keeps in memory (every body but a download's 2xx one, which goes to its
/// file) may be up to ``maximumResponseSize`` bytes, decoded:
/// ``HTTPTransport/defaultMaximumResponseSize`` (32 MiB) unless given. A larger one ends the
/// request with ``NetworkError/responseTooLarge(limit:)`` as soon as the limit is passed, so
/// memory stays within the limit; on a session of your own, which buffers the whole body
/// before the transport sees it, the limit is checked only at the end.
///
/// An owned session has no `URLCache` and no `URLCredentialStorage`, on every platform: the
/// router's ``HTTPCache`` is the one cache, with its rules for credentials (on Linux,
/// FoundationNetworking's asynchronous cache lookup also races with cancellation and can trap
/// the process), and credentials travel in headers that the endpoint or a plugin sets, never
/// from a store that Foundation consults by itself.
///
/// An owned session's cookies (its configuration's `httpCookieStorage`, when
/// `httpShouldSetCookies`) are added by the transport, by RFC 6265's rules: FoundationNetworking
/// adds every cookie of the host, a `Secure` one to plain http too, and whatever its `Path`. A
/// request's own `Cookie` header is kept, as on ``HTTPTransport``s of libcurl. The cookies of
/// responses are stored by the transport too (unless the configuration's
/// `httpCookieAcceptPolicy` is `.never`), within the bounds libcurl keeps: at most 50 from one
/// response, 3,000 in the storage, and 150 in one request's `Cookie` header of at most 8,190
/// bytes. A session of the caller's adds and stores its cookies as Foundation does.
///
/// On Linux an `https` request with a `Proxy-Authorization` header is refused,
/// `URLError(.userAuthenticationRequired)`, nothing sent: FoundationNetworking would send the
/// proxy's credentials to the origin server. Give them in the proxy's URL
/// (`https_proxy=http://user:password@host:port`).
///
/// An owned session's tasks are made, resumed and cancelled on a serial queue of the
/// transport's, in the order asked, never on the caller's thread: on Linux,
/// FoundationNetworking's `dataTask(with:)` waits for a work queue that every session of the
/// process shares, and another session's response can keep it busy for seconds.
///
/// A background configuration (`URLSessionConfiguration.background(withIdentifier:)`) is
/// refused: background sessions run tasks out of process and do not accept completion
/// handlers (on Apple platforms they raise an Objective-C exception). Every request through
/// such a transport fails at once with a `URLError` that says so.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpMaximumConnectionsPerHost = 8
/// let router = Router<MovieApi>(transport: URLSessionTransport(configuration: configuration))
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests are sent with.
    public let session: URLSession
    /// The largest response body, in bytes after decoding, kept in memory; see
    /// ``HTTPTransport/defaultMaximumResponseSize``.
    public let maximumResponseSize: Int
    private let owner: SessionOwner?
    /// Why this transport sends nothing (a background configuration), checked once here.
    private let refusal: URLError?
    /// The storage whose cookies the transport adds itself, for an owned session whose
    /// configuration sets cookies (the session's own setting is turned off).
    private let cookieStorage: HTTPCookieStorage?

    /// Creates a transport that owns a new session made from `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration. `nil`, the default, is
    ///     `URLSessionConfiguration.default` with its cookies in ``defaultCookieStorage``: the
    ///     same on Apple platforms, and on Linux kept in memory rather than written to a file
    ///     that other programs read. A configuration you give is used as it is, its cookie
    ///     storage included.
    ///   - maximumResponseSize: The largest response body kept in memory, in bytes after
    ///     decoding; ``HTTPTransport/defaultMaximumResponseSize`` (32 MiB) unless given.
    public init(
        configuration: URLSessionConfiguration? = nil, maximumResponseSize: Int = Self.defaultMaximumResponseSize
    ) {
        // A copy: URLSession copies its configuration anyway, and the caller's must not change.
        let configuration = configuration.map { ($0.copy() as? URLSessionConfiguration) ?? $0 } ?? Self.defaultConfiguration()
        if let refusal = Self.refusal(forIdentifier: configuration.identifier) {
            self = URLSessionTransport(refusing: refusal)
            return
        }
        // One cache, the router's: on Apple platforms `.default` has a URLCache that would
        // answer too, ignoring the endpoint's cache policy and the credential rules. On Linux,
        // FoundationNetworking also consults it asynchronously before a task starts, and a
        // cancel() that lands meanwhile completes the task after it has left the session's
        // registry: a fatal error (swift-corelibs-foundation#3296).
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Credentials come from headers only; a shared credential store would add them for a
        // protection space the router never sees.
        configuration.urlCredentialStorage = nil
        // Sent by the transport, by RFC 6265's rules, and stored by it within `CookieLimits` (see
        // the type's documentation): FoundationNetworking stores every `Set-Cookie` field of a
        // response on its one work queue, which 10,000 of them kept busy for 5.8-6.8 s.
        let cookieStorage = configuration.httpShouldSetCookies ? configuration.httpCookieStorage : nil
        let storesCookies = configuration.httpCookieAcceptPolicy != .never ? configuration.httpCookieStorage : nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let delegate = SessionDelegate(cookieStorage: storesCookies)
        // Foundation's default serial delegate queues, for both sessions. FoundationNetworking
        // completes a task and cancels it in two operations on that queue, each guarded by
        // `state != .completed`; on a concurrent queue both pass and the task is completed and
        // removed from its registry twice, which traps (seen in 6 of 11 stress runs).
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let transferSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.session = session
        self.maximumResponseSize = maximumResponseSize
        self.owner = SessionOwner(session: session, transferSession: transferSession, delegate: delegate)
        self.refusal = nil
        self.cookieStorage = cookieStorage
    }

    /// Creates a transport on `session`, which stays yours: it is not invalidated, and its
    /// delegate keeps answering authentication challenges. Bodies larger than
    /// ``HTTPTransport/defaultMaximumResponseSize`` fail, once received. A background session is
    /// refused (see ``URLSessionTransport``).
    public init(session: URLSession) {
        self.init(session: session, maximumResponseSize: Self.defaultMaximumResponseSize)
    }

    /// Creates a transport on `session`, which stays yours, whose bodies kept in memory may be
    /// up to `maximumResponseSize` bytes. `session` receives a body whole before the transport
    /// sees it, so the limit is checked at the end and does not bound memory: a transport that
    /// owns its session stops the transfer as soon as the limit is passed.
    public init(session: URLSession, maximumResponseSize: Int) {
        self.session = session
        self.maximumResponseSize = maximumResponseSize
        self.owner = nil
        self.refusal = Self.refusal(forIdentifier: session.configuration.identifier)
        self.cookieStorage = nil
    }

    /// A transport whose every request fails with `refusal`, nothing sent. Its session is never
    /// made from the caller's configuration: a background session reconnects to the system's
    /// transfer daemon as soon as it exists.
    init(refusing refusal: URLError) {
        self.session = URLSession(configuration: .ephemeral)
        self.maximumResponseSize = Self.defaultMaximumResponseSize
        self.owner = nil
        self.refusal = refusal
        self.cookieStorage = nil
    }

    /// The error every request gets through a session configuration with `identifier`: only
    /// background configurations have one (Apple platforms; FoundationNetworking has none).
    static func refusal(forIdentifier identifier: String?) -> URLError? {
        guard identifier != nil else { return nil }
        return URLError(
            .unsupportedURL,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "URLSessionTransport cannot send through a background URLSession configuration: background sessions "
                    + "accept no completion handlers. Use URLSessionConfiguration.default or .ephemeral."
            ])
    }

    /// The session for uploads and downloads and its delegate, when the transport owns its
    /// sessions; `nil` for a session of the caller's.
    var ownedTransferSession: (session: URLSession, delegate: SessionDelegate)? {
        owner.map { ($0.transferSession, $0.delegate) }
    }

    /// Sends `request` with a data task; cancelling the calling task cancels the data task.
    ///
    /// - Throws: `RequestBuildingError` for a method or header that is not valid HTTP (libcurl
    ///   would write it into the request as it is); the task's `URLError`, or
    ///   `URLError(.badServerResponse)` when the response is not HTTP or its body disagrees with
    ///   its `Content-Length`.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try request.validateHead()
        return try await sendThroughCallback(request)
    }
}

extension URLSessionTransport: CallbackTransport {
    /// Starts a delegate-driven data task on an owned session: its body is counted as it
    /// arrives, and the task ends as soon as it passes ``maximumResponseSize``. A data task with
    /// a completion handler costs one trip through Foundation's delegate queue where this one
    /// costs four, but FoundationNetworking holds such a task's whole body, however large,
    /// before handing it over: an endless body grew the process by 8.3 GiB (issue 23).
    ///
    /// On a session of the caller's, a data task with a completion handler, whose body is
    /// checked against the limit once it is complete.
    package func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
        let request = withStoredCookies(request.withTimeoutFoundationTakes)
        if let refusal = refusal ?? Self.proxyCredentialRefusal(for: request) {
            completion(.failure(refusal))
            return {}
        }
        guard let owner else { return startOnCallersSession(request, completion: completion) }
        let (session, limit) = (session, maximumResponseSize)
        let makeCall: @Sendable () -> SessionTaskCall = {
            SessionTaskCall(target: .memory, method: request.httpMethod, maximumBodySize: limit, progress: { _, _ in })
        }
        let makeTask = keepingSessions { session.dataTask(with: request) }
        guard request.httpBody != nil || request.httpBodyStream != nil else {
            // Nothing that libcurl could fail to send again: it asks for a body only to resend one.
            let call = makeCall()
            call.start(completion)
            return owner.delegate.launch(call, making: makeTask)
        }
        let sending = SendingAgainOnce(delegate: owner.delegate, completion: completion) { (makeCall(), makeTask) }
        return sending.stop
    }

    /// `makeTask`, holding this transport's owned sessions until it has run. They are
    /// invalidated when the last copy of the transport goes, and FoundationNetworking traps
    /// ("Session invalidated") on a task made after that, as a task made later
    /// (``SessionDelegate/launch(_:making:)``), or a request sent again (``SendingAgainOnce``),
    /// would be.
    func keepingSessions(_ makeTask: @escaping @Sendable () -> URLSessionTask) -> @Sendable () -> URLSessionTask {
        let owner = owner
        return { withExtendedLifetime(owner) { makeTask() } }
    }

    private func startOnCallersSession(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
        let method = request.httpMethod
        let limit = maximumResponseSize
        let task = session.dataTask(with: request) { data, response, error in
            let body = data ?? Data()
            guard !ResponseSizeLimit.isExceeded(holding: 0, adding: body.count, limit: limit) else {
                completion(.failure(ResponseSizeLimit.error(limit: limit)))
                return
            }
            completion(
                TaskOutcome.result(
                    body: body, response: response, error: error, challenge: nil, method: method,
                    bodyBytes: Int64(body.count)))
        }
        let handback = RedirectHandback()
        task.delegate = handback
        task.resume()
        return { handback.cancel(task) }
    }
}

extension URLSessionTransport {
    /// `request` as FoundationNetworking may be given it: its head checked
    /// (``URLRequest/validateHead(body:)``), no proxy credential bound for the origin
    /// (``proxyCredentialRefusal(for:)``), its timeout bounded
    /// (``URLRequest/withTimeoutFoundationTakes``), the stored cookies added.
    func readyForFoundation(_ request: URLRequest, body: UploadBody? = nil) throws -> URLRequest {
        try request.validateHead(body: body)
        if let refusal = Self.proxyCredentialRefusal(for: request) { throw refusal }
        return withStoredCookies(request.withTimeoutFoundationTakes)
    }

    /// `request` with the `Cookie` header of ``cookieStorage`` for its URL, unless it has one.
    func withStoredCookies(_ request: URLRequest) -> URLRequest {
        guard let cookie = cookieAdded(to: request) else { return request }
        var request = request
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        return request
    }

    /// The `Cookie` header an owned session's transport adds to `request`: `nil` without a
    /// storage, when the request has a `Cookie` header of its own, or when the storage has no
    /// cookie for it.
    func cookieAdded(to request: URLRequest) -> String? {
        guard let storage = cookieStorage, let url = request.url, request.headerValue(named: "Cookie") == nil else { return nil }
        return storage.cookieHeader(for: url)
    }
}

extension URLRequest {
    /// The request with a `timeoutInterval` that FoundationNetworking can take: it converts the
    /// interval to an `Int` of milliseconds for libcurl and traps on infinity, NaN and anything
    /// past about 9e15 seconds either way. Such a value (a plugin's "no idle timeout", found from
    /// outside 2026-11-26) becomes ``Seconds/longest``, about 32 years.
    var withTimeoutFoundationTakes: URLRequest {
        guard !(abs(timeoutInterval) <= Seconds.longest) else { return self }
        var request = self
        request.timeoutInterval = Seconds.longest
        return request
    }
}

extension URLSessionTask {
    /// Cancels the task from another thread: `cancel()` waits for FoundationNetworking's work
    /// queue, which a fast body keeps busy for seconds (an endless body's request ended 37 s
    /// after its deadline, issue 23), and the caller is a router's deadline or a cancellation
    /// that must finish the request at once.
    func cancelWithoutWaiting() {
        DispatchQueue.global().async { self.cancel() }
    }
}

/// Invalidates the owned sessions when the last copy of its transport goes away; a URLSession
/// retains its delegate and is never freed until invalidated.
private final class SessionOwner: Sendable {
    let session: URLSession
    let transferSession: URLSession
    let delegate: SessionDelegate

    init(session: URLSession, transferSession: URLSession, delegate: SessionDelegate) {
        self.session = session
        self.transferSession = transferSession
        self.delegate = delegate
    }

    deinit {
        session.finishTasksAndInvalidate()
        transferSession.finishTasksAndInvalidate()
    }
}
