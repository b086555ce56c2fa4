import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

/// One timer and a heap of deadlines for every request.
@Suite("Deadline scheduler")
struct DeadlineSchedulerTests {
    @Test func actionsRunAtTheirDeadlinesInOrder() async {
        let scheduler = DeadlineScheduler()
        let order = Locked<[Int]>([])
        // Deadlines far apart next to the time between the three calls, which a thread preempted
        // on a loaded machine can stretch to tens of milliseconds.
        for (index, delay) in [1.0, 0.4, 0.7].enumerated() {
            scheduler.schedule(after: delay) { order.withLock { $0.append(index) } }
        }
        #expect(await eventually { order.withLock { $0.count } == 3 })
        #expect(order.withLock { $0 } == [1, 2, 0])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aCancelledActionNeverRuns() async throws {
        let scheduler = DeadlineScheduler()
        let ran = Locked(false)
        let control = Locked(false)
        let token = scheduler.schedule(after: 1) { ran.withLock { $0 = true } }
        scheduler.schedule(after: 1.1) { control.withLock { $0 = true } }
        scheduler.cancel(token)
        // Once the later action has run, the cancelled one would have run before it.
        #expect(await eventually { control.withLock { $0 } })
        #expect(!ran.withLock { $0 })
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anEarlierDeadlineMovesTheTimerForward() async {
        let scheduler = DeadlineScheduler()
        let ran = Locked(false)
        scheduler.schedule(after: 60) {}
        scheduler.schedule(after: 0.01) { ran.withLock { $0 = true } }
        #expect(await eventually { ran.withLock { $0 } })
    }

    /// Requests finish long before their deadlines: their entries must not pile up.
    @Test func cancelledEntriesDoNotAccumulate() {
        let scheduler = DeadlineScheduler()
        for _ in 0..<10_000 {
            scheduler.cancel(scheduler.schedule(after: 60) {})
        }
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.storedCount < 200, "\(scheduler.storedCount) entries kept for 0 deadlines")
    }

    @Test func absurdDelaysDoNotTrap() {
        let scheduler = DeadlineScheduler()
        for delay in [Double.nan, -1, .infinity, 1e300] {
            scheduler.cancel(scheduler.schedule(after: delay) {})
        }
        #expect(scheduler.pendingCount == 0)
    }
}
