import Foundation
import NetworkLayer

/// The TMDB endpoints the example uses: one case per endpoint.
///
/// Adding an endpoint means adding a case here and an arm to each `switch` below (and to
/// ``sampleData``); nothing else changes.
///
/// On its own, a case targets production without credentials (``baseURL``). ``MovieService``'s
/// router sets the configured host with an `EndpointMapping` and adds the credential with an
/// `AccessTokenPlugin`, so the enum never holds a host or a secret.
public enum MovieApi: Sendable, Equatable {
    /// `GET movie/popular`: the movies TMDB ranks as popular today.
    case popular(page: Int)
    /// `GET movie/now_playing`: the movies in theatres (the tutorial's "new movies").
    case newMovies(page: Int)
    /// `GET movie/{id}/recommendations`: movies recommended for movie `id`.
    case recommended(id: Int, page: Int)
    /// `GET movie/{id}/videos`: trailers, teasers and clips of movie `id`.
    case video(id: Int)
    /// `GET movie/{id}`: the details of movie `id`.
    case details(id: Int)
    /// `GET search/movie`: movies whose title matches `query`.
    case search(query: String, page: Int)
    /// `GET configuration`: the image host and sizes (``APIConfiguration``).
    case configuration
}

extension MovieApi: EndPointType {
    /// Production; ``MovieService``'s router maps it to the configured environment.
    public var baseURL: URL { NetworkEnvironment.production.baseURL }

    /// The path below the base URL. Ids go through `PathSegment`, so no value can add a
    /// segment, even though today's ids are integers.
    public var path: String {
        switch self {
        case .popular: return "movie/popular"
        case .newMovies: return "movie/now_playing"
        case .recommended(let id, _): return "movie/\(PathSegment(id))/recommendations"
        case .video(let id): return "movie/\(PathSegment(id))/videos"
        case .details(let id): return "movie/\(PathSegment(id))"
        case .search: return "search/movie"
        case .configuration: return "configuration"
        }
    }

    /// `GET`: every endpoint here only reads.
    public var httpMethod: HTTPMethod { .get }

    /// Page and query as URL parameters; the ids are in the path.
    public var task: HTTPTask {
        switch self {
        case .popular(let page), .newMovies(let page), .recommended(_, let page):
            return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
        case .search(let query, let page):
            return .requestParameters(
                bodyParameters: nil, bodyEncoding: .json, urlParameters: ["query": query, "page": page])
        case .video, .details, .configuration:
            return .request
        }
    }

    /// `Accept: application/json`. The credential is added by ``MovieService``'s plugin, not
    /// here, so the enum never holds a secret.
    public var headers: HTTPHeaders? { ["Accept": "application/json"] }

    /// 30 seconds: TMDB answers in well under a second, and a CLI user should not wait a minute
    /// (the library's default) to learn the network is down.
    public var timeout: TimeInterval { 30 }

    /// ``AuthorizationType/plugin``: every TMDB endpoint takes the credential, placed as the
    /// ``MovieService``'s plugin says. Without it an endpoint gets none (the library's default).
    public var authorizationType: AuthorizationType? { .plugin }
}
