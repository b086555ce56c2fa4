import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers without a network: from a closure, or with one fixed response.
///
/// Everything above the transport (request building, plugins, validation, retries,
/// decoding, cancellation, deadlines) runs exactly as for a real request, so a stubbed request
/// fails or succeeds with the same ``Response`` and ``NetworkError`` shapes as a real one.
///
/// ```swift
/// // In a test: every request answers 404 with a TMDB error body.
/// let router = Router<MovieApi>(transport: StubTransport(
///     StubResponse(statusCode: 404, data: Data(#"{"status_code":34}"#.utf8))))
///
/// // Or decide per request:
/// let transport = StubTransport { request in
///     request.url?.path == "/3/movie/popular" ? StubResponse(data: popularJSON) : StubResponse(statusCode: 404)
/// }
/// ```
public struct StubTransport: HTTPTransport {
    /// Decides the answer to a request.
    public typealias Responder = @Sendable (URLRequest) async throws -> StubResponse

    /// Where the answer comes from.
    enum Answer: Sendable {
        /// The same response every time: given without a Swift task.
        case fixed(StubResponse)
        /// What a responder returns for the request.
        case responder(Responder)
    }

    /// The answer and its delay, held by reference: a router makes a stub for each stubbed
    /// request and keeps it as two existentials, and a value longer than three words is boxed
    /// in each.
    private final class Setup: Sendable {
        let answer: Answer
        let delay: TimeInterval

        init(answer: Answer, delay: TimeInterval) {
            self.answer = answer
            self.delay = delay
        }
    }

    private let setup: Setup
    var answer: Answer { setup.answer }
    var delay: TimeInterval { setup.delay }

    /// Answers each request with what `respond` returns, after `delay` seconds.
    public init(delay: TimeInterval = 0, _ respond: @escaping Responder) {
        setup = Setup(answer: .responder(respond), delay: delay)
    }

    /// Answers every request with `response`, after `delay` seconds.
    public init(_ response: StubResponse, delay: TimeInterval = 0) {
        setup = Setup(answer: .fixed(response), delay: delay)
    }

    /// The answer to `request`.
    func respond(to request: URLRequest) async throws -> StubResponse {
        switch answer {
        case .fixed(let response): return response
        case .responder(let respond): return try await respond(request)
        }
    }

    /// Waits `delay` (cancellably), then answers.
    ///
    /// - Throws: `URLError(.cancelled)` when the calling task is cancelled during the delay;
    ///   `URLError(.badURL)` for a request without URL; whatever the responder throws.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await sendThroughCallback(request)
    }

    static func answer(_ stub: StubResponse, to request: URLRequest) -> Result<(Data, ResponseHead), any Error> {
        // A stub's dictionary may spell one field twice (`ETag`, `etag`): a head has one entry per field.
        guard let url = request.url,
            let head = ResponseHead(
                url: url, statusCode: stub.statusCode, httpVersion: "HTTP/1.1", fields: HeaderName.joiningSpellings(in: stub.headers))
        else {
            return .failure(URLError(.badURL))
        }
        return .success((stub.data, head))
    }
}

extension StubTransport: CallbackTransport {
    /// A fixed answer without delay comes at once, on the calling thread; a delay waits on the
    /// router's deadline scheduler; a responder runs in a task of its own.
    package func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
        if case .fixed(let fixed) = answer, delay <= 0 {
            completion(Self.answer(fixed, to: request))
            return {}
        }
        let once = CompletionOnce(completion)
        if case .fixed(let fixed) = answer {
            let token = DeadlineScheduler.shared.schedule(after: delay) { once.complete(Self.answer(fixed, to: request)) }
            return {
                DeadlineScheduler.shared.cancel(token)
                once.complete(.failure(URLError(.cancelled)))
            }
        }
        let task = Task { [self] in
            do {
                if delay > 0 { try await Task.sleep(nanoseconds: Seconds.nanoseconds(delay)) }
                try Task.checkCancellation()
                once.complete(Self.answer(try await respond(to: request), to: request))
            } catch {
                once.complete(.failure(Task.isCancelled ? URLError(.cancelled) : error))
            }
        }
        return { task.cancel() }
    }
}

/// Calls a transport's completion the first time only: a stub's timer and its cancellation
/// may both try.
private final class CompletionOnce: Sendable {
    private let completion = Locked<CallbackTransport.Completion?>(nil)

    init(_ completion: @escaping CallbackTransport.Completion) {
        self.completion.withLock { $0 = completion }
    }

    func complete(_ result: Result<(Data, ResponseHead), any Error>) {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        completion?(result)
    }
}

extension StubTransport {
    /// `[:]`: a stub puts nothing on a wire, so the cache keys a stubbed request by its own headers.
    public func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }
}
