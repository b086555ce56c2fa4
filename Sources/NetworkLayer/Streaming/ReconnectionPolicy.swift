import Foundation

/// When an event stream (``Router/events(_:options:reconnection:)``) connects again after its
/// connection ends, as the WHATWG EventSource does.
///
/// After a connection ends (cleanly, or by a network failure), the stream waits the server's
/// last `retry` (in milliseconds) or, before the server sent one, ``delay``, then sends the
/// request again with `Last-Event-ID` set to the last event id, and goes on. It stops for good
/// when the server answers 204, when it answers a status the endpoint does not accept (the
/// stream fails with ``NetworkError/unacceptableStatusCode(_:)``), when it is cancelled, or
/// after ``maximumAttempts`` reconnections in a row that brought no event.
///
/// ```swift
/// let events = router.events(.scores, reconnection: ReconnectionPolicy(delay: 1, maximumAttempts: 10))
/// ```
public struct ReconnectionPolicy: Sendable, Equatable {
    /// Seconds to wait before reconnecting when the server has sent no `retry`; 3 by default,
    /// as browsers do.
    public var delay: TimeInterval
    /// The most reconnections in a row without an event in between; `nil` (the default) for no
    /// limit.
    public var maximumAttempts: Int?
    /// The longest wait, whatever `retry` the server sends; 60 seconds by default.
    public var maximumDelay: TimeInterval

    /// Creates a policy; see the properties for the defaults.
    public init(delay: TimeInterval = 3, maximumAttempts: Int? = nil, maximumDelay: TimeInterval = 60) {
        self.delay = delay
        self.maximumAttempts = maximumAttempts
        self.maximumDelay = maximumDelay
    }

    /// Never reconnects: the stream ends with its first connection.
    public static let never = ReconnectionPolicy(maximumAttempts: 0)

    /// The wait before the next connection, given the server's `retry` in milliseconds.
    func wait(retry: Int?) -> TimeInterval {
        let seconds = retry.map { TimeInterval($0) / 1000 } ?? delay
        return min(Seconds.clamped(seconds), Seconds.clamped(maximumDelay))
    }
}
