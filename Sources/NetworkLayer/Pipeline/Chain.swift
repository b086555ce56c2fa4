import Foundation

/// The stages a router's requests go through, composed once when the router is made: only the
/// stages its configuration needs, outermost first, with the transport at the end.
///
///     replay      (plugins)          a refreshed credential: at most once per request
///     retry       (a RetryPolicy)    a failed attempt again, after its delay
///     plugins     (plugins)          prepare, header check, willSend; per attempt
///     download                       resume, 416, commit and put the file in place
///     validation                     acceptable status codes
///     cache       (an HTTPCache)     answer from it, revalidate, store, invalidate
///     sharing     (deduplication)    identical GETs in flight share one transfer
///     redirects   (unless .doNotFollow)
///     transport                      the real one, or the endpoint's stub
struct Chain: Sendable {
    /// The first stage, with the rest behind it.
    let entry: Next
    /// Whether nothing but download, validation, redirects and the transport is in the chain (no
    /// plugin, retry, cache or sharing): then a request with its body in memory can go to a
    /// callback transport without a task (``start(_:)``).
    let isPlain: Bool
    /// How redirects are followed, for the plain path, which follows them without the stage.
    let redirects: RedirectPolicy

    init(
        plugins: [any PluginType], retryPolicy: RetryPolicy, redirects: RedirectPolicy, cache: HTTPCache? = nil,
        sharing transfers: SharedTransfers? = nil
    ) {
        var stages: [any RequestStage] = []
        if !plugins.isEmpty { stages.append(ReplayStage(plugins: plugins)) }
        if retryPolicy.retryLimit > 0 { stages.append(RetryStage(policy: retryPolicy)) }
        if !plugins.isEmpty { stages.append(PluginStage(plugins: plugins)) }
        isPlain = stages.isEmpty && cache == nil && transfers == nil
        self.redirects = redirects
        stages.append(DownloadStage())
        stages.append(ValidationStage())
        if let cache { stages.append(CacheStage(cache: cache)) }
        if let transfers { stages.append(DeduplicationStage(transfers: transfers)) }
        if redirects.limit > 0 { stages.append(RedirectStage(policy: redirects)) }

        var next: Next = { exchange async throws(NetworkError) -> Response in try await TransportStage.send(exchange) }
        for stage in stages.reversed() {
            let rest = next
            next = { exchange async throws(NetworkError) -> Response in try await stage.send(exchange, next: rest) }
        }
        entry = next
    }

    /// Runs `exchange` through every stage, its multipart form encoded first: off the caller's
    /// thread (this runs on it until the first suspension), and before any plugin hears of a
    /// request whose form cannot be read.
    func run(_ exchange: Exchange) async -> Result<Response, NetworkError> {
        var exchange = exchange
        if case .form(let form) = exchange.payload {
            do {
                exchange.payload = .upload(try await form.encoded())
            } catch {
                return .failure(TransportStage.failure(error, redaction: exchange.context.redaction))
            }
        }
        do {
            return .success(try await entry(exchange))
        } catch {
            return .failure(error)
        }
    }
}
