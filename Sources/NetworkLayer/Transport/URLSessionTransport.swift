import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: a `URLSession` data task per request.
///
/// Created with a configuration (the default), it owns its sessions (one for data tasks, one
/// for uploads and downloads, so that a long transfer's delegate callbacks do not queue ahead of
/// small requests' completions) and answers authentication challenges itself, because on Linux FoundationNetworking **hangs forever** on a 401 with
/// `WWW-Authenticate: Basic` when no credential is found (neither `timeoutInterval` nor the
/// resource timeout ends it). The transport cancels the challenge and returns the 401 response
/// it carried, so the caller sees the status and headers at once. The body of such a 401 is
/// not available on Linux: FoundationNetworking has not read it at that point.
///
/// Created with a session of your own, it uses that session as it is: challenges go to your
/// session's delegate. The router's deadline still ends such a hang.
///
/// On Linux an owned session has no `URLCache`: FoundationNetworking's asynchronous cache
/// lookup races with cancellation and can trap the process.
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
        // A copy: URLSession copies its configuration anyway, and the caller's must not change.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        #if canImport(FoundationNetworking)
        // FoundationNetworking consults the cache asynchronously before a task starts, and a
        // cancel() that lands meanwhile completes the task after it has left the session's
        // registry: a fatal error (swift-corelibs-foundation#3296). An API client rarely wants
        // URLCache anyway; HTTP caching belongs to the server's headers and the app.
        configuration.urlCache = nil
        #endif
        let delegate = SessionDelegate()
        // Foundation's default serial delegate queues, for both sessions. FoundationNetworking
        // completes a task and cancels it in two operations on that queue, each guarded by
        // `state != .completed`; on a concurrent queue both pass and the task is completed and
        // removed from its registry twice, which traps (seen in 6 of 11 stress runs).
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let transferSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.session = session
        self.owner = SessionOwner(session: session, transferSession: transferSession, delegate: delegate)
    }

    /// Creates a transport on `session`, which stays yours: it is not invalidated, and its
    /// delegate keeps answering authentication challenges.
    public init(session: URLSession) {
        self.session = session
        self.owner = nil
    }

    /// The session for uploads and downloads and its delegate, when the transport owns its
    /// sessions; `nil` for a session of the caller's.
    var ownedTransferSession: (session: URLSession, delegate: SessionDelegate)? {
        owner.map { ($0.transferSession, $0.delegate) }
    }

    /// Sends `request` with a data task; cancelling the calling task cancels the data task.
    ///
    /// - Throws: the task's `URLError`, or `URLError(.badServerResponse)` when the response is not
    ///   HTTP.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        // An owned session drives its data tasks through its delegate: FoundationNetworking asks
        // the delegate about redirects only for such tasks, and ours strips credentials when a
        // redirect leaves the origin.
        if let owner {
            let task = owner.session.dataTask(with: request)
            return try await run(task, call: TransferCall(sink: .memory, method: request.httpMethod, progress: { _, _ in }), delegate: owner.delegate)
        }
        let call = DataTaskCall(method: request.httpMethod)
        let task = session.dataTask(with: request) { data, response, error in
            call.complete(data: data, response: response, error: error)
        }
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

/// One data task's completion on a session of the caller's, handed to the awaiting
/// continuation exactly once.
private final class DataTaskCall: @unchecked Sendable {
    // Set before `task.resume()`, so before the completion handler can run.
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    private let lock = NSLock()
    private let method: String?

    init(method: String?) {
        self.method = method
    }

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

        if let error {
            continuation.resume(throwing: URLError.normalized(error))
            return
        }
        guard let http = response as? HTTPURLResponse else {
            continuation.resume(throwing: URLError(.badServerResponse))
            return
        }
        do {
            try BodyFraming.check(http, received: Int64(data?.count ?? 0), method: method)
            continuation.resume(returning: (data ?? Data(), http))
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
