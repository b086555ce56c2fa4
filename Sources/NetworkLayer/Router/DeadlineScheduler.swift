import Dispatch
import Foundation

/// Runs an action at a deadline, for every request of every router: one timer and a heap of
/// deadlines, instead of a `DispatchSource` per request.
///
/// A request arms its deadline when it starts and disarms it when it finishes, almost always
/// long before the deadline, so disarming is cheap: the entry is only marked, and the heap is
/// rebuilt without marked entries when they outnumber the live ones. The timer is set to the
/// earliest live deadline and moved only when a new deadline comes earlier.
///
/// `@unchecked Sendable`: the timer, which Dispatch does not mark `Sendable`, is set only with
/// the state's lock held.
final class DeadlineScheduler: @unchecked Sendable {
    /// What ``schedule(after:_:)`` returns, to ``cancel(_:)`` the action.
    struct Token: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// The scheduler that routers use unless given another (tests give their own).
    static let shared = DeadlineScheduler()

    fileprivate struct Entry {
        let due: UInt64
        let id: UInt64
    }

    fileprivate struct State {
        var heap: [Entry] = []
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var lastID: UInt64 = 0
        var timerDue: UInt64?
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "NetworkLayer.deadlines")
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        // Resumed at once and kept for the scheduler's life: libdispatch traps when a never-
        // resumed source is released.
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Runs `action` on the scheduler's queue `seconds` from now (clamped by ``Seconds``).
    @discardableResult
    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Token {
        let due = Seconds.uptime(after: seconds)
        return state.withLock { state in
            state.lastID &+= 1
            let id = state.lastID
            state.actions[id] = action
            state.push(Entry(due: due, id: id))
            // Moved under the lock, so that two requests arming at once cannot leave the timer on
            // the later of their deadlines.
            if state.timerDue.map({ due < $0 }) ?? true {
                state.timerDue = due
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), leeway: .milliseconds(1))
            }
            return Token(id: id)
        }
    }

    /// Forgets the action of `token` if it has not run yet.
    func cancel(_ token: Token) {
        state.withLock { state in
            state.actions[token.id] = nil
            // Entries whose action is gone are dropped when they outnumber the live ones, so that
            // requests that finish long before their deadline do not keep the heap growing.
            if state.heap.count > 64, state.heap.count > 2 * state.actions.count {
                state.heap = state.heap.filter { state.actions[$0.id] != nil }
                state.heapify()
            }
        }
    }

    /// The number of deadlines armed and not yet run or cancelled (for tests).
    var pendingCount: Int {
        state.withLock { $0.actions.count }
    }

    /// The number of entries in the heap, cancelled ones included (for tests).
    var storedCount: Int {
        state.withLock { $0.heap.count }
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state in
            var due: [@Sendable () -> Void] = []
            while let first = state.heap.first, first.due <= now {
                state.popFirst()
                if let action = state.actions.removeValue(forKey: first.id) { due.append(action) }
            }
            while let first = state.heap.first, state.actions[first.id] == nil { state.popFirst() }
            state.timerDue = state.heap.first?.due
            if let next = state.timerDue {
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .milliseconds(1))
            }
            return due
        }
        for action in due { action() }
    }
}

// MARK: Binary min-heap on `due`

extension DeadlineScheduler.State {
    fileprivate mutating func push(_ entry: DeadlineScheduler.Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    fileprivate mutating func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(from: 0)
    }

    fileprivate mutating func heapify() {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
