import Foundation
import NetworkLayer

/// The TMDB client: one method per endpoint, each returning the decoded model or throwing an
/// `APIError` that carries TMDB's own message.
///
/// The tutorial's `getNewMovies` (a completion handler, a status-code `switch`, manual decoding
/// and string errors) becomes one line per endpoint: `NetworkManager` sorts statuses into
/// `APIError` categories and decodes, ``RateLimitPolicy`` retries 429s.
///
/// ```swift
/// let configuration = try TMDBConfiguration(environmentVariables: ProcessInfo.processInfo.environment)
/// let service = MovieService(configuration: configuration)
/// do {
///     let page = try await service.popular()
///     print(page.results.map(\.title))
/// } catch .authentication(let failure) {
///     print("TMDB refused the key:", failure.serverMessage ?? "")
/// } catch {
///     print(error.localizedDescription)
/// }
/// ```
///
/// Offline mode: when the configuration has no credential, the router answers every request
/// with the endpoint's bundled ``MovieApi/sampleData`` through the same pipeline (request
/// building, validation, decoding), and nothing touches the network.
public struct MovieService: Sendable {
    /// Host and credential of every request.
    public let configuration: TMDBConfiguration
    /// How 429 responses are retried.
    public let rateLimitPolicy: RateLimitPolicy
    private let manager: NetworkManager<TMDBEndpoint>

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - configuration: Host and credential; without a credential the service is offline.
    ///   - transport: Sends the requests; a new `URLSessionTransport` by default. Tests pass a
    ///     `StubTransport`. Unused offline.
    ///   - rateLimitPolicy: How 429s are retried; ``RateLimitPolicy/standard`` by default.
    public init(
        configuration: TMDBConfiguration,
        transport: any HTTPTransport = URLSessionTransport(),
        rateLimitPolicy: RateLimitPolicy = .standard
    ) {
        let stubBehavior: StubBehavior = configuration.isOffline ? .immediate : .never
        let router = Router<TMDBEndpoint>(transport: transport, stubBehavior: { _ in stubBehavior })
        self.configuration = configuration
        self.rateLimitPolicy = rateLimitPolicy
        self.manager = NetworkManager(
            router: router,
            decoder: TMDBCoding.makeDecoder(),
            errorMessage: .json(TMDBError.self, \.statusMessage, decoder: TMDBCoding.makeDecoder()))
    }

    /// Whether answers come from bundled sample data (no credential configured).
    public var isOffline: Bool { configuration.isOffline }

    /// Popular movies (`movie/popular`).
    public func popular(page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await send(.popular(page: page))
    }

    /// Movies now in theatres (`movie/now_playing`).
    public func newMovies(page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await send(.newMovies(page: page))
    }

    /// Movies recommended for movie `id` (`movie/{id}/recommendations`).
    public func recommended(id: Int, page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await send(.recommended(id: id, page: page))
    }

    /// Trailers and clips of movie `id` (`movie/{id}/videos`).
    public func videos(id: Int) async throws(APIError) -> VideoList {
        try await send(.video(id: id))
    }

    /// The details of movie `id` (`movie/{id}`).
    public func details(id: Int) async throws(APIError) -> MovieDetails {
        try await send(.details(id: id))
    }

    /// Movies whose title matches `query` (`search/movie`).
    public func search(query: String, page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await send(.search(query: query, page: page))
    }

    /// Sends `api` with this service's configuration and decodes the answer as `T`, retrying
    /// 429s: the only request code of the service, so every endpoint behaves alike.
    private func send<T: Decodable & Sendable>(_ api: MovieApi, as type: T.Type = T.self) async throws(APIError) -> T {
        let endpoint = TMDBEndpoint(api, configuration: configuration)
        let manager = self.manager
        return try await rateLimitPolicy.run { () async throws(APIError) -> T in
            try await manager.value(for: endpoint, as: T.self)
        }
    }
}
