import Foundation

/// Awaits an operation that reports through a callback, and forwards the calling task's
/// cancellation to it: the package's one bridge from callbacks to `async`.
///
/// `start` begins the operation, hands it the callback, and returns what cancels it. The
/// operation must call back exactly once, after a cancellation too (with its cancellation
/// error): the bridge never resumes on its own, so nothing is resumed twice or lost.
///
/// It runs on the caller's actor (`isolation`), `start` included: a caller on the main actor
/// does not hop to the global executor and back, and an operation that calls back at once (a
/// stub, a cache hit) resumes the caller without another thread.
package func awaitCallback<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ start: (_ callback: @escaping @Sendable (Value) -> Void) -> @Sendable () -> Void
) async -> Value {
    let stop = StopSlot()
    return await withTaskCancellationHandler(
        operation: {
            await withCheckedContinuation(isolation: isolation) { continuation in
                stop.fill(start { continuation.resume(returning: $0) })
            }
        },
        onCancel: { stop.stop() },
        isolation: isolation)
}

/// Holds what stops an operation, for a cancellation handler that may run before the operation
/// has started (the task was already cancelled) or at the same time. Copies share one slot.
struct StopSlot: Sendable {
    private struct State {
        var stop: (@Sendable () -> Void)?
        var isStopped = false
    }

    private let state = Locked(State())

    func fill(_ stop: @escaping @Sendable () -> Void) {
        let stopped = state.withLock { state -> Bool in
            state.stop = stop
            return state.isStopped
        }
        if stopped { stop() }
    }

    func stop() {
        let stop = state.withLock { state -> (@Sendable () -> Void)? in
            state.isStopped = true
            return state.stop
        }
        stop?()
    }
}
