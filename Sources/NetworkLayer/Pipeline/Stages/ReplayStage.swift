import Foundation

/// Sends a request once more when a plugin asks to after an unacceptable status (a refreshed
/// token: ``PluginType/shouldReplay(after:context:)``). Outside the retries, so that a request
/// is replayed at most once, whatever its retries do.
struct ReplayStage: RequestStage {
    let plugins: [any PluginType]

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        do {
            return try await next(exchange)
        } catch .unacceptableStatusCode(let response) {
            for plugin in plugins {
                guard !Task.isCancelled else { throw .cancelled }
                let replay: Bool
                do {
                    replay = try await plugin.shouldReplay(after: response, context: exchange.context)
                } catch {
                    throw Task.isCancelled ? .cancelled : NetworkError(error, redaction: exchange.context.redaction)
                }
                // A plugin that answered after the caller cancelled (a refresh that does not
                // look at cancellation) starts no replay: no prepare, no send.
                guard !Task.isCancelled else { throw .cancelled }
                if replay { return try await next(exchange) }
            }
            throw .unacceptableStatusCode(response)
        }
    }
}
