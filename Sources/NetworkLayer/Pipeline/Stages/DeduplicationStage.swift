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
/// answer is shared. Requests with a body, uploads, downloads and streams are never shared.
struct DeduplicationStage: RequestStage {
    let transfers: SharedTransfers

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        guard Self.isShareable(exchange) else { return try await next(exchange) }
        let (outcome, joined) = await transfers.outcome(for: SharedTransfers.Key(exchange.request)) {
            () async throws(NetworkError) -> Response in try await next(exchange)
        }
        let response = try outcome.get()
        if joined { exchange.metrics.didShare(response) }
        return response
    }

    static func isShareable(_ exchange: Exchange) -> Bool {
        guard case .inRequest = exchange.payload, exchange.streamedBody == nil,
            exchange.request.httpBody == nil, exchange.request.httpBodyStream == nil
        else { return false }
        let method = exchange.request.httpMethod ?? "GET"
        return method == "GET" || method == "HEAD"
    }
}
