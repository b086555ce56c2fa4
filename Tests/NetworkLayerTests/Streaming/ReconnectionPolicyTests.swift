import Foundation
import Testing
@testable import NetworkLayer

/// The waits a ``ReconnectionPolicy`` computes: the floor under any `retry`, exponential backoff
/// after connections in a row without an event, jitter only added, the ceiling, and settings
/// that make no sense.
@Suite("Reconnection policy")
struct ReconnectionPolicyTests {
    @Test func theDefaultsAreDocumented() {
        let policy = ReconnectionPolicy()
        #expect(policy.delay == 3)
        #expect(policy.minimumDelay == 1)
        #expect(policy.maximumDelay == 60)
        #expect(policy.backoffBase == 2)
        #expect(policy.jitter == 0.2)
        #expect(policy.maximumAttempts == nil)
        #expect(policy.reconnectableMethods == [.get, .head])
    }

    /// `retry: 0` is what turned a closing server into thousands of connections a second.
    @Test func theDefaultFloorHoldsUnderAnyRetry() {
        let policy = ReconnectionPolicy()
        for retry in [0, 1, 10, 999] {
            #expect(policy.reconnectionDelay(retry: retry, consecutiveFailures: 0, random: 0) == 1)
            for _ in 0..<100 {
                #expect(policy.reconnectionDelay(retry: retry, consecutiveFailures: 0) >= 1)
            }
        }
        #expect(policy.reconnectionDelay(retry: 1500, consecutiveFailures: 0, random: 0) == 1.5)
    }

    @Test func withoutRetryTheDelayIsTheWait() {
        #expect(ReconnectionPolicy().reconnectionDelay(retry: nil, consecutiveFailures: 0, random: 0) == 3)
        #expect(ReconnectionPolicy(delay: 0).reconnectionDelay(retry: nil, consecutiveFailures: 0, random: 0) == 1)
    }

    @Test func consecutiveFailuresDoubleTheWaitFromTheSecondOn() {
        let policy = ReconnectionPolicy()
        let waits = (0...7).map { policy.reconnectionDelay(retry: 0, consecutiveFailures: $0, random: 0) }
        #expect(waits == [1, 1, 2, 4, 8, 16, 32, 60])
        #expect(policy.reconnectionDelay(retry: nil, consecutiveFailures: 3, random: 0) == 12)
        #expect(policy.reconnectionDelay(retry: 0, consecutiveFailures: 10_000, random: 0) == 60)
    }

    @Test func jitterIsOnlyAddedAndBounded() {
        let policy = ReconnectionPolicy()
        #expect(policy.reconnectionDelay(retry: 0, consecutiveFailures: 3, random: 1) == 4 * 1.2)
        for _ in 0..<200 {
            let wait = policy.reconnectionDelay(retry: 2000, consecutiveFailures: 0)
            #expect(wait >= 2 && wait <= 2.4)
        }
        let wild = ReconnectionPolicy(jitter: 7)
        #expect(wild.reconnectionDelay(retry: 2000, consecutiveFailures: 0, random: 1) == 4)
    }

    @Test func theCeilingCapsTheServersRetryAndTheFloorWinsOverIt() {
        #expect(ReconnectionPolicy().reconnectionDelay(retry: Int.max, consecutiveFailures: 0, random: 1) == 60)
        let crossed = ReconnectionPolicy(minimumDelay: 5, maximumDelay: 2)
        #expect(crossed.reconnectionDelay(retry: 0, consecutiveFailures: 4, random: 1) == 5)
    }

    @Test func nonsenseSettingsGiveAFiniteWaitAtTheFloor() {
        let settings = [
            ReconnectionPolicy(delay: .nan, minimumDelay: .nan, maximumDelay: .nan, backoffBase: .nan, jitter: .nan),
            ReconnectionPolicy(delay: -5, minimumDelay: -1, maximumDelay: -1, backoffBase: -3, jitter: -1),
            ReconnectionPolicy(delay: .infinity, minimumDelay: 0.5, maximumDelay: .infinity, backoffBase: .infinity),
        ]
        for policy in settings {
            for failures in [0, 1, 5, Int.max] {
                let wait = policy.reconnectionDelay(retry: nil, consecutiveFailures: failures)
                #expect(wait.isFinite && wait >= 0 && wait >= max(0, policy.minimumDelay.isNaN ? 0 : policy.minimumDelay))
                #expect(wait <= 1_000_000_000)
            }
        }
    }

    @Test func onlySafeMethodsReconnectUnlessAskedFor() {
        #expect(ReconnectionPolicy().reconnects(.get))
        #expect(ReconnectionPolicy().reconnects(.head))
        #expect(!ReconnectionPolicy().reconnects(.post))
        #expect(!ReconnectionPolicy().reconnects(.put))
        #expect(ReconnectionPolicy(reconnectableMethods: [.get, .head, .post]).reconnects(.post))
    }

    @Test func aContentTypeIsAnEventStreamByItsEssence() {
        typealias Connection = ServerSentEventStream<TestEndpoint>.Connection
        #expect(Connection.isEventStream("text/event-stream"))
        #expect(Connection.isEventStream("Text/Event-Stream; charset=utf-8"))
        #expect(Connection.isEventStream(" text/event-stream ;charset=utf-8"))
        #expect(!Connection.isEventStream(nil))
        #expect(!Connection.isEventStream(""))
        #expect(!Connection.isEventStream("application/json"))
        #expect(!Connection.isEventStream("text/event-streams"))
        #expect(!Connection.isEventStream("text/plain; x=text/event-stream"))
    }
}
