import Foundation

/// How long a streamed request may take, for ``Router/stream(_:options:)``.
///
/// A stream may never end, so the endpoint's ``EndPointType/timeout`` does not apply to it as it
/// is: its ``idleTimeout`` ends a stream that has gone quiet, and its optional ``deadline`` ends
/// it however busy it is. The router enforces both itself, on Linux as everywhere.
///
/// ```swift
/// let stream = router.stream(.scores, options: StreamOptions(idleTimeout: 30, deadline: 3600))
/// ```
public struct StreamOptions: Sendable, Equatable {
    /// Seconds without a byte received or read after which the stream fails with
    /// ``NetworkError/timedOut(after:)``; also the longest wait for the response head. 60 by
    /// default; `nil` for none.
    public var idleTimeout: TimeInterval?
    /// Seconds after which the stream fails with ``NetworkError/timedOut(after:)`` whatever it
    /// is doing; `nil` (the default) for none.
    public var deadline: TimeInterval?

    /// Creates options; see the properties for the defaults.
    public init(idleTimeout: TimeInterval? = 60, deadline: TimeInterval? = nil) {
        self.idleTimeout = idleTimeout
        self.deadline = deadline
    }
}
