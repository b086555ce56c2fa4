import Dispatch
import Foundation

/// Sends an API's requests and hands back decoded models or categorized failures, so that an
/// app's service methods contain no status-code handling of their own.
///
/// ```swift
/// struct MovieService {
///     // TMDBError has `status_message`, read with a plain JSONDecoder.
///     let manager = NetworkManager(router: Router<MovieApi>(), errorMessage: .json(TMDBError.self, \.status_message))
///
///     func popular(page: Int) async -> Result<MoviePage, APIError> {
///         await manager.request(.popular(page: page), as: MoviePage.self)
///     }
/// }
/// ```
///
/// Status codes map to ``APIError`` categories (401/403 ``APIError/authentication(_:)``, 404
/// ``APIError/notFound(_:)``, 429 ``APIError/rateLimited(_:)`` …); bodies decode with the
/// manager's `JSONDecoder`; an empty body decodes to `nil` for an optional type and to
/// ``EmptyResponse``.
public struct NetworkManager<EndPoint: EndPointType>: Sendable {
    /// The router that sends the requests.
    public let router: Router<EndPoint>
    /// Decodes success bodies; a plain `JSONDecoder` unless given.
    public let decoder: JSONDecoder
    /// Reads the server's message from error bodies; ``ErrorMessage/none`` unless given.
    public let errorMessage: ErrorMessage

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - router: Sends the requests; a new ``Router`` by default.
    ///   - decoder: Decodes success bodies, e.g. with `.convertFromSnakeCase`; `JSONDecoder()` by default.
    ///   - errorMessage: Reads the server's message from error bodies; none by default.
    public init(router: Router<EndPoint> = Router<EndPoint>(), decoder: JSONDecoder = JSONDecoder(), errorMessage: ErrorMessage = .none) {
        self.router = router
        self.decoder = decoder
        self.errorMessage = errorMessage
    }

    /// Sends `route` and decodes the body as `T`. Cancelling the calling task cancels the
    /// request and gives ``APIError/failed(_:)`` with ``NetworkError/cancelled``.
    ///
    /// It runs on the caller's actor (`isolation`, left out), the decode included, as
    /// ``Router/request(_:isolation:)`` does.
    public func request<T: Decodable & Sendable>(
        _ route: EndPoint, as type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation
    ) async -> Result<T, APIError> {
        do {
            let response = try await router.request(route)
            return .success(try response.decode(T.self, using: decoder))
        } catch {
            return .failure(APIError(error, errorMessage: errorMessage))
        }
    }

    /// Sends `route`, decodes the body as `T`, and calls `completion` exactly once on the
    /// router's callback queue. Decoding runs before, off that queue.
    ///
    /// ```swift
    /// let handle = manager.request(.popular(page: 1), as: MoviePage.self) { result in
    ///     if case .success(let page) = result { self.movies = page.results }
    /// }
    /// ```
    ///
    /// - Returns: A handle that cancels this request.
    @discardableResult
    public func request<T: Decodable & Sendable>(
        _ route: EndPoint, as type: T.Type = T.self,
        completion: @escaping @Sendable (Result<T, APIError>) -> Void
    ) -> any Cancellable {
        let queue = router.callbackQueue
        let decoder = self.decoder
        let errorMessage = self.errorMessage
        return router.start(route) { result in
            let outcome =
                result
                .flatMap { response -> Result<T, NetworkError> in
                    Result { () throws(NetworkError) -> T in try response.decode(T.self, using: decoder) }
                }
                .mapError { APIError($0, errorMessage: errorMessage) }
            queue.async { completion(outcome) }
        }
    }

    /// Sends `route` and returns the decoded body, throwing ``APIError``.
    ///
    /// ```swift
    /// let movie = try await manager.value(for: .details(id: 550), as: MovieDetails.self)
    /// ```
    public func value<T: Decodable & Sendable>(
        for route: EndPoint, as type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation
    ) async throws(APIError) -> T {
        try await request(route, as: type).get()
    }
}
