import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The watchdog itself

extension Reliability {
    /// Every test above relies on ``withWatchdog(_:_:)`` to fail rather than hang: it must
    /// give up on a body that never returns, and not get in the way of one that does.
    @Suite("Watchdog", .timeLimit(.minutes(1)))
    struct WatchdogTests {
        @Test func givesUpOnABodyThatNeverReturns() async {
            // A continuation nobody resumes, like a lost completion: cancellation cannot end it.
            let result = await withWatchdog(0.2) {
                await withCheckedContinuation { (_: CheckedContinuation<Int, Never>) in }
            }
            // No time bound: a watchdog that never fires hangs the test, which its time limit
            // ends; the task that hears it may be held back for seconds beside the other suites.
            #expect(result == nil)
        }

        @Test func returnsTheValueOfABodyThatFinishes() async {
            #expect(await withWatchdog(5) { 42 } == 42)
        }
    }
}
