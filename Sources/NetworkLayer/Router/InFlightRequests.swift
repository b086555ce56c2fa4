/// The requests a router has started and not finished, so that ``Router/cancel()`` reaches
/// them all and nothing is left behind.
final class InFlightRequests: Sendable {
    private struct State {
        var lastID: UInt64 = 0
        var handles: [UInt64: RequestHandle] = [:]
        var cancellations: UInt64 = 0
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

    /// The requests in flight, counting a ``Router/cancel()``: what is between requests (an
    /// event stream waiting to reconnect) learns of it from ``cancellations``.
    func cancelAll() -> [RequestHandle] {
        state.withLock { state in
            state.cancellations &+= 1
            return Array(state.handles.values)
        }
    }

    /// How many times ``Router/cancel()`` was called.
    var cancellations: UInt64 {
        state.withLock { $0.cancellations }
    }

    var count: Int {
        state.withLock { $0.handles.count }
    }
}
