import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds a bearer token or API key to the requests of the endpoints that ask for one, from an
/// async source asked for every request, and refreshes it once when the server answers 401.
///
/// Who receives the token, all three must hold:
/// - **The endpoint asks for it.** Its ``EndPointType/authorizationType`` says how: ``AuthorizationType/plugin``
///   as ``placement`` says, or `Authorization: Bearer`, `Basic` or a custom scheme for that
///   endpoint only. An endpoint that does not implement the requirement gets `nil`, no token, as
///   in Moya, where only an `AccessTokenAuthorizable` target gets one: a third-party endpoint in
///   a ``MultiTarget`` never sees your token.
/// - **Its request goes to an allowed origin** (scheme, host and port). ``origins`` when given;
///   otherwise the origin of the URL the router built for the endpoint (its base URL after the
///   router's mapping), so that a URL changed by a plugin listed before this one gets nothing.
///   A plugin listed after it sees the request with the token: list one that changes the URL
///   (a mirror, a failover host) before this plugin, or move servers with an
///   ``EndpointMapping`` instead.
/// - **It stays there.** A redirect that leaves the origin drops the token's header (it is in
///   the plugin's ``redaction``); a token in the query stays on the URL it was added to.
///
/// The token source is asked for every request, so a token you replace (after a login, or in a
/// keychain) is the one the next request sends; it may be `async`. Concurrent requests that hit
/// 401 together share one refresh: 50 requests with an expired token cause one call of
/// `refresh`, then each is replayed once with the new token. Store the refreshed token where the
/// source reads it; until the source answers something new, the plugin sends the refreshed token
/// in place of the one it replaced. If the refresh fails, every one of them fails with the
/// refresh error (``NetworkError/underlying(_:)``).
///
/// ```swift
/// let api = URL(string: "https://api.example.com")!
/// let auth = AccessTokenPlugin(
///     origins: [api],
///     token: { try await keychain.accessToken() },
///     refresh: { expired in try await authService.refresh(expired) })
/// let router = Router<MovieApi>(plugins: [auth])
///
/// extension MovieApi {
///     var authorizationType: AuthorizationType? { self == .login ? nil : .plugin }
/// }
///
/// // An API key in the query instead: ?api_key=…
/// let key = AccessTokenPlugin(placement: .queryParameter("api_key"), origins: [api], token: { apiKey })
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
    /// The URLs whose origins (scheme, host, port; the path does not matter) may receive the
    /// token; `nil` for the origin of the URL the router built for each endpoint.
    public let origins: [URL]?
    private let allowed: Set<Origin>?
    private let store: TokenStore

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - placement: Where the token goes; `.bearer` by default.
    ///   - origins: The URLs of the servers that may receive the token (`https://api.example.com`);
    ///     only their scheme, host and port count. `nil` (the default) allows, for each request,
    ///     the origin of the URL the router built for its endpoint. Name them whenever one
    ///     router sends to more than one server.
    ///   - token: Returns the current token; asked for every request that gets one (and not
    ///     for those that get none).
    ///   - refresh: Returns a new token for an expired one; `nil` (the default) means a 401 is
    ///     final.
    public init(
        placement: Placement = .bearer,
        origins: [URL]? = nil,
        token: @escaping @Sendable () async throws -> String,
        refresh: (@Sendable (_ expired: String) async throws -> String)? = nil
    ) {
        self.init(placement: placement, origins: origins, token: token, refresh: refresh, failureMemory: TokenStore.failureMemory)
    }

    /// The plugin, with a failed refresh remembered for `failureMemory` seconds (tests use a
    /// long one, so that no straggler of a wave outlives it on a loaded machine).
    init(
        placement: Placement = .bearer, origins: [URL]? = nil, token: @escaping @Sendable () async throws -> String,
        refresh: (@Sendable (_ expired: String) async throws -> String)?, failureMemory: TimeInterval
    ) {
        self.placement = placement
        self.origins = origins
        self.allowed = origins.map { Set($0.map(Origin.init)) }
        self.store = TokenStore(fetch: token, refresh: refresh, failureMemory: failureMemory)
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
    /// ``EndPointType/authorizationType`` says; nothing (and no call of the token source) when
    /// that is `nil` or the request's origin is not allowed (see ``origins``).
    public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard let authorization = context.target.authorizationType, let url = request.url, allows(url, context: context)
        else { return request }
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

    /// Whether `url` is in an allowed origin: one of ``origins``, or the one the router built
    /// the request for.
    private func allows(_ url: URL, context: RequestContext) -> Bool {
        if let allowed { return allowed.contains { $0.contains(url) } }
        return Origin(context.requestURL ?? context.target.baseURL).contains(url)
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

/// Asks the token source for every request, and runs at most one refresh at a time.
actor TokenStore {
    private let fetch: @Sendable () async throws -> String
    private let refresher: (@Sendable (String) async throws -> String)?
    private var refreshing: (expired: String, task: Task<String, any Error>)?
    /// What the last refresh got (`token`), and the token source's answer it stands for
    /// (`source`): while the source still answers `source` (a refresh that did not store its
    /// token where the source reads it), `token` is sent instead.
    private var refreshed: (source: String, token: String)?
    /// The last refresh that failed, so that stragglers of the same 401 wave fail with the
    /// same error instead of starting a refresh of their own. Kept for
    /// `failureMemory` seconds (``TokenStore/failureMemory`` unless a test says otherwise): a
    /// later request may try again.
    private var failedRefresh: (expired: String, error: any Error, at: Date)?
    static let failureMemory: TimeInterval = 2
    private let failureMemory: TimeInterval

    init(
        fetch: @escaping @Sendable () async throws -> String, refresh: (@Sendable (String) async throws -> String)?,
        failureMemory: TimeInterval
    ) {
        self.fetch = fetch
        self.refresher = refresh
        self.failureMemory = failureMemory
    }

    /// The token to send now: the source's answer, asked anew for every request, or what the
    /// refresh in flight gets.
    func current() async throws -> String {
        if let refreshing { return try await Self.value(of: refreshing.task) }
        let fetched = try await fetch()
        if let refreshed, refreshed.source == fetched { return refreshed.token }
        return fetched
    }

    /// Whether the request sent with `expired` should be replayed: after a refresh, or because
    /// another request already refreshed it.
    func refresh(replacing expired: String) async throws -> Bool {
        guard let refresher else { return false }
        // The source's answer that `expired` was sent for.
        let source = refreshed.map { $0.token == expired ? $0.source : expired } ?? expired
        if let refreshed, refreshed.source == source, refreshed.token != expired { return true }
        if let failedRefresh, failedRefresh.expired == expired,
            Date().timeIntervalSince(failedRefresh.at) < failureMemory
        {
            throw failedRefresh.error
        }
        if let refreshing, refreshing.expired == expired {
            _ = try await Self.value(of: refreshing.task)
            return true
        }
        // The refresh records its own outcome, on this actor: the request that started it may
        // be cancelled and stop waiting, and the others still need the token.
        let task = Task {
            do {
                let fresh = try await refresher(expired)
                refreshed = (source, fresh)
                if refreshing?.expired == expired { refreshing = nil }
                return fresh
            } catch {
                failedRefresh = (expired, error, Date())
                if refreshing?.expired == expired { refreshing = nil }
                throw error
            }
        }
        refreshing = (expired, task)
        _ = try await Self.value(of: task)
        return true
    }

    /// The value of `refresh`, or `CancellationError` as soon as the calling task is cancelled.
    /// A refresh is shared by every request waiting for it and runs on for the others; a
    /// cancelled request used to wait for it anyway, and a refresh that hung kept every such
    /// request's task (found from outside, 2026-11-26).
    private static func value(of refresh: Task<String, any Error>) async throws -> String {
        let waiter = RefreshWaiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(continuation)
                Task { waiter.resume(with: await refresh.result) }
            }
        } onCancel: {
            waiter.resume(with: .failure(CancellationError()))
        }
    }
}

/// One request waiting for a refresh: resumed once, by the refresh's outcome or by the
/// request's cancellation, whichever comes first (cancellation may come before the wait
/// starts).
private final class RefreshWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<String, any Error>?
        var outcome: Result<String, any Error>?
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<String, any Error>) {
        let outcome = state.withLock { state -> Result<String, any Error>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    func resume(with outcome: Result<String, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<String, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}
