import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves one request's bytes: the only part of the package that touches the network.
///
/// Everything else (request building, validation, cancellation, deadlines, decoding) runs the
/// same over any transport, which is how stubbing works and how another HTTP engine plugs in.
///
/// A transport has one call, ``execute(_:body:progress:)``: a request (with its body, when the
/// body is kept outside it) goes in; the response head and its body, read as it arrives, come
/// out. A plain request, an upload, a download and a stream are ways of producing and
/// consuming that body, written once above the transport (``send(_:)``, ``upload(_:body:progress:)``,
/// ``download(_:to:progress:)``, ``stream(_:)``), so a transport of your own, or one that wraps
/// another, does all four by implementing one method.
///
/// A transport must honour Swift task cancellation: when the calling task is cancelled it stops
/// the transfer and throws (`CancellationError` or `URLError(.cancelled)`).
///
/// ```swift
/// struct RecordingTransport: HTTPTransport {
///     let base: any HTTPTransport
///     func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
///         print(request.httpMethod ?? "GET", request.url?.path ?? "")
///         return try await base.execute(request, body: body, progress: progress)
///     }
///     // Without it, a router's cache stores nothing sent through this transport.
///     func headersAdded(to request: URLRequest) -> HTTPHeaders? {
///         base.headersAdded(to: request)
///     }
///     var maximumResponseSize: Int { base.maximumResponseSize }
/// }
/// let router = Router<MovieApi>(transport: RecordingTransport(base: URLSessionTransport()))
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns as soon as the response head has arrived, with the body to
    /// read as it comes, whatever the status.
    ///
    /// - Parameters:
    ///   - request: The request; its `httpBody` is the body when `body` is `nil`.
    ///   - body: A body kept outside the request (an upload's file or bytes), or `nil`.
    ///   - progress: Receives the bytes of the body sent so far and its total.
    /// - Throws: `URLError` for transfer failures; any error for other failures. Non-2xx
    ///   statuses are not errors here: the router validates them.
    func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
        -> StreamedResponse

    /// The largest response body, in bytes, that ``send(_:)`` and ``upload(_:body:progress:)``
    /// keep in memory: past it they stop the transfer and throw
    /// `URLError(.dataLengthExceedsMaximum)` (``NetworkError/responseTooLarge(limit:)`` through
    /// the router). ``defaultMaximumResponseSize`` (32 MiB) unless a transport says otherwise;
    /// one that wraps another returns the wrapped one's.
    var maximumResponseSize: Int { get }

    /// The headers this transport puts on the wire for `request` by itself, besides the
    /// request's own: the `Cookie` from its cookie storage, a session's additional headers.
    /// `nil` when it cannot tell what it will add.
    ///
    /// The router's ``HTTPCache`` keys a response by every credential that reaches the wire, so
    /// it reads these before it answers or stores: a response cached for one user's cookie is
    /// never served to another's. When this is `nil` the cache neither answers nor stores the
    /// request, identical requests are not shared (``Router/deduplicatesRequests``), and a
    /// redirect to another origin is not followed (``RedirectPolicy``). The default
    /// implementation returns `nil`: a transport of your own that adds nothing returns `[:]`,
    /// and one that wraps another returns the wrapped one's.
    func headersAdded(to request: URLRequest) -> HTTPHeaders?
}

/// A response whose body is read as it arrives: what ``HTTPTransport/execute(_:body:progress:)``
/// returns.
public struct StreamedResponse: Sendable {
    /// The head: status and headers.
    public let response: HTTPURLResponse
    /// The body, chunk by chunk.
    public let body: BodyStream

    /// Creates a streamed response.
    public init(response: HTTPURLResponse, body: BodyStream) {
        self.response = response
        self.body = body
    }
}

extension HTTPTransport {
    /// `nil`: a transport that does not say what it adds is taken to add credentials the
    /// cache cannot see, and the router's cache neither answers nor stores its requests.
    public func headersAdded(to request: URLRequest) -> HTTPHeaders? { nil }

    /// ``defaultMaximumResponseSize``: 32 MiB.
    public var maximumResponseSize: Int { Self.defaultMaximumResponseSize }
}
