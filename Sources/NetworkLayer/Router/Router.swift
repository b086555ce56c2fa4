import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the requests of one API, described by an ``EndPointType`` enum.
///
/// ```swift
/// let router = Router<MovieApi>()
///
/// // Completion closure: runs exactly once, on the callback queue.
/// let handle = router.request(.popular(page: 1)) { result in
///     switch result {
///     case .success(let response): print(response.statusCode, response.text)
///     case .failure(let error): print(error.localizedDescription)
///     }
/// }
/// handle.cancel()
///
/// // async/await: cancelling the Task cancels the request.
/// let page = try await router.request(.popular(page: 1), as: MoviePage.self)
/// ```
///
/// One request travels one way, as `start` in Router.swift reads: it is **built** from the endpoint
/// (``RequestBuilder``), sent through a **chain** of stages (a plugin's replay, the
/// ``RetryPolicy``, the plugins' `prepare`, the download's placement, the endpoint's
/// ``EndPointType/acceptableStatusCodes``, the ``HTTPCache``, the sharing of identical requests
/// in flight (``deduplicatesRequests``), redirects, and the ``HTTPTransport`` or a stub at the
/// end), and its outcome is **delivered** exactly once, after the plugins have seen and
/// processed it. The router enforces each endpoint's ``EndPointType/timeout`` itself, retries
/// included.
public final class Router<EndPoint: EndPointType>: NetworkRouter {
    /// Sends the bytes; ``URLSessionTransport`` unless given.
    public let transport: any HTTPTransport

    /// Where completion closures run; the main queue unless given.
    ///
    /// The main queue is what app code expects (Moya and Alamofire do the same), but it only
    /// runs while the main thread services it: in a command-line tool that blocks its main
    /// thread (a semaphore, `readLine`), pass another queue or use the `async` API.
    public let callbackQueue: DispatchQueue

    /// The plugins, in the order their hooks run.
    public let plugins: [any PluginType]

    /// When failed requests are sent again; ``RetryPolicy/none`` unless given.
    public let retryPolicy: RetryPolicy

    /// Decides per endpoint whether to answer from its ``EndPointType/sampleResponse``.
    public let stubBehavior: @Sendable (EndPoint) -> StubBehavior

    /// What is secret: the redaction given to ``init(transport:callbackQueue:plugins:retryPolicy:stubBehavior:redaction:redirects:cache:mapping:deduplicatesRequests:)``
    /// with every plugin's ``PluginType/redaction``. Hidden in every error and description the
    /// router produces and in its logger's lines; its headers never follow a redirect to another
    /// origin.
    public let redaction: Redaction

    /// Whether and how far redirects are followed; ``RedirectPolicy/follow`` unless given.
    public let redirects: RedirectPolicy

    /// The HTTP cache that answers and stores responses (RFC 9111) by each endpoint's
    /// ``EndPointType/cachePolicy``; `nil` (the default) for none. The same on every platform:
    /// an owned ``URLSessionTransport`` has no `URLCache` of its own.
    public let cache: HTTPCache?

    /// How each endpoint is changed before its request is built: an environment's base URL,
    /// headers for every endpoint. ``EndpointMapping/identity`` unless given.
    public let mapping: EndpointMapping<EndPoint>

    /// Whether identical `GET` and `HEAD` requests in flight at the same time share one transfer
    /// (Moya's `trackInflights`); `false` unless given. Each caller still gets its own
    /// completion, deadline and cancellation: cancelling one leaves the transfer to the others,
    /// and only the last one to leave stops it. Requests are identical when their method, URL,
    /// timeout and headers (after the plugins' ``PluginType/prepare(_:context:)``, and with
    /// those the transport adds, such as its cookies) are. Stubbed requests, and those sent
    /// through a transport whose ``HTTPTransport/headersAdded(to:)`` is `nil` (it cannot say
    /// which credentials it adds), are never shared.
    public let deduplicatesRequests: Bool

    let chain: Chain
    /// The transfers shared by identical requests, when ``deduplicatesRequests``.
    let sharedTransfers: SharedTransfers?
    let scheduler: DeadlineScheduler
    /// ``transport`` when it can start a request without a task, cast once.
    let callbackTransport: (any CallbackTransport)?
    /// Whether `EndPoint` wraps other endpoints (``MultiTarget``), whose plugins are given the
    /// one inside; decided once, not per request.
    let unwrapsTargets: Bool
    let inFlight = InFlightRequests()

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; a new ``URLSessionTransport`` by default.
    ///   - callbackQueue: Where completion closures run; `.main` by default.
    ///   - plugins: Hooks run for every request, in this order; none by default.
    ///   - retryPolicy: When to send failed requests again; ``RetryPolicy/none`` by default.
    ///   - stubBehavior: Which endpoints answer from their sample response instead of the
    ///     network; none by default. `{ _ in .immediate }` stubs them all.
    ///   - redaction: Which header and query values are secrets; ``Redaction/default`` by
    ///     default. The plugins' own secrets are added to it.
    ///   - redirects: Whether and how far redirects are followed; ``RedirectPolicy/follow`` (16) by default.
    ///   - cache: An HTTP cache for the endpoints' responses; none by default:
    ///     `Router<MovieApi>(cache: .inMemory())` keeps up to 8 MiB in memory.
    ///   - mapping: How each endpoint is changed before its request is built; none by default:
    ///     `Router<MovieApi>(mapping: .environment(stagingURL))` sends every request to staging.
    ///   - deduplicatesRequests: Whether identical `GET` and `HEAD` requests in flight share one
    ///     transfer; `false` by default.
    public convenience init(
        transport: any HTTPTransport = URLSessionTransport(),
        callbackQueue: DispatchQueue = .main,
        plugins: [any PluginType] = [],
        retryPolicy: RetryPolicy = .none,
        stubBehavior: @escaping @Sendable (EndPoint) -> StubBehavior = { _ in .never },
        redaction: Redaction = .default,
        redirects: RedirectPolicy = .follow,
        cache: HTTPCache? = nil,
        mapping: EndpointMapping<EndPoint> = .identity,
        deduplicatesRequests: Bool = false
    ) {
        self.init(
            transport: transport, callbackQueue: callbackQueue, plugins: plugins, retryPolicy: retryPolicy,
            stubBehavior: stubBehavior, redaction: redaction, redirects: redirects, cache: cache, mapping: mapping,
            deduplicatesRequests: deduplicatesRequests, scheduler: .shared)
    }

    /// The designated initializer, with the deadline scheduler a test may replace.
    init(
        transport: any HTTPTransport, callbackQueue: DispatchQueue, plugins: [any PluginType], retryPolicy: RetryPolicy,
        stubBehavior: @escaping @Sendable (EndPoint) -> StubBehavior, redaction: Redaction, redirects: RedirectPolicy,
        cache: HTTPCache?, mapping: EndpointMapping<EndPoint> = .identity, deduplicatesRequests: Bool = false,
        scheduler: DeadlineScheduler
    ) {
        self.transport = transport
        self.callbackTransport = transport as? any CallbackTransport
        self.callbackQueue = callbackQueue
        self.plugins = plugins
        self.retryPolicy = retryPolicy
        self.stubBehavior = stubBehavior
        self.redaction = plugins.reduce(redaction) { $0.merging($1.redaction) }
        self.redirects = redirects
        self.cache = cache
        self.mapping = mapping
        self.deduplicatesRequests = deduplicatesRequests
        self.scheduler = scheduler
        self.unwrapsTargets = EndPoint.self is any EndpointWrapper.Type
        self.sharedTransfers = deduplicatesRequests ? SharedTransfers() : nil
        self.chain = Chain(plugins: plugins, retryPolicy: retryPolicy, redirects: redirects, cache: cache, sharing: sharedTransfers)
    }

    /// The number of requests started and not yet finished (for diagnostics and tests).
    public var inFlightCount: Int { inFlight.count }

    /// Sends `route`; `completion` runs exactly once on ``callbackQueue`` with the response or
    /// the error, whatever happens: success, failure, ``NetworkError/cancelled``,
    /// ``NetworkError/timedOut(after:)``.
    ///
    /// - Returns: A handle whose `cancel()` stops this request only.
    @discardableResult
    public func request(
        _ route: EndPoint, completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> any Cancellable {
        let queue = callbackQueue
        return start(route) { result in
            queue.async { completion(result) }
        }
    }

    /// Cancels every request of this router that is still in flight; each completes with
    /// ``NetworkError/cancelled``. An event stream (``events(_:options:reconnection:)``) waiting
    /// to reconnect does not connect again: its reader gets ``NetworkError/cancelled``.
    public func cancel() {
        for handle in inFlight.cancelAll() {
            handle.cancel()
        }
    }

    // MARK: - One request: build, chain, deliver

    /// Starts `route` under its deadline and hands its outcome to `deliver`, exactly once.
    func start(
        _ route: EndPoint, progress: ProgressReporter? = nil,
        deliver: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> RequestHandle {
        let opened = open(route, progress: progress, deliver: deliver)
        inFlight.insert(opened.handle)
        switch opened.exchange {
        case .success(let exchange):
            // Armed before the start, which can block the caller: FoundationNetworking's
            // `dataTask(with:)` waits for its one work queue, which a response of 10,000
            // `Set-Cookie` fields on another session kept busy for 5.7 s, and a deadline armed
            // after it fired that late (BlockedStartDeadlineTests). Owned sessions make their
            // tasks off the caller's thread; a session of the caller's, or a transport of theirs,
            // may not. A request answered at once (a stub, a cache hit) pays for a timer it does
            // not need.
            opened.handle.arm(timeout: exchange.timeout)
            chain.start(exchange)
        case .failure(let error):
            opened.handle.finish(.failure(error))
        }
        return opened.handle
    }

    /// The first steps of every request, a stream's too: `route` built (with `headers` added)
    /// into an exchange, and the handle that delivers its outcome once: the payload's files
    /// removed, the request taken out of ``inFlight``, the metrics attached, the plugins told,
    /// then `deliver`. Nothing is sent yet. The caller puts the handle in ``inFlight`` once it is
    /// ready to hear the outcome (from then on ``cancel()`` reaches it), and finishes it with the
    /// error when the request could not be built.
    ///
    /// - Parameter timeout: The deadline retries must fit in: the endpoint's unless given.
    func open(
        _ route: EndPoint, timeout: TimeInterval? = nil, headers: HTTPHeaders = [:], progress: ProgressReporter?,
        deliver: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> (handle: RequestHandle, metrics: MetricsRecorder, exchange: Result<Exchange, NetworkError>) {
        let id = inFlight.nextID()
        let metrics = MetricsRecorder()
        let building: Result<BuiltRequest, NetworkError>
        do throws(NetworkError) {
            var built: BuiltRequest
            if let map = mapping.map {
                let mapped = map(route)
                built = try build(mapped, stubbing: route, addingURLParameters: mapped.additionalURLParameters, timeout: timeout)
            } else {
                built = try build(route, stubbing: route, timeout: timeout)
            }
            do throws(RequestBuildingError) {
                try built.request.setValidatedHeaders(headers)
            } catch {
                throw .invalidRequest(error)
            }
            building = .success(built)
        } catch {
            building = .failure(error)
        }
        // Read in place: copying the built request out (`try? building.get()`) cost a stubbed
        // request about 0.15 µs (Benchmarks stub, medians of 8 interleaved runs, 2026-11-26).
        let (requestURL, payload, sender): (URL?, Payload, (any HTTPTransport)?)
        if case .success(let built) = building {
            (requestURL, payload, sender) = (built.request.url, built.payload, built.sender)
        } else {
            // Nothing to remove: a form is written, and a download's file opened, once the chain
            // runs, and a request that could not be built never reaches it.
            (requestURL, payload, sender) = (nil, .inRequest, nil)
        }
        let context = RequestContext(
            id: id, target: target(of: route), startedAt: metrics.startedAt, attempt: 0, redaction: redaction,
            requestURL: requestURL)
        let handle = RequestHandle(id: id, scheduler: scheduler) { [plugins, inFlight] result, attempts in
            // Measured before the clean-up removes a form's file, which it measures.
            let transferred = progress != nil ? (try? result.get()).map { payload.transferredBytes(of: $0) } : nil
            // A cancelled or timed-out transfer's files are removed before anyone hears of it.
            payload.cleanUp()
            inFlight.remove(id)
            if let transferred { progress?.finish(total: transferred) }
            var context = context
            context.attempt = attempts
            let delivery = Response.Delivery(metrics: metrics.finish(), redaction: context.redaction, sender: sender)
            context.delivery = delivery
            let result = result.attaching(delivery)
            for plugin in plugins { plugin.didReceive(result, context: context) }
            deliver(plugins.reduce(result) { $1.process($0, context: context) })
        }
        switch consume building {
        case .success(let built):
            return (handle, metrics, .success(Exchange(built, context: context, handle: handle, progress: progress, metrics: metrics)))
        case .failure(let error):
            return (handle, metrics, .failure(error))
        }
    }

    /// The first step: `endpoint` (`route` itself, or its ``mapping``) as a request with its
    /// payload and the transport that will send it, ready to become an ``Exchange``. Whether
    /// to stub is decided for `route`, the endpoint the caller named.
    ///
    /// - Parameter timeout: The deadline retries must fit in: the endpoint's, unless a stream
    ///   gives its own.
    func build(
        _ endpoint: some EndPointType, stubbing route: EndPoint, addingURLParameters: Parameters = [:],
        timeout: TimeInterval?
    ) throws(NetworkError) -> BuiltRequest {
        do {
            let (request, body) = try RequestBuilder.makeRequestAndBody(for: endpoint, addingURLParameters: addingURLParameters)
            let (transport, callbackTransport, sender) = transport(for: route, answering: endpoint.sampleResponse)
            return BuiltRequest(
                request: request, payload: try Payload(body), transport: transport, callbackTransport: callbackTransport, sender: sender,
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
    /// a dynamic cast per request (the cast was a twentieth of a stubbed request's time), and as
    /// a delivered response keeps it (none for a stub, which adds nothing).
    func transport(
        for route: EndPoint, answering sample: @autoclosure () -> StubResponse
    ) -> (any HTTPTransport, (any CallbackTransport)?, sender: (any HTTPTransport)?) {
        let stub: StubTransport
        switch stubBehavior(route) {
        case .never: return (transport, callbackTransport, transport)
        case .immediate: stub = StubTransport(sample())
        case .delayed(let seconds): stub = StubTransport(sample(), delay: seconds)
        }
        return (stub, stub, nil)
    }
}
