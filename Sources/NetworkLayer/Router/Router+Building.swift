import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The first step of a request's way (Router.swift): the endpoint, mapped, becomes a request with
// its payload and the transport that will send it.
extension Router {
    /// The endpoint, changed by the router's ``mapping``, as a request with its payload, ready
    /// to become an ``Exchange``.
    ///
    /// - Parameter timeout: The deadline retries must fit in: the endpoint's, unless a stream
    ///   gives its own.
    func build(_ route: EndPoint, timeout: TimeInterval? = nil) throws(NetworkError) -> BuiltRequest {
        guard let map = mapping.map else {
            return try build(route, stubbing: route, timeout: timeout)
        }
        let mapped = map(route)
        return try build(mapped, stubbing: route, addingURLParameters: mapped.additionalURLParameters, timeout: timeout)
    }

    /// Builds `endpoint`, which is `route` itself or its mapping; whether to stub is decided for
    /// `route`, the endpoint the caller named.
    func build(
        _ endpoint: some EndPointType, stubbing route: EndPoint, addingURLParameters: Parameters = [:],
        timeout: TimeInterval?
    ) throws(NetworkError) -> BuiltRequest {
        do {
            let (request, body) = try RequestBuilder.makeRequestAndBody(for: endpoint, addingURLParameters: addingURLParameters)
            let (transport, callbackTransport) = transport(for: route, answering: endpoint.sampleResponse)
            return BuiltRequest(
                request: request, payload: try Payload(body), transport: transport, callbackTransport: callbackTransport,
                acceptableStatusCodes: endpoint.acceptableStatusCodes, timeout: timeout ?? endpoint.timeout,
                cachePolicy: endpoint.isCacheable ? HTTPCache.Policy(endpoint.cachePolicy) : .bypass)
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
    /// The endpoint's ``EndPointType/acceptableStatusCodes``.
    let acceptableStatusCodes: Set<Int>
    /// The seconds the request may take, retries included.
    let timeout: TimeInterval
    /// How the router's cache may answer it.
    let cachePolicy: HTTPCache.Policy
}
