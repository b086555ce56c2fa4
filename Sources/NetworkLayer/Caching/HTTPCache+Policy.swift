import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCache {
    /// What a request may take from the cache and give to it; the same on every platform.
    ///
    /// The first five mirror `URLRequest.CachePolicy` (``init(_:)`` maps one to the other);
    /// ``bypass`` lets an endpoint opt out of the cache entirely.
    ///
    /// ```swift
    /// let policy = HTTPCache.Policy(endpoint.cachePolicy)       // .useProtocolCachePolicy by default
    /// let offline = HTTPCache.Policy.returnCacheDataDontLoad   // never touch the network
    /// ```
    ///
    /// Whatever the policy, a successful `POST`, `PUT`, `DELETE` or `PATCH` removes the stored
    /// responses of its URL (RFC 9111 §4.4): that protects every other endpoint of that URL.
    public enum Policy: Sendable, Hashable {
        /// RFC 9111: a fresh stored response is served; a stale one, or one marked `no-cache`,
        /// is validated with a conditional request; the answer is stored when it may be.
        case useProtocolCachePolicy
        /// Nothing is taken from the cache, but the answer is stored as usual.
        case reloadIgnoringLocalCacheData
        /// A stored response is always validated with the server before it is used, even when
        /// fresh (except a fresh `immutable` one, RFC 8246).
        case reloadRevalidatingCacheData
        /// Any stored response is served, fresh or stale, without validation; the network is
        /// used only when nothing is stored.
        case returnCacheDataElseLoad
        /// Any stored response is served, fresh or stale; when nothing is stored nothing is sent
        /// and a router's request fails with `NetworkError.cache(.notCached)`, where URLSession's
        /// own policy of that name fails with `URLError(.resourceUnavailable)`.
        case returnCacheDataDontLoad
        /// The cache is not consulted and nothing is stored.
        case bypass

        /// The policy that means what `policy` means on Apple platforms.
        ///
        /// `.reloadIgnoringLocalAndRemoteCacheData` becomes ``reloadIgnoringLocalCacheData``:
        /// there is no intermediary cache to bypass between us and the server that we could
        /// instruct more reliably than the request's own `Cache-Control` header.
        public init(_ policy: URLRequest.CachePolicy) {
            switch policy {
            case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData: self = .reloadIgnoringLocalCacheData
            case .reloadRevalidatingCacheData: self = .reloadRevalidatingCacheData
            case .returnCacheDataElseLoad: self = .returnCacheDataElseLoad
            case .returnCacheDataDontLoad: self = .returnCacheDataDontLoad
            // `.useProtocolCachePolicy` and any case a later SDK adds. Listing the former would
            // make this `default` unreachable, a warning on Linux, where the enum is frozen.
            default: self = .useProtocolCachePolicy
            }
        }
    }
}
