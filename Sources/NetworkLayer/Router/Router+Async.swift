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
    /// It runs on the caller's actor: called from the main actor, the request is built and
    /// started there and the caller resumes there, with no trip through the global executor; a
    /// stub or a cache hit answers without another thread, and a network request costs the one
    /// hop back from the transport.
    ///
    /// ```swift
    /// let response = try await router.request(.popular(page: 1))
    /// print(response.statusCode)
    /// ```
    ///
    /// - Parameters:
    ///   - route: The endpoint to send.
    ///   - isolation: The actor the call runs on; the caller's, leave it out.
    /// - Throws: ``NetworkError``.
    public func request(
        _ route: EndPoint, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> Response {
        try await awaitResponse(route, progress: nil)
    }

    /// Starts `route` and waits for its outcome on the caller's actor, forwarding cancellation
    /// of the calling task. A task cancelled before the call sends nothing.
    func awaitResponse(
        _ route: EndPoint, progress: ProgressReporter?, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> Response {
        // Checked before starting: started, the request would be cancelled only once `start`
        // returned, and an answer that came first (a stub's always did) would win.
        guard !Task.isCancelled else { throw .cancelled }
        return try await awaitCallback { deliver in
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
    ///   - isolation: The actor the call, the decode included, runs on; the caller's, leave it out.
    /// - Throws: ``NetworkError``; ``NetworkError/decoding(_:_:)`` keeps the `DecodingError` and
    ///   the response.
    @inlinable
    public func request<T: Decodable>(
        _ route: EndPoint, as type: T.Type, decoder: JSONDecoder = JSONDecoder(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> T {
        try await request(route).decode(T.self, using: decoder)
    }
}
