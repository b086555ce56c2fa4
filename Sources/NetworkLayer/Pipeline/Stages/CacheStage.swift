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
struct CacheStage: RequestStage {
    let cache: HTTPCache

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        switch exchange.payload {
        case .download: return try await next(exchange)
        case .inRequest, .upload: break
        }
        guard exchange.streamedBody == nil else { return try await next(exchange) }

        switch cache.lookup(exchange.request, policy: exchange.cachePolicy) {
        case .hit(let response, let outcome):
            exchange.metrics.didUseCache(outcome)
            return response
        case .send(let request, let pending):
            var sent = exchange
            sent.request = request
            let (response, outcome) = cache.complete(pending, with: try await next(sent))
            exchange.metrics.didUseCache(outcome)
            return response
        case .notCached:
            throw .transport(
                URLError(
                    .resourceUnavailable,
                    userInfo: [NSLocalizedDescriptionKey: "The response is not in the cache, and the cache policy does not allow the network."]))
        }
    }
}
