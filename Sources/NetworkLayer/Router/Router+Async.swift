import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Router {
    /// Sends `route` and returns the response.
    ///
    /// Cancelling the calling `Task` cancels the request: this throws ``NetworkError/cancelled``
    /// at once and the transfer stops. ``Router/cancel()`` reaches these requests too.
    ///
    /// ```swift
    /// let response = try await router.request(.popular(page: 1))
    /// print(response.statusCode)
    /// ```
    ///
    /// - Throws: ``NetworkError``.
    public func request(_ route: EndPoint) async throws(NetworkError) -> Response {
        try await awaitResponse(route, progress: nil)
    }

    /// Starts `route` and waits for its outcome, forwarding cancellation of the calling task.
    func awaitResponse(_ route: EndPoint, progress: ProgressReporter?) async throws(NetworkError) -> Response {
        try await awaitCallback { deliver in
            let handle = start(route, progress: progress, deliver: deliver)
            return { handle.cancel() }
        }.get()
    }

    /// Sends `route` and decodes the body as `T` (see ``Response/decode(_:using:)`` for empty bodies).
    ///
    /// ```swift
    /// let page = try await router.request(.popular(page: 1), as: MoviePage.self)
    /// ```
    ///
    /// - Parameters:
    ///   - route: The endpoint to send.
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a new `JSONDecoder` by default.
    /// - Throws: ``NetworkError``; ``NetworkError/decoding(_:_:)`` keeps the `DecodingError` and
    ///   the response.
    @inlinable
    public func request<T: Decodable>(
        _ route: EndPoint, as type: T.Type, decoder: JSONDecoder = JSONDecoder()
    ) async throws(NetworkError) -> T {
        try await request(route).decode(T.self, using: decoder)
    }
}
