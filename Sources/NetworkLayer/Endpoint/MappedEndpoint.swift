import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint as a router's ``EndpointMapping`` changed it before building the request: every
/// requirement copied from the original endpoint, then replaced or added to. Moya's `Endpoint`.
///
/// ```swift
/// let mapping = EndpointMapping<MovieApi> { endpoint in
///     MappedEndpoint(endpoint)
///         .replacing(baseURL: URL(string: "https://staging.example.com/3")!)
///         .adding(headers: ["X-Client": "ios/1.2"])
/// }
/// ```
///
/// Plugins see the request built from it, and the original endpoint in ``RequestContext/target``.
public struct MappedEndpoint: EndPointType, EndpointWrapper {
    /// The endpoint it was made from.
    public let original: any EndPointType
    /// The original's, unless replaced.
    public var baseURL: URL
    /// The original's, unless replaced.
    public var path: String
    /// The original's, unless replaced.
    public var httpMethod: HTTPMethod
    /// The original's, unless replaced.
    public var task: HTTPTask
    /// The original's, with the headers added over them (names compared case-insensitively).
    public var headers: HTTPHeaders?
    /// The original's, unless replaced.
    public var timeout: TimeInterval
    /// The original's, unless replaced.
    public var cachePolicy: URLRequest.CachePolicy
    /// The original's, unless replaced.
    public var isCacheable: Bool
    /// The original's, unless replaced.
    public var acceptableStatusCodes: Set<Int>
    /// The original's, unless replaced.
    public var queryEncoder: URLParameterEncoder
    /// The original's, unless replaced.
    public var sampleData: Data
    /// The original's, unless replaced.
    public var sampleResponse: StubResponse
    /// URL parameters added after the task's own, whatever the task (``adding(urlParameters:)``).
    public var additionalURLParameters: Parameters
    /// The original's, always: plugins such as ``AccessTokenPlugin`` read it from
    /// ``RequestContext/target``, the endpoint the caller named, so a mapping cannot change it.
    public var authorizationType: AuthorizationType? { original.authorizationType }

    var wrapped: any EndPointType { original }

    /// Copies every requirement of `endpoint`.
    public init(_ endpoint: some EndPointType) {
        original = endpoint
        baseURL = endpoint.baseURL
        path = endpoint.path
        httpMethod = endpoint.httpMethod
        task = endpoint.task
        headers = endpoint.headers
        timeout = endpoint.timeout
        cachePolicy = endpoint.cachePolicy
        isCacheable = endpoint.isCacheable
        acceptableStatusCodes = endpoint.acceptableStatusCodes
        queryEncoder = endpoint.queryEncoder
        sampleData = endpoint.sampleData
        sampleResponse = endpoint.sampleResponse
        additionalURLParameters = [:]
    }

    /// With another base URL: an environment (production, staging, a local server).
    public func replacing(baseURL: URL) -> MappedEndpoint {
        var copy = self
        copy.baseURL = baseURL
        return copy
    }

    /// With `headers` added over the endpoint's (Moya's `adding(newHTTPHeaderFields:)`).
    public func adding(headers added: HTTPHeaders) -> MappedEndpoint {
        var copy = self
        var merged = headers ?? [:]
        // Sorted, so that of two added names differing only in case the same one wins every time.
        for (name, value) in added.sorted(by: { $0.key < $1.key }) {
            for existing in merged.keys where HeaderName.same(existing, name) { merged[existing] = nil }
            merged[name] = value
        }
        copy.headers = merged
        return copy
    }

    /// With `parameters` added to the query, after the task's own URL parameters.
    public func adding(urlParameters parameters: Parameters) -> MappedEndpoint {
        var copy = self
        copy.additionalURLParameters.merge(parameters) { _, new in new }
        return copy
    }

    /// With another task (Moya's `replacing(task:)`).
    public func replacing(task: HTTPTask) -> MappedEndpoint {
        var copy = self
        copy.task = task
        return copy
    }

    /// With another deadline.
    public func replacing(timeout: TimeInterval) -> MappedEndpoint {
        var copy = self
        copy.timeout = timeout
        return copy
    }
}
