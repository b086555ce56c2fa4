import Dispatch
import Foundation

/// One in-flight request: the only place that decides its outcome, so that its completion runs
/// exactly once whatever the timing of the response, ``cancel()`` and the deadline.
///
/// Three parties race to finish a request: the pipeline with its result, a caller with
/// ``cancel()``, and the deadline timer. Each calls ``finish(_:)``; the first wins and the
/// others do nothing. Cancellation and the deadline also cancel the pipeline's task, which
/// cancels the transfer.
final class RequestHandle: Cancellable {
    private struct State {
        var isCancelled = false
        var isFinished = false
        var task: Task<Void, Never>?
        var deadline: (any DispatchSourceTimer)?
    }

    let id: UInt64
    private let state = Locked(State())
    private let deliver: @Sendable (Result<Response, NetworkError>) -> Void
    private let onFinish: @Sendable (UInt64) -> Void

    /// - Parameters:
    ///   - deliver: Hands the outcome to the caller (a callback queue or a continuation).
    ///   - onFinish: Called once, before `deliver`, so the router forgets the request.
    init(
        id: UInt64,
        deliver: @escaping @Sendable (Result<Response, NetworkError>) -> Void,
        onFinish: @escaping @Sendable (UInt64) -> Void
    ) {
        self.id = id
        self.deliver = deliver
        self.onFinish = onFinish
    }

    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.isCancelled = true
            return state.task
        }
        finish(.failure(.cancelled))
        task?.cancel()
    }

    /// Runs `operation` as this request's pipeline, failing it with ``NetworkError/timedOut(after:)``
    /// if it has not finished `timeout` seconds from now.
    ///
    /// A timeout that is not a positive finite number below ``RequestHandle/longestDeadline`` arms
    /// no timer: infinity means "no deadline", and the request builder rejects zero, negative and
    /// NaN timeouts before anything is sent.
    func start(timeout: TimeInterval, operation: @escaping @Sendable () async -> Result<Response, NetworkError>) {
        var timer: (any DispatchSourceTimer)?
        if timeout > 0, timeout < Self.longestDeadline {
            // Resumed at once: libdispatch traps when a never-resumed source is released.
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.setEventHandler { [weak self] in
                self?.expire(after: timeout)
            }
            source.schedule(deadline: .now() + .nanoseconds(Int(timeout * 1_000_000_000)))
            source.resume()
            timer = source
        }

        let task = Task { [weak self] in
            let result = await operation()
            self?.finish(result)
        }

        let (cancelled, finished) = state.withLock { state in
            state.task = task
            if !state.isFinished { state.deadline = timer }
            return (state.isCancelled, state.isFinished)
        }
        if finished { timer?.cancel() }
        if cancelled { task.cancel() }
    }

    /// Deadlines at or beyond this many seconds (about 31 years) are treated as none, so that the
    /// conversion to nanoseconds cannot overflow.
    static let longestDeadline: TimeInterval = 1_000_000_000

    /// Delivers `result` if nothing else has finished the request yet.
    func finish(_ result: Result<Response, NetworkError>) {
        let timer = state.withLock { state -> (any DispatchSourceTimer)?? in
            guard !state.isFinished else { return .none }
            state.isFinished = true
            defer { state.deadline = nil }
            return .some(state.deadline)
        }
        guard case .some(let deadline) = timer else { return }
        deadline?.cancel()
        onFinish(id)
        deliver(result)
    }

    private func expire(after timeout: TimeInterval) {
        let task = state.withLock { $0.task }
        finish(.failure(.timedOut(after: timeout)))
        task?.cancel()
    }
}
