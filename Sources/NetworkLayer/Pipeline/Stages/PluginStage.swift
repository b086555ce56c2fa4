import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every plugin's ``PluginType/prepare(_:context:)`` in order, a check of every header they set,
/// then every plugin's ``PluginType/willSend(_:context:)``: once per attempt, retries and replays
/// included, so that a refreshed token goes with the replay.
struct PluginStage: RequestStage {
    let plugins: [any PluginType]

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        var exchange = exchange
        do {
            for plugin in plugins {
                exchange.request = try await plugin.prepare(exchange.request, context: exchange.context)
            }
        } catch {
            throw Task.isCancelled ? .cancelled : NetworkError(error, redaction: exchange.context.redaction)
        }
        // A plugin may have set any header, and FoundationNetworking sends a name with CR LF
        // verbatim.
        do {
            try exchange.request.validateHeaders()
        } catch {
            throw .invalidRequest(error)
        }
        exchange.context.attempt += 1
        exchange.handle.recordAttempt()
        for plugin in plugins { plugin.willSend(exchange.request, context: exchange.context) }
        return try await next(exchange)
    }
}
