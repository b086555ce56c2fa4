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
/// One request travels one way: ``RequestBuilder`` builds it from the endpoint, the
/// ``HTTPTransport`` sends it, the endpoint's ``EndPointType/acceptableStatusCodes`` validate the
/// status, and the outcome is delivered once. The router enforces each endpoint's
/// ``EndPointType/timeout`` itself.
public final class Router<EndPoint: EndPointType>: NetworkRouter {
    /// Sends the bytes; ``URLSessionTransport`` unless given.
    public let transport: any HTTPTransport

    /// Where completion closures run; the main queue unless given.
    ///
    /// The main queue is what app code expects (Moya and Alamofire do the same), but it only
    /// runs while the main thread services it: in a command-line tool that blocks its main
    /// thread (a semaphore, `readLine`), pass another queue or use the `async` API.
    public let callbackQueue: DispatchQueue

    private let inFlight = InFlightRequests()

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; a new ``URLSessionTransport`` by default.
    ///   - callbackQueue: Where completion closures run; `.main` by default.
    public init(transport: any HTTPTransport = URLSessionTransport(), callbackQueue: DispatchQueue = .main) {
        self.transport = transport
        self.callbackQueue = callbackQueue
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

    /// Registers a request, then runs its pipeline under its deadline.
    func start(
        _ route: EndPoint, deliver: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> RequestHandle {
        let inFlight = self.inFlight
        let handle = RequestHandle(id: inFlight.nextID(), deliver: deliver, onFinish: { inFlight.remove($0) })
        inFlight.insert(handle)
        handle.start(timeout: route.timeout) { [self] in
            await self.perform(route)
        }
        return handle
    }

    /// The pipeline of one request: build, send, validate.
    func perform(_ route: EndPoint) async -> Result<Response, NetworkError> {
        let request: URLRequest
        do {
            request = try RequestBuilder.makeRequest(for: route)
        } catch {
            return .failure(.invalidRequest(error))
        }
        guard !Task.isCancelled else { return .failure(.cancelled) }

        let response: Response
        do {
            let (data, httpResponse) = try await transport.send(request)
            response = Response(request: request, httpResponse: httpResponse, data: data)
        } catch {
            return .failure(Task.isCancelled ? .cancelled : NetworkError(error))
        }

        guard route.acceptableStatusCodes.contains(response.statusCode) else {
            return .failure(.unacceptableStatusCode(response))
        }
        return .success(response)
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
