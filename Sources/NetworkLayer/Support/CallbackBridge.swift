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
    let slot = CallbackSlot()
    let value = await withTaskCancellationHandler(
        operation: {
            await withCheckedContinuation(isolation: isolation) { continuation in
                slot.fill(
                    start { value in
                        slot.handOver()
                        continuation.resume(returning: value)
                    })
            }
        },
        onCancel: { slot.stop() },
        isolation: isolation)
    slot.takeOver()
    return value
}

/// What the bridge's caller, callback and cancellation handler share: what stops the operation,
/// for a cancellation handler that may run before the operation has started (the task was
/// already cancelled) or at the same time. Copies share one slot.
///
/// Its lock also orders the callback before the code after the `await`, for ThreadSanitizer:
/// when a callback resumes the continuation before the task has awaited it (a transfer that ends
/// while `start` is still returning), Swift's runtime goes on without telling ThreadSanitizer of
/// the hand-off (`swift_continuation_await` has no `_swift_tsan_acquire` on that path), which
/// then reports the callback's writes as a data race with the caller's reads (CurlTransport's
/// stress test: 2 runs in 7 under load, 2026-11-26). ``handOver()`` and ``takeOver()`` make it
/// a lock that ThreadSanitizer sees; the runtime's own atomics already order it on the hardware.
struct CallbackSlot: Sendable {
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

    /// Called by the callback before it resumes the continuation: the operation has ended, and
    /// there is nothing left to stop.
    func handOver() {
        dropStop()
    }

    /// Called after the `await`: everything the callback did before ``handOver()`` is seen.
    /// Drops what stops the operation again, for an operation that called back before `start`
    /// returned it: the callback holds this slot, and what stops the operation often holds the
    /// callback, a cycle that kept every request's objects (430 MiB over `Benchmarks stub`).
    func takeOver() {
        dropStop()
    }

    /// Takes what stops the operation out under the lock, and releases it outside.
    private func dropStop() {
        let dropped = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state.stop = nil }
            return state.stop
        }
        _ = dropped
    }
}
