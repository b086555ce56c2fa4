import Foundation

/// One in-flight request: the only place that decides its outcome, so that its completion runs
/// exactly once whatever the timing of the response, ``cancel()`` and the deadline.
///
/// Three parties race to finish a request: whatever sends it (the chain's task, or a transport's
/// callback on the fast path) with its result, a caller with ``cancel()``, and the deadline.
/// Cancellation and the deadline stop the work (the closure given to ``attach(_:redirect:)``) and deliver
/// their error at once. Whoever calls ``finish(_:)`` first delivers; the others do nothing. Once
/// interrupted, a request reports the interruption even if its result arrives in the same
/// instant, unless the work had already committed to its result (``commit()``).
final class RequestHandle: Cancellable {
    private struct State {
        var interruption: NetworkError?
        var isCommitted = false
        var isFinished = false
        var stop: (@Sendable () -> Void)?
        /// The redirect of the transfer whose ``stop`` is held (``attach(_:redirect:)``).
        var stopRedirect = 0
        var deadline: DeadlineScheduler.Token?
        var attempts = 0
        /// Plugins are being told of an attempt (``beginAttempt()`` to ``endAttempt()``).
        var isAnnouncing = false
        /// The outcome, claimed while plugins were being told of an attempt: delivered by
        /// ``endAttempt()``, so that no `willSend` follows `didReceive`.
        var deferredOutcome: Result<Response, NetworkError>?
    }

    let id: UInt64
    private let state = Locked(State())
    private let scheduler: DeadlineScheduler
    private let deliver: @Sendable (Result<Response, NetworkError>, _ attempts: Int) -> Void

    /// - Parameters:
    ///   - deliver: Hands the outcome, and how many times the request was sent, to the caller
    ///     (plugins, then a callback queue or a continuation). Runs once.
    init(
        id: UInt64, scheduler: DeadlineScheduler,
        deliver: @escaping @Sendable (Result<Response, NetworkError>, _ attempts: Int) -> Void
    ) {
        self.id = id
        self.scheduler = scheduler
        self.deliver = deliver
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

    /// Fails the request with ``NetworkError/timedOut(after:)`` if it has not finished `timeout`
    /// seconds from now. A timeout that is not a deadline (``Seconds/isDeadline(_:)``, infinity
    /// for one) arms nothing.
    func arm(timeout: TimeInterval) {
        // A request already finished needs no timer.
        guard Seconds.isDeadline(timeout), !state.withLock({ $0.isFinished }) else { return }
        // Held strongly: the scheduler drops the action when it runs or when ``finish(_:)``
        // cancels it, so the handle lives no longer than its request, and a weak reference
        // would cost a side-table allocation per request.
        let token = scheduler.schedule(after: timeout) { [self] in
            interrupt(with: .timedOut(after: timeout))
        }
        let finished = state.withLock { state -> Bool in
            if !state.isFinished { state.deadline = token }
            return state.isFinished
        }
        if finished { scheduler.cancel(token) }
    }

    /// Gives the handle what stops the request's work: cancelling its task, or its transport's
    /// transfer. Runs `stop` at once when the request was interrupted before, finished or not: a
    /// `router.cancel()` that lands between the handle joining the requests in flight and this
    /// call delivers `.cancelled` at once, and the work started meanwhile must still stop (it
    /// reached the transport in 346 of 400 such races, found from outside 2026-11-26).
    ///
    /// - Parameter redirect: How many redirects led to the transfer `stop` stops. A transfer's
    ///   stop never replaces that of a later redirect's: on the plain path a redirect is followed
    ///   from the transport's callback, which may run before the first transfer's `start` has
    ///   returned its stop to be attached.
    func attach(_ stop: @escaping @Sendable () -> Void, redirect: Int = 0) {
        let interrupted = state.withLock { state -> Bool in
            if !state.isFinished, redirect >= state.stopRedirect {
                state.stop = stop
                state.stopRedirect = redirect
            }
            return state.interruption != nil
        }
        if interrupted { stop() }
    }

    /// Records that the request is being sent once more (retries and replays count) and that
    /// the plugins are about to be told (`willSend`); returns the attempt's number, from 1.
    /// Returns `nil`, recording nothing, once the request is interrupted or finished: then no
    /// plugin hears of a send that will not happen.
    ///
    /// Until ``endAttempt()``, the outcome waits: a cancellation that lands while plugins run
    /// `willSend` is delivered (and `didReceive` called) only after they return. Without this, a
    /// plugin could see `didReceive` before its own `willSend` for the same request, and a
    /// count of requests in flight would never come back to zero.
    func beginAttempt() -> Int? {
        state.withLock { state in
            guard !state.isFinished, state.interruption == nil else { return nil }
            state.attempts += 1
            state.isAnnouncing = true
            return state.attempts
        }
    }

    /// Ends what ``beginAttempt()`` began, delivering an outcome that arrived meanwhile.
    ///
    /// - Returns: Whether the attempt may still be sent: `false` once the request was
    ///   interrupted or finished while the plugins were told (a `willSend` that cancelled it),
    ///   when nothing must reach the transport.
    @discardableResult
    func endAttempt() -> Bool {
        let (deferred, wanted) = state.withLock { state -> ((Result<Response, NetworkError>, Int)?, Bool) in
            state.isAnnouncing = false
            let wanted = !state.isFinished && state.interruption == nil
            guard let outcome = state.deferredOutcome else { return (nil, wanted) }
            state.deferredOutcome = nil
            return ((outcome, state.attempts), wanted)
        }
        if let (outcome, attempts) = deferred { deliver(outcome, attempts) }
        return wanted
    }

    /// Makes the work's coming result the outcome: from now on ``cancel()`` and the deadline do
    /// nothing. Returns `false` when an interruption came first; the work must then leave
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
    /// request yet; while plugins are told of an attempt, ``endAttempt()`` delivers it.
    func finish(_ result: Result<Response, NetworkError>) {
        let claimed = state.withLock { state -> (Result<Response, NetworkError>?, DeadlineScheduler.Token?, Int)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.stop = nil
            defer { state.deadline = nil }
            let outcome = state.interruption.map { .failure($0) } ?? result
            if state.isAnnouncing {
                state.deferredOutcome = outcome
                return (nil, state.deadline, state.attempts)
            }
            return (outcome, state.deadline, state.attempts)
        }
        guard let (outcome, deadline, attempts) = claimed else { return }
        if let deadline { scheduler.cancel(deadline) }
        if let outcome { deliver(outcome, attempts) }
    }

    /// Records the first interruption (a cancellation, a deadline, a stream's idle timeout),
    /// stops the work, and delivers the interruption; does nothing once the request has finished
    /// or committed.
    func interrupt(with error: NetworkError) {
        let stop = state.withLock { state -> (@Sendable () -> Void)?? in
            guard !state.isFinished, !state.isCommitted, state.interruption == nil else { return .none }
            state.interruption = error
            return .some(state.stop)
        }
        guard case .some(let stop) = stop else { return }
        // Stop first: a transport stops writing a download's file synchronously, so nothing
        // touches it once the caller hears of the interruption.
        stop?()
        finish(.failure(error))
    }
}
