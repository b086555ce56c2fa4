import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `router.events`: reconnection after a dropped connection, with `Last-Event-ID`, as the
/// WHATWG EventSource does; 204 and unacceptable statuses end it.
@Suite("Server-sent events, reconnecting", .needsStreamServer, .serialized)
struct ServerSentEventReconnectionTests {
    private func stats(key: String) async throws -> [String: Any] {
        let base = try #require(TestServers.stream)
        let url = try #require(URL(string: "\(base.absoluteString)/sse/resumable/stats?key=\(key)"))
        return try jsonObject(try await URLSession.shared.data(from: url).0)
    }

    @Test(arguments: TestTransport.all)
    func aDroppedStreamResumesAfterTheLastEventIDUntil204(_ transport: TestTransport) async throws {
        let key = "resume-\(UUID().uuidString)"
        let router = RouterStreamTests.router(transport)
        let events = router.events(
            RouterStreamTests.endpoint("sse/resumable?key=\(key)&events=10&drop_after=3"),
            reconnection: ReconnectionPolicy(delay: 0.05, minimumDelay: 0.05))
        var received: [ServerSentEvent] = []
        for try await event in events { received.append(event) }
        #expect(received.map(\.data) == (1...10).map { "event \($0)" })
        #expect(received.map(\.id) == (1...10).map { "\($0)" })
        let stats = try await stats(key: key)
        let ids = try #require(stats["last_event_ids"] as? [Any])
        #expect(ids.compactMap { $0 as? String } == ["3", "6", "9", "10"])
        #expect(ids.first is NSNull)
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func a204EndsTheStreamWithoutReconnecting(_ transport: TestTransport) async throws {
        var count = 0
        for try await _ in RouterStreamTests.router(transport).events(RouterStreamTests.endpoint("sse/stop")) { count += 1 }
        #expect(count == 0)
    }

    @Test(arguments: TestTransport.all)
    func anUnacceptableStatusEndsTheStreamWithTheError(_ transport: TestTransport) async throws {
        do {
            for try await _ in RouterStreamTests.router(transport).events(RouterStreamTests.endpoint("sse/error")) {}
            Issue.record("expected the 500")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 500)
            #expect(response.text.contains("retryable"))
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func theServersRetryIsTheWaitBeforeReconnecting(_ transport: TestTransport) async throws {
        // The policy's own delay is far above the upper bound, which is wide: the task that reads
        // the events may be held back for seconds beside the other suites.
        let gap = try await gapBetweenTheFirstTwoEvents("sse/retry?ms=300", ReconnectionPolicy(delay: 120, minimumDelay: 0.1), transport)
        #expect(gap >= 0.28 && gap < 60, "waited \(gap) s")
    }

    @Test(arguments: TestTransport.all)
    func aRetryBelowTheFloorWaitsTheFloor(_ transport: TestTransport) async throws {
        let gap = try await gapBetweenTheFirstTwoEvents("sse/retry?ms=0", ReconnectionPolicy(delay: 0, minimumDelay: 0.3), transport)
        #expect(gap >= 0.29 && gap < 60, "waited \(gap) s")
    }

    /// The time between the first event and the first event of the next connection.
    private func gapBetweenTheFirstTwoEvents(
        _ path: String, _ policy: ReconnectionPolicy, _ transport: TestTransport
    ) async throws -> TimeInterval {
        let events = RouterStreamTests.router(transport).events(RouterStreamTests.endpoint(path), reconnection: policy)
        var times: [Date] = []
        for try await _ in events {
            times.append(Date())
            if times.count == 2 { break }
        }
        try #require(times.count == 2)
        return times[1].timeIntervalSince(times[0])
    }
}
