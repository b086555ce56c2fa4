import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the server answered to one request: status, headers and body, with the request as sent.
public struct Response: Sendable, CustomStringConvertible {
    /// The request as it was sent, after plugins prepared it.
    public let request: URLRequest
    /// The HTTP response: status code and headers. Made when first asked for where the
    /// transport read the head itself (``statusCode`` and ``header(_:)`` do not need it).
    public var httpResponse: HTTPURLResponse { head.httpResponse }
    /// The body, empty when there was none or when it went to a file.
    public let data: Data
    /// Where a download's body was put (``HTTPTask/download(_:urlParameters:)``); `nil` otherwise.
    public let fileURL: URL?
    /// How the request went: timing, attempts, bytes, cache (``RequestMetrics``). Set by the
    /// router when it delivers the response; `nil` on a response made elsewhere.
    public var metrics: RequestMetrics? { delivery?.metrics ?? nil }
    /// What the router attaches when it delivers the response, held by reference: a response is
    /// copied at every step of its delivery, and with the metrics inline each copy was twice as
    /// long (`CopyCostTests`).
    var delivery: Delivery?
    /// The router's ``Router/redaction``, on a response it delivered: what ``description`` hides.
    var redaction: Redaction? { delivery?.redaction }
    /// The status and fields, with or without an `HTTPURLResponse` made yet.
    let head: ResponseHead
    /// Whether the router followed a redirect to get it (set by `RedirectStage`): the cache then
    /// checks that the last request carried the credentials the first one was looked up with.
    var redirected = false

    /// Whether the router's cache served it: ``CacheOutcome/network`` unless
    /// ``RequestMetrics/cacheOutcome`` says otherwise.
    public var cacheOutcome: CacheOutcome { metrics?.cacheOutcome ?? .network }

    /// Creates a response; transports and stubs build these.
    public init(request: URLRequest, httpResponse: HTTPURLResponse, data: Data, fileURL: URL? = nil) {
        self.init(request: request, head: .made(httpResponse), data: data, fileURL: fileURL)
    }

    package init(request: URLRequest, head: ResponseHead, data: Data, fileURL: URL? = nil) {
        self.request = request
        self.head = head
        self.data = data
        self.fileURL = fileURL
    }

    /// The HTTP status code, e.g. `200`.
    public var statusCode: Int { head.statusCode }

    /// The value of the response header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        head.value(named: name)
    }

    /// The body as UTF-8 text, with invalid bytes replaced.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// `"GET https://… → 200 (1234 bytes)"`, with secret query parameters redacted, since
    /// descriptions end up in logs: those of the router's ``Router/redaction`` (its plugins'
    /// included) on a response a router delivered, ``Redaction/default``'s on one made elsewhere.
    public var description: String {
        let method = request.httpMethod ?? "GET"
        return "\(method) \((redaction ?? .default).url(request.url)) → \(statusCode) (\(data.count) bytes)"
    }
}

extension Response {
    /// What a router attaches to a request's outcome when it delivers it, made once and shared by
    /// the response, its ``RequestContext`` and their copies: one allocation a request.
    final class Delivery: Sendable {
        /// The request's metrics; `nil` on a stream's head, which comes before the request ends.
        let metrics: RequestMetrics?
        /// The router's redaction, its plugins' included.
        let redaction: Redaction
        /// The transport that sent the request, `nil` for a stub: the credentials it adds on
        /// the wire (its cookies) are secrets of the request too (``Response/secretsSent(by:)``).
        /// Kept as long as the response is, and with it the transport's sessions.
        let sender: (any HTTPTransport)?

        init(metrics: RequestMetrics?, redaction: Redaction, sender: (any HTTPTransport)?) {
            self.metrics = metrics
            self.redaction = redaction
            self.sender = sender
        }
    }
}

extension Response {
    /// The response with `delivery` attached.
    func attaching(_ delivery: Delivery) -> Response {
        var response = self
        response.delivery = delivery
        return response
    }

    /// The same response with `data` as its body (a streamed body read for an error), and what
    /// the router attached, its redaction above all, kept.
    func withBody(_ data: Data) -> Response {
        var response = Response(request: request, head: head, data: data, fileURL: fileURL)
        response.delivery = delivery
        return response
    }
}

extension Result where Success == Response, Failure == NetworkError {
    /// The outcome with `delivery` on its response: the success's, or the one an unacceptable
    /// status, a decoding failure or a body that is not an event stream keeps.
    func attaching(_ delivery: Response.Delivery) -> Self {
        switch self {
        case .success(let response):
            return .success(response.attaching(delivery))
        case .failure(.unacceptableStatusCode(let response)):
            return .failure(.unacceptableStatusCode(response.attaching(delivery)))
        case .failure(.decoding(let error, let response)):
            return .failure(.decoding(error, response.attaching(delivery)))
        case .failure(.stream(.notAnEventStream(let response))):
            return .failure(.stream(.notAnEventStream(response.attaching(delivery))))
        case .failure:
            return self
        }
    }
}
