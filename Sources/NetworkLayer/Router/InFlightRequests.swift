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
