import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hooks into every request of a router: authentication, custom headers, logging, metrics.
///
/// All hooks have default implementations; a plugin implements only what it needs. For each
/// request they run in this order, with plugins in the order the router was given them:
///
/// 1. ``prepare(_:context:)`` of every plugin (may be `async` and may throw, e.g. to fetch a token),
/// 2. ``willSend(_:context:)`` of every plugin, then the request is sent,
/// 3. ``didReceive(_:context:)`` of every plugin, for **every** outcome: success, status error,
///    transport failure, cancellation, deadline and build failure alike (Moya skips some),
/// 4. ``process(_:context:)`` of every plugin, each getting the previous one's result,
/// 5. the completion.
///
/// Steps 1–2 repeat for each retry or replay. ``shouldReplay(after:context:)`` lets a plugin
/// replay a failed request once (token refresh).
///
/// ```swift
/// struct UserAgentPlugin: PluginType {
///     func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
///         var request = request
///         request.setValue("MovieApp/1.0", forHTTPHeaderField: "User-Agent")
///         return request
///     }
/// }
/// let router = Router<MovieApi>(plugins: [UserAgentPlugin(), NetworkLoggerPlugin()])
/// ```
public protocol PluginType: Sendable {
    /// Returns the request to send, changed as the plugin needs. Throwing fails the request
    /// with the error (wrapped in ``NetworkError/underlying(_:)`` unless it is a ``NetworkError``).
    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Called right before the request is sent.
    func willSend(_ request: URLRequest, context: RequestContext)

    /// Called once per request with its outcome, before ``process(_:context:)``.
    func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext)

    /// Returns the result the caller gets; may turn a failure into a success or the reverse.
    func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError>

    /// Called when the server answered with an unacceptable status; returning `true` sends the
    /// request again, prepared anew. The router asks at most once per request, so a replay
    /// cannot loop. Throwing fails the request with the error (a failed token refresh).
    func shouldReplay(after response: Response, context: RequestContext) async throws -> Bool

    /// The names of the secrets this plugin puts into requests (a token's header or query
    /// parameter). The router adds them to its ``Router/redaction``: they are hidden wherever the
    /// package shows a request, and the headers are removed when a redirect leaves the origin.
    var redaction: Redaction { get }
}

extension PluginType {
    /// Returns `request` unchanged.
    public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
    /// Does nothing.
    public func willSend(_ request: URLRequest, context: RequestContext) {}
    /// Does nothing.
    public func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {}
    /// Returns `result` unchanged.
    public func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError> { result }
    /// `false`.
    public func shouldReplay(after response: Response, context: RequestContext) async throws -> Bool { false }
    /// ``Redaction/none``: no secret of its own.
    public var redaction: Redaction { .none }
}
