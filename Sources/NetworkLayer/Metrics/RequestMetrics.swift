import Foundation

/// How one request went, measured by the router itself on every platform: when it started, how
/// long until the first byte of the response, how long in all, how many times it was sent and
/// how long it waited between, the bytes each way, and whether the cache answered.
///
/// Every delivered ``Response`` carries them (``Response/metrics``), and every outcome, failures
/// included, reaches plugins with them in ``RequestContext/metrics``. To feed a metrics system,
/// read them in a plugin's ``PluginType/didReceive(_:context:)``:
///
/// ```swift
/// struct DurationPlugin: PluginType {
///     let record: @Sendable (_ endpoint: String, _ seconds: Double, _ failed: Bool) -> Void
///
///     func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
///         guard let metrics = context.metrics else { return }
///         let failed = (try? result.get()) == nil
///         record("\(type(of: context.target))", metrics.duration, failed)
///     }
/// }
/// ```
public struct RequestMetrics: Sendable, Equatable {
    /// When the request was started (`router.request` was called).
    public let startedAt: Date
    /// Seconds from the start until the first byte of the final response, where the transport can
    /// tell (the response head of a stream or a download; otherwise when the response arrived);
    /// `nil` when no response arrived.
    public let timeToFirstByte: TimeInterval?
    /// Seconds from the start until the outcome was delivered.
    public let duration: TimeInterval
    /// How many times the request was handed to the transport: 1 plus retries and replays;
    /// redirects are counted apart. 0 when it failed before being sent, or the cache answered.
    public let attempts: Int
    /// Seconds spent waiting between attempts (retry delays).
    public let retryWait: TimeInterval
    /// Redirects followed.
    public let redirects: Int
    /// Bytes of request bodies handed to the transport, every attempt counted.
    public let bytesSent: Int64
    /// Bytes of response bodies received (in memory or written to a file), every attempt counted.
    public let bytesReceived: Int64
    /// Whether the router's cache answered (``Router/cache``); `nil` when the request did not go
    /// through one.
    public let cacheOutcome: CacheOutcome?
    /// Whether the response came from an identical request's transfer that was already in flight
    /// (``Router/deduplicatesRequests``) rather than one of its own; its bytes are counted
    /// received, its attempts not.
    public let sharedTransfer: Bool

    /// Creates metrics; the router makes them, tests may too.
    public init(
        startedAt: Date, timeToFirstByte: TimeInterval?, duration: TimeInterval, attempts: Int, retryWait: TimeInterval,
        redirects: Int, bytesSent: Int64, bytesReceived: Int64, cacheOutcome: CacheOutcome?, sharedTransfer: Bool = false
    ) {
        self.startedAt = startedAt
        self.timeToFirstByte = timeToFirstByte
        self.duration = duration
        self.attempts = attempts
        self.retryWait = retryWait
        self.redirects = redirects
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.cacheOutcome = cacheOutcome
        self.sharedTransfer = sharedTransfer
    }
}

/// Collects one request's ``RequestMetrics`` as its stages run, from any thread. Copies share
/// what they collect.
struct MetricsRecorder: Sendable {
    private struct State {
        var firstByte: UInt64?
        var attempts = 0
        var retryWait: UInt64 = 0
        var redirects = 0
        var bytesSent: Int64 = 0
        var bytesReceived: Int64 = 0
        var cacheOutcome: CacheOutcome?
        var sharedTransfer = false
    }

    let startedAt = Date()
    private let start = DispatchTime.now().uptimeNanoseconds
    private let state = Locked(State())

    /// `total` and `more` bytes, or `Int64.max` past it: an upload of a sparse file of exabytes
    /// sent twice (a retry, a 307) overflowed the count and ended the process (2026-11-26).
    private static func sum(_ total: Int64, _ more: Int64) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(more)
        return overflow ? .max : sum
    }

    /// The request is handed to the transport with a body of `bodyBytes`.
    func didSend(bodyBytes: Int64) {
        state.withLock {
            $0.attempts += 1
            $0.bytesSent = Self.sum($0.bytesSent, bodyBytes)
        }
    }

    /// The first byte of a response arrived (the first call counts; later ones are ignored until
    /// the next attempt's response).
    func didReceiveFirstByte() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { if $0.firstByte == nil { $0.firstByte = now } }
    }

    /// A response's body of `bytes` arrived.
    func didReceive(bodyBytes bytes: Int64) {
        state.withLock { $0.bytesReceived = Self.sum($0.bytesReceived, bytes) }
    }

    /// The retry policy waited `seconds` before the next attempt.
    func didWait(seconds: TimeInterval) {
        state.withLock {
            let (sum, overflow) = $0.retryWait.addingReportingOverflow(Seconds.nanoseconds(seconds))
            $0.retryWait = overflow ? .max : sum
        }
    }

    /// A redirect was followed.
    func didFollowRedirect() {
        state.withLock { $0.redirects += 1 }
    }

    /// The cache answered, revalidated, or let the request through.
    func didUseCache(_ outcome: CacheOutcome) {
        state.withLock { $0.cacheOutcome = outcome }
    }

    /// The response of an identical request's transfer arrived for this one.
    func didShare(_ response: Response) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock {
            $0.sharedTransfer = true
            if $0.firstByte == nil { $0.firstByte = now }
            $0.bytesReceived = Self.sum($0.bytesReceived, Int64(response.data.count))
        }
    }

    /// The metrics as they stand now, at delivery.
    func finish() -> RequestMetrics {
        let end = DispatchTime.now().uptimeNanoseconds
        let state = self.state.withLock { $0 }
        func seconds(_ nanoseconds: UInt64) -> TimeInterval { Double(nanoseconds) / 1e9 }
        return RequestMetrics(
            startedAt: startedAt, timeToFirstByte: state.firstByte.map { seconds($0 &- start) },
            duration: seconds(end &- start), attempts: state.attempts, retryWait: seconds(state.retryWait),
            redirects: state.redirects, bytesSent: state.bytesSent, bytesReceived: state.bytesReceived,
            cacheOutcome: state.cacheOutcome, sharedTransfer: state.sharedTransfer)
    }
}
