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
/// A task delegate answers only what it implements: the session's delegate still receives
/// authentication challenges (server trust, pinning) on Apple platforms and on Linux.
final class RedirectHandback: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
