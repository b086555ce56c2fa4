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
/// One request travels one way, top to bottom in this file: ``RequestBuilder`` builds it from
/// the endpoint; the plugins prepare it; the ``HTTPTransport`` (or a stub) sends it; the
/// endpoint's ``EndPointType/acceptableStatusCodes`` validate the status; a plugin may replay it
/// once and the ``RetryPolicy`` may send it again; the plugins see and process the outcome,
/// which is delivered exactly once. The router enforces each endpoint's
/// ``EndPointType/timeout`` itself, retries included.
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

    /// What is secret: the redaction given to ``init(transport:callbackQueue:plugins:retryPolicy:stubBehavior:redaction:redirects:)``
    /// with every plugin's ``PluginType/redaction``. Hidden in every error and description the
    /// router produces and in its logger's lines; its headers never follow a redirect to another
    /// origin.
    public let redaction: Redaction

    /// Whether and how far redirects are followed; ``RedirectPolicy/follow`` unless given.
    public let redirects: RedirectPolicy

    private let inFlight = InFlightRequests()

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
    public init(
        transport: any HTTPTransport = URLSessionTransport(),
        callbackQueue: DispatchQueue = .main,
        plugins: [any PluginType] = [],
        retryPolicy: RetryPolicy = .none,
        stubBehavior: @escaping @Sendable (EndPoint) -> StubBehavior = { _ in .never },
        redaction: Redaction = .default,
        redirects: RedirectPolicy = .follow
    ) {
        self.transport = transport
        self.callbackQueue = callbackQueue
        self.plugins = plugins
        self.retryPolicy = retryPolicy
        self.stubBehavior = stubBehavior
        self.redaction = plugins.reduce(redaction) { $0.merging($1.redaction) }
        self.redirects = redirects
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
    /// ``NetworkError/cancelled``.
    public func cancel() {
        for handle in inFlight.all() {
            handle.cancel()
        }
    }

    // MARK: - One request, start to finish

    /// Registers a request and runs its pipeline under its deadline. Whoever finishes the
    /// request first (pipeline, cancel, deadline) has the plugins see and process the outcome,
    /// then hands it to `deliver`; the others do nothing.
    func start(
        _ route: EndPoint, progress: ProgressReporter? = nil,
        deliver: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> RequestHandle {
        let inFlight = self.inFlight
        let plugins = self.plugins
        let context = RequestContext(id: inFlight.nextID(), target: route, startedAt: Date(), attempt: 0, redaction: redaction)
        let attempts = Locked(0)
        let cleanUps = CleanUps()
        let handle = RequestHandle(
            id: context.id,
            deliver: { result in
                // A cancelled or timed-out transfer's files are removed before anyone hears of it.
                cleanUps.run()
                var finalContext = context
                finalContext.attempt = attempts.withLock { $0 }
                for plugin in plugins { plugin.didReceive(result, context: finalContext) }
                let processed = plugins.reduce(result) { $1.process($0, context: finalContext) }
                deliver(processed)
            },
            onFinish: { inFlight.remove($0) })
        inFlight.insert(handle)

        let timeout = route.timeout
        let deadline = Date().addingTimeInterval(timeout.isFinite ? timeout : RequestHandle.longestDeadline)
        handle.start(timeout: timeout) { [self] in
            await perform(
                route, context: context, deadline: deadline, progress: progress, cleanUps: cleanUps,
                commit: { handle.commit() }
            ) { attempt in
                attempts.withLock { $0 = attempt }
            }
        }
        return handle
    }

    /// The pipeline: build, then prepare, send and validate until success, no more retries,
    /// cancellation or the deadline.
    func perform(
        _ route: EndPoint, context: RequestContext, deadline: Date, progress: ProgressReporter?,
        cleanUps: CleanUps, commit: @Sendable () -> Bool, onAttempt: @Sendable (Int) -> Void
    ) async -> Result<Response, NetworkError> {
        let built: URLRequest
        let body: TransferBody
        do {
            let (request, transfer) = try RequestBuilder.makeRequestAndTransfer(for: route)
            built = request
            body = try TransferBody(transfer)
        } catch let error as RequestBuildingError {
            return .failure(.invalidRequest(error))
        } catch {
            return .failure(NetworkError(error, redaction: redaction))
        }
        // Removes a multipart body's temporary file and a failed download's working file, both
        // here, before the pipeline's outcome is delivered, and at delivery if the request is
        // interrupted first.
        cleanUps.add(body.cleanUp)
        defer { body.cleanUp() }

        var context = context
        var retryCount = 0
        var didReplay = false
        while true {
            guard !Task.isCancelled else { return .failure(.cancelled) }
            let request: URLRequest
            do {
                request = try await prepare(built, context: context)
            } catch {
                return .failure(Task.isCancelled ? .cancelled : NetworkError(error, redaction: redaction))
            }

            context.attempt += 1
            onAttempt(context.attempt)
            for plugin in plugins { plugin.willSend(request, context: context) }
            let result = await send(request, body: body, for: route, progress: progress, commit: commit)
            guard case .failure(let error) = result else {
                body.succeeded()
                if case .success(let response) = result {
                    progress?.finish(total: body.transferredBytes(of: response))
                }
                return result
            }
            guard !Task.isCancelled else { return .failure(.cancelled) }

            // A plugin may replay once after an unacceptable status (a refreshed token).
            if !didReplay, case .unacceptableStatusCode(let response) = error {
                do {
                    if try await shouldReplay(after: response, context: context) {
                        didReplay = true
                        continue
                    }
                } catch {
                    return .failure(Task.isCancelled ? .cancelled : NetworkError(error, redaction: redaction))
                }
            }

            let failed = RetryPolicy.FailedAttempt(request: request, error: error, retryCount: retryCount)
            guard let delay = retryPolicy.delay(for: failed),
                Date().addingTimeInterval(delay) < deadline
            else {
                return result
            }
            retryCount += 1
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                return .failure(.cancelled)
            }
        }
    }

    /// Runs every plugin's `prepare`, in order, then checks the headers once more: a plugin
    /// (or a custom encoder) may have set any, and FoundationNetworking sends a name with CR LF
    /// verbatim.
    private func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard !plugins.isEmpty else { return request }
        var request = request
        for plugin in plugins {
            request = try await plugin.prepare(request, context: context)
        }
        try request.validateHeaders()
        return request
    }

    /// One attempt: send through the transport (or a stub), following redirects, validate the
    /// status, and put a download in place.
    private func send(
        _ request: URLRequest, body: TransferBody, for route: EndPoint, progress: ProgressReporter?,
        commit: @Sendable () -> Bool
    ) async -> Result<Response, NetworkError> {
        let transport = transport(for: route)
        var response: Response
        do {
            var (next, nextBody) = (request, body)
            var redirectCount = 0
            while true {
                response = try await exchange(next, body: nextBody, through: transport, progress: progress)
                guard redirects.limit > 0,
                    let redirection = try Redirection.following(response.httpResponse, to: response.request, redaction: redaction)
                else { break }
                redirectCount += 1
                guard redirectCount <= redirects.limit else {
                    throw URLError(.httpTooManyRedirects, userInfo: [NSLocalizedDescriptionKey: "More than \(redirects.limit) redirects."])
                }
                next = redirection.request
                if !redirection.keepsBody, case .upload = nextBody { nextBody = .inRequest }
            }
        } catch {
            return .failure(Task.isCancelled ? .cancelled : NetworkError(error, redaction: redaction))
        }
        guard route.acceptableStatusCodes.contains(response.statusCode) else {
            return .failure(.unacceptableStatusCode(response))
        }
        if case .download(let download) = body, (200..<300).contains(response.statusCode) {
            // A caller told "cancelled" or "timed out" must not find the destination replaced,
            // and a caller told "success" must find it: the move happens only once the outcome
            // is decided.
            guard commit() else { return .failure(.cancelled) }
            do {
                let file = try download.moveIntoPlace()
                response = Response(request: response.request, httpResponse: response.httpResponse, data: Data(), fileURL: file)
            } catch {
                return .failure(.download(error))
            }
        }
        return .success(response)
    }

    /// One request and its response, through `transport`: no redirect followed, no validation.
    private func exchange(
        _ request: URLRequest, body: TransferBody, through transport: any HTTPTransport, progress: ProgressReporter?
    ) async throws -> Response {
        let report: TransferProgressHandler = { completed, total in progress?.report(completed: completed, total: total) }
        switch body {
        case .inRequest:
            let (data, httpResponse) = try await transport.send(request)
            return Response(request: request, httpResponse: httpResponse, data: data)
        case .upload(let upload, _):
            let (data, httpResponse) = try await transport.upload(request, body: upload, progress: report)
            return Response(request: request, httpResponse: httpResponse, data: data)
        case .download(let download):
            var sent = download.resumeRequest(request)
            var (data, httpResponse) = try await transport.download(sent, to: download.workFile, progress: report)
            if httpResponse.statusCode == 416, sent.value(forHTTPHeaderField: "Range") != nil {
                // What was kept no longer fits the resource (complete, or the resource
                // shrank): start over rather than ask for the impossible range forever.
                download.discardPartial()
                sent = request
                (data, httpResponse) = try await transport.download(sent, to: download.workFile, progress: report)
            }
            return Response(request: sent, httpResponse: httpResponse, data: data)
        }
    }

    private func shouldReplay(after response: Response, context: RequestContext) async throws -> Bool {
        for plugin in plugins where try await plugin.shouldReplay(after: response, context: context) {
            return true
        }
        return false
    }

    /// The real transport, or a stub answering with the endpoint's sample response.
    func transport(for route: EndPoint) -> any HTTPTransport {
        switch stubBehavior(route) {
        case .never: return transport
        case .immediate: return StubTransport(route.sampleResponse)
        case .delayed(let seconds): return StubTransport(route.sampleResponse, delay: seconds)
        }
    }
}

/// What must be removed when a request ends, however it ends. Running twice is harmless.
final class CleanUps: Sendable {
    private let actions = Locked<[@Sendable () -> Void]>([])

    func add(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    func run() {
        for action in actions.withLock({ $0 }) { action() }
    }
}

/// The requests a router has started and not finished, so that ``Router/cancel()`` reaches
/// them all and nothing is left behind.
final class InFlightRequests: Sendable {
    private struct State {
        var lastID: UInt64 = 0
        var handles: [UInt64: RequestHandle] = [:]
    }

    private let state = Locked(State())

    func nextID() -> UInt64 {
        state.withLock { state in
            state.lastID &+= 1
            return state.lastID
        }
    }

    func insert(_ handle: RequestHandle) {
        state.withLock { $0.handles[handle.id] = handle }
    }

    func remove(_ id: UInt64) {
        state.withLock { _ = $0.handles.removeValue(forKey: id) }
    }

    func all() -> [RequestHandle] {
        state.withLock { Array($0.handles.values) }
    }

    var count: Int {
        state.withLock { $0.handles.count }
    }
}
