import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: a `URLSession` data task per request.
///
/// Created with a configuration (the default), it owns its session and answers authentication
/// challenges itself, because on Linux FoundationNetworking **hangs forever** on a 401 with
/// `WWW-Authenticate: Basic` when no credential is found (neither `timeoutInterval` nor the
/// resource timeout ends it). The transport cancels the challenge and returns the 401 response
/// it carried, so the caller sees the status and headers at once. The body of such a 401 is
/// not available on Linux: FoundationNetworking has not read it at that point.
///
/// Created with a session of your own, it uses that session as it is: challenges go to your
/// session's delegate. The router's deadline still ends such a hang.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpMaximumConnectionsPerHost = 8
/// let router = Router<MovieApi>(transport: URLSessionTransport(configuration: configuration))
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests are sent with.
    public let session: URLSession
    private let owner: SessionOwner?

    /// Creates a transport that owns a new session made from `configuration`.
    ///
    /// - Parameter configuration: `URLSessionConfiguration.default` unless given.
    public init(configuration: URLSessionConfiguration = .default) {
        let delegate = ChallengeDelegate()
        // A concurrent delegate queue: the completion handlers only resume a continuation and the
        // delegate's state is locked, so nothing needs the serial queue URLSession makes by
        // default, which serializes every completion of the session.
        let delegateQueue = OperationQueue()
        delegateQueue.name = "NetworkLayer.URLSessionTransport"
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
        self.session = session
        self.owner = SessionOwner(session: session, delegate: delegate)
    }

    /// Creates a transport on `session`, which stays yours: it is not invalidated, and its
    /// delegate keeps answering authentication challenges.
    public init(session: URLSession) {
        self.session = session
        self.owner = nil
    }

    /// Sends `request` with a data task; cancelling the calling task cancels the data task.
    ///
    /// - Throws: the task's `URLError`, or `URLError(.badServerResponse)` when the response is not
    ///   HTTP.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let call = DataTaskCall()
        let task = session.dataTask(with: request) { data, response, error in
            call.complete(data: data, response: response, error: error)
        }
        // The identifier, not the task: capturing the task would make task and call hold each other.
        let delegate = owner?.delegate
        let taskIdentifier = task.taskIdentifier
        call.challengeResponse = { delegate?.takeChallengeResponse(for: taskIdentifier) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Invalidates an owned session when the last copy of its transport goes away; a URLSession
/// retains its delegate and is never freed until invalidated.
private final class SessionOwner: Sendable {
    let session: URLSession
    let delegate: ChallengeDelegate

    init(session: URLSession, delegate: ChallengeDelegate) {
        self.session = session
        self.delegate = delegate
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// One data task's completion, handed to the awaiting continuation exactly once.
private final class DataTaskCall: @unchecked Sendable {
    // Both are set before `task.resume()`, so before the completion handler can run.
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    var challengeResponse: @Sendable () -> HTTPURLResponse? = { nil }
    private let lock = NSLock()

    func start(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        guard let continuation else { return }

        let challenged = challengeResponse()
        if let error {
            if let challenged, (error as? URLError)?.code == .cancelled {
                continuation.resume(returning: (data ?? Data(), challenged))
            } else {
                continuation.resume(throwing: error)
            }
            return
        }
        guard let http = response as? HTTPURLResponse else {
            continuation.resume(throwing: URLError(.badServerResponse))
            return
        }
        continuation.resume(returning: (data ?? Data(), http))
    }
}

/// Ends HTTP authentication challenges at once, keeping the response that raised them.
private final class ChallengeDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])

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
        challenged.withLock { $0[task.taskIdentifier] = response }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func takeChallengeResponse(for taskIdentifier: Int) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: taskIdentifier) }
    }
}
