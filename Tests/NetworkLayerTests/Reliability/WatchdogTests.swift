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
            let started = Date()
            // A continuation nobody resumes, like a lost completion: cancellation cannot end it.
            let result = await withWatchdog(0.2) {
                await withCheckedContinuation { (_: CheckedContinuation<Int, Never>) in }
            }
            #expect(result == nil)
            #expect(Date().timeIntervalSince(started) < 1)
        }

        @Test func returnsTheValueOfABodyThatFinishes() async {
            #expect(await withWatchdog(5) { 42 } == 42)
        }
    }
}
