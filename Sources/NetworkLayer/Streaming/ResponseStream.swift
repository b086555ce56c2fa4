import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response read as it arrives: its head (status and headers) first, then its body's chunks.
/// What ``Router/stream(_:options:)`` returns.
///
/// It is an `AsyncSequence` of `Data`, so the views of any chunk sequence apply:
///
/// ```swift
/// let stream = router.stream(.feed)
/// let head = try await stream.response()          // before the first chunk
/// print(head.statusCode, head.header("Content-Type") ?? "")
/// for try await item in stream.decodeLines(Item.self) { show(item) }
/// ```
///
/// Reading it throws ``NetworkError``: ``NetworkError/unacceptableStatusCode(_:)`` with the
/// error body (up to 1 MiB) when the endpoint does not accept the status,
/// ``NetworkError/transport(_:)`` when the connection fails, ``NetworkError/timedOut(after:)``
/// for the ``StreamOptions``, ``NetworkError/cancelled`` when cancelled. Breaking out of the
/// loop, cancelling the reading task, ``cancel()`` and ``Router/cancel()`` stop the transfer; so
/// does dropping the stream and its iterators before the body has been read to its end.
/// The plugins' ``PluginType/didReceive(_:context:)`` runs once, when the stream ends.
///
/// A stream is read once, by one reader.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body, as the transport received it.
    public typealias Element = Data

    /// Cancels the request once the last copy of this stream, and every reader of it, is gone:
    /// a stream dropped unread (its head read, its body not) held its request in flight for
    /// ever, its plugins never heard `didReceive`, and its transfer stayed open (found from
    /// outside, helper-27).
    let owner: Owner
    var state: StreamState { owner.state }

    init(state: StreamState) {
        owner = Owner(state)
    }

    /// What a stream's copies and readers share; its end cancels the request unless it is over.
    final class Owner: Sendable {
        let state: StreamState

        init(_ state: StreamState) {
            self.state = state
        }

        deinit {
            state.handle.cancel()
        }
    }

    /// The response head, as soon as it has arrived: status, headers, and the request as sent;
    /// its ``Response/data`` is empty (the body is what the stream yields).
    ///
    /// - Throws: ``NetworkError``, when the request failed before or with its head.
    public func response() async throws(NetworkError) -> Response {
        try await state.head().response
    }

    /// Stops the stream: reading it throws ``NetworkError/cancelled`` and the transfer stops.
    public func cancel() {
        state.handle.cancel()
    }

    /// Reads the body's chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reading: Reading(owner))
    }

    /// Reads a ``ResponseStream``.
    public struct Iterator: AsyncIteratorProtocol {
        let reading: Reading

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// - Throws: ``NetworkError``.
        public mutating func next() async throws(NetworkError) -> Data? {
            try await reading.next()
        }
    }

    /// One reader's progress through the body. A class, so that a reader that stops before the
    /// end (leaves the loop) stops the request.
    final class Reading: @unchecked Sendable {
        // Used by one reader at a time, as an iterator is.
        private let owner: Owner
        private var state: StreamState { owner.state }
        private var body: BodyStream.Iterator?
        private var isDone = false

        init(_ owner: Owner) {
            self.owner = owner
        }

        deinit {
            if !isDone { state.handle.cancel() }
        }

        func next() async throws(NetworkError) -> Data? {
            guard !isDone else { return nil }
            let head: (response: Response, body: BodyStream)
            do {
                head = try await state.head()
            } catch {
                isDone = true
                throw error
            }
            if body == nil { body = head.body.makeAsyncIterator() }
            do {
                if let chunk = try await body?.next() {
                    state.touch()
                    state.metrics.didReceive(bodyBytes: Int64(chunk.count))
                    return chunk
                }
                state.handle.finish(.success(head.response))
            } catch {
                state.handle.finish(.failure(NetworkError(error, redaction: state.redaction)))
            }
            // The handle decides: an interruption (cancel, deadline, idle) that came first wins.
            isDone = true
            return try await state.outcome().map { _ in nil }.get()
        }
    }
}

/// What a ``ResponseStream`` shares with the request that feeds it: its head and body, its
/// outcome, and its idle timeout.
final class StreamState: Sendable {
    private struct State {
        var head: Result<(response: Response, body: BodyStream), NetworkError>?
        var headWaiters: [CheckedContinuation<Result<(response: Response, body: BodyStream), NetworkError>, Never>] = []
        var outcome: Result<Response, NetworkError>?
        var outcomeWaiters: [CheckedContinuation<Result<Response, NetworkError>, Never>] = []
        var isStopped = false
        var lastActivity = DispatchTime.now().uptimeNanoseconds
        var idleToken: DeadlineScheduler.Token?
    }

    let handle: RequestHandle
    let redaction: Redaction
    let metrics: MetricsRecorder
    private let idleTimeout: TimeInterval?
    private let scheduler: DeadlineScheduler
    private let state = Locked(State())

    init(
        handle: RequestHandle, redaction: Redaction, idleTimeout: TimeInterval?, scheduler: DeadlineScheduler,
        metrics: MetricsRecorder
    ) {
        self.handle = handle
        self.redaction = redaction
        self.metrics = metrics
        self.idleTimeout = idleTimeout.flatMap { Seconds.isDeadline($0) ? $0 : nil }
        self.scheduler = scheduler
    }

    // MARK: The request's side

    /// The head arrived and the body may be read.
    func didReceive(_ response: Response, body: BodyStream) {
        body.buffer.observeActivity { [weak self] in self?.touch() }
        let (waiters, stopped) = state.withLock { state in
            state.head = .success((response, body))
            defer { state.headWaiters = [] }
            return (state.headWaiters, state.isStopped)
        }
        if stopped { body.buffer.cancel() }
        for waiter in waiters { waiter.resume(returning: .success((response, body))) }
    }

    /// The request ended (delivered by its handle): the reader learns how.
    func finish(_ outcome: Result<Response, NetworkError>) {
        let (headWaiters, outcomeWaiters, token) = state.withLock { state in
            state.outcome = outcome
            if state.head == nil, case .failure(let error) = outcome { state.head = .failure(error) }
            defer {
                state.headWaiters = []
                state.outcomeWaiters = []
                state.idleToken = nil
            }
            return (state.head == nil ? [] : state.headWaiters, state.outcomeWaiters, state.idleToken)
        }
        if let token { scheduler.cancel(token) }
        if case .failure(let error) = outcome {
            for waiter in headWaiters { waiter.resume(returning: .failure(error)) }
        }
        for waiter in outcomeWaiters { waiter.resume(returning: outcome) }
    }

    /// Stops the body, now or as soon as it arrives.
    func stop() {
        let body = state.withLock { state -> BodyStream? in
            state.isStopped = true
            if case .success(let head) = state.head { return head.body }
            return nil
        }
        body?.buffer.cancel()
    }

    // MARK: The reader's side

    /// The head, once it has arrived.
    func head() async throws(NetworkError) -> (response: Response, body: BodyStream) {
        try await wait { state, continuation in
            if let head = state.head { return head }
            state.headWaiters.append(continuation)
            return nil
        }.get()
    }

    /// `text` with the secrets of the request that the head answered hidden, by the router's
    /// redaction; as it is before the head has arrived.
    func hidingSecrets(in text: String) -> String {
        guard case .success(let head)? = state.withLock({ $0.head }) else { return text }
        return head.response.hidingSecretsSent(in: text, by: head.response.redaction ?? redaction)
    }

    /// The request's outcome, once it has ended.
    func outcome() async -> Result<Response, NetworkError> {
        await wait { state, continuation in
            if let outcome = state.outcome { return outcome }
            state.outcomeWaiters.append(continuation)
            return nil
        }
    }

    /// What `readyOrWaiting` finds in the state, or, when it keeps the continuation instead, what
    /// the request's side later resumes it with. Cancelling the waiting task cancels the
    /// request, as cancelling a task that reads the body does, and the handle's outcome,
    /// `.cancelled`, ends the wait. Without this, a task waiting for the head from a server that
    /// never answered waited until the idle timeout (and then threw `.timedOut`), or for ever
    /// without one (found from outside, 2026-11-26).
    private func wait<Value: Sendable>(
        _ readyOrWaiting: @escaping @Sendable (inout State, CheckedContinuation<Value, Never>) -> Value?
    ) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let ready = state.withLock({ readyOrWaiting(&$0, continuation) }) {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: { [handle] in
            handle.cancel()
        }
    }

    // MARK: Idle timeout

    /// Something arrived or was read: the idle timeout starts over.
    func touch() {
        guard idleTimeout != nil else { return }
        state.withLock { $0.lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    /// Arms the idle timeout: it fails the request once nothing has been received or read for
    /// `idleTimeout` seconds. One timer per stream, moved only when it fires early.
    func watchIdleness() {
        guard let idleTimeout else { return }
        let due = state.withLock { $0.lastActivity } &+ Seconds.nanoseconds(idleTimeout)
        let now = DispatchTime.now().uptimeNanoseconds
        if due <= now {
            handle.interrupt(with: .timedOut(after: idleTimeout))
            return
        }
        let token = scheduler.schedule(after: Double(due - now) / 1e9) { [weak self] in self?.watchIdleness() }
        let finished = state.withLock { state -> Bool in
            guard state.outcome == nil else { return true }
            state.idleToken = token
            return false
        }
        if finished { scheduler.cancel(token) }
    }
}
