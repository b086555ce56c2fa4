import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111), in memory and optionally on disk, that works the same on
/// every platform.
///
/// It decides and stores; it never sends. A caller (the router's cache stage, or your own
/// transport wrapper) asks ``lookup(_:policy:redaction:addedHeaders:)`` what to do with a
/// request, sends what it is told to send, and hands the answer to ``complete(_:with:)``. The
/// lookup is given what the transport adds on the wire, so that a session's cookies are part of
/// the key; a transport that cannot say is not cached:
///
/// ```swift
/// let cache = try HTTPCache(configuration: .init())
///
/// func send(_ request: URLRequest) async throws -> (Response, CacheOutcome) {
///     guard let added = transport.headersAdded(to: request) else {
///         let (data, http) = try await transport.send(request)   // credentials unknown: no cache
///         return (Response(request: request, httpResponse: http, data: data), .network)
///     }
///     switch cache.lookup(request, policy: .useProtocolCachePolicy, redaction: .default, addedHeaders: added) {
///     case .hit(let response, let outcome):
///         return (response, outcome)                       // nothing sent
///     case .send(let request, let pending):                // a plain or a conditional request
///         let (data, http) = try await transport.send(request)
///         return cache.complete(pending, with: Response(request: request, httpResponse: http, data: data))
///     case .notCached:
///         throw NetworkError.cache(.notCached)             // .returnCacheDataDontLoad
///     }
/// }
/// ```
///
/// What it does:
/// - **Freshness** from `Cache-Control: max-age`, else `Expires` − `Date`, else 10 % of the time
///   since `Last-Modified` (see ``HeuristicFreshness``); age from `Age`, `Date` and the request
///   and response times (RFC 9111 §4.2.3). `s-maxage` and `proxy-revalidate` are for shared
///   caches and ignored. A response received more than a second after the clock now reads (the
///   clock was set back) is stale: how long it has been stored cannot be known.
/// - **Validation.** A stale response, or one marked `no-cache`, is validated with
///   `If-None-Match` (from `ETag`) and `If-Modified-Since` (from `Last-Modified`); a `304` updates
///   the stored headers and serves the stored body; any other answer replaces it.
/// - **What is stored.** `GET` and `HEAD` responses with a final status, unless `no-store` is in
///   the request or the response, or `Vary: *`; `Set-Cookie`, hop-by-hop headers and every
///   header the lookup's redaction names as a credential (a rotated `X-Session-Token` named in
///   the router's ``Redaction``) are dropped. The response that arrived, or the `304` that
///   revalidated, reaches the caller with them; a later hit comes without.
///   A request with its own `If-…` or `Range` header passes through untouched.
/// - **Keys.** Method, normalised URL, the request headers the response's `Vary` names (at
///   most 16 variants a URL, the oldest stored going first), and a SHA-256 fingerprint of every
///   credential that reaches the wire: the request's credential headers (``Redaction/isCredentialHeader(_:)`` of the lookup's redaction), the headers the
///   transport adds itself (a session's cookies, ``HTTPTransport/headersAdded(to:)``) and a
///   URL's `user:password@`. Authenticated responses are never served across credentials; a
///   router whose transport cannot say what it adds neither answers from the cache nor stores.
/// - **Invalidation.** A `POST`, `PUT`, `DELETE` or `PATCH` answered with a 2xx or 3xx removes the
///   stored responses of its URL and of a same-origin `Location` or `Content-Location`.
/// - **Storage.** Memory and disk each have a byte limit and evict the least recently used
///   entries. Disk entries are written atomically and checked on every read: a damaged file is a
///   miss and is removed. Both are safe to use from any number of tasks at once.
///
/// Not done: `stale-while-revalidate` and `stale-if-error` (RFC 5861), combining partial (`206`)
/// responses, and serving a `HEAD` from a stored `GET`.
public final class HTTPCache: Sendable {
    /// The configuration the cache was created with.
    public let configuration: Configuration
    let memory: MemoryStore?
    let disk: DiskStore?
    /// The deprecated ``Configuration/credentialHeaders``, lower-cased once.
    let extraCredentialHeaders: Set<String>

    /// Creates a cache, opening (and creating) the disk folder when the configuration has one.
    ///
    /// - Throws: ``NetworkError/cache(_:)`` with ``HTTPCacheError/unusableDirectory(path:reason:)``
    ///   when the folder cannot be created, listed, or is a file. A memory-only cache never throws
    ///   (``inMemory(capacity:)`` makes one without `try`).
    public convenience init(configuration: Configuration = Configuration()) throws(NetworkError) {
        var disk: DiskStore?
        if let directory = configuration.directory, configuration.diskCapacity > 0 {
            do throws(HTTPCacheError) {
                disk = try DiskStore(
                    directory: directory, capacity: configuration.diskCapacity, maximumEntrySize: configuration.maximumEntrySize,
                    heuristic: configuration.heuristicFreshness)
            } catch {
                throw .cache(error)
            }
        }
        self.init(configuration: configuration, disk: disk)
    }

    private init(configuration: Configuration, disk: DiskStore?) {
        self.configuration = configuration
        extraCredentialHeaders = Set(configuration.extraCredentialHeaders.map { $0.lowercased() })
        memory = configuration.memoryCapacity > 0 ? MemoryStore(capacity: configuration.memoryCapacity) : nil
        self.disk = disk
    }

    /// A cache in memory only, with the default configuration otherwise; it cannot fail.
    ///
    /// ```swift
    /// let router = Router<MovieApi>(cache: .inMemory())
    /// ```
    ///
    /// - Parameter capacity: The most bytes kept (bodies, headers and bookkeeping); 8 MiB by default.
    public static func inMemory(capacity: Int = 8 * 1_048_576) -> HTTPCache {
        var configuration = Configuration(memoryCapacity: capacity)
        configuration.directory = nil
        return HTTPCache(configuration: configuration, disk: nil)
    }

    /// Bytes held in memory now: bodies, headers and a fixed allowance per entry.
    public var memoryUsage: Int { memory?.totalBytes ?? 0 }

    /// Bytes of the cache's files on disk now.
    public var diskUsage: Int { disk?.totalBytes ?? 0 }

    /// Removes every stored response of `url`: every method, credential and `Vary` variant.
    ///
    /// What a successful unsafe request does by itself; call it when you know a resource changed
    /// by other means.
    public func invalidate(_ url: URL) {
        guard let normalized = RequestKey.normalizedURL(url) else { return }
        let digest = SHA256.hash(normalized)
        memory?.removeAll(url: digest)
        disk?.removeAll(url: digest)
    }

    /// Removes every stored response, in memory and on disk (after a logout, say).
    public func removeAll() {
        memory?.removeAll()
        disk?.removeAll()
    }

    // MARK: Both stores

    /// The stored response for `key`: memory first, then disk, whose hit is copied into memory.
    func find(_ key: RequestKey) -> StoredResponse? {
        if let found = memory?.lookup(key) { return found }
        guard let found = disk?.lookup(key) else { return nil }
        if found.body.count <= configuration.maximumEntrySize {
            memory?.store(found)
        }
        return found
    }

    /// Stores `response` in both stores, superseding the variants that match `request`.
    func save(_ response: StoredResponse, supersedingMatchesOf request: RequestKey?) {
        memory?.store(response, supersedingMatchesOf: request)
        disk?.store(response, supersedingMatchesOf: request)
    }

    /// Removes the stored variants that match `request`.
    func removeMatches(of request: RequestKey) {
        memory?.removeMatches(of: request)
        disk?.removeMatches(of: request)
    }

    func remove(_ id: SHA256Digest) {
        memory?.remove(id)
        disk?.remove([id])
    }

    /// What does not add up in either store (for tests); empty when both are consistent.
    func inconsistencies() -> [String] {
        (memory?.inconsistencies().map { "memory: " + $0 } ?? []) + (disk?.inconsistencies().map { "disk: " + $0 } ?? [])
    }
}
