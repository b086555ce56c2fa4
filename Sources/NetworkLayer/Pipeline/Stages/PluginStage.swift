import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every plugin's ``PluginType/prepare(_:context:)`` in order, a check of every header they set,
/// then every plugin's ``PluginType/willSend(_:context:)``: once per attempt, retries and replays
/// included, so that a refreshed token goes with the replay. `willSend` is never called for a
/// request already cancelled or finished, and never after its `didReceive`.
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
        // A plugin may have set any method or header, and both transports send them verbatim.
        do {
            try exchange.request.validateHead()
        } catch {
            throw .invalidRequest(error)
        }
        // The handle counts attempts across retries and replays (each sends this stage's input
        // again, whose context still says 0), and holds a cancellation back until every
        // willSend has returned.
        guard let attempt = exchange.handle.beginAttempt() else { throw .cancelled }
        exchange.context.attempt = attempt
        for plugin in plugins { plugin.willSend(exchange.request, context: exchange.context) }
        // A willSend may have cancelled the request (`router.cancel()`, a handle's `cancel()`):
        // its caller has heard `.cancelled`, and nothing may reach the transport.
        guard exchange.handle.endAttempt() else { throw .cancelled }
        return try await next(exchange)
    }
}
