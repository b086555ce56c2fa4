import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers from the router's ``HTTPCache`` when it may, sends a plain or conditional request
/// when it must, and hands every answer back to the cache (a `304` is merged into the stored
/// response; an unsafe method's success invalidates the URL).
///
/// Below the plugins, so that the credential and `Vary` headers they set are part of the key;
/// above the redirects and the transport, and below validation, so that it sees every status,
/// a `304` included, and validation judges what the cache serves like anything else. Downloads
/// and streams go around it.
///
/// The key is the request as it reaches the wire: the router's redaction names its credential
/// headers, and the transport says what it adds (``HTTPTransport/headersAdded(to:)``, a
/// session's cookies). A transport that cannot say has its requests passed by, as with
/// ``HTTPCache/Policy/bypass``. An answer that came through a redirect whose request carried
/// other credentials than the first is not stored under the first's key.
struct CacheStage: RequestStage {
    let cache: HTTPCache

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        switch exchange.payload {
        case .download: return try await next(exchange)
        case .inRequest, .upload, .form: break
        }
        guard exchange.streamedBody == nil else { return try await next(exchange) }
        let redaction = exchange.context.redaction
        let added = exchange.transport.headersAdded(to: exchange.request)
        let policy = added == nil ? .bypass : exchange.cachePolicy

        switch cache.lookup(exchange.request, policy: policy, redaction: redaction, addedHeaders: added ?? [:]) {
        case .hit(let response, let outcome):
            exchange.metrics.didUseCache(outcome)
            return response
        case .send(let request, var pending):
            var sent = exchange
            sent.request = request
            let received = try await next(sent)
            if pending.mayStore, !sameCredentials(received, as: pending, through: exchange) {
                pending = pending.notStoring()
            }
            let (response, outcome) = cache.complete(pending, with: received)
            exchange.metrics.didUseCache(outcome)
            return response
        case .notCached:
            throw .cache(.notCached)
        }
    }

    /// Whether `received` reached the wire with the credentials `pending` is keyed by: without a
    /// redirect its request is the one looked up; after one, the last request is keyed again,
    /// even to the same URL (a `302` to itself with a `Set-Cookie` logs the user in on the way).
    private func sameCredentials(_ received: Response, as pending: HTTPCache.Pending, through exchange: Exchange) -> Bool {
        guard let key = pending.key else { return false }
        guard received.redirected else { return true }
        let final = received.request
        guard let added = exchange.transport.headersAdded(to: final),
            let finalKey = cache.requestKey(final, redaction: exchange.context.redaction, addedHeaders: added)
        else { return false }
        return finalKey.primary.credential == key.primary.credential
    }
}
