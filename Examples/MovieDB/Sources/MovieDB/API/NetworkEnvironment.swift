import Foundation

/// Which TMDB deployment the example talks to, as in the classic "network layer" tutorial.
///
/// The environment is a value carried by ``TMDBConfiguration`` rather than a global constant, so
/// a test, a preview and the app can each use their own without touching shared state.
public enum NetworkEnvironment: Sendable, Equatable {
    /// The real API, `https://api.themoviedb.org/3`.
    case production
    /// `https://staging-api.themoviedb.org/3`. Illustrative: TMDB runs no public staging host.
    case staging
    /// `https://qa-api.themoviedb.org/3`. Illustrative: TMDB runs no public QA host.
    case qa
    /// Any other base URL, such as a local fake server or a proxy (`TMDB_BASE_URL`).
    case custom(URL)

    /// The URL that endpoint paths such as `movie/popular` are appended to.
    public var baseURL: URL {
        switch self {
        case .production: return Self.productionURL
        case .staging: return Self.stagingURL
        case .qa: return Self.qaURL
        case .custom(let url): return url
        }
    }

    // Force-unwrapped literals: each is a constant checked by the configuration tests, so the
    // unwrap cannot fail at run time for any input.
    private static let productionURL = URL(string: "https://api.themoviedb.org/3")!
    private static let stagingURL = URL(string: "https://staging-api.themoviedb.org/3")!
    private static let qaURL = URL(string: "https://qa-api.themoviedb.org/3")!
}
