import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP header fields by name, as the tutorial defines them. Names are compared
/// case-insensitively wherever the package reads or merges them (RFC 9110 §5.1): a task's
/// `"accept"` replaces the endpoint's `"Accept"`.
public typealias HTTPHeaders = [String: String]

/// One remote endpoint, usually one case of an `enum` that describes a whole API.
///
/// Five requirements describe the request; the rest have defaults that an endpoint overrides
/// only where it needs to.
///
/// ```swift
/// enum MovieApi {
///     case popular(page: Int)
///     case details(id: Int)
/// }
///
/// extension MovieApi: EndPointType {
///     var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
///     var path: String {
///         switch self {
///         case .popular: return "movie/popular"
///         case .details(let id): return "movie/\(id)"
///         }
///     }
///     var httpMethod: HTTPMethod { .get }
///     var task: HTTPTask {
///         switch self {
///         case .popular(let page):
///             return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
///         case .details:
///             return .request
///         }
///     }
///     var headers: HTTPHeaders? { nil }
/// }
/// ```
///
/// Adding a case to the enum and to each `switch` adds an endpoint; nothing else changes.
public protocol EndPointType: Sendable {
    /// The URL that ``path`` is appended to, e.g. `https://api.themoviedb.org/3`.
    ///
    /// A trailing slash here and a leading slash on the path give one slash. A query on the base
    /// URL (`?api_key=…`) is kept.
    var baseURL: URL { get }

    /// The path below ``baseURL``, e.g. `"movie/popular"`.
    ///
    /// It may carry a query (`"search?q=x"`), which is kept before the task's URL parameters.
    /// Characters that cannot appear in a path (spaces, non-ASCII) are percent-encoded;
    /// existing `%XX` escapes are kept. A `#` fragment is rejected. Build segments from user data
    /// with ``PathSegment`` so that an id like `"../admin"` stays one segment.
    var path: String { get }

    /// The request method.
    var httpMethod: HTTPMethod { get }

    /// Parameters and body.
    var task: HTTPTask { get }

    /// Headers of this endpoint; a task's `additionalHeaders` are merged over them.
    var headers: HTTPHeaders? { get }

    /// How long the whole request may take, in seconds, before it fails with
    /// ``NetworkError/timedOut(after:)``. 60 by default.
    ///
    /// The router enforces it itself, because FoundationNetworking on Linux does not enforce a
    /// resource timeout. The request's `timeoutInterval` (the transport's idle timeout) is set a
    /// second past it, in whole seconds, so that this deadline is what ends a silent request.
    var timeout: TimeInterval { get }

    /// How the router's cache (``Router/cache``) may answer this endpoint, the same on every
    /// platform; `.useProtocolCachePolicy` (RFC 9111) by default. See ``HTTPCache/Policy``.
    var cachePolicy: URLRequest.CachePolicy { get }

    /// Whether the router's cache may answer and store this endpoint's responses; `true` by
    /// default. `false` for responses that must never be reused (a login, a one-time token).
    var isCacheable: Bool { get }

    /// Status codes that count as success; `200..<300` by default. Any other status fails with
    /// ``NetworkError/unacceptableStatusCode(_:)``, which keeps the response and its body.
    var acceptableStatusCodes: Set<Int> { get }

    /// How URL parameters are written into the query; ``URLParameterEncoder``'s defaults by default.
    var queryEncoder: URLParameterEncoder { get }

    /// A canned response body for stubbing and previews; empty by default.
    var sampleData: Data { get }

    /// The canned answer used when the router stubs this endpoint (see ``StubBehavior``):
    /// ``sampleData`` with status 200 and no headers by default. Override it to stub an error
    /// status or headers.
    var sampleResponse: StubResponse { get }

    /// How this endpoint is authorized: ``AuthorizationType/plugin`` for the scheme the router's
    /// ``AccessTokenPlugin`` or ``CredentialsPlugin`` was made with, another scheme, or `nil`
    /// for no credential at all (a login, a public endpoint, another company's API). `nil` by
    /// default: an endpoint gets a credential only when it asks for one, as with Moya's
    /// `AccessTokenAuthorizable`.
    var authorizationType: AuthorizationType? { get }
}

/// Created once: the default is read for every response.
private let successfulStatusCodes = Set(200..<300)

extension EndPointType {
    /// 60 seconds.
    public var timeout: TimeInterval { 60 }

    /// `.useProtocolCachePolicy`.
    public var cachePolicy: URLRequest.CachePolicy { .useProtocolCachePolicy }

    /// `true`.
    public var isCacheable: Bool { true }

    /// `200..<300`.
    public var acceptableStatusCodes: Set<Int> { successfulStatusCodes }

    /// `URLParameterEncoder()`: sorted keys, `key[]` arrays, `1`/`0` booleans.
    public var queryEncoder: URLParameterEncoder { URLParameterEncoder() }

    /// Empty.
    public var sampleData: Data { Data() }
}
