import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers without a network: from a closure, or with one fixed response.
///
/// Everything above the transport (request building, plugins, validation, retries,
/// decoding, cancellation, deadlines) runs exactly as for a real request, so a stubbed request
/// fails or succeeds with the same ``Response`` and ``NetworkError`` shapes as a real one.
///
/// ```swift
/// // In a test: every request answers 404 with a TMDB error body.
/// let router = Router<MovieApi>(transport: StubTransport(
///     StubResponse(statusCode: 404, data: Data(#"{"status_code":34}"#.utf8))))
///
/// // Or decide per request:
/// let transport = StubTransport { request in
///     request.url?.path == "/3/movie/popular" ? StubResponse(data: popularJSON) : StubResponse(statusCode: 404)
/// }
/// ```
public struct StubTransport: HTTPTransport {
    /// Decides the answer to a request.
    public typealias Responder = @Sendable (URLRequest) async throws -> StubResponse

    private let respond: Responder
    private let delay: TimeInterval

    /// Answers each request with what `respond` returns, after `delay` seconds.
    public init(delay: TimeInterval = 0, _ respond: @escaping Responder) {
        self.respond = respond
        self.delay = delay
    }

    /// Answers every request with `response`, after `delay` seconds.
    public init(_ response: StubResponse, delay: TimeInterval = 0) {
        self.init(delay: delay) { _ in response }
    }

    /// Waits `delay` (cancellably), then answers.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled during the delay;
    ///   `URLError(.badURL)` for a request without URL; whatever the responder throws.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if delay > 0 {
            try await Task.sleep(nanoseconds: UInt64(min(delay, RequestHandle.longestDeadline) * 1_000_000_000))
        }
        try Task.checkCancellation()
        let stub = try await respond(request)
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: stub.statusCode, httpVersion: "HTTP/1.1", headerFields: stub.headers)
        else {
            throw URLError(.badURL)
        }
        return (stub.data, response)
    }
}
