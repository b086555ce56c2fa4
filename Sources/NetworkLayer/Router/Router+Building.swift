import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The first step of a request's way (Router.swift): the endpoint, mapped, becomes a request with
// its payload and the transport that will send it.
extension Router {
    /// The endpoint, changed by the router's ``mapping``, as a request with its payload, ready
    /// for the chain.
    ///
    /// - Parameter timeout: The deadline retries must fit in: the endpoint's, unless a stream
    ///   gives its own.
    func build(
        _ route: EndPoint, context: RequestContext, handle: RequestHandle, progress: ProgressReporter?,
        metrics: MetricsRecorder, timeout: TimeInterval? = nil
    ) throws(NetworkError) -> Exchange {
        let parts = Parts(context: context, handle: handle, progress: progress, metrics: metrics, timeout: timeout)
        guard let map = mapping.map else {
            return try build(route, stubbing: route, parts: parts)
        }
        let mapped = map(route)
        return try build(mapped, stubbing: route, addingURLParameters: mapped.additionalURLParameters, parts: parts)
    }

    /// What ``build(_:context:handle:progress:metrics:timeout:)`` is given besides the endpoint.
    struct Parts {
        let context: RequestContext
        let handle: RequestHandle
        let progress: ProgressReporter?
        let metrics: MetricsRecorder
        let timeout: TimeInterval?
    }

    /// Builds `endpoint`, which is `route` itself or its mapping; whether to stub is decided for
    /// `route`, the endpoint the caller named.
    func build(
        _ endpoint: some EndPointType, stubbing route: EndPoint, addingURLParameters: Parameters = [:], parts: Parts
    ) throws(NetworkError) -> Exchange {
        do {
            let (request, body) = try RequestBuilder.makeRequestAndBody(for: endpoint, addingURLParameters: addingURLParameters)
            let (transport, callbackTransport) = transport(for: route, answering: endpoint.sampleResponse)
            var exchange = Exchange(
                request: request, payload: try Payload(body), context: parts.context, transport: transport,
                acceptableStatusCodes: endpoint.acceptableStatusCodes, progress: parts.progress, handle: parts.handle,
                timeout: parts.timeout ?? endpoint.timeout, metrics: parts.metrics)
            exchange.callbackTransport = callbackTransport
            exchange.cachePolicy = endpoint.isCacheable ? HTTPCache.Policy(endpoint.cachePolicy) : .bypass
            return exchange
        } catch {
            throw NetworkError(error, redaction: redaction)
        }
    }

    /// The endpoint plugins are given for `route`: the one inside a ``MultiTarget``.
    func target(of route: EndPoint) -> any EndPointType {
        unwrapsTargets ? RequestContext.unwrapped(route) : route
    }

    /// The real transport, or a stub answering with `sample`, as ``stubBehavior`` decides for
    /// `route`; with the same transport as a ``CallbackTransport`` when it is one, known without
    /// a dynamic cast per request (the cast was a twentieth of a stubbed request's time).
    func transport(
        for route: EndPoint, answering sample: @autoclosure () -> StubResponse
    ) -> (any HTTPTransport, (any CallbackTransport)?) {
        let stub: StubTransport
        switch stubBehavior(route) {
        case .never: return (transport, callbackTransport)
        case .immediate: stub = StubTransport(sample())
        case .delayed(let seconds): stub = StubTransport(sample(), delay: seconds)
        }
        return (stub, stub)
    }
}
