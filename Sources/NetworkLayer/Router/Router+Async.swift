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
    /// - Throws: ``NetworkError``, always.
    public func request(_ route: EndPoint) async throws -> Response {
        try await awaitResponse(route, progress: nil)
    }

    /// Starts `route` and waits for its outcome, forwarding cancellation of the calling task.
    func awaitResponse(_ route: EndPoint, progress: ProgressReporter?) async throws -> Response {
        let slot = HandleSlot()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                slot.fill(start(route, progress: progress) { result in continuation.resume(with: result) })
            }
        } onCancel: {
            slot.cancel()
        }
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
    public func request<T: Decodable>(
        _ route: EndPoint, as type: T.Type, decoder: JSONDecoder = JSONDecoder()
    ) async throws -> T {
        try await request(route).decode(T.self, using: decoder)
    }
}

/// Holds the handle of an awaited request for the task's cancellation handler, which may run
/// before the handle exists (the task was already cancelled) or at the same time.
private final class HandleSlot: Sendable {
    private struct State {
        var handle: RequestHandle?
        var isCancelled = false
    }

    private let state = Locked(State())

    func fill(_ handle: RequestHandle) {
        let cancelled = state.withLock { state -> Bool in
            state.handle = handle
            return state.isCancelled
        }
        if cancelled { handle.cancel() }
    }

    func cancel() {
        let handle = state.withLock { state -> RequestHandle? in
            state.isCancelled = true
            return state.handle
        }
        handle?.cancel()
    }
}
