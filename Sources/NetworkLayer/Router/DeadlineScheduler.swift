import Dispatch
import Foundation

/// Runs an action at a deadline, for every request of every router: one timer and a heap of
/// deadlines, instead of a `DispatchSource` per request.
///
/// A request arms its deadline when it starts and disarms it when it finishes, almost always
/// long before the deadline, so disarming is cheap: the entry is only marked, and the heap is
/// rebuilt without marked entries when they outnumber the live ones. The timer is set to the
/// earliest live deadline and moved only when a new deadline comes earlier.
final class DeadlineScheduler: @unchecked Sendable {
    /// What ``schedule(after:_:)`` returns, to ``cancel(_:)`` the action.
    struct Token: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// The scheduler that routers use unless given another (tests give their own).
    static let shared = DeadlineScheduler()

    private struct Entry {
        let due: UInt64
        let id: UInt64
    }

    // Every mutable property is guarded by `lock`.
    private let lock = NSLock()
    private var heap: [Entry] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0
    private var timerDue: UInt64?
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
        lock.lock()
        lastID &+= 1
        let id = lastID
        actions[id] = action
        push(Entry(due: due, id: id))
        // Moved under the lock, so that two requests arming at once cannot leave the timer on the
        // later of their deadlines.
        if timerDue.map({ due < $0 }) ?? true {
            timerDue = due
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), leeway: .milliseconds(1))
        }
        lock.unlock()
        return Token(id: id)
    }

    /// Forgets the action of `token` if it has not run yet.
    func cancel(_ token: Token) {
        lock.lock()
        actions[token.id] = nil
        // Entries whose action is gone are dropped when they outnumber the live ones, so that
        // requests that finish long before their deadline do not keep the heap growing.
        if heap.count > 64, heap.count > 2 * actions.count {
            heap = heap.filter { actions[$0.id] != nil }
            heapify()
        }
        lock.unlock()
    }

    /// The number of deadlines armed and not yet run or cancelled (for tests).
    var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return actions.count
    }

    /// The number of entries in the heap, cancelled ones included (for tests).
    var storedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return heap.count
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [@Sendable () -> Void] = []
        lock.lock()
        while let first = heap.first, first.due <= now {
            popFirst()
            if let action = actions.removeValue(forKey: first.id) { due.append(action) }
        }
        while let first = heap.first, actions[first.id] == nil { popFirst() }
        timerDue = heap.first?.due
        if let next = timerDue {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .milliseconds(1))
        }
        lock.unlock()
        for action in due { action() }
    }

    // MARK: Binary min-heap on `due`

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(from: 0)
    }

    private func heapify() {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private func siftDown(from start: Int) {
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
