/// Where a response came from, as far as the cache is concerned.
///
/// ```swift
/// switch outcome {
/// case .hit, .staleHit: print("no request was sent")
/// case .revalidated: print("the server said 304; the stored body was used")
/// case .network: print("the body came from the server")
/// }
/// ```
public enum CacheOutcome: String, Sendable, Hashable, CaseIterable {
    /// The server sent the response (it may have been stored on the way back).
    case network
    /// Served from the cache, fresh, without contacting the server.
    case hit
    /// The server answered a conditional request with `304 Not Modified`; the stored body was
    /// served, with the headers updated from the 304.
    case revalidated
    /// Served from the cache although stale, without contacting the server, because the policy
    /// (``HTTPCache/Policy/returnCacheDataElseLoad``, ``HTTPCache/Policy/returnCacheDataDontLoad``)
    /// or the request's `Cache-Control: max-stale` allowed it.
    case staleHit
}
