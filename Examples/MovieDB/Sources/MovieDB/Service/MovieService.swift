import Foundation
import NetworkLayer

/// The TMDB client: one method per endpoint, each returning the decoded model or throwing an
/// `APIError` that carries TMDB's own message.
///
/// The tutorial's `getNewMovies` (a completion handler, a status-code `switch`, manual decoding
/// and string errors) becomes one line per endpoint. Everything else is the router's
/// configuration, declared once in ``init(configuration:transport:retryPolicy:cache:)``:
///
/// - **where**: an `EndpointMapping` to the configured environment's base URL;
/// - **as whom**: the credential's `AccessTokenPlugin` (``TMDBCredential/plugin``);
/// - **429s**: `RetryPolicy.tmdbRateLimit`;
/// - **caching**: an `HTTPCache` that keeps what TMDB's `Cache-Control` allows, in memory by
///   default, so a second ``details(id:)`` within `max-age` sends nothing;
/// - **statuses and decoding**: a `NetworkManager` sorts statuses into `APIError` categories.
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
    private let manager: NetworkManager<MovieApi>

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - configuration: Host and credential; without a credential the service is offline.
    ///   - transport: Sends the requests; a new `URLSessionTransport` by default. Tests pass a
    ///     `StubTransport`. Unused offline.
    ///   - retryPolicy: When failed requests are sent again; `RetryPolicy.tmdbRateLimit`
    ///     by default. Tests pass `.none`, or the same rule with a shorter `maximumDelay`.
    ///   - cache: Keeps responses as long as TMDB's headers allow; a new 8 MiB memory cache by
    ///     default (`HTTPCache.inMemory()`), `nil` for none. To keep them across runs, pass a cache
    ///     with a folder: `try HTTPCache(configuration: .init(directory: folder))`.
    public init(
        configuration: TMDBConfiguration,
        transport: any HTTPTransport = URLSessionTransport(),
        retryPolicy: RetryPolicy = .tmdbRateLimit,
        cache: HTTPCache? = .inMemory()
    ) {
        let stubBehavior: StubBehavior = configuration.isOffline ? .immediate : .never
        let router = Router<MovieApi>(
            transport: transport,
            plugins: configuration.credential.map { [$0.plugin] } ?? [],
            retryPolicy: retryPolicy,
            stubBehavior: { _ in stubBehavior },
            cache: cache,
            mapping: .environment(configuration.baseURL))
        self.configuration = configuration
        self.manager = NetworkManager(
            router: router,
            decoder: TMDBCoding.makeDecoder(),
            errorMessage: .json(TMDBError.self, \.statusMessage, decoder: TMDBCoding.makeDecoder()))
    }

    /// Whether answers come from bundled sample data (no credential configured).
    public var isOffline: Bool { configuration.isOffline }

    /// Popular movies (`movie/popular`).
    public func popular(page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await manager.value(for: .popular(page: page))
    }

    /// Movies now in theatres (`movie/now_playing`).
    public func newMovies(page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await manager.value(for: .newMovies(page: page))
    }

    /// Movies recommended for movie `id` (`movie/{id}/recommendations`).
    public func recommended(id: Int, page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await manager.value(for: .recommended(id: id, page: page))
    }

    /// Trailers and clips of movie `id` (`movie/{id}/videos`).
    public func videos(id: Int) async throws(APIError) -> VideoList {
        try await manager.value(for: .video(id: id))
    }

    /// The details of movie `id` (`movie/{id}`); from the cache while TMDB's `max-age` lasts.
    public func details(id: Int) async throws(APIError) -> MovieDetails {
        try await manager.value(for: .details(id: id))
    }

    /// Movies whose title matches `query` (`search/movie`).
    public func search(query: String, page: Int = 1) async throws(APIError) -> Page<Movie> {
        try await manager.value(for: .search(query: query, page: page))
    }

    /// The image host and sizes (`configuration`); from the cache while TMDB's `max-age` lasts,
    /// then revalidated.
    public func configuration() async throws(APIError) -> APIConfiguration {
        try await manager.value(for: .configuration)
    }
}
