import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCache {
    /// What to do with a request: answer it from the cache, send a request, or fail.
    public enum Lookup: Sendable {
        /// Answer with this response; send nothing. The outcome is ``CacheOutcome/hit`` or
        /// ``CacheOutcome/staleHit``. An `Age` header says how old the response is.
        case hit(Response, CacheOutcome)
        /// Send this request (the original one, or a conditional copy that validates a stored
        /// response) and pass its answer, whatever its status, to ``HTTPCache/complete(_:with:)``
        /// with `pending`. If sending fails, drop `pending`: nothing needs undoing.
        case send(URLRequest, Pending)
        /// Nothing usable is stored and the policy forbids the network: fail the request, for
        /// example with ``HTTPCacheError/notCached``.
        case notCached
    }

    /// What ``HTTPCache/complete(_:with:)`` needs to know about a request the cache let through:
    /// its key, when it was sent, whether its answer may be stored, and the stored response a
    /// conditional request is validating. Opaque; pass it back as it is.
    public struct Pending: Sendable {
        let request: URLRequest
        let method: String
        /// `nil` for a request the cache cannot key (no http(s) URL).
        let key: RequestKey?
        let requestTime: Date
        var mayStore: Bool
        let validating: StoredResponse?
        /// The lookup's redaction: the response headers it names are never kept.
        let redaction: Redaction

        /// This, with nothing of its answer to be stored.
        func notStoring() -> Pending {
            var pending = self
            pending.mayStore = false
            return pending
        }
    }

    /// Decides how `request` is answered under `policy`. Never blocks on the network; reads a
    /// disk entry when the response is not in memory.
    ///
    /// - Parameters:
    ///   - request: The request as it will be sent, headers included: the credential headers
    ///     and those a stored response's `Vary` names are part of the key.
    ///   - policy: ``Policy/useProtocolCachePolicy`` (RFC 9111) by default.
    ///   - redaction: Names the headers that carry credentials, with
    ///     ``Redaction/credentialHeaders`` (``Redaction/isCredentialHeader(_:)``); the router
    ///     passes its ``Router/redaction``. ``Redaction/default`` unless given.
    ///   - addedHeaders: The headers your transport will add to `request` by itself
    ///     (``HTTPTransport/headersAdded(to:)``: a session's cookies); part of the key as if the
    ///     request carried them, but not added to the request returned to send. None by default.
    /// - Returns: ``Lookup/hit(_:_:)`` with a stored response, ``Lookup/send(_:_:)`` with the
    ///   request to send, or ``Lookup/notCached``.
    public func lookup(
        _ request: URLRequest, policy: Policy = .useProtocolCachePolicy, redaction: Redaction = .default,
        addedHeaders: HTTPHeaders = [:]
    ) -> Lookup {
        let now = configuration.clock()
        let method = (request.httpMethod ?? "GET").uppercased()
        let key = requestKey(request, redaction: redaction, addedHeaders: addedHeaders)
        guard let key, policy != .bypass, CacheRules.cacheableMethods.contains(method), !CacheRules.isCallersConditional(key)
        else {
            // Passed through; complete(_:with:) still invalidates after an unsafe method.
            return .send(request, Pending(request: request, method: method, key: key, requestTime: now, mayStore: false, validating: nil, redaction: redaction))
        }
        let directives = CacheRules.requestDirectives(key)
        let plain = Pending(request: request, method: method, key: key, requestTime: now, mayStore: !directives.noStore, validating: nil, redaction: redaction)
        if policy == .reloadIgnoringLocalCacheData { return .send(request, plain) }

        guard let found = find(key) else {
            return policy == .returnCacheDataDontLoad || directives.onlyIfCached ? .notCached : .send(request, plain)
        }
        // Stored before this lookup's redaction named them (an older version of the package,
        // or a router that shares this cache and names fewer): never served, never updated.
        let stored = found.removingHeaders(heuristic: configuration.heuristicFreshness) { isCredential(lowercased: $0, by: redaction) }
        let age = stored.freshness.age(at: now)
        let remaining = stored.freshness.lifetime - age
        let outcome: CacheOutcome = remaining > 0 ? .hit : .staleHit

        if policy == .returnCacheDataElseLoad || policy == .returnCacheDataDontLoad
            || mayServeWithoutValidation(stored, remaining: remaining, age: age, request: directives, policy: policy)
        {
            if let response = stored.response(to: request, age: age) { return .hit(response, outcome) }
        }
        if directives.onlyIfCached { return .notCached }
        guard stored.hasValidator else { return .send(request, plain) }

        // RFC 9111 §4.3.1: the entity tag, and Last-Modified as well when there is one.
        var conditional = request
        if let etag = stored.etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = stored.lastModified { conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return .send(
            conditional,
            Pending(request: request, method: method, key: key, requestTime: now, mayStore: !directives.noStore, validating: stored, redaction: redaction))
    }

    /// The key of `request` as it reaches the wire: `addedHeaders` with its own, credentials as
    /// `redaction` names them.
    func requestKey(_ request: URLRequest, redaction: Redaction, addedHeaders: HTTPHeaders) -> RequestKey? {
        RequestKey(request, adding: addedHeaders) { isCredential(lowercased: $0, by: redaction) }
    }

    /// Whether the header `name` (lower-cased) carries a credential: part of a request's key,
    /// and never kept from a response.
    func isCredential(lowercased name: String, by redaction: Redaction) -> Bool {
        redaction.isCredentialHeader(lowercased: name) || extraCredentialHeaders.contains(name)
    }

    /// RFC 9111 §4.2 and §5.2 for ``Policy/useProtocolCachePolicy`` and
    /// ``Policy/reloadRevalidatingCacheData``: whether `stored` may be served as it is.
    private func mayServeWithoutValidation(
        _ stored: StoredResponse, remaining: TimeInterval, age: TimeInterval, request: CacheControl, policy: Policy
    ) -> Bool {
        if stored.directives.noCache { return false }
        let fresh = remaining > 0
        // A reload: the policy says so, or the request's no-cache or max-age=0. RFC 8246: an
        // immutable response is not revalidated on reload while it is fresh.
        let reload = policy == .reloadRevalidatingCacheData || request.noCache || request.maxAge == 0
        if reload { return fresh && stored.directives.immutable }
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = request.minFresh, remaining < TimeInterval(minFresh) { return false }
        if fresh { return true }
        // Stale: only within the request's max-stale, and never against must-revalidate (§5.2.2.2).
        guard let maxStale = request.maxStale, !stored.directives.mustRevalidate else { return false }
        return -remaining <= TimeInterval(maxStale)
    }
}
