import Foundation

/// When an event stream (``Router/events(_:options:reconnection:)``) connects again after its
/// connection ends, as the WHATWG EventSource does, without letting a server (or a network that
/// keeps failing) turn it into a flood of connections.
///
/// A connection that ends, cleanly or by a network error (dropped, refused, timed out before or
/// after its head), is followed by a wait and a new request with `Last-Event-ID` set to the
/// last event id. The wait (``reconnectionDelay(retry:consecutiveFailures:)``) is the server's
/// last `retry` field, or ``delay`` before the server sent one, never below ``minimumDelay``
/// however small the `retry`; it doubles (``backoffBase``) with each further connection in a
/// row that brought no event, up to ``maximumDelay``, and gets up to ``jitter`` more at random
/// so that clients cut off together do not come back together.
///
/// | setting | default |
/// |---|---|
/// | ``delay`` | 3 s until the server sends `retry`, as browsers do |
/// | ``minimumDelay`` | 1 s: the floor under any `retry`, `retry: 0` included |
/// | ``backoffBase`` | 2: 1×, 1×, 2×, 4× … the base wait after 0, 1, 2, 3 … connections in a row without an event |
/// | ``jitter`` | up to 20 % added to each wait |
/// | ``maximumDelay`` | 60 s, the ceiling on any wait (the floor wins if they cross) |
/// | ``maximumAttempts`` | no limit on reconnections in a row without an event |
/// | ``reconnectableMethods`` | GET and HEAD only: a POST stream ends with its connection |
///
/// The stream never reconnects when the WHATWG standard says to "fail the connection": a status
/// other than 200 (the endpoint does not accept it: ``NetworkError/unacceptableStatusCode(_:)``;
/// it does: ``StreamError/notAnEventStream(_:)``), a `Content-Type` other than
/// `text/event-stream` (``StreamError/notAnEventStream(_:)``), or a cancellation. A 204 ends
/// the stream cleanly: the server's way of saying "do not reconnect". Nor does it reconnect
/// after an error that trying again cannot fix: a request that cannot be built, a URL no
/// transport supports, a certificate that is not trusted, a line or event past its limit.
///
/// Only safe methods reconnect by default. A request with a body that starts work on the
/// server, such as a POST that asks an LLM API for a chat completion, would be sent again
/// every time its stream ends, each time a new completion (and a new bill): its stream ends
/// with its connection, and a dropped connection throws its error. A caller whose POST is
/// safe to repeat opts in with `reconnectableMethods: [.get, .head, .post]`.
///
/// ```swift
/// let events = router.events(.scores, reconnection: ReconnectionPolicy(delay: 1, maximumAttempts: 10))
/// let patient = ReconnectionPolicy(minimumDelay: 5, maximumDelay: 300)
/// ```
public struct ReconnectionPolicy: Sendable, Equatable {
    /// Seconds to wait before reconnecting while the server has sent no `retry`; 3 by default,
    /// as browsers do.
    public var delay: TimeInterval
    /// The shortest wait before any reconnection, in seconds, whatever `retry` the server sends
    /// (`retry: 0` included) and whatever ``delay`` says; 1 by default.
    public var minimumDelay: TimeInterval
    /// The most reconnections in a row without an event in between; `nil` (the default) for no
    /// limit. 0 never reconnects (``never``).
    public var maximumAttempts: Int?
    /// The longest wait, whatever `retry` the server sends and however long the backoff has
    /// grown, in seconds; 60 by default. When it is below ``minimumDelay``, the floor wins.
    public var maximumDelay: TimeInterval
    /// What each further connection in a row without an event multiplies the wait by; 2 by
    /// default.
    public var backoffBase: Double
    /// The most added to each wait at random, as a fraction of it (0.2 = up to 20 % more);
    /// 0.2 by default. Only ever added, so that the wait is never shorter than the server's
    /// `retry` or the floor. Clamped to `0...1`.
    public var jitter: Double
    /// The methods whose streams reconnect; GET and HEAD (the safe methods) by default. Add
    /// `.post` only for a POST that may be sent again at no cost.
    public var reconnectableMethods: Set<HTTPMethod>

    /// Creates a policy; every argument has the default described above.
    public init(
        delay: TimeInterval = 3,
        minimumDelay: TimeInterval = 1,
        maximumAttempts: Int? = nil,
        maximumDelay: TimeInterval = 60,
        backoffBase: Double = 2,
        jitter: Double = 0.2,
        reconnectableMethods: Set<HTTPMethod> = [.get, .head]
    ) {
        self.delay = delay
        self.minimumDelay = minimumDelay
        self.maximumAttempts = maximumAttempts
        self.maximumDelay = maximumDelay
        self.backoffBase = backoffBase
        self.jitter = jitter
        self.reconnectableMethods = reconnectableMethods
    }

    /// Never reconnects: the stream ends with its first connection, and throws the network error
    /// that ended it, if one did.
    public static let never = ReconnectionPolicy(maximumAttempts: 0)

    /// The wait before the next connection, in seconds.
    ///
    /// It is the server's `retry` (or ``delay``) within ``minimumDelay``...``maximumDelay``,
    /// times ``backoffBase`` ^ (`consecutiveFailures` − 1) from the second failure on, plus up to
    /// ``jitter`` of it at random, and again within ``minimumDelay``...``maximumDelay``.
    ///
    /// - Parameters:
    ///   - retry: the server's last `retry` field in milliseconds (``ServerSentEventParser/retry``),
    ///     `nil` when it sent none.
    ///   - consecutiveFailures: how many connections in a row ended without delivering an event,
    ///     the one that just ended included; 0 when it delivered one.
    /// - Returns: seconds, never below ``minimumDelay``.
    public func reconnectionDelay(retry: Int?, consecutiveFailures: Int) -> TimeInterval {
        reconnectionDelay(retry: retry, consecutiveFailures: consecutiveFailures, random: Double.random(in: 0...1))
    }

    /// ``reconnectionDelay(retry:consecutiveFailures:)`` with the random draw given (`0...1`),
    /// for tests of the bounds.
    func reconnectionDelay(retry: Int?, consecutiveFailures: Int, random: Double) -> TimeInterval {
        let floor = Seconds.clamped(minimumDelay)
        let ceiling = max(floor, Seconds.clamped(maximumDelay))
        func bounded(_ seconds: TimeInterval) -> TimeInterval { min(max(Seconds.clamped(seconds), floor), ceiling) }
        let reconnectionTime = bounded(retry.map { TimeInterval($0) / 1000 } ?? delay)
        let backoff = Backoff.exponential(scale: reconnectionTime, base: backoffBase, exponent: max(0, consecutiveFailures) - 1)
        return bounded(backoff * (1 + Backoff.spread(jitter) * min(max(random, 0), 1)))
    }

    /// Whether a stream of `method` connects again.
    func reconnects(_ method: HTTPMethod) -> Bool {
        reconnectableMethods.contains(method)
    }
}
