import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds a bearer token or API key to every request, from an async provider, and refreshes it
/// once when the server answers 401.
///
/// Each endpoint says how it is authorized (``EndPointType/authorizationType``): by default as
/// ``placement`` says; `nil` for no token at all (a login, a public endpoint); or
/// `Authorization: Bearer`, `Basic` or a custom scheme for that endpoint only.
///
/// Concurrent requests that hit 401 together share one refresh: 50 requests with an expired
/// token cause one call of `refresh`, then each is replayed once with the new token. If the
/// refresh fails, every one of them fails with the refresh error
/// (``NetworkError/underlying(_:)``).
///
/// ```swift
/// let auth = AccessTokenPlugin(
///     token: { try await keychain.accessToken() },
///     refresh: { expired in try await authService.refresh(expired) })
/// let router = Router<MovieApi>(plugins: [auth])
///
/// // An API key in the query instead: ?api_key=…
/// let key = AccessTokenPlugin(placement: .queryParameter("api_key"), token: { apiKey })
/// ```
public struct AccessTokenPlugin: PluginType {
    /// Where the token goes.
    public enum Placement: Sendable, Equatable {
        /// `Authorization: Bearer <token>` (the default).
        case bearer
        /// `<name>: <token>`, e.g. `X-Api-Key`.
        case header(String)
        /// `?<name>=<token>` appended to the query, e.g. `api_key`.
        case queryParameter(String)
    }

    /// Where the token goes.
    public let placement: Placement
    private let store: TokenStore

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - placement: Where the token goes; `.bearer` by default.
    ///   - token: Returns the current token; called for the first request, then again only
    ///     after a failed refresh.
    ///   - refresh: Returns a new token for an expired one; `nil` (the default) means a 401 is
    ///     final.
    public init(
        placement: Placement = .bearer,
        token: @escaping @Sendable () async throws -> String,
        refresh: (@Sendable (_ expired: String) async throws -> String)? = nil
    ) {
        self.placement = placement
        self.store = TokenStore(fetch: token, refresh: refresh)
    }

    /// The token's header or query parameter, and `Authorization` (where an endpoint's own
    /// scheme puts the token), which the router hides in logs and errors and keeps from
    /// redirects that leave the origin.
    public var redaction: Redaction {
        switch placement {
        case .bearer: return Redaction(headers: ["Authorization"])
        case .header(let name): return Redaction(headers: [name, "Authorization"])
        case .queryParameter(let name): return Redaction(headers: ["Authorization"], queryParameters: [name])
        }
    }

    /// Adds the current token to the request, as the endpoint's
    /// ``EndPointType/authorizationType`` says; nothing (and no call of the token provider)
    /// when that is `nil`.
    public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard let authorization = context.target.authorizationType else { return request }
        let token = try await store.current()
        var request = request
        switch (authorization.scheme, placement) {
        case (let scheme?, _):
            try request.setHeader("\(scheme) \(token)", for: "Authorization")
        case (nil, .bearer):
            try request.setHeader("Bearer \(token)", for: "Authorization")
        case (nil, .header(let name)):
            try request.setHeader(token, for: name)
        case (nil, .queryParameter(let name)):
            try URLParameterEncoder().encode(urlRequest: &request, with: [name: token])
        }
        return request
    }

    /// On 401: refreshes the token the request was sent with (once, shared with concurrent
    /// requests), and replays the request. An endpoint authorized with `nil` sent no token, and
    /// is not replayed.
    public func shouldReplay(after response: Response, context: RequestContext) async throws -> Bool {
        guard response.statusCode == 401, let authorization = context.target.authorizationType,
            let sent = token(in: response.request, authorization: authorization)
        else { return false }
        return try await store.refresh(replacing: sent)
    }

    private func token(in request: URLRequest, authorization: AuthorizationType) -> String? {
        switch (authorization.scheme, placement) {
        case (let scheme?, _):
            return Self.credential(in: request.headerValue(named: "Authorization"), scheme: scheme)
        case (nil, .bearer):
            return Self.credential(in: request.headerValue(named: "Authorization"), scheme: "Bearer")
        case (nil, .header(let name)):
            return request.headerValue(named: name)
        case (nil, .queryParameter(let name)):
            guard let url = request.url else { return nil }
            return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.last { $0.name == name }?.value
        }
    }

    /// The token of `"<scheme> <token>"`.
    private static func credential(in value: String?, scheme: String) -> String? {
        guard let value, value.hasPrefix(scheme + " ") else { return nil }
        return String(value.dropFirst(scheme.count + 1))
    }
}

/// The current token and at most one refresh in flight.
actor TokenStore {
    private let fetch: @Sendable () async throws -> String
    private let refresher: (@Sendable (String) async throws -> String)?
    private var token: String?
    private var fetching: Task<String, any Error>?
    private var refreshing: (expired: String, task: Task<String, any Error>)?
    /// The last refresh that failed, so that stragglers of the same 401 wave fail with the
    /// same error instead of starting a refresh of their own. Kept for
    /// ``TokenStore/failureMemory`` seconds: a later request may try again.
    private var failedRefresh: (expired: String, error: any Error, at: Date)?
    static let failureMemory: TimeInterval = 2

    init(fetch: @escaping @Sendable () async throws -> String, refresh: (@Sendable (String) async throws -> String)?) {
        self.fetch = fetch
        self.refresher = refresh
    }

    func current() async throws -> String {
        if let refreshing { return try await refreshing.task.value }
        if let token { return token }
        if let fetching { return try await fetching.value }
        let task = Task { try await fetch() }
        fetching = task
        defer { fetching = nil }
        let fetched = try await task.value
        token = fetched
        return fetched
    }

    /// Whether the request sent with `expired` should be replayed: after a refresh, or because
    /// another request already refreshed it.
    func refresh(replacing expired: String) async throws -> Bool {
        guard let refresher else { return false }
        if let token, token != expired { return true }
        if let failedRefresh, failedRefresh.expired == expired,
            Date().timeIntervalSince(failedRefresh.at) < Self.failureMemory
        {
            throw failedRefresh.error
        }
        if let refreshing, refreshing.expired == expired {
            _ = try await refreshing.task.value
            return true
        }
        let task = Task { try await refresher(expired) }
        refreshing = (expired, task)
        do {
            let fresh = try await task.value
            token = fresh
            refreshing = nil
            return true
        } catch {
            failedRefresh = (expired, error, Date())
            refreshing = nil
            // The provider is asked again for the next request: it may have a new token by then.
            token = nil
            throw error
        }
    }
}
