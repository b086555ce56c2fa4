import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tells when requests begin and end, and how many are in flight: for a network activity
/// indicator or a spinner. Moya's `NetworkActivityPlugin`.
///
/// Each request calls the handler exactly twice, ``Change/began`` then ``Change/ended``, whatever
/// its outcome: success, failure, retries (one pair, not one per attempt), cancellation, deadline,
/// and a request that could not even be built (both at once, when it fails). So
/// ``requestsInFlight`` always comes back to zero. The one exception calls it not at all: an
/// `async` request whose `Task` was cancelled before the call starts nothing and throws
/// ``NetworkError/cancelled`` at once.
///
/// ```swift
/// let spinner = Spinner()  // a @MainActor class with `var requests: Int`
/// let activity = NetworkActivityPlugin { change, _ in
///     Task { @MainActor in spinner.requests += change == .began ? 1 : -1 }
/// }
/// let router = Router<MovieApi>(plugins: [activity])
/// ```
///
/// One plugin can serve several routers: the count is the sum of theirs. The handler runs on
/// whichever thread the request is on, possibly on two at once, so hop to the main actor for
/// the interface, as above; ``requestsInFlight`` is the count at any moment.
public final class NetworkActivityPlugin: PluginType, Sendable {
    /// A request began or ended. Moya's `NetworkActivityChangeType`.
    public enum Change: Sendable, Equatable {
        /// The request is about to be sent for the first time.
        case began
        /// The request has its outcome, just before the other plugins' ``PluginType/process(_:context:)``
        /// and the completion.
        case ended
    }

    /// Receives each change, with the request's context (its endpoint is ``RequestContext/target``).
    public typealias Handler = @Sendable (_ change: Change, _ context: RequestContext) -> Void

    private let handler: Handler
    private let inFlight = Locked(0)

    /// Creates the plugin.
    ///
    /// - Parameter handler: Called with ``Change/began`` and ``Change/ended`` once each per
    ///   request, after ``requestsInFlight`` has changed.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// The requests through this plugin that have begun and not yet ended.
    public var requestsInFlight: Int { inFlight.withLock { $0 } }

    /// ``Change/began`` before the first send; retries and replays send again without beginning again.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        guard context.attempt == 1 else { return }
        change(.began, context)
    }

    /// ``Change/ended``, after ``Change/began`` when the request was never sent (it could not be
    /// built, or it was cancelled first).
    public func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
        // `attempt` is 0 exactly when no willSend ran: the router never lets one follow the
        // outcome (a cancellation waits for the willSend calls in progress).
        if context.attempt == 0 { change(.began, context) }
        change(.ended, context)
    }

    private func change(_ change: Change, _ context: RequestContext) {
        inFlight.withLock { $0 += change == .began ? 1 : -1 }
        handler(change, context)
    }
}
