import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on its way through the chain: what is sent, and what every stage needs to know
/// about it. Stages pass it on, changed (a prepared request, a redirect's URL), to the next.
struct Exchange: Sendable {
    /// The request as it stands at this stage.
    var request: URLRequest
    /// The body outside the request, or the download's working file.
    var payload: Payload
    /// What plugins are told; ``RequestContext/attempt`` counts the sends so far.
    var context: RequestContext
    /// The transport that sends it: the router's, or a stub answering from the endpoint's
    /// sample response.
    let transport: any HTTPTransport
    /// ``transport`` as a ``CallbackTransport``, when it is one.
    var callbackTransport: (any CallbackTransport)?
    /// The endpoint's ``EndPointType/acceptableStatusCodes``.
    let acceptableStatusCodes: Set<Int>
    /// Receives upload and download progress, when the caller asked for it.
    let progress: ProgressReporter?
    /// The request's handle: its commit point and attempt count.
    let handle: RequestHandle
    /// The seconds from the start that the request may take, retries included: the endpoint's
    /// ``EndPointType/timeout``, or a stream's deadline.
    let timeout: TimeInterval
    /// The uptime, in nanoseconds, at which the request's deadline passes (see ``Seconds``).
    let deadline: UInt64
    /// Redirects followed so far.
    var redirectCount = 0
    /// How the router's cache may answer it (the endpoint's ``EndPointType/cachePolicy``, or
    /// ``HTTPCache/Policy/bypass`` when it is not ``EndPointType/isCacheable``).
    var cachePolicy: HTTPCache.Policy = .useProtocolCachePolicy
    /// What is measured of it, for ``RequestMetrics``.
    let metrics: MetricsRecorder
    /// Where the transport puts the body of a streamed request (``Router/stream(_:options:)``);
    /// `nil` when the body is received whole.
    var streamedBody: StreamedBody?

    init(
        request: URLRequest, payload: Payload, context: RequestContext, transport: any HTTPTransport,
        acceptableStatusCodes: Set<Int>, progress: ProgressReporter?, handle: RequestHandle, timeout: TimeInterval,
        metrics: MetricsRecorder
    ) {
        self.metrics = metrics
        self.request = request
        self.payload = payload
        self.context = context
        self.transport = transport
        self.acceptableStatusCodes = acceptableStatusCodes
        self.progress = progress
        self.handle = handle
        self.timeout = timeout
        self.deadline = Seconds.uptime(after: timeout)
    }
}
