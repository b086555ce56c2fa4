import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The task delegate that ``URLSessionTransport`` gives each task on a session of the caller's:
/// it hands every redirect back unfollowed, so that the router follows it with its own rules
/// (``RedirectPolicy``: credentials dropped across origins) whatever the session's delegate
/// would do. Without it Foundation follows redirects itself and carries `Authorization` and
/// `Cookie` to another origin.
///
/// One per task, which it also cancels (``cancel(_:)``): a redirect's answer is not handed over
/// once the task is cancelled, by the rule of ``SessionTaskHandler/answerRedirect(_:)``.
///
/// A task delegate answers only what it implements: the session's delegate still receives
/// authentication challenges (server trust, pinning) on Apple platforms and on Linux.
final class RedirectHandback: NSObject, URLSessionTaskDelegate, Sendable {
    private let cancelled = Locked(false)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        cancelled.withLock { cancelled in
            if !cancelled { completionHandler(nil) }
        }
    }

    /// Cancels `task`, whose delegate this is, from another thread; its redirect is no longer
    /// answered.
    func cancel(_ task: URLSessionTask) {
        cancelled.withLock { $0 = true }
        task.cancelWithoutWaiting()
    }
}
