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
    /// Redirects followed so far.
    var redirectCount = 0
    /// How the router's cache may answer it (the endpoint's ``EndPointType/cachePolicy``, or
    /// ``HTTPCache/Policy/bypass`` when it is not ``EndPointType/isCacheable``).
    var cachePolicy: HTTPCache.Policy = .useProtocolCachePolicy
    /// Where the transport puts the body of a streamed request (``Router/stream(_:options:)``);
    /// `nil` when the body is received whole.
    var streamedBody: StreamedBody?
    /// What no stage changes, held once for every copy.
    private let fixed: Fixed

    /// The transport that sends it: the router's, or a stub answering from the endpoint's
    /// sample response.
    var transport: any HTTPTransport { fixed.transport }
    /// ``transport`` as a ``CallbackTransport``, when it is one.
    var callbackTransport: (any CallbackTransport)? { fixed.callbackTransport }
    /// The router's transport as a delivered response keeps it; `nil` for a stub.
    var sender: (any HTTPTransport)? { fixed.sender }
    /// The endpoint's ``EndPointType/acceptableStatusCodes``.
    var acceptableStatusCodes: Set<Int> { fixed.acceptableStatusCodes }
    /// Receives upload and download progress, when the caller asked for it.
    var progress: ProgressReporter? { fixed.progress }
    /// The request's handle: its commit point and attempt count.
    var handle: RequestHandle { fixed.handle }
    /// The seconds from the start that the request may take, retries included: the endpoint's
    /// ``EndPointType/timeout``, or a stream's deadline.
    var timeout: TimeInterval { fixed.timeout }
    /// The uptime, in nanoseconds, at which the request's deadline passes (see ``Seconds``).
    var deadline: UInt64 { fixed.deadline }
    /// What is measured of it, for ``RequestMetrics``.
    var metrics: MetricsRecorder { fixed.metrics }

    /// The exchange that starts the chain for `built`.
    init(
        _ built: BuiltRequest, context: RequestContext, handle: RequestHandle, progress: ProgressReporter?,
        metrics: MetricsRecorder
    ) {
        request = built.request
        payload = built.payload
        cachePolicy = built.cachePolicy
        self.context = context
        fixed = Fixed(
            transport: built.transport, callbackTransport: built.callbackTransport, sender: built.sender,
            acceptableStatusCodes: built.acceptableStatusCodes, progress: progress, handle: handle, timeout: built.timeout,
            deadline: Seconds.uptime(after: built.timeout), metrics: metrics)
    }

    /// The part of an exchange that stays the same from the first stage to the transport, held
    /// by reference: every stage copies the exchange, and inline these made each copy more than
    /// three times as long, with eight more references to count (`CopyCostTests`).
    private final class Fixed: Sendable {
        let transport: any HTTPTransport
        let callbackTransport: (any CallbackTransport)?
        let sender: (any HTTPTransport)?
        let acceptableStatusCodes: Set<Int>
        let progress: ProgressReporter?
        let handle: RequestHandle
        let timeout: TimeInterval
        let deadline: UInt64
        let metrics: MetricsRecorder

        init(
            transport: any HTTPTransport, callbackTransport: (any CallbackTransport)?, sender: (any HTTPTransport)?,
            acceptableStatusCodes: Set<Int>,
            progress: ProgressReporter?, handle: RequestHandle, timeout: TimeInterval, deadline: UInt64,
            metrics: MetricsRecorder
        ) {
            self.transport = transport
            self.callbackTransport = callbackTransport
            self.sender = sender
            self.acceptableStatusCodes = acceptableStatusCodes
            self.progress = progress
            self.handle = handle
            self.timeout = timeout
            self.deadline = deadline
            self.metrics = metrics
        }
    }
}

/// An endpoint built into a request, with what the chain needs to know of the endpoint: what an
/// ``Exchange`` starts from.
struct BuiltRequest: Sendable {
    /// The request; a stream adds its own headers before the chain.
    var request: URLRequest
    /// The body outside the request, or the download's working file.
    let payload: Payload
    /// The router's transport, or a stub answering from the endpoint's sample response.
    let transport: any HTTPTransport
    /// ``transport`` as a ``CallbackTransport``, when it is one.
    let callbackTransport: (any CallbackTransport)?
    /// The router's transport as a delivered response keeps it; `nil` for a stub.
    let sender: (any HTTPTransport)?
    /// The endpoint's ``EndPointType/acceptableStatusCodes``.
    let acceptableStatusCodes: Set<Int>
    /// The seconds the request may take, retries included.
    let timeout: TimeInterval
    /// How the router's cache may answer it.
    let cachePolicy: HTTPCache.Policy
}
