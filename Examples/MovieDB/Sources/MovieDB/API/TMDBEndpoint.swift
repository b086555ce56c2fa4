import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

/// A ``MovieApi`` case together with the ``TMDBConfiguration`` to send it with: the endpoint
/// type that ``MovieService``'s router actually sends.
///
/// Why a wrapper: the enum says *what* to ask (path, parameters), the configuration says
/// *where* and *as whom*. Keeping them apart means the enum stays a plain list of cases (adding
/// an endpoint is adding a case), while the host and the credential are injected per service
/// instead of living in global mutable state. Everything the enum declares is forwarded
/// unchanged (every requirement of `EndPointType`, defaulted ones included, so an override added
/// to the enum later takes effect); the wrapper only replaces the base URL and adds the credential:
///
/// - ``TMDBCredential/accessToken(_:)``: an `Authorization: Bearer` header;
/// - ``TMDBCredential/apiKey(_:)``: `api_key` in the base URL's query, which the router keeps
///   in front of every endpoint's own parameters, whatever kind of ``HTTPTask`` it uses.
public struct TMDBEndpoint: EndPointType {
    /// The endpoint.
    public let api: MovieApi
    /// Host and credential.
    public let configuration: TMDBConfiguration

    /// Wraps `api` for sending with `configuration`.
    public init(_ api: MovieApi, configuration: TMDBConfiguration) {
        self.api = api
        self.configuration = configuration
    }

    /// The configured environment's base URL, with `api_key` in its query when the credential
    /// is an API key.
    public var baseURL: URL {
        let base = configuration.baseURL
        guard case .apiKey(let key) = configuration.credential,
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
            // The library's encoder, so the key is escaped exactly like every other parameter.
            let pair = try? URLParameterEncoder().query(from: ["api_key": key])
        else {
            return base
        }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + pair
        } else {
            components.percentEncodedQuery = pair
        }
        // components.url is nil only for a malformed base, which the router then reports.
        return components.url ?? base
    }

    /// The enum's path.
    public var path: String { api.path }
    /// The enum's method.
    public var httpMethod: HTTPMethod { api.httpMethod }
    /// The enum's task.
    public var task: HTTPTask { api.task }
    /// The enum's timeout.
    public var timeout: TimeInterval { api.timeout }
    /// The enum's cache policy.
    public var cachePolicy: URLRequest.CachePolicy { api.cachePolicy }
    /// The enum's acceptable status codes.
    public var acceptableStatusCodes: Set<Int> { api.acceptableStatusCodes }
    /// The enum's query encoder.
    public var queryEncoder: URLParameterEncoder { api.queryEncoder }
    /// The enum's sample body, used in offline mode.
    public var sampleData: Data { api.sampleData }
    /// The enum's sample response, used in offline mode.
    public var sampleResponse: StubResponse { api.sampleResponse }

    /// The enum's headers, plus `Authorization: Bearer` when the credential is a token.
    public var headers: HTTPHeaders? {
        guard case .accessToken(let token) = configuration.credential else { return api.headers }
        var headers = api.headers ?? [:]
        headers["Authorization"] = "Bearer \(token)"
        return headers
    }
}
