import Dispatch
import Foundation

/// One in-flight request: the only place that decides its outcome, so that its completion runs
/// exactly once whatever the timing of the response, ``cancel()`` and the deadline.
///
/// Three parties race to finish a request: the pipeline with its result, a caller with
/// ``cancel()``, and the deadline timer. Cancellation and the deadline cancel the pipeline's
/// task, which cancels the transfer, and deliver their error at once. Whoever calls
/// ``finish(_:)`` first delivers; the others do nothing. Once interrupted, a request reports the
/// interruption even if its pipeline returns a result in the same instant.
final class RequestHandle: Cancellable {
    private struct State {
        var interruption: NetworkError?
        var isCommitted = false
        var isFinished = false
        var task: Task<Void, Never>?
        var deadline: (any DispatchSourceTimer)?
    }

    let id: UInt64
    private let state = Locked(State())
    private let deliver: @Sendable (Result<Response, NetworkError>) -> Void
    private let onFinish: @Sendable (UInt64) -> Void

    /// Deadlines at or beyond this many seconds (about 31 years) are treated as none, so that the
    /// conversion to nanoseconds cannot overflow.
    static let longestDeadline: TimeInterval = 1_000_000_000

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
        state.withLock {
            if case .cancelled = $0.interruption { return true }
            return false
        }
    }

    func cancel() {
        interrupt(with: .cancelled)
    }

    /// Runs `operation` as this request's pipeline, failing it with ``NetworkError/timedOut(after:)``
    /// if it has not finished `timeout` seconds from now.
    ///
    /// A timeout that is not a positive finite number below ``longestDeadline`` arms no timer:
    /// infinity means "no deadline", and the request builder rejects zero, negative and NaN
    /// timeouts before anything is sent.
    func start(timeout: TimeInterval, operation: @escaping @Sendable () async -> Result<Response, NetworkError>) {
        var timer: (any DispatchSourceTimer)?
        if timeout > 0, timeout < Self.longestDeadline {
            // Resumed at once: libdispatch traps when a never-resumed source is released.
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.setEventHandler { [weak self] in
                self?.interrupt(with: .timedOut(after: timeout))
            }
            source.schedule(deadline: .now() + .nanoseconds(Int(timeout * 1_000_000_000)))
            source.resume()
            timer = source
        }

        let task = Task { [weak self] in
            let result = await operation()
            self?.finish(result)
        }

        let (interrupted, finished) = state.withLock { state in
            state.task = task
            if !state.isFinished { state.deadline = timer }
            return (state.interruption != nil, state.isFinished)
        }
        if finished { timer?.cancel() }
        if interrupted { task.cancel() }
    }

    /// Makes the pipeline's coming result the outcome: from now on ``cancel()`` and the deadline
    /// do nothing. Returns `false` when an interruption came first; the pipeline must then leave
    /// everything as it was (a download's destination above all), since the caller is told
    /// "cancelled" or "timed out".
    ///
    /// A step that cannot be undone, such as moving a download into place, happens only after a
    /// successful commit, so that the outcome and the step are one decision.
    func commit() -> Bool {
        state.withLock { state in
            guard state.interruption == nil, !state.isFinished else { return false }
            state.isCommitted = true
            return true
        }
    }

    /// Delivers `result`, or the interruption if there was one, if nothing has finished the
    /// request yet.
    func finish(_ result: Result<Response, NetworkError>) {
        let claimed = state.withLock { state -> (timer: (any DispatchSourceTimer)?, result: Result<Response, NetworkError>)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.deadline = nil }
            return (state.deadline, state.interruption.map { .failure($0) } ?? result)
        }
        guard let claimed else { return }
        claimed.timer?.cancel()
        onFinish(id)
        deliver(claimed.result)
    }

    /// Records the first interruption, delivers it, and stops the pipeline.
    private func interrupt(with error: NetworkError) {
        let task = state.withLock { state -> Task<Void, Never>?? in
            guard !state.isFinished, !state.isCommitted, state.interruption == nil else { return .none }
            state.interruption = error
            return .some(state.task)
        }
        guard case .some(let task) = task else { return }
        // Cancel first: the transport's cancellation handler runs synchronously and stops
        // writing a download's file, so nothing touches it once the caller hears of it.
        task?.cancel()
        finish(.failure(error))
    }
}
