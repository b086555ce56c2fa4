import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint of any API, so that one ``Router`` (`Router<MultiTarget>`) sends the requests of
/// several: app code holds one client. Every requirement is the wrapped endpoint's.
///
/// ```swift
/// let router = Router<MultiTarget>(plugins: [AccessTokenPlugin(token: { token })])
/// let movie = try await router.request(MultiTarget(MovieApi.details(id: 550)), as: Movie.self)
/// let user = try await router.request(MultiTarget(AccountApi.me), as: User.self)
/// ```
///
/// Plugins see the wrapped endpoint itself in ``RequestContext/target``: `context.target as?
/// MovieApi` works the same with or without a `MultiTarget` around it.
public struct MultiTarget: EndPointType, EndpointWrapper {
    /// The endpoint sent.
    public let target: any EndPointType

    /// Wraps `target`.
    public init(_ target: any EndPointType) {
        self.target = target
    }

    var wrapped: any EndPointType { target }

    /// The wrapped endpoint's.
    public var baseURL: URL { target.baseURL }
    /// The wrapped endpoint's.
    public var path: String { target.path }
    /// The wrapped endpoint's.
    public var httpMethod: HTTPMethod { target.httpMethod }
    /// The wrapped endpoint's.
    public var task: HTTPTask { target.task }
    /// The wrapped endpoint's.
    public var headers: HTTPHeaders? { target.headers }
    /// The wrapped endpoint's.
    public var timeout: TimeInterval { target.timeout }
    /// The wrapped endpoint's.
    public var cachePolicy: URLRequest.CachePolicy { target.cachePolicy }
    /// The wrapped endpoint's.
    public var isCacheable: Bool { target.isCacheable }
    /// The wrapped endpoint's.
    public var acceptableStatusCodes: Set<Int> { target.acceptableStatusCodes }
    /// The wrapped endpoint's.
    public var queryEncoder: URLParameterEncoder { target.queryEncoder }
    /// The wrapped endpoint's.
    public var sampleData: Data { target.sampleData }
    /// The wrapped endpoint's.
    public var sampleResponse: StubResponse { target.sampleResponse }
    /// The wrapped endpoint's.
    public var authorizationType: AuthorizationType? { target.authorizationType }
}

/// An endpoint that stands for another one (``MultiTarget``, ``MappedEndpoint``): plugins are
/// given the one inside.
protocol EndpointWrapper {
    var wrapped: any EndPointType { get }
}

extension RequestContext {
    /// The endpoint a wrapper stands for, through every layer of wrapping.
    static func unwrapped(_ endpoint: any EndPointType) -> any EndPointType {
        var endpoint = endpoint
        // A wrapper cannot contain itself; the bound only guards against a pathological type.
        for _ in 0..<16 {
            guard let wrapper = endpoint as? any EndpointWrapper else { break }
            endpoint = wrapper.wrapped
        }
        return endpoint
    }
}
