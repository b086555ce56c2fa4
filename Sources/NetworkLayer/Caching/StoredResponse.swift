import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One response in the cache: what the server sent (less the headers a cache must not keep),
/// when it was requested and received, and what follows from its headers.
struct StoredResponse: Sendable {
    let key: EntryKey
    let statusCode: Int
    let headers: StoredHeaders
    let body: Data
    /// When the request that produced it was sent (`request_time` of RFC 9111 §4.2.3).
    let requestTime: Date
    /// When it was received (`response_time`).
    let responseTime: Date
    let directives: CacheControl
    let freshness: Freshness

    init(
        key: EntryKey, statusCode: Int, headers: StoredHeaders, body: Data, requestTime: Date, responseTime: Date,
        heuristic: HTTPCache.HeuristicFreshness
    ) {
        self.key = key
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        directives = CacheControl(headers["Cache-Control"])
        freshness = Freshness(
            statusCode: statusCode, headers: headers, directives: directives, requestTime: requestTime,
            responseTime: responseTime, heuristic: heuristic)
    }

    var etag: String? { headers["ETag"] }
    var lastModified: String? { headers["Last-Modified"] }

    /// Whether a conditional request can validate it (RFC 9111 §4.3.1).
    var hasValidator: Bool { etag != nil || lastModified != nil }

    /// What it costs in memory: body, headers, and a fixed allowance for the bookkeeping.
    var byteCount: Int { body.count + headers.byteCount + 256 }

    /// The stored response updated by the storable headers of a `304 Not Modified` (RFC 9111
    /// §4.3.4, §3.2), read once by the caller: each of them replaces the stored one, except `Content-Length` (the body did not change),
    /// those a cache never stores, and those named in `keptOut` (lower-cased). The stored `Age`
    /// goes: the 304 is the new origin answer.
    func updated(
        by update: StoredHeaders, keepingOut keptOut: Set<String>, requestTime: Date, responseTime: Date,
        heuristic: HTTPCache.HeuristicFreshness
    ) -> StoredResponse {
        // One pass, not a `set` per field: each `set` filtered and sorted every stored field.
        let replacing = update.fields.filter { $0.lowercasedName != "content-length" && !keptOut.contains($0.lowercasedName) }
        // A kept-out name goes from what was stored too, rather than keep an older value.
        var dropped = Set(replacing.map(\.lowercasedName)).union(keptOut)
        dropped.insert("age")
        let merged = headers.replacing(dropped, with: replacing)
        return StoredResponse(
            key: key, statusCode: statusCode, headers: merged, body: body, requestTime: requestTime, responseTime: responseTime,
            heuristic: heuristic)
    }

    /// This response without the fields whose lower-cased name `isRemoved`; itself when it has
    /// none, as it nearly always has.
    func removingHeaders(heuristic: HTTPCache.HeuristicFreshness, where isRemoved: (String) -> Bool) -> StoredResponse {
        guard headers.fields.contains(where: { isRemoved($0.lowercasedName) }) else { return self }
        var kept = headers
        kept.remove(where: isRemoved)
        return StoredResponse(
            key: key, statusCode: statusCode, headers: kept, body: body, requestTime: requestTime, responseTime: responseTime,
            heuristic: heuristic)
    }

    /// This response with `fields` added over its own, for serving, not storing.
    func adding(_ fields: [StoredHeaders.Field], heuristic: HTTPCache.HeuristicFreshness) -> StoredResponse {
        StoredResponse(
            key: key, statusCode: statusCode, headers: headers.replacing(Set(fields.map(\.lowercasedName)), with: fields), body: body,
            requestTime: requestTime, responseTime: responseTime, heuristic: heuristic)
    }

    /// A `Response` to `request` from this stored one; with `age`, an `Age` header replaces the
    /// stored one, as RFC 9111 §4 requires of a response served without validation.
    func response(to request: URLRequest, age: TimeInterval?) -> Response? {
        guard let url = request.url else { return nil }
        // Whole seconds, finite and bounded by the stored values; the guard keeps Int() from
        // trapping whatever happens.
        let seconds = age.map { $0.isFinite && $0 < 1e15 ? Int(max(0, $0)) : CacheControl.deltaSecondsLimit }
        if let served = served.withLock({ $0 }), served.url == url, served.age == seconds {
            return Response(request: request, head: served.head, data: body)
        }
        var fields = headers.dictionary(excluding: seconds == nil ? [] : ["age"])
        if let seconds { fields["Age"] = String(seconds) }
        guard let head = ResponseHead(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", fields: fields) else { return nil }
        served.withLock { $0 = ServedResponse(url: url, age: seconds, head: head) }
        return Response(request: request, head: head, data: body)
    }

    /// The head made for the last hit, kept for the next one with the same URL and age, with
    /// its `HTTPURLResponse` once someone has asked for it (``ResponseHead``): FoundationNetworking
    /// takes about a microsecond a field to make one. Shared by the copies of this stored
    /// response, and replaced with it.
    private let served = Locked<ServedResponse?>(nil)

    private struct ServedResponse {
        let url: URL
        let age: Int?
        let head: ResponseHead
    }
}
