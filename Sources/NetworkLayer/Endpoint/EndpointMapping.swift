import Foundation

/// How a router changes each endpoint before building its request, declared once at the router:
/// an environment's base URL, headers or URL parameters for every endpoint, a per-endpoint
/// rewrite. Moya's `endpointClosure`, without a wrapper endpoint that forwards every requirement
/// by hand.
///
/// ```swift
/// enum Environment: Sendable {
///     case production, staging, local(URL)
///
///     var baseURL: URL {
///         switch self {
///         case .production: return URL(string: "https://api.themoviedb.org/3")!
///         case .staging: return URL(string: "https://staging.themoviedb.org/3")!
///         case .local(let url): return url
///         }
///     }
/// }
///
/// let router = Router<MovieApi>(mapping: .environment(Environment.staging.baseURL))
/// let custom = Router<MovieApi>(mapping: EndpointMapping { endpoint in
///     let mapped = MappedEndpoint(endpoint).adding(headers: ["X-Client": "ios/1.2"])
///     if case .search = endpoint { return mapped.replacing(timeout: 5) }
///     return mapped
/// })
/// ```
///
/// The environment is a value the router holds: no global mutable state, and one router per
/// environment where an app needs several.
public struct EndpointMapping<EndPoint: EndPointType>: Sendable {
    let map: (@Sendable (EndPoint) -> MappedEndpoint)?

    /// Maps each endpoint with `map`.
    public init(_ map: @escaping @Sendable (EndPoint) -> MappedEndpoint) {
        self.map = map
    }

    private init() {
        map = nil
    }

    /// Leaves endpoints as they are (the default).
    public static var identity: EndpointMapping { EndpointMapping() }

    /// Every endpoint with `baseURL` instead of its own: an environment.
    public static func environment(_ baseURL: URL) -> EndpointMapping {
        EndpointMapping { MappedEndpoint($0).replacing(baseURL: baseURL) }
    }

    /// Every endpoint with `headers` added over its own.
    public static func headers(_ headers: HTTPHeaders) -> EndpointMapping {
        EndpointMapping { MappedEndpoint($0).adding(headers: headers) }
    }

    /// Every endpoint with `parameters` added to its query.
    public static func urlParameters(_ parameters: Parameters) -> EndpointMapping {
        EndpointMapping { MappedEndpoint($0).adding(urlParameters: parameters) }
    }

    /// This mapping, then `next` on its result.
    public func then(_ next: @escaping @Sendable (MappedEndpoint) -> MappedEndpoint) -> EndpointMapping {
        let first = map ?? { MappedEndpoint($0) }
        return EndpointMapping { next(first($0)) }
    }
}
