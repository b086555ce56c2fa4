import Foundation

/// One step of the chain a request goes through: it takes the exchange and the rest of the
/// chain, `next`, and returns the response or throws; it may change the exchange before passing
/// it on, call `next` again (a retry, a redirect) or not at all (an answer from elsewhere), and
/// look at the outcome on its way back. The shape of swift-openapi-runtime's middleware.
///
/// Stages are internal on purpose: ``PluginType`` (prepare, process, replay) and
/// ``HTTPTransport`` are the public ways in, and keep working whatever the chain looks like
/// inside; a public stage would freeze ``Exchange`` and the order of the chain.
protocol RequestStage: Sendable {
    /// Sends `exchange` on through `next`, or answers it without (a cache hit, a replayed
    /// request). `next` may outlive the call: a shared transfer goes on for the other callers
    /// when the one that started it leaves.
    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response
}

/// The rest of the chain, as a stage sees it.
typealias Next = @Sendable (Exchange) async throws(NetworkError) -> Response
