import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCache {
    /// Takes the server's answer to a request that ``lookup(_:policy:redaction:addedHeaders:)`` let through, and returns
    /// the response to deliver with its outcome.
    ///
    /// - A `304` to a conditional request updates the stored response's headers (RFC 9111
    ///   §4.3.4) and returns the stored status and body with them, and the conditional request
    ///   as the response's `request`: ``CacheOutcome/revalidated``. A `304`
    ///   whose `ETag` is not the stored one's removes the stored response and is returned as it
    ///   is, since the cache cannot vouch for either body.
    /// - Any other answer to a `GET` or `HEAD` replaces what was stored for the request, and is
    ///   stored itself when RFC 9111 §3 allows (a `5xx` leaves the stored response in place).
    /// - A `2xx` or `3xx` to an unsafe method removes the stored responses of the URL, and of a
    ///   same-origin `Location` or `Content-Location` (§4.4).
    ///
    /// Call it with every answer, whatever its status, including answers the router would then
    /// reject as unacceptable: a `304` is the usual one. A response whose body went to a file
    /// (`fileURL`) is never stored.
    ///
    /// - Returns: The response to deliver and ``CacheOutcome/network`` or
    ///   ``CacheOutcome/revalidated``.
    public func complete(_ pending: Pending, with response: Response) -> (response: Response, outcome: CacheOutcome) {
        let now = configuration.clock()
        guard let key = pending.key else { return (response, .network) }
        let status = response.statusCode
        if CacheRules.isUnsafe(pending.method) {
            if (200..<400).contains(status) { invalidate(after: key, response: response.httpResponse) }
            return (response, .network)
        }
        guard CacheRules.cacheableMethods.contains(pending.method) else { return (response, .network) }

        if status == 304, let stored = pending.validating {
            guard CacheRules.notModified(response.httpResponse, describes: stored) else {
                remove(stored.key.id)
                return (response, .network)
            }
            let update = StoredHeaders(storableFieldsOf: response.httpResponse)
            let credentials = update.fields.filter { isCredential(lowercased: $0.lowercasedName, by: pending.redaction) }
            let updated = stored.updated(
                by: update, keepingOut: Set(credentials.map(\.lowercasedName)), requestTime: pending.requestTime,
                responseTime: now, heuristic: configuration.heuristicFreshness)
            if updated.directives.noStore {
                remove(stored.key.id)  // the server no longer allows it to be kept
            } else if pending.mayStore {
                save(updated, supersedingMatchesOf: nil)
            }
            // The caller hears what the server sent now, its credentials too; only the cache
            // goes without them.
            let answered = credentials.isEmpty ? updated : updated.adding(credentials, heuristic: configuration.heuristicFreshness)
            guard let served = answered.response(to: response.request, age: nil) else { return (response, .network) }
            return (served, .revalidated)
        }
        // A 304 nobody asked for (the request was the caller's own conditional or a plain one):
        // nothing to update, nothing to store.
        guard status != 304, pending.mayStore else { return (response, .network) }

        // A credential the server sends (a rotated session token the redaction names) is the
        // caller's, not the cache's: it would sit in clear in the cache's files and come back
        // with every hit, as `Set-Cookie` would.
        var headers = StoredHeaders(storableFieldsOf: response.httpResponse)
        headers.remove { isCredential(lowercased: $0, by: pending.redaction) }
        let directives = CacheControl(headers["Cache-Control"])
        guard response.fileURL == nil, response.data.count <= configuration.maximumEntrySize,
            CacheRules.isStorable(statusCode: status, headers: headers, directives: directives),
            let varyNames = CacheRules.varyNames(headers["Vary"])
        else {
            // Not stored; but a real answer from the server still outdates what was stored.
            if status < 500 { removeMatches(of: key) }
            return (response, .network)
        }
        let stored = StoredResponse(
            key: key.entryKey(varyNames: varyNames), statusCode: status, headers: headers, body: response.data,
            requestTime: pending.requestTime, responseTime: now, heuristic: configuration.heuristicFreshness)
        save(stored, supersedingMatchesOf: key)
        return (response, .network)
    }

    /// RFC 9111 §4.4: the target URI, and the URIs in `Location` and `Content-Location` when
    /// they have the request's origin (another origin's cache entries are not ours to judge).
    private func invalidate(after key: RequestKey, response: HTTPURLResponse) {
        invalidate(key.url)
        let headers = StoredHeaders(storableFieldsOf: response)
        for name in ["Location", "Content-Location"] {
            guard let value = headers[name], let target = URL(string: value, relativeTo: key.url)?.absoluteURL,
                Origin(key.url).contains(target)
            else { continue }
            invalidate(target)
        }
    }
}
