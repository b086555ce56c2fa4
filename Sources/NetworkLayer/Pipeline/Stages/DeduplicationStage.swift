import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Lets identical `GET` and `HEAD` requests that are in flight at the same time share one
/// transfer (``Router/deduplicatesRequests``); each still gets its own outcome, deadline and
/// cancellation.
///
/// Below the plugins, so that the headers they set (a credential above all) are part of what
/// makes two requests identical, and below the cache, so that only what the cache could not
/// answer is shared. Requests with a body, uploads, downloads, streams and stubbed requests are
/// never shared, nor are requests whose transport cannot say which headers it adds (a cookie of
/// its storage would otherwise give one user's response to another).
struct DeduplicationStage: RequestStage {
    let transfers: SharedTransfers

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        guard Self.isShareable(exchange), let added = exchange.transport.headersAdded(to: exchange.request) else {
            return try await next(exchange)
        }
        // A caller already cancelled would start a shared transfer only to leave it at once.
        guard !Task.isCancelled else { throw .cancelled }
        let key = SharedTransfers.Key(exchange.request, added: added)
        let (outcome, joined) = await transfers.outcome(for: key) {
            () async throws(NetworkError) -> Response in try await next(exchange)
        }
        let response = try outcome.get()
        if joined { exchange.metrics.didShare(response) }
        return response
    }

    static func isShareable(_ exchange: Exchange) -> Bool {
        // A stub answers with its endpoint's sample, which another endpoint of the same URL
        // does not share.
        guard case .inRequest = exchange.payload, exchange.streamedBody == nil,
            exchange.request.httpBody == nil, exchange.request.httpBodyStream == nil, !(exchange.transport is StubTransport)
        else { return false }
        let method = exchange.request.httpMethod ?? "GET"
        return method == "GET" || method == "HEAD"
    }
}
