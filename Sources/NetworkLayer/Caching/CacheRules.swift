import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which requests the cache answers, which responses it may store, and which requests remove
/// stored responses: the RFC 9111 rules that do not depend on time.
enum CacheRules {
    /// Methods whose responses are stored and served: `GET` and `HEAD`.
    ///
    /// `OPTIONS`, `TRACE` and `QUERY` are safe too, but not stored: RFC 9110 does not define
    /// `OPTIONS` and `TRACE` responses as cacheable, and a `QUERY` response would need its
    /// request body in the key. A `POST` response is cacheable only in a form (explicit freshness
    /// plus `Content-Location`) that no API we know uses.
    static let cacheableMethods: Set<String> = ["GET", "HEAD"]

    /// Methods after whose success stored responses of the URL are removed (RFC 9111 §4.4):
    /// every method that is not safe (RFC 9110 §9.2.1).
    static func isUnsafe(_ method: String) -> Bool {
        !["GET", "HEAD", "OPTIONS", "TRACE", "QUERY"].contains(method)
    }

    /// Headers that make a request the caller's own conditional or partial request, which the
    /// cache passes through untouched: it cannot tell what answer the caller expects.
    private static let callerConditionals: Set<String> = [
        "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range",
    ]

    static func isCallersConditional(_ request: RequestKey) -> Bool {
        // The request's few names looked up in the set, not the six names in the request's.
        request.headerNames.contains { callerConditionals.contains($0) }
    }

    /// The request's `Cache-Control`; without one, `Pragma: no-cache` counts as `no-cache`
    /// (RFC 9111 §5.4, for HTTP/1.0 clients).
    static func requestDirectives(_ request: RequestKey) -> CacheControl {
        if let value = request.header("cache-control") { return CacheControl(value) }
        var directives = CacheControl()
        if let pragma = request.header("pragma"), pragma.lowercased().contains("no-cache") {
            directives.noCache = true
        }
        return directives
    }

    /// The lower-cased names of a `Vary` value, without duplicates; `nil` for `Vary: *`, which
    /// no request ever matches (RFC 9111 §4.1), so such a response is not stored at all.
    static func varyNames(_ value: String?) -> [String]? {
        guard let value else { return [] }
        var names: [String] = []
        // A set beside the list: a server's Vary of 36,000 names took 2.2 s to store in a
        // release build when duplicates were looked for in the list (quadratic).
        var seen: Set<String> = []
        for member in value.split(separator: ",") {
            let name = member.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "*" { return nil }
            if !name.isEmpty, seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    /// Whether a response may be stored (RFC 9111 §3), the request's `no-store` aside.
    ///
    /// Final statuses only, and not `206` (partial content is not combined here) or `304`
    /// (it updates a stored response, §4.3.4). No `no-store`. And something that allows reuse:
    /// explicit freshness (`max-age`, `Expires`), `public` or `private`, or a status that
    /// RFC 9110 §15.1 calls heuristically cacheable. A response with none of these to a `200`
    /// is stored, for validation and for ``HTTPCache/Policy/returnCacheDataElseLoad``.
    static func isStorable(statusCode: Int, headers: StoredHeaders, directives: CacheControl) -> Bool {
        guard (200..<600).contains(statusCode), statusCode != 206, statusCode != 304, !directives.noStore else { return false }
        return directives.maxAge != nil || headers["Expires"] != nil || directives.isPublic || directives.isPrivate
            || Freshness.heuristicallyCacheable.contains(statusCode)
    }

    /// Whether a `304` describes `stored` (RFC 9111 §4.3.4): its strong or weak `ETag` is the
    /// stored one's, or, without an `ETag`, its `Last-Modified` is; a 304 with neither
    /// validator is taken to describe the response that was validated.
    static func notModified(_ response: HTTPURLResponse, describes stored: StoredResponse) -> Bool {
        let headers = StoredHeaders(storableFieldsOf: response)
        if let etag = headers["ETag"] {
            guard let storedTag = stored.etag else { return false }
            return weakTag(etag) == weakTag(storedTag)
        }
        if let lastModified = headers["Last-Modified"] {
            return lastModified == stored.lastModified
        }
        return true
    }

    /// An entity tag without its weakness prefix, for the weak comparison of RFC 9110 §8.8.3.2.
    private static func weakTag(_ tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }
}
